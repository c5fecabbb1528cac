package render

import (
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render/graphsvg"
	"github.com/tracewiki/tracewiki/synth"
)

// pageData is what every template reads; each kind of page fills the parts
// it shows.
type pageData struct {
	Lang, SiteTitle, Root, JSON string
	DriftCount                  int
	DriftStale                  bool // some drifted link is stale, not only unknown

	Title, Heading string
	// Node is a node page's node, which its twin holds: the model key
	// ([Renderer.modelKey]) has it from there.
	Node          synth.Node `json:"-"`
	Facts         []fact
	Body          template.HTML
	Tables        []table
	Fragments     []fragment
	Claims        []ClaimRow
	shown         []ShownClaim // how the claims' links in Body showed ([Renderer.finish])
	SVG           template.HTML
	Neighbors     []neighborRow
	OpenNeighbors bool
	Filters       []filter
	Cards         []card
	Groups        []driftGroup
	Matrix        *matrixData
	Tree          []docItem // a requirement document's printable tree
	// TextDiffs are a requirement's text against each revision its
	// expired evidence was verified against.
	TextDiffs []textChange
	// CodeCoverage is the coverage page's (coverage.go).
	CodeCoverage *coverageData

	// body and graph say how to make Body and the neighborhood (SVG,
	// Neighbors) of a node's page, which are made only when the page
	// renders ([Renderer.finish]): its model key holds what they are
	// made of, not what they are (modelkey.go).
	body  *bodyInput
	graph *graphInput
}

type fact struct{ Name, Value, URL string }

type table struct {
	Title, Class, Empty string
	Head                []string
	Rows                []row
}

type row struct {
	ID    string // the row's HTML id, "" for none
	Stale bool
	// Superseded marks history: an evidence entry a newer run superseded,
	// shown grey.
	Superseded bool
	Cells      []cell
}

// cell is a table cell: a link when URL is set, a badge when Badge is.
type cell struct {
	Text, URL, Badge, Title string
	Code                    bool
}

type fragment struct {
	Anchor, Ref, State, Why, Detail string
	Start, End, More                int
	HTML                            template.HTML
	Diff                            []diffLine     // a stale fragment's captured-versus-current diff
	Forge                           string         // the range at the commit on the forge; "" without repo_url
	Lines                           int            // lines shown
	Long                            bool           // more than [CollapseFragmentLines]: shown collapsed
	code                            *fragmentInput // what HTML is highlighted from
}

// CollapseFragmentLines is the longest fragment shown open; longer ones are
// collapsed behind an expand control, so a page's text and graph are not
// pushed below screens of code.
const CollapseFragmentLines = 30

// ClaimRow is a claim in a page's claims table: the target as written
// (PATH@SYMBOL) is shown, its code:// URI is the link's title.
type ClaimRow struct {
	Text, Ref, URI, URL, Captured, State, Why, Detail string
}

type neighborRow struct {
	Node *synth.Node // in the page's neighborhood
	Edge synth.Edge
	Dir  string // "→" for an edge from this page's node, "←" for one to it
	Via  string // on a file's page, the symbol of the file the edge is on
	URL  string
}

type filter struct {
	Text, URL string
	Current   bool
}

type card struct {
	Text, URL, Note string
	Value           int
	Stale           bool
}

// ListJSON is the twin of an index page: the nodes it lists.
type ListJSON struct {
	SchemaVersion int             `json:"schemaVersion"`
	Kind          claims.NodeType `json:"kind"`
	Title         string          `json:"title"`
	Nodes         []synth.Node    `json:"nodes"`
}

