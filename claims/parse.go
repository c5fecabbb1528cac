package claims

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// File is one content file handed to [Parse]: its root-relative,
// slash-separated name ("content/requirements/REQ-3.md") and its bytes.
// Parse never opens files; the caller reads them.
type File struct {
	Name string
	Data []byte
}

// fileKind is what a file is, by its path under the content directory.
type fileKind int

const (
	kindNone        fileKind = iota // not content: ignored
	kindRequirement                 // requirements/*.md
	kindDecision                    // decisions/*.md
	kindPage                        // every other **/*.md
	kindRecords                     // claims/*.json, *.yaml, *.yml
	kindDocument                    // requirements/**/_index.md
)

// classify returns the kind of the file named name and its path relative to
// the content directory, extension kept ("guides/login.md").
func classify(contentPrefix, name string) (fileKind, string) {
	rel, ok := strings.CutPrefix(name, contentPrefix)
	if !ok || rel == "" || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return kindNone, ""
	}
	dir, base := path.Split(rel)
	ext := path.Ext(base)
	switch {
	case strings.HasPrefix(dir, "requirements/") && dir != "requirements/" && base == "_index.md":
		return kindDocument, rel
	case strings.HasPrefix(dir, "requirements/") && ext == ".md" && base != "_index.md":
		return kindRequirement, rel
	case dir == "decisions/" && ext == ".md":
		return kindDecision, rel
	case dir == "claims/" && (ext == ".json" || ext == ".yaml" || ext == ".yml"):
		return kindRecords, rel
	case ext == ".md":
		return kindPage, rel
	}
	return kindNone, ""
}

// prefixOf turns a content directory into the prefix of the names under it:
// "content" gives "content/", and "" or "." (the root itself) give "".
func prefixOf(contentDir string) string {
	d := path.Clean(strings.TrimSuffix(contentDir, "/"))
	if d == "." || d == "/" {
		return ""
	}
	return d + "/"
}

// fileResult is what parsing one file gives. Each goroutine writes only its
// own slot, so the result does not depend on scheduling.
type fileResult struct {
	kind    fileKind
	rel     string // content path with extension
	req     *Requirement
	dec     *Decision
	page    *Page
	doc     *Document
	idPos   Pos // where the id of a requirement or decision is written
	records []record
	diags   Diagnostics
}

// Parse parses the content files of a wiki into a [Model]. contentDir is
// the content directory relative to the root ("content"); each file is
// classified by its path under it (see the package documentation) and files
// outside it, or of no content kind, are ignored.
//
// Files are parsed in parallel. The model does not depend on the order of
// files: its slices are sorted by ID or Path, then by file name. Every
// problem found is reported, sorted (see [Diagnostics.Sort]); the model is
// complete as far as the content allows even when there are diagnostics.
func Parse(contentDir string, files []File) (*Model, Diagnostics) {
	return parse(contentDir, files, nil)
}

// A Parser parses the content files of a wiki like [Parse] and keeps each
// file's parse for its next call: a file whose name and bytes did not
// change since the last call is not parsed again, so a call after one
// edit parses the edited file only and links the model anew. Its models
// are the same as [Parse]'s; they share their files' parsed values (the
// bodies, headings, claims, links and fields), which are read-only: the
// linker works on copies of what it changes. The zero Parser is ready, a
// nil one keeps nothing (it is [Parse]); calls must not overlap.
type Parser struct {
	prefix string
	files  map[string]parsedFile // the last call's, by file name
	reused int
}

// parsedFile is one file's parse, with the bytes it came from.
type parsedFile struct {
	data []byte
	r    fileResult
}

// Parse is [Parse], reusing the parse of every file whose name and bytes
// are those of the last call. It keeps this call's parses and drops the
// rest (files removed or changed).
func (ps *Parser) Parse(contentDir string, files []File) (*Model, Diagnostics) {
	return parse(contentDir, files, ps)
}

// Reused counts the files the last call did not parse again.
func (ps *Parser) Reused() int {
	if ps == nil {
		return 0
	}
	return ps.reused
}

