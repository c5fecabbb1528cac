package buildcache

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// An edit of a wiki page's text shows in two places of the site: the
// page's own HTML, where its body and its claims table are (a Markdown
// claim's text is a sentence of the body), and the search index, which
// holds every page's text. Nothing else shows a page's body (see
// outline.go). So when the outline of each edited page is what it was
// (title, frontmatter, claims and links: all but the text around them
// and the text of its Markdown claims), and no heading another page may
// link to is gone, [BuildEdited] renders the edited bodies (and, when a
// claim's text changed, the claims tables) into their pages' last HTML,
// updates the search index and patches the output, without loading the
// workspace. The last build's up-to-date record says which files
// changed; its edit record ([Edits]) says what each page's body and
// claims table show of the rest of the site: the state of the code its
// claims link and the pages its links lead to.
//
// Text added above a claim moves its line, which only the drift list
// shows, and only for a claim whose link is a problem: such claims must
// keep their places ([problemPlaces]). Anything else (a
// new or removed file, an edited requirement, a renamed heading) takes a
// whole build, whose keys then decide what to render again.

// editsStage names the build cache's edit records, one per up-to-date
// record and under the same key.
const editsStage = "edits"

// Edits is the edit record: what [BuildEdited] needs of the last build
// besides its up-to-date record: the site's settings, and each wiki page's
// outline and what its body shows of the rest of the site. [NewEdits]
// makes it; [Cache.Record] stores it.
type Edits struct {
	siteKey []byte // the key of the site it describes
	shared  []byte // the pages' shared key ([render.Output.Shared])
	content string // the content folder
	baseURL string
	forge   render.Forge
	history []byte // what the build found in the git history, in the site key
	// revision is the commit built, in the site key (the bundle names it).
	revision string
	pages    []byte // the pages' lines, by file (see [Edits.encode])
}

// editPage is one wiki page of an [Edits]: where its page is, what
// the shared key saw of it, and the answers its body's rendering got:
// how its claims show (by target) and where its links lead (by node id).
// It is the [render.BodyContext] that renders the page's edited body.
type editPage struct {
	file, dir, title string
	outline, places  [sha256.Size]byte // places: of its claims shown as problems ([problemPlaces])
	headings         []string          // the ids of its headings
	claims           map[string]render.ClaimShown
	urls             map[string]string
	rows             []render.ClaimRow // its claims table, in its claims' order, without their texts

	hl         *render.Highlighter
	unanswered bool // the body asked what the last build did not answer
}

// ClaimShown is how the last build showed a claim's link to t.
func (e *editPage) ClaimShown(t claims.Target) render.ClaimShown {
	c, ok := e.claims[t.String()]
	e.unanswered = e.unanswered || !ok
	return c
}

// URLOf is the URL the last build gave the page of the node id.
func (e *editPage) URLOf(id synth.NodeID) string {
	u, ok := e.urls[id.String()]
	e.unanswered = e.unanswered || !ok
	return u
}

// Fence is a fenced code block highlighted.
func (e *editPage) Fence(lang string, code []byte) template.HTML { return e.hl.Fence(lang, code) }

// claimRows is the page's claims table with the texts of cs, the page's
// claims as edited: they are the claims the record's rows are of, in the
// same order, as the outline is the same. Nil when the record has not a
// row for each.
func (e *editPage) claimRows(cs []claims.Claim) []render.ClaimRow {
	if len(cs) == 0 || len(cs) != len(e.rows) {
		return nil
	}
	rows := slices.Clone(e.rows)
	for i, c := range cs {
		rows[i].Text = c.Text
	}
	return rows
}

// headingsKept reports whether every heading id of the page's last build
// is still among ids: other pages' links to them are checked when the
// content is parsed, and a heading added breaks none.
func (e *editPage) headingsKept(ids []string) bool {
	for _, id := range e.headings {
		if !slices.Contains(ids, id) {
			return false
		}
	}
	return true
}

// EditsSite is what the edit record needs of the build beside its pages:
// the settings the edited pages are rendered with, and the keys.
type EditsSite struct {
	SiteKey []byte // the site's key ([SiteKey])
	Shared  []byte // the pages' shared key ([render.Output.Shared])
	Content string // the content folder
	BaseURL string
	Forge   render.Forge
	History []byte // what the build found in the git history, in the site key
	// Revision is the commit built, in the site key (the bundle names it).
	Revision string
}