// pages lists every page of the site.
func (b *Renderer) pages() []Page {
	var out []Page
	add := func(dir, tmpl string, data func(b *Renderer, root string) (*pageData, any, error)) {
		out = append(out, Page{dir: dir, tmpl: tmpl, data: data})
	}
	// keyed marks the page just added as kept while its model key holds
	// (see [PageStore]).
	keyed := func() { out[len(out)-1].keyed = true }
	add("", "home", (*Renderer).home) // shows the wiki's index page's text
	out[0].keyed = true
	add(requirementsDir, "matrix", matrix(""))
	keyed()
	for _, f := range matrixFilters {
		add(filterDir(f.slug), "matrix", matrix(f.slug))
		keyed()
	}
	add(decisionsDir, "list", listOf(claims.NodeDecision, "Decisions"))
	keyed()
	add(pagesDir, "list", listOf(claims.NodePage, "Pages"))
	keyed()
	add(codeDir, "list", listOf(claims.NodeFile, "Code"))
	keyed()
	add(driftDir, "drift", (*Renderer).driftPage)
	keyed()
	add(coverageDir, "codecov", (*Renderer).coveragePage)
	keyed()
	out = append(out, b.policyPages()...)
	out = append(out, b.releasesPages()...)
	add(SearchDir, "search", func(b *Renderer, root string) (*pageData, any, error) {
		search, err := b.searchJSON()
		return &pageData{Title: "Search", Heading: "Search"}, encodedJSON(search), err
	})
	files := map[string]bool{}
	for _, n := range b.graph.Nodes {
		if synth.IsExternal(n.ID) {
			continue // its page is in its own repository's wiki
		}
		k := synth.KindOf(n.Type)
		if k.Code {
			files[n.Path] = true
		}
		if k.Dir == "" || k.Code && !k.Named {
			continue // a symbol is on its file's page; files get theirs below
		}
		add(nodeDir(n), k.Template, func(b *Renderer, root string) (*pageData, any, error) { return b.nodePage(n, root) })
		out[len(out)-1].keyed = true
		if n.Type == claims.NodePage {
			out[len(out)-1].wiki = b.wiki(n.ID.Key)
		}
	}
	// Every file with a node on it gets a page, also one that no longer
	// exists: its symbols' links must lead somewhere that says so.
	for _, p := range sortedKeys(files) {
		n, ok := b.graph.Node(claims.FileNode(p))
		if !ok {
			n = synth.Node{ID: claims.FileNode(p), Type: claims.NodeFile, Label: p, Path: p,
				State: string(codeanchors.Unknown), Reason: string(codeanchors.TargetMissing), Why: codeanchors.TargetMissing.Why(b.lang)}
		}
		add(nodeDir(n), "node", func(b *Renderer, root string) (*pageData, any, error) { return b.nodePage(n, root) })
		out[len(out)-1].keyed = true
	}
	return out
}

// nodePage is the page of one node: its facts, body, links, code, claims
// and neighborhood.
func (b *Renderer) nodePage(n synth.Node, root string) (*pageData, any, error) {
	d := &pageData{Node: n, Heading: n.Label}
	if n.Title != "" && n.Title != n.Label {
		d.Heading = n.Title
		if synth.KindOf(n.Type).Numbered {
			d.Heading = n.Label + ": " + n.Title
		}
	}
	nb := b.graph.Neighbors(n.ID)
	if n.Type == claims.NodeFile {
		// A file's page shows its symbols' neighbors too.
		nb = b.fileNeighborhood(n)
	}
	// The graph is drawn from n and nb, which the twin holds.
	d.graph = &graphInput{n: n, nb: nb}
	var err error
	if fill := nodePages[n.Type]; fill != nil {
		err = fill(b, d, n, root)
	}
	d.Title = d.Heading // the tab reads "Title · Site"
	return d, synth.NodeJSON{SchemaVersion: synth.SchemaVersion, Node: n, Neighborhood: nb}, err
}

// nodePages fills in the part of a node's page that is its kind's own:
// one function per kind with a page ([synth.Kind.Dir]).
var nodePages = map[claims.NodeType]func(b *Renderer, d *pageData, n synth.Node, root string) error{
	claims.NodeRequirement: (*Renderer).requirementPage,
	claims.NodeDecision:    (*Renderer).decisionPage,
	claims.NodePage:        (*Renderer).wikiPage,
	claims.NodeFile:        (*Renderer).filePage,
	claims.NodeTest:        (*Renderer).testPage,
	claims.NodeRun:         (*Renderer).runPage,
	claims.NodeDocument:    (*Renderer).documentPage,
}

func (b *Renderer) fileNeighborhood(n synth.Node) synth.Neighborhood {
	ids := []synth.NodeID{n.ID}
	if fp := b.models.Files[n.Path]; fp != nil {
		ids = fp.Around
	}
	return b.graph.NeighborhoodOf(ids, 1)
}