func parse(contentDir string, files []File, ps *Parser) (*Model, Diagnostics) {
	prefix := prefixOf(contentDir)
	// Sorting a copy fixes the order of everything that follows. Equal names
	// (a caller's mistake) are ordered by content so that the order of
	// files still does not matter.
	sorted := slices.Clone(files)
	slices.SortStableFunc(sorted, func(a, b File) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), bytes.Compare(a.Data, b.Data))
	})

	results := make([]fileResult, len(sorted))
	var prev map[string]parsedFile
	if ps != nil && ps.prefix == prefix {
		prev = ps.files
	}
	reused := make([]bool, len(sorted))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(sorted)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(sorted) {
					return
				}
				f := sorted[i]
				if e, ok := prev[f.Name]; ok && bytes.Equal(e.data, f.Data) {
					// A copy: the linker changes the model's values,
					// never the kept ones.
					results[i], reused[i] = e.r.fresh(), true
					continue
				}
				results[i] = parseFile(prefix, f)
			}
		})
	}
	wg.Wait()
	if ps != nil {
		ps.prefix, ps.reused = prefix, 0
		ps.files = make(map[string]parsedFile, len(sorted))
		for i, f := range sorted {
			if _, dup := ps.files[f.Name]; dup {
				continue // equal names: the first in order is kept
			}
			if reused[i] {
				ps.reused++
				ps.files[f.Name] = prev[f.Name]
				continue
			}
			ps.files[f.Name] = parsedFile{f.Data, results[i]}
			results[i] = results[i].fresh()
		}
	}

	l := &linker{prefix: prefix, m: &Model{}}
	for i := range results {
		r := &results[i]
		l.diags = append(l.diags, r.diags...)
		switch r.kind {
		case kindRequirement:
			l.m.Requirements = append(l.m.Requirements, r.req)
			l.reqPos = append(l.reqPos, r.idPos)
		case kindDecision:
			l.m.Decisions = append(l.m.Decisions, r.dec)
			l.decPos = append(l.decPos, r.idPos)
		case kindPage:
			l.m.Pages = append(l.m.Pages, r.page)
		case kindDocument:
			l.m.Documents = append(l.m.Documents, r.doc)
		case kindRecords:
			l.records = append(l.records, r.records...)
		}
	}
	l.link()
	return l.m, l.diags.Sort()
}

// fresh returns r with its own copy of each value the linker may change
// (the document structs; their claims and links slices are copied by the
// linker when it changes them), so that r itself stays as parsed.
func (r fileResult) fresh() fileResult {
	switch {
	case r.req != nil:
		c := *r.req
		r.req = &c
	case r.dec != nil:
		c := *r.dec
		r.dec = &c
	case r.page != nil:
		c := *r.page
		r.page = &c
	case r.doc != nil:
		c := *r.doc
		r.doc = &c
	}
	return r
}

// ParsePage parses one wiki page file on its own: what [Parse] makes of
// it before the checks and changes that need every file (links to other
// documents checked, page links to requirement and decision files turned
// into requirement and decision links, claim records placed). It returns
// nil when f is not a wiki page (see the package documentation), and the
// page's own problems as diagnostics.
func ParsePage(contentDir string, f File) (*Page, Diagnostics) {
	r := parseFile(prefixOf(contentDir), f)
	return r.page, r.diags.Sort()
}

// parseFile parses one file of any kind.
func parseFile(prefix string, f File) fileResult {
	kind, rel := classify(prefix, f.Name)
	r := fileResult{kind: kind, rel: rel}
	data := bytes.TrimPrefix(f.Data, utf8BOM)
	switch kind {
	case kindNone:
	case kindRecords:
		r.records = parseRecords(f.Name, rel, data, &r.diags)
	default:
		parseDoc(prefix, f.Name, rel, kind, data, &r)
	}
	return r
}

var utf8BOM = []byte("\uFEFF")