// NewEdits records the build's editable pages: those of r's pages for
// which editable says yes (a [render.Page.Editable] page read from its
// own file, which the shared key has only through its outline ol), with
// what the renderer r showed of the graph g on them. Their claims tables'
// rows, and how their bodies' claims showed, are what the build's writer w
// was given as it wrote the pages ([Writer.SpanBody]); only a page kept
// from the last build, or a claim its body does not show, is asked of r
// again. They are encoded as they are answered, never held as maps:
// at 11,000 pages that is 50,000 answers, made after the pages rendered,
// when the build's memory is at its peak.
func NewEdits(r *render.Renderer, w *Writer, g *synth.Graph, ol *Outline, editable func(render.Page) bool, site EditsSite) *Edits {
	rec := &Edits{siteKey: site.SiteKey, shared: site.Shared, content: site.Content, baseURL: site.BaseURL, forge: site.Forge,
		history: site.History, revision: site.Revision}
	var pages []render.Page
	for _, pg := range r.Pages() {
		if editable(pg) {
			pages = append(pages, pg)
		}
	}
	slices.SortFunc(pages, func(x, y render.Page) int { return strings.Compare(x.Wiki().Doc.File, y.Wiki().Doc.File) })
	rendered := w.takeRendered()
	var buf bytes.Buffer
	var line []byte // the line being made
	var lines []string
	var shown []render.ClaimShown // how each claim of the page shows, asked once
	for _, pg := range pages {
		p := pg.Wiki()
		n, _ := g.Node(claims.PageNode(p.Path))
		done, wasRendered := rendered[pg.Prefix()]
		shown = shown[:0]
		next := 0 // the body's next claim shown
		for _, c := range p.Doc.Claims {
			var s render.ClaimShown
			if c.HasTarget {
				var ok bool
				if s, ok = done.claimShown(c.Target, &next); !ok {
					s = r.ClaimShown(c.Target) // a frontmatter claim, or a page kept
				}
			}
			shown = append(shown, s)
		}
		places := problemPlaces(&p.Doc, func(i int) string { return shown[i].State })
		outline := ol.pages[p.Doc.File]
		b := appendFields(append(buf.AvailableBuffer(), "page"...), p.Doc.File, pg.Dir(), n.Title)
		b = hex.AppendEncode(append(b, '\t'), outline[:])
		b = hex.AppendEncode(append(b, '\t'), places[:])
		b = strconv.AppendQuote(append(b, '\t'), strings.Join(p.Doc.Headings, "\n"))
		buf.Write(append(b, '\n'))
		if wasRendered {
			buf.Write(done.rows)
		} else {
			buf.Write(appendRows(buf.AvailableBuffer(), r.ClaimRows(pg)))
		}
		lines = lines[:0]
		for i, c := range p.Doc.Claims {
			if c.HasTarget {
				s := shown[i]
				line = appendLine(line[:0], "claim", c.Target.String(), s.State, s.Why, s.URL)
				lines = append(lines, string(line))
			}
		}
		for _, l := range p.Doc.Links {
			id := synth.LinkNodeID(l)
			line = appendLine(line[:0], "url", id.String(), r.URLOf(id))
			lines = append(lines, string(line))
		}
		slices.Sort(lines)
		for _, l := range slices.Compact(lines) {
			buf.WriteString(l)
		}
	}
	rec.pages = buf.Bytes()
	return rec
}

// renderedPage is what the render pass made of an editable page that the
// edit record holds: its claims table's rows, as the record writes them
// ([appendRows]), and how its body's claims showed.
type renderedPage struct {
	rows  []byte
	shown []render.ShownClaim
}

// claimShown is how the claim's link to t showed in the page's body;
// false when the body has none. The claims are looked for from the one
// after the last found: the record asks for them in the order the body
// showed them.
func (p *renderedPage) claimShown(t claims.Target, next *int) (render.ClaimShown, bool) {
	for k := range p.shown {
		i := (*next + k) % len(p.shown)
		if p.shown[i].Target == t {
			*next = i + 1
			return p.shown[i].Shown, true
		}
	}
	return render.ClaimShown{}, false
}

// appendRows appends a page's claims table's rows to b as the record
// holds them, in order, but for the claims' texts, which the edit brings.
func appendRows(b []byte, rows []render.ClaimRow) []byte {
	for _, row := range rows {
		b = appendLine(b, "row", row.Ref, row.URI, row.URL, row.Captured, row.State, row.Why, row.Detail)
	}
	return b
}

// appendLine appends a line of the record to b: its kind, then each field
// quoted, after a tab.
func appendLine(b []byte, kind string, fields ...string) []byte {
	return append(appendFields(append(b, kind...), fields...), '\n')
}