// addGraph draws the neighborhood and lists every neighbor.
func (b *Renderer) addGraph(d *pageData, n synth.Node, nb synth.Neighborhood, root string) {
	href := func(m synth.Node) string { return b.href(root, m) }
	d.SVG = graphsvg.Draw(nb, n.ID, href)
	byID := make(map[synth.NodeID]*synth.Node, len(nb.Nodes))
	for i := range nb.Nodes {
		byID[nb.Nodes[i].ID] = &nb.Nodes[i]
	}
	node := func(id synth.NodeID) *synth.Node {
		if m := byID[id]; m != nil {
			return m
		}
		return &synth.Node{} // an edge's ends are in its neighborhood
	}
	d.Neighbors = make([]neighborRow, 0, len(nb.Edges))
	for _, e := range nb.Edges {
		var other synth.NodeID
		var dir, via string
		switch {
		case e.Src == n.ID:
			other, dir = e.Dst, "→"
		case e.Dst == n.ID:
			other, dir = e.Src, "←"
		case n.Type == claims.NodeFile && node(e.Src).Path == n.Path:
			other, dir, via = e.Dst, "→", node(e.Src).Label
		case n.Type == claims.NodeFile && node(e.Dst).Path == n.Path:
			other, dir, via = e.Src, "←", node(e.Dst).Label
		default:
			continue
		}
		m := node(other)
		if n.Type == claims.NodeFile && m.Path == n.Path && m.ID != n.ID {
			continue // the file's own symbols are listed in its symbol table
		}
		if e.Kind == synth.KindParent { // the child is suspect, not the parent
			e.Why = synth.LinkWhy(e.Dst.String(), []synth.NodeID{e.Src}, codeanchors.Reason(e.Reason), e.Why, b.lang)
		}
		d.Neighbors = append(d.Neighbors, neighborRow{Node: m, Edge: e, Dir: dir, Via: via, URL: b.href(root, *m)})
	}
	// A short list is open; a long one would push the page's text down.
	d.OpenNeighbors = len(d.Neighbors) <= 6
}

func (b *Renderer) requirementPage(d *pageData, n synth.Node, root string) error {
	rp := b.models.Requirements[n.ID.Key]
	if rp == nil {
		return fmt.Errorf("requirement %s: not in the model", n.ID.Key)
	}
	r := rp.Req
	d.Facts = append(d.Facts, fact{Name: "revision", Value: short(n.Revision)})
	if tag := b.changedIn(r.ID); tag != "" {
		d.Facts = append(d.Facts, fact{Name: "changed in", Value: tag, URL: root + indexURL(releasesDir)})
	}
	for _, f := range []struct {
		name string
		v    *bool
	}{{"implemented", n.Implemented}, {"tested", n.Tested}, {"verified", n.Verified}} {
		v := "no"
		if f.v != nil && *f.v {
			v = "yes"
		}
		d.Facts = append(d.Facts, fact{Name: f.name, Value: v})
	}
	for _, is := range r.Issues {
		d.Facts = append(d.Facts, fact{Name: "decision", Value: is.ID, URL: root + idURL(claims.DecisionNode(is.ID))})
	}
	b.requirementStructure(d, rp, root)
	d.body = &bodyInput{doc: &r.Doc, title: n.Title}
	for _, group := range []struct {
		title string
		rows  []synth.TargetRow
	}{{"Implemented by", rp.Implements}, {"Tested by", rp.Tests}} {
		t := table{Title: group.title, Head: []string{"target", "lines", "state"}, Empty: "none declared"}
		for _, tr := range group.rows {
			t.Rows = append(t.Rows, b.targetRowOf(tr, root))
			d.Fragments = append(d.Fragments, b.fragments(tr, root)...)
		}
		d.Tables = append(d.Tables, t)
	}
	d.Tables = append(d.Tables, b.evidenceHistory(rp, root))
	d.TextDiffs = b.verifiedDiffs(rp)
	d.Claims = b.claimRows(rp.Claims, root)
	return nil
}