// parseDoc parses a Markdown file: a requirement, decision or page.
func parseDoc(prefix, name, rel string, kind fileKind, data []byte, r *fileResult) {
	ds := &r.diags
	fm, body, bodyLine := splitFrontmatter(name, data, ds)
	doc := Doc{File: name, Body: body, BodyLine: bodyLine}
	var md mdResult
	if pos, msg := checkBody(body); msg != "" {
		// Not parsed: the file is an error, and the parser's time on deep
		// nesting grows with the cube of the depth.
		ds.Add(Pos{File: name, Line: bodyLine + pos.Line - 1, Col: pos.Col}, CodeSyntax, "%s", msg)
	} else {
		md = parseMarkdown(body, newLocator(name, body, bodyLine), path.Dir(name), prefix, ds)
	}
	doc.Headings = md.headings
	doc.Links = md.links
	doc.Images = md.images

	fields := decodeFields(kind, fm, name, ds)
	doc.Claims = append(fields.claims, md.claims...)
	sortClaims(doc.Claims)

	base := strings.TrimSuffix(path.Base(rel), ".md")
	title := cmp.Or(fields.title, md.title, fields.id, base)
	id := cmp.Or(fields.id, base)
	if fields.id == "" {
		r.idPos = Pos{File: name}
	} else {
		r.idPos = fields.idPos
	}
	if (kind == kindRequirement || kind == kindDecision) && fields.id == "" && !validID(id) {
		ds.Add(r.idPos, CodeField, "file name gives id %q, which is not a valid id (letters, digits, '.', '_', '-', '~'); set id in the frontmatter", id)
	}

	switch kind {
	case kindRequirement:
		r.req = &Requirement{
			ID:             id,
			Title:          title,
			Status:         fields.status,
			Implements:     fields.implements,
			Tests:          fields.tests,
			Issues:         fields.issues,
			Doc:            doc,
			Revision:       parsedRevision(title, body, md.doc),
			LegacyRevision: LegacyRevision(title, body),
			Document:       documentOf(rel),
			Level:          fields.level,
			Parents:        fields.parents,
			Tags:           fields.tags,
			Fields:         fields.fields,
			FieldValues:    fields.fieldVals,
			Waivers:        fields.waivers,
			Normative:      fields.normative == nil || *fields.normative,
			Derived:        fields.derived,
			Imported:       fields.imported,
		}
	case kindDocument:
		folder := documentOf(rel)
		r.doc = &Document{
			Path:   folder,
			Title:  cmp.Or(fields.title, md.title, path.Base(folder)),
			Prefix: fields.prefix,
			Doc:    doc,
		}
	case kindDecision:
		r.dec = &Decision{
			ID:         id,
			Title:      title,
			Status:     fields.status,
			Date:       fields.date,
			Supersedes: fields.supersedes,
			Doc:        doc,
		}
	case kindPage:
		r.page = &Page{
			Path:    strings.TrimSuffix(rel, ".md"),
			Title:   title,
			Type:    fields.typ,
			Sources: fields.sources,
			Doc:     doc,
		}
	}
}

// sortClaims orders claims by position: frontmatter claims come before the
// body's, and the body's are in source order.
func sortClaims(cs []Claim) {
	slices.SortStableFunc(cs, func(a, b Claim) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
		)
	})
}

// maxIDLen bounds an id: ids become file names and URL path segments.
const maxIDLen = 128

// ValidID reports whether s is a requirement or decision id ([validID]):
// what code markers may name.
func ValidID(s string) bool { return validID(s) }

// validID reports whether s is a requirement or decision id: a letter or
// digit, then letters, digits, '.', '_', '-' and '~', at most maxIDLen
// bytes (ASCII only, so that ids are safe as file names and in URLs; '~'
// keeps OpenFastTrace's type~name~revision ids as they are).
func validID(s string) bool {
	if s == "" || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-' && c != '~') {
			return false
		}
	}
	return true
}

// linker runs the checks that need every file: duplicate ids, references,
// links, and the placement of claim records.
type linker struct {
	prefix  string
	m       *Model
	reqPos  []Pos // id positions, parallel to m.Requirements before sorting
	decPos  []Pos
	records []record
	diags   Diagnostics

	reqs  map[string]*Requirement
	decs  map[string]*Decision
	pages map[string]*Page
	// docs maps the content path without .md of every document to it, so
	// that a page link may also name a requirement or decision file.
	docs map[string]docTarget
}

// docTarget is a document a page link may point at.
type docTarget struct {
	kind LinkKind
	id   string // requirement or decision id; "" for a page
	doc  *Doc
}

func (l *linker) link() {
	l.checkDupIDs()
	l.index()
	l.placeRecords()
	l.checkRefs()
	l.addDocuments()
	l.checkParents()
	l.sortModel()
}