// appendFields appends each field to b quoted, after a tab.
func appendFields(b []byte, fields ...string) []byte {
	for _, f := range fields {
		b = appendQuoted(append(b, '\t'), f)
	}
	return b
}

// appendQuoted appends s quoted to b, as [strconv.AppendQuote] does. Most
// fields are plain ASCII (paths, states, URLs), which it quotes as they
// are: those are appended whole, not rune by rune.
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// editsMagic starts an edit record; a record of another format is ignored.
const editsMagic = "tracewiki-edits 5"

// encode writes the record as lines of tab-separated fields, strings
// quoted: a header, then each page followed by its claims table's rows in
// order (row REF URI URL CAPTURED STATE WHY DETAIL), and its answers, a
// claim's by target (claim REF STATE WHY URL) and a link's by node id (url
// ID URL), sorted.
func (r *Edits) encode() []byte {
	var b bytes.Buffer
	q := strconv.Quote
	fmt.Fprintf(&b, "%s\nsitekey\t%x\nshared\t%x\ncontent\t%s\nsite\t%s\t%s\t%s\t%s\t%x\t%s\n", editsMagic, r.siteKey, r.shared,
		q(r.content), q(r.baseURL), q(r.forge.Kind), q(r.forge.Repo), q(r.forge.Commit), r.history, q(r.revision))
	b.Write(r.pages)
	return b.Bytes()
}

// A parsed edit record holds its header only; [Edits.page] finds a
// page's lines in the record's bytes when it is asked for: a record of
// 5,000 pages is megabytes, and an edit needs one.

var errBadEdits = errors.New("bad edit record")

// parseEditHeader reads the header encode wrote.
func parseEditHeader(data []byte) (*Edits, error) {
	r := &Edits{}
	lines := bytes.SplitN(data, []byte("\n"), 6)
	if len(lines) < 5 || string(lines[0]) != editsMagic {
		return nil, errBadEdits
	}
	var err error
	field := func(line []byte, name string, n int) []string {
		f := strings.Split(string(line), "\t")
		if len(f) != n+1 || f[0] != name {
			err = errBadEdits
			return make([]string, n+1)
		}
		return f
	}
	unquote := func(s string) string {
		v, uerr := strconv.Unquote(s)
		err = cmp.Or(err, uerr)
		return v
	}
	unhex := func(s string) []byte {
		v, herr := hex.DecodeString(s)
		err = cmp.Or(err, herr)
		return v
	}
	r.siteKey = unhex(field(lines[1], "sitekey", 1)[1])
	r.shared = unhex(field(lines[2], "shared", 1)[1])
	r.content = unquote(field(lines[3], "content", 1)[1])
	f := field(lines[4], "site", 6)
	r.baseURL, r.forge = unquote(f[1]), render.Forge{Kind: unquote(f[2]), Repo: unquote(f[3]), Commit: unquote(f[4])}
	r.revision = unquote(f[6])
	if r.history = unhex(f[5]); len(r.history) == 0 {
		r.history = nil // as the build had it: no git history read
	}
	if err != nil {
		return nil, errBadEdits
	}
	return r, nil
}

// page finds the page read from file in data, the record's bytes; false
// when the record has none (or a bad one).
func (r *Edits) page(data []byte, file string) (*editPage, bool) {
	start := bytes.Index(data, []byte("\npage\t"+strconv.Quote(file)+"\t"))
	if start < 0 {
		return nil, false
	}
	e := &editPage{claims: map[string]render.ClaimShown{}, urls: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data[start+1:]))
	sc.Buffer(nil, 16<<20)
	bad := false
	str := func(s string) string {
		v, err := strconv.Unquote(s)
		bad = bad || err != nil
		return v
	}
	sum := func(s string) (out [sha256.Size]byte) {
		v, err := hex.DecodeString(s)
		bad = bad || err != nil || len(v) != sha256.Size
		copy(out[:], v)
		return out
	}
	for first := true; sc.Scan(); first = false {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "page" && first && len(f) == 7:
			e.file, e.dir, e.title = str(f[1]), str(f[2]), str(f[3])
			e.outline, e.places = sum(f[4]), sum(f[5])
			if h := str(f[6]); h != "" {
				e.headings = strings.Split(h, "\n")
			}
		case f[0] == "page" && !first:
			return e, !bad
		case f[0] == "row" && len(f) == 8:
			e.rows = append(e.rows, render.ClaimRow{Ref: str(f[1]), URI: str(f[2]), URL: str(f[3]), Captured: str(f[4]),
				State: str(f[5]), Why: str(f[6]), Detail: str(f[7])})
		case f[0] == "claim" && len(f) == 5:
			e.claims[str(f[1])] = render.ClaimShown{State: str(f[2]), Why: str(f[3]), URL: str(f[4])}
		case f[0] == "url" && len(f) == 3:
			e.urls[str(f[1])] = str(f[2])
		default:
			bad = true
		}
		if bad {
			return nil, false
		}
	}
	return e, sc.Err() == nil && !bad
}