// evidenceHistory is a requirement's evidence table: every entry the lock
// keeps, newest first (by recorded time, then run), with its time. The
// newest decides whether the requirement is verified and says so; the
// older ones are history, grey, superseded by it.
func (b *Renderer) evidenceHistory(rp *synth.RequirementPage, root string) table {
	ev := table{Title: "Evidence history", Head: []string{"run", "recorded", "recorded against", "tests", "state"}, Empty: "no test run recorded"}
	r := rp.Req
	for _, es := range rp.History {
		against := "the current revision"
		if !r.Revisions().Matches(es.Evidence.Revision) {
			against = "revision " + short(es.Evidence.Revision)
		}
		passed := 0
		for _, t := range es.Evidence.Tests {
			if t.Outcome == codeanchors.OutcomePass {
				passed++
			}
		}
		state := stateCell(es.Verdict, b.lang)
		if es.Verdict.State != codeanchors.Superseded {
			state.Text += " · deciding" // the newest entry: it alone decides verified
		}
		ev.Rows = append(ev.Rows, row{Stale: es.Verdict.State == codeanchors.Stale, Superseded: es.Verdict.State == codeanchors.Superseded, Cells: []cell{
			{Text: es.Evidence.Run, URL: root + idURL(claims.RunNode(es.Evidence.Run))},
			{Text: es.Evidence.RecordedAt},
			{Text: against},
			{Text: fmt.Sprintf("%d of %d passed", passed, len(es.Evidence.Tests))},
			state,
		}})
	}
	return ev
}

func (b *Renderer) decisionPage(d *pageData, n synth.Node, root string) error {
	dp := b.models.Decisions[n.ID.Key]
	if dp == nil {
		return fmt.Errorf("decision %s: not in the model", n.ID.Key)
	}
	dec := dp.Dec
	if dec.Date != "" {
		d.Facts = append(d.Facts, fact{Name: "date", Value: dec.Date})
	}
	for _, s := range dec.Supersedes {
		d.Facts = append(d.Facts, fact{Name: "supersedes", Value: s.ID, URL: root + idURL(claims.DecisionNode(s.ID))})
	}
	d.body = &bodyInput{doc: &dec.Doc, title: n.Title}
	d.Claims = b.claimRows(dp.Claims, root)
	return nil
}

func (b *Renderer) wikiPage(d *pageData, n synth.Node, root string) error {
	wp := b.models.Wiki[n.ID.Key]
	if wp == nil {
		return fmt.Errorf("page %s: not in the model", n.ID.Key)
	}
	pg := wp.Page
	if pg.Type != "" {
		d.Facts = append(d.Facts, fact{Name: "type", Value: pg.Type})
	}
	for _, s := range pg.Sources {
		d.Facts = append(d.Facts, fact{Name: "source", Value: s})
	}
	if pg.Synthesized {
		d.Facts = append(d.Facts, fact{Name: "made from", Value: pg.Doc.File})
	}
	d.body = &bodyInput{doc: &pg.Doc, title: n.Title}
	d.Claims = b.claimRows(wp.Claims, root)
	return nil
}

func (b *Renderer) filePage(d *pageData, n synth.Node, root string) error {
	d.Heading = n.Path
	src := b.sources[n.Path]
	if src != nil && src.Absent == "" {
		d.Facts = append(d.Facts, fact{Name: "lines", Value: fmt.Sprint(len(src.Lines))}, fact{Name: "parser", Value: src.Parser()})
		if u := b.forge.File(n.Path); u != "" {
			d.Facts = append(d.Facts, fact{Name: "source", Value: "on the forge at " + short(b.forge.Commit), URL: u})
		}
		if src.ParseErr != nil {
			d.Facts = append(d.Facts, fact{Name: "parse error", Value: src.ParseErr.Error()})
		}
	} else if n.Why == "" {
		n.Why = codeanchors.TargetMissing.Why(b.lang)
	}
	fp := b.models.Files[n.Path]
	if fp == nil {
		fp = &synth.FilePage{}
	}
	t := table{Title: "Symbols", Head: []string{"symbol", "kind", "lines", "state", "claimed by"}, Empty: "no symbols found"}
	for _, sr := range fp.Symbols {
		m := sr.Node
		name := strings.TrimPrefix(m.Ref(), n.Path)
		name = strings.TrimPrefix(name, "@")
		lines := ""
		if m.Start > 0 {
			lines = fmt.Sprintf("%d–%d", m.Start, m.End)
		}
		st := cell{}
		var by []string
		link := ""
		if sr.Code != nil {
			ts := sr.Code.Status
			st = stateCell(ts.Verdict, b.lang)
			for _, u := range ts.Uses {
				by = append(by, u.Node.Key)
			}
			link = "#code-" + symbolAnchor(m)
		}
		if synth.KindOf(m.Type).Dir != "" {
			link = root + NodeURL(m) // a test has a page of its own
		}
		t.Rows = append(t.Rows, row{ID: symbolAnchor(m), Stale: m.Stale, Cells: []cell{
			{Text: name, URL: link, Code: true}, {Text: m.Kind}, {Text: lines}, st, {Text: strings.Join(slices.Compact(by), ", ")},
		}})
	}
	d.Tables = append(d.Tables, t)
	// The code of every anchored symbol, and the whole file when a claim
	// anchors it.
	for _, sr := range fp.Symbols {
		if sr.Code != nil {
			d.Fragments = append(d.Fragments, b.fragments(*sr.Code, root)...)
		}
	}
	if fp.Whole != nil {
		d.Fragments = append(d.Fragments, b.fragments(*fp.Whole, root)...)
	}
	d.Claims = nil
	return nil
}