// checkDupIDs reports ids used by more than one requirement or decision,
// at every file that uses them. Ids that differ only in case count as
// duplicates: they would become colliding file names on case-insensitive
// file systems.
func (l *linker) checkDupIDs() {
	dup := func(what string, ids []string, files []string, pos []Pos) {
		groups := map[string][]int{}
		for i, id := range ids {
			k := strings.ToLower(id)
			groups[k] = append(groups[k], i)
		}
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			g := groups[k]
			if len(g) < 2 {
				continue
			}
			for _, i := range g {
				var others []string
				for _, j := range g {
					if j != i {
						others = append(others, files[j])
					}
				}
				l.diags.Add(pos[i], CodeDupID, "duplicate %s id %q (also in %s)", what, ids[i], strings.Join(others, ", "))
			}
		}
	}
	var ids, files []string
	for _, r := range l.m.Requirements {
		ids, files = append(ids, r.ID), append(files, r.Doc.File)
	}
	dup("requirement", ids, files, l.reqPos)
	ids, files = nil, nil
	for _, d := range l.m.Decisions {
		ids, files = append(ids, d.ID), append(files, d.Doc.File)
	}
	dup("decision", ids, files, l.decPos)
}

// index builds the lookup maps. With duplicate ids the first file in name
// order wins the lookup; the duplicates are already reported.
func (l *linker) index() {
	l.reqs = map[string]*Requirement{}
	l.decs = map[string]*Decision{}
	l.pages = map[string]*Page{}
	l.docs = map[string]docTarget{}
	for _, r := range l.m.Requirements {
		if _, ok := l.reqs[r.ID]; !ok {
			l.reqs[r.ID] = r
		}
		l.docs[l.contentPath(r.Doc.File)] = docTarget{LinkRequirement, r.ID, &r.Doc}
	}
	for _, d := range l.m.Decisions {
		if _, ok := l.decs[d.ID]; !ok {
			l.decs[d.ID] = d
		}
		l.docs[l.contentPath(d.Doc.File)] = docTarget{LinkDecision, d.ID, &d.Doc}
	}
	for _, p := range l.m.Pages {
		if _, ok := l.pages[p.Path]; !ok {
			l.pages[p.Path] = p
			l.docs[p.Path] = docTarget{LinkPage, "", &p.Doc}
		}
	}
}

// contentPath is the content path without .md of a document file.
func (l *linker) contentPath(name string) string {
	return strings.TrimSuffix(strings.TrimPrefix(name, l.prefix), ".md")
}

// placeRecords puts each claim record on the document at its page_path, or
// on a page synthesized for it when there is none.
func (l *linker) placeRecords() {
	synth := map[string]*Page{}
	var order []string
	owned := map[*Doc]bool{} // documents whose claims slice is this model's own
	for _, rec := range l.records {
		if t, ok := l.docs[rec.pagePath]; ok && synth[rec.pagePath] == nil {
			if !owned[t.doc] {
				// The parsed claims are read-only (a Parser shares them
				// between models): append to a copy.
				t.doc.Claims, owned[t.doc] = slices.Clip(t.doc.Claims), true
			}
			t.doc.Claims = append(t.doc.Claims, rec.claim)
			continue
		}
		p := synth[rec.pagePath]
		if p == nil {
			p = &Page{
				Path:        rec.pagePath,
				Title:       cmp.Or(rec.pageTitle, path.Base(rec.pagePath)),
				Type:        rec.pageType,
				Synthesized: true,
				Doc:         Doc{File: rec.claim.Pos.File},
			}
			synth[rec.pagePath] = p
			order = append(order, rec.pagePath)
			l.pages[p.Path] = p
			l.docs[p.Path] = docTarget{LinkPage, "", &p.Doc}
		} else {
			if rec.pageTitle != "" && p.Title != rec.pageTitle {
				l.diags.Add(rec.claim.Pos, CodeField, "page_title %q differs from %q given earlier for page %q", rec.pageTitle, p.Title, p.Path)
			}
			if rec.pageType != "" && p.Type != rec.pageType {
				if p.Type == "" {
					p.Type = rec.pageType
				} else {
					l.diags.Add(rec.claim.Pos, CodeField, "page_type %q differs from %q given earlier for page %q", rec.pageType, p.Type, p.Path)
				}
			}
		}
		p.Doc.Claims = append(p.Doc.Claims, rec.claim)
	}
	for _, k := range order {
		l.m.Pages = append(l.m.Pages, synth[k])
	}
}