// pageEdit is an edited page: its record, its new parse and body, and its
// claims table's rows (nil when it has no claims).
type pageEdit struct {
	e    *editPage
	page *claims.Page
	body string
	rows []render.ClaimRow
}

// BuildEdited updates the output of the last build of the workspace root
// into the output --out flag with opts, when all that changed since are
// the texts of wiki pages (see the top of this file): it renders their
// bodies into their pages and updates the search index, in place, as
// [Project.BuildInto] would, and returns the summary of the build, the
// last one's. False means it could not tell the edits apart from any
// other change, and wrote nothing: the caller builds the whole site.
// restored gets what the cleanup of killed runs restored. An error means
// a write failed and the output is as it was.
func BuildEdited(c *Cache, root, flag string, opts Options, hl *render.Highlighter, restored func(string)) (*Summary, bool, error) {
	rec, key := loadUpToDate(c, root, flag, opts)
	if rec == nil {
		return nil, false, nil
	}
	data, ok := c.Get(editsStage, key)
	if !ok {
		return nil, false, nil
	}
	er, err := parseEditHeader(data)
	if err != nil || !bytes.Equal(er.siteKey, rec.siteKey) {
		return nil, false, nil
	}
	ws, err := rec.openWorkspace(root)
	if err != nil {
		return nil, false, nil
	}
	defer ws.Close()
	// The output is locked first, so that it is walked (is it exactly
	// what the index records?) while the edits are parsed and rendered.
	o := &output.Folder{Dir: rec.out, Name: cmp.Or(flag, rec.summary.Output)}
	unlock, err := o.Lock()
	if err != nil {
		return nil, false, nil // the whole build says why
	}
	defer unlock()
	w, err := o.Begin(restored, UndoLeftPatch)
	if err != nil {
		return nil, false, err
	}
	idx := loadOutputIndex(c, rec.out)
	if idx == nil || !bytes.Equal(idx.key, rec.siteKey) {
		w.Abort()
		return nil, false, nil
	}
	walked := make(chan bool, 1)
	go func() { walked <- idx.intact(rec.out) }()
	var edits []pageEdit
	var files map[string]editedFile
	changed, fresh := rec.changed(ws, root, true)
	ok = len(changed) > 0 // else the output changed, or nothing did
	if ok {
		edits, ok = er.parseEdits(data, changed, ws, hl)
	}
	if ok {
		files, ok = editedFiles(rec.out, idx, edits)
	}
	if intact := <-walked; !ok || !intact {
		w.Abort()
		return nil, false, nil
	}
	written := map[string]outputFile{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(w.Dir(), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			w.Abort()
			return nil, false, fmt.Errorf("write site: %w", err)
		}
		f, err := files[name].write(full)
		if err != nil {
			w.Abort()
			return nil, false, err
		}
		written[name] = f
	}
	dirs := dirsOf(idx.files)
	if err := patchOutput(w, rec.out, slices.Sorted(maps.Keys(written)), nil, dirs, dirs); err != nil {
		return nil, false, err
	}

	// The records, as the whole build would have left them.
	reads := ws.ReadSums()
	for _, ed := range edits {
		// Its model key is made as it renders: no key, so the next whole
		// build renders it again; its body's place stays recorded.
		idx.pages[ed.e.dir+"/"] = nil
		rec.paths[ed.e.file], _ = ws.StampOfPath(ed.e.file)
		rec.sums[ed.e.file] = reads[ed.e.file]
	}
	maps.Copy(rec.paths, fresh) // folders that hold what they held
	maps.Copy(idx.files, written)
	idx.key = SiteKey(workspace.DigestOf(rec.sums, nil), nil, er.baseURL, er.forge, er.revision, er.history)
	idx.store(c, rec.out)
	rec.siteKey, rec.start = idx.key, ws.Opened()
	c.Put(upToDateStage, key, rec.encode())
	c.Put(editsStage, key, er.withSiteKey(data, idx.key))
	return &rec.summary, true, nil
}