func (b *Renderer) testPage(d *pageData, n synth.Node, root string) error {
	d.Heading = n.Label
	if tp := b.models.Tests[n.ID.Key]; tp != nil && tp.Code != nil {
		d.Fragments = b.fragments(*tp.Code, root)
	}
	d.Facts = append(d.Facts, fact{Name: "file", Value: n.Path, URL: root + idURL(claims.FileNode(n.Path))})
	return nil
}

func (b *Renderer) runPage(d *pageData, n synth.Node, root string) error {
	d.Heading = "Run " + n.Label
	t := table{Title: "Evidence", Head: []string{"requirement", "test", "outcome", "state"}, Empty: "no evidence"}
	for _, es := range b.models.Run(n.ID.Key).Evidence {
		for _, test := range es.Evidence.Tests {
			badge := "yes"
			if test.Outcome != codeanchors.OutcomePass {
				badge = "stale"
			}
			tn, _ := claims.ParseTarget(test.Target)
			t.Rows = append(t.Rows, row{Stale: es.Verdict.State == codeanchors.Stale, Superseded: es.Verdict.State == codeanchors.Superseded, Cells: []cell{
				{Text: es.Evidence.Req, URL: b.idHref(root, claims.RequirementNode(es.Evidence.Req))},
				{Text: test.Target, URL: b.idHref(root, b.graph.TargetNodeID(tn)), Code: true},
				{Text: test.Outcome, Badge: badge},
				stateCell(es.Verdict, b.lang),
			}})
		}
	}
	d.Tables = append(d.Tables, t)
	return nil
}

// targetRowOf is a table row for a page model's target row: its link,
// current lines and state.
func (b *Renderer) targetRowOf(tr synth.TargetRow, root string) row {
	ts, t := tr.Status, tr.Target
	r := row{Cells: []cell{{Text: t.String(), URL: b.idHref(root, tr.Node), Code: true}}}
	if ts == nil {
		return row{Cells: append(r.Cells, cell{}, cell{})}
	}
	v := ts.Verdict
	lines := ""
	if v.Start > 0 {
		lines = fmt.Sprintf("%d–%d", v.Start, v.End)
	}
	r.Stale = v.State == codeanchors.Stale
	state := stateCell(v, b.lang)
	if tr.Marker != "" {
		state.Text += " · marker " + tr.Marker // declared in the code (SPEC 1.6)
	}
	r.Cells = append(r.Cells, cell{Text: lines}, state)
	return r
}

// stateCell is a link's state as a badge, its why in the title; a
// superseded evidence entry's says which run superseded it.
func stateCell(v codeanchors.Verdict, lang string) cell {
	text := string(v.State)
	switch {
	case v.State == codeanchors.Superseded:
		text += " by " + v.SupersededBy
	case v.Moved && v.Reformatted:
		text += " (moved, reformatted)"
	case v.Moved:
		text += " (moved)"
	case v.Reformatted:
		text += " (reformatted)"
	}
	why := v.Why(lang)
	if why == "" {
		why = v.Note
	}
	return cell{Text: text, Badge: string(v.State), Title: why}
}