// checkRefs reports references to requirements, decisions, pages and
// headings that do not exist, and turns page links to requirement or
// decision files into requirement or decision links.
func (l *linker) checkRefs() {
	for _, r := range l.m.Requirements {
		for _, ref := range r.Issues {
			if l.decs[ref.ID] == nil {
				l.diags.Add(ref.Pos, CodeUnknownRef, "unknown decision %q in issues", ref.ID)
			}
		}
		l.checkLinks(&r.Doc)
	}
	for _, d := range l.m.Decisions {
		for _, ref := range d.Supersedes {
			if l.decs[ref.ID] == nil {
				l.diags.Add(ref.Pos, CodeUnknownRef, "unknown decision %q in supersedes", ref.ID)
			} else if ref.ID == d.ID {
				l.diags.Add(ref.Pos, CodeField, "decision %q supersedes itself", ref.ID)
			}
		}
		l.checkLinks(&d.Doc)
	}
	for _, p := range l.m.Pages {
		l.checkLinks(&p.Doc)
	}
}

func (l *linker) checkLinks(doc *Doc) {
	owned := false // the parsed links are read-only: change a copy
	for i := range doc.Links {
		lk := &doc.Links[i]
		switch lk.Kind {
		case LinkRequirement:
			if l.reqs[lk.To] == nil {
				l.diags.Add(lk.Pos, CodeUnknownRef, "unknown requirement %q", lk.To)
			}
		case LinkDecision:
			if l.decs[lk.To] == nil {
				l.diags.Add(lk.Pos, CodeUnknownRef, "unknown decision %q", lk.To)
			}
		case LinkPage:
			t, ok := l.docs[lk.To]
			if !ok {
				l.diags.Add(lk.Pos, CodeUnknownRef, "link to missing page %q", lk.To+".md")
				continue
			}
			if lk.Fragment != "" && !slices.Contains(t.doc.Headings, lk.Fragment) {
				l.diags.Add(lk.Pos, CodeUnknownRef, "link to missing heading %q in %q", "#"+lk.Fragment, lk.To+".md")
			}
			if t.kind != LinkPage {
				if !owned {
					doc.Links, owned = slices.Clone(doc.Links), true
					lk = &doc.Links[i]
				}
				lk.Kind, lk.To = t.kind, t.id
			}
		}
	}
}

func (l *linker) sortModel() {
	slices.SortStableFunc(l.m.Requirements, func(a, b *Requirement) int {
		return cmp.Or(CompareIDs(a.ID, b.ID), strings.Compare(a.Doc.File, b.Doc.File))
	})
	slices.SortStableFunc(l.m.Documents, func(a, b *Document) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Doc.File, b.Doc.File))
	})
	slices.SortStableFunc(l.m.Decisions, func(a, b *Decision) int {
		return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Doc.File, b.Doc.File))
	})
	slices.SortStableFunc(l.m.Pages, func(a, b *Page) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Doc.File, b.Doc.File))
	})
}

// locator turns byte offsets in a body into file positions.
type locator struct {
	file     string
	bodyLine int   // line of the file on which the body starts
	starts   []int // offsets of line starts in the body
}

func newLocator(file string, body []byte, bodyLine int) locator {
	starts := []int{0}
	for i, c := range body {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return locator{file: file, bodyLine: bodyLine, starts: starts}
}

// pos returns the position of body offset off: its 1-based line in the file
// and 1-based byte column.
func (lc locator) pos(off int) Pos {
	if off < 0 {
		return Pos{File: lc.file}
	}
	i, found := slices.BinarySearch(lc.starts, off)
	if !found {
		i--
	}
	return Pos{File: lc.file, Line: lc.bodyLine + i, Col: off - lc.starts[i] + 1}
}

// offsetPos returns the 1-based line and column of offset off in data.
func offsetPos(file string, data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return Pos{File: file, Line: line, Col: col}
}

func (ft fileKind) String() string {
	switch ft {
	case kindRequirement:
		return "requirement"
	case kindDecision:
		return "decision"
	case kindPage:
		return "page"
	case kindRecords:
		return "claim records"
	case kindDocument:
		return "requirement document"
	}
	return fmt.Sprintf("fileKind(%d)", int(ft))
}