// parseEdits reads and parses each changed file as an edited wiki page of
// the record, and renders its body; false when one is not.
func (r *Edits) parseEdits(data []byte, changed []string, ws *workspace.Workspace, hl *render.Highlighter) ([]pageEdit, bool) {
	var edits []pageEdit
	for _, name := range changed {
		e, ok := r.page(data, name)
		if !ok {
			return nil, false
		}
		src, err := ws.ReadFile(name)
		if err != nil {
			return nil, false
		}
		pg, diags := claims.ParsePage(r.content, claims.File{Name: name, Data: src})
		if pg == nil || len(diags) > 0 {
			return nil, false // the whole build reports them
		}
		state := func(i int) string { return e.ClaimShown(pg.Doc.Claims[i].Target).State }
		if sum, err := pageOutline(pg); err != nil || sum != e.outline ||
			!e.headingsKept(pg.Doc.Headings) || problemPlaces(&pg.Doc, state) != e.places {
			return nil, false
		}
		// Its Markdown claims' texts show in its claims table too, which
		// is rendered again from the record (an earlier edit may have
		// changed the texts the output shows).
		var rows []render.ClaimRow
		if len(pg.Doc.Claims) > 0 {
			if rows = e.claimRows(pg.Doc.Claims); rows == nil {
				return nil, false
			}
		}
		e.hl = hl
		body, err := render.RenderBody(e, &pg.Doc, e.dir, e.title)
		if err != nil || e.unanswered || body == "" {
			return nil, false
		}
		edits = append(edits, pageEdit{e: e, page: pg, body: body, rows: rows})
	}
	return edits, ws.Stable()
}

// editedFile is an output file an edit changes: its bytes, in parts, and
// their hash when it is known before writing.
type editedFile struct {
	parts [][]byte
	sum   *[sha256.Size]byte
}

// write makes the new file full and describes it.
func (f editedFile) write(full string) (outputFile, error) {
	write := func(w io.Writer) error {
		for _, p := range f.parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	}
	if f.sum == nil {
		return streamFile(full, write)
	}
	o, err := createFile(full, write)
	o.sum = *f.sum
	return o, err
}

// editedFiles returns the output files the edits change, made from the
// files of the output dir that idx records: each page's HTML with its new
// body, and the search index with the pages' new text. The output is
// intact (see [outputIndex.intact]): its files are the ones recorded.
func editedFiles(dir string, idx *outputIndex, edits []pageEdit) (map[string]editedFile, bool) {
	files := map[string]editedFile{}
	bodies := map[synth.NodeID][]byte{}
	for _, ed := range edits {
		name := ed.e.dir + "/index.html"
		old, ok := readOutput(dir, idx, name)
		if !ok {
			return nil, false
		}
		span, ok := idx.bodies[ed.e.dir+"/"]
		if !ok {
			return nil, false
		}
		html, span, ok := render.SpliceBody(old, span, ed.body, ed.rows)
		if !ok {
			return nil, false
		}
		idx.bodies[ed.e.dir+"/"] = span
		files[name] = editedFile{parts: [][]byte{html}}
		bodies[claims.PageNode(ed.page.Path)] = ed.page.Doc.Body
	}
	data, ok := readOutput(dir, idx, render.SearchFile)
	if !ok {
		return nil, false
	}
	edited, ok := synth.SetSearchBodies(data, bodies)
	if !ok {
		return nil, false
	}
	// The search page's twin is the index: its bytes are hashed once.
	sum := sha256.Sum256(edited.Index)
	search := editedFile{parts: [][]byte{edited.Index}, sum: &sum}
	files[render.SearchFile], files[render.SearchDir+"/index.json"] = search, search
	scripts, ok := editedSearchScripts(dir, idx, edited)
	if !ok {
		return nil, false
	}
	for name, data := range scripts {
		files[name] = editedFile{parts: [][]byte{data}}
	}
	return files, true
}

// readOutput reads the output file name of dir, one idx records.
func readOutput(dir string, idx *outputIndex, name string) ([]byte, bool) {
	if _, ok := idx.files[name]; !ok {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	return data, err == nil
}

// withSiteKey returns the record's bytes data with the site key key.
func (r *Edits) withSiteKey(data, key []byte) []byte {
	old := fmt.Sprintf("\nsitekey\t%x\n", r.siteKey)
	return bytes.Replace(data, []byte(old), fmt.Appendf(nil, "\nsitekey\t%x\n", key), 1)
}