// fragments returns the highlighted code of a target row as it is now,
// with its state; none when its file cannot be read.
func (b *Renderer) fragments(tr synth.TargetRow, root string) []fragment {
	ts, t := tr.Status, tr.Target
	src := b.sources[t.Path]
	if ts == nil || src == nil || src.Absent != "" || ts.Verdict.Start == 0 {
		return nil
	}
	v := ts.Verdict
	f := fragment{Ref: t.String(), Start: v.Start, End: v.End, State: string(v.State), Why: v.Why(b.lang)}
	id := tr.Node
	n := synth.Node{ID: id, Type: id.Type, Path: t.Path, Symbol: t.Symbol}
	f.Anchor = "code-" + symbolAnchor(n)
	if ts.Anchor != nil && (v.Moved || ts.Anchor.Start != v.Start || ts.Anchor.End != v.End) {
		f.Detail = fmt.Sprintf("captured at lines %d–%d", ts.Anchor.Start, ts.Anchor.End)
		if v.Moved {
			f.Detail = fmt.Sprintf("moved: captured at lines %d–%d, now %d–%d", ts.Anchor.Start, ts.Anchor.End, v.Start, v.End)
		}
	}
	if v.Reformatted {
		f.Detail = strings.TrimLeft(f.Detail+"; reformatted since capture", "; ")
	}
	// Highlighted when the page renders ([Renderer.finish]).
	f.code = &fragmentInput{path: t.Path, lines: src.Lines, start: v.Start, end: v.End}
	_, f.More = fragmentLines(src.Lines, v.Start, v.End)
	f.Lines = min(v.End, len(src.Lines)) - v.Start + 1 - f.More
	f.Forge = b.forge.Lines(t.Path, v.Start, v.End)
	f.Long = f.Lines > CollapseFragmentLines
	if v.State == codeanchors.Stale {
		f.Diff = b.captureDiff(t.String(), v.Start, v.End, 1)
	}
	return []fragment{f}
}

// ClaimRows are the rows of the claims table of the page pg, a wiki
// page's node page ([Page.Wiki]); nil for another page.
func (b *Renderer) ClaimRows(pg Page) []ClaimRow {
	if pg.wiki == nil || b.models.Wiki[pg.wiki.Path] == nil {
		return nil
	}
	return b.claimRows(b.models.Wiki[pg.wiki.Path].Claims, rel(pg.dir))
}

// claimRows lists a document's claims with their code URI, the captured
// range and the anchor's state.
func (b *Renderer) claimRows(cs []synth.ClaimRow, root string) []ClaimRow {
	var out []ClaimRow
	for _, c := range cs {
		r := ClaimRow{Text: c.Text}
		if c.Code == nil {
			out = append(out, r)
			continue
		}
		r.Ref, r.URI = c.Code.Target.String(), c.Code.Target.URI(b.repo)
		r.URL = b.idHref(root, c.Code.Node)
		if ts := c.Code.Status; ts != nil {
			v := ts.Verdict
			r.State, r.Why = string(v.State), v.Why(b.lang)
			if ts.Anchor != nil {
				r.Captured = fmt.Sprintf("lines %d–%d", ts.Anchor.Start, ts.Anchor.End)
			} else {
				r.Captured = "not captured"
			}
			switch {
			case v.Moved:
				r.Detail = fmt.Sprintf("moved to lines %d–%d", v.Start, v.End)
			case v.Reformatted:
				r.Detail = "reformatted"
			case v.State != codeanchors.Linked:
				r.Detail = r.Why
			}
		}
		out = append(out, r)
	}
	return out
}

// body renders a document's Markdown; a first "# title" equal to title is
// left out, as the page shows it.
func (b *Renderer) body(d *claims.Doc, root, title string) (template.HTML, error) {
	s, err := b.renderMarkdown(d, root, title)
	return template.HTML(s), err
}

// requirement and wiki are the model's documents with the id or path, nil
// for none ([synth.Requirement]).
func (b *Renderer) requirement(id string) *claims.Requirement { return synth.Requirement(b.model, id) }

func (b *Renderer) wiki(p string) *claims.Page { return synth.WikiPage(b.model, p) }

// short abbreviates a hash for display.
func short(h string) string {
	h = strings.TrimPrefix(h, codeanchors.HashPrefix)
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
