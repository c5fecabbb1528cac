package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/assets"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render/graphsvg"
	"github.com/tracewiki/tracewiki/synth"
	"github.com/tracewiki/tracewiki/templates"
)

// OneFile says what the HTML export ([Renderer.ExportHTML]) shows besides
// the site's page models.
type OneFile struct {
	// Document is the folder of the requirement document to export, with
	// the documents nested in it; "" exports every requirement.
	Document string
	// Revision is the commit the content was read at; "" when not known
	// (no git repository).
	Revision string
	// Date is the export's date, as its title page shows it.
	Date string
}

// ExportHTML renders one self-contained HTML file (`export html`): a
// title page, a table of contents, and each requirement document with its
// requirements in level order, each with its state, its links to code and
// to parents and children, its evidence and its neighborhood graph. It is
// made from the same page models as the site's document and requirement
// pages, so the two cannot disagree. Styles, images and graphs are
// inlined; the file has no script and loads nothing: its only links out
// are to the forge. The same site and options give the same bytes.
func (b *Renderer) ExportHTML(opts OneFile) ([]byte, error) {
	d := &fileData{Lang: b.lang, Title: b.title, Revision: opts.Revision, Date: opts.Date, Coverage: b.models.Coverage.String()}
	if d.Revision == "" {
		d.Revision = "not in git"
	}
	docs, err := b.fileDocuments(opts.Document)
	if err != nil {
		return nil, err
	}
	ctx := &fileContext{b: b, in: map[string]bool{}, docs: map[string]bool{}}
	for _, fd := range docs {
		ctx.docs[fd.folder] = true
		for _, rp := range fd.reqs {
			ctx.in[rp.Req.ID] = true
		}
	}
	d.Document = "All requirements"
	if opts.Document != "" {
		d.Document = docs[0].Title
		d.Folder = opts.Document
		d.Coverage = b.models.Documents[opts.Document].Coverage.String()
	}
	for i, fd := range docs {
		if err := b.fillDocument(ctx, &docs[i], fd.reqs); err != nil {
			return nil, err
		}
	}
	d.Docs = docs
	for _, fd := range docs {
		for _, it := range fd.Items {
			d.All += b2i(!it.Section)
			d.Stale += b2i(it.Node.Stale)
		}
	}
	d.PageCSS = pageCSS(d)
	if d.CSS, err = fileCSS(); err != nil {
		return nil, err
	}
	t, err := template.New("").Funcs(rowFuncs).ParseFS(templates.FS, "layout.html", "export.html")
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := t.ExecuteTemplate(&out, "export", d); err != nil {
		return nil, fmt.Errorf("export html: %w", err)
	}
	return out.Bytes(), nil
}

// fileData is what export.html reads.
type fileData struct {
	Lang, Title      string
	Document, Folder string // the document's title ("All requirements") and folder ("" for all)
	Revision, Date   string
	Coverage         string
	CSS, PageCSS     template.CSS
	Docs             []fileDoc
	All, Stale       int // the normative requirements exported; the out-of-date ones
}

// fileDoc is one requirement document of the file: a section that starts
// a page, with its own running header.
type fileDoc struct {
	Anchor, Page string // its HTML id; the named @page that heads its pages
	Title        string
	Folder       string // "" for the requirements outside any document
	Nested       bool   // a document nested in another
	Intro        template.HTML
	Coverage     string
	Items        []fileItem

	folder string
	reqs   []*synth.RequirementPage
}

// fileItem is one requirement of the file: its item as a document page
// shows it, with its links to code, its evidence and its neighborhood.
type fileItem struct {
	docItem
	Anchor   string
	Links    []fileRow // implements, then tests, as written
	Evidence []fileRow // newest first, as its page's evidence history
	SVG      template.HTML
}

// fileRow is a row of a file's table; a cell shows its Why as small text
// below, since paper has no hover titles.
type fileRow struct {
	Stale, Superseded bool
	Cells             []fileCell
}

type fileCell struct {
	Text, URL, Badge, Why string
	Code                  bool
}

// fileDocuments lists the documents the file holds, in order: the one in
// folder and the documents nested in it, depth first, or every top-level
// document so and then the requirements outside any document.
func (b *Renderer) fileDocuments(folder string) ([]fileDoc, error) {
	var out []fileDoc
	var walk func(dp *synth.DocumentPage, nested bool)
	walk = func(dp *synth.DocumentPage, nested bool) {
		out = append(out, fileDoc{Title: dp.Doc.Title, Folder: dp.Doc.Path, Nested: nested, folder: dp.Doc.Path, reqs: dp.Requirements})
		for _, sub := range dp.Sections {
			walk(sub, true)
		}
	}
	if folder != "" {
		dp := b.models.Documents[folder]
		if dp == nil {
			have := sortedKeys(b.models.Documents)
			if len(have) == 0 {
				return nil, fmt.Errorf("--document %s: the wiki has no requirement document", folder)
			}
			return nil, fmt.Errorf("--document %s: no such requirement document (have: %s)", folder, strings.Join(have, ", "))
		}
		walk(dp, false)
	} else {
		for _, d := range b.model.Documents {
			if up := d.Parent(); up == d.Path || b.models.Documents[up] == nil {
				walk(b.models.Documents[d.Path], false)
			}
		}
		var loose []*synth.RequirementPage
		for _, r := range b.model.Requirements {
			if r.Document == "" {
				loose = append(loose, b.models.Requirements[r.ID])
			}
		}
		slices.SortStableFunc(loose, func(x, y *synth.RequirementPage) int { return claims.CompareInDocument(x.Req, y.Req) })
		if len(loose) > 0 {
			out = append(out, fileDoc{Title: "Requirements outside documents", reqs: loose})
		}
	}
	for i := range out {
		out[i].Anchor = docAnchor(out[i].folder)
		out[i].Page = fmt.Sprintf("doc-%d", i+1)
	}
	return out, nil
}

// fillDocument renders a document's introduction, coverage and items.
func (b *Renderer) fillDocument(ctx *fileContext, fd *fileDoc, reqs []*synth.RequirementPage) error {
	if fd.folder != "" {
		doc := b.models.Documents[fd.folder].Doc
		if doc.Doc.File != "" {
			var err error
			if fd.Intro, err = b.fileBody(ctx, &doc.Doc, doc.Title); err != nil {
				return err
			}
		}
		fd.Coverage = b.models.Documents[fd.folder].Coverage.String()
	}
	for _, rp := range reqs {
		it := fileItem{docItem: b.docItemOf(rp, 0, ""), Anchor: reqAnchor(rp.Req.ID)}
		it.docItem = it.withHeading("doc-title")
		var err error
		if it.Body, err = b.fileBody(ctx, &rp.Req.Doc, rp.Req.Title); err != nil {
			return err
		}
		for _, ls := range [][]docLink{it.Parents, it.Children} {
			for i := range ls {
				ls[i].URL = ctx.URLOf(claims.RequirementNode(ls[i].ID))
			}
		}
		for _, g := range []struct {
			rel  string
			rows []synth.TargetRow
		}{{"implements", rp.Implements}, {"tests", rp.Tests}} {
			for _, tr := range g.rows {
				it.Links = append(it.Links, b.fileLink(g.rel, tr))
			}
		}
		for _, r := range b.evidenceHistory(rp, "").Rows {
			it.Evidence = append(it.Evidence, fileRowOf(r))
		}
		id := claims.RequirementNode(rp.Req.ID)
		it.SVG = graphsvg.Draw(b.graph.Neighbors(id), id, ctx.nodeHref)
		fd.Items = append(fd.Items, it)
	}
	return nil
}

// fileBody renders a document's Markdown for the file: links to the
// file's own requirements stay in the file, images are inlined.
func (b *Renderer) fileBody(ctx *fileContext, d *claims.Doc, title string) (template.HTML, error) {
	s, err := renderBody(ctx, d, "", title)
	return template.HTML(s), err
}

// fileLink is the row of one declared link to code: the relation, the
// target (to the forge at its current lines), the range captured in the
// lock and the range now, and the state with why.
func (b *Renderer) fileLink(rel string, tr synth.TargetRow) fileRow {
	t, ts := tr.Target, tr.Status
	r := fileRow{Cells: []fileCell{{Text: rel}, {Text: t.String(), URL: b.forge.File(t.Path), Code: true}}}
	if ts == nil {
		return fileRow{Cells: append(r.Cells, fileCell{Text: "not judged"}, fileCell{}, fileCell{})}
	}
	v := ts.Verdict
	captured := fileCell{Text: "not captured"}
	if a := ts.Anchor; a != nil {
		captured.Text = fmt.Sprintf("%d–%d", a.Start, a.End)
		captured.Why = a.CapturedAt
		if a.CapturedBy != "" {
			captured.Why = "by " + a.CapturedBy + ", " + a.CapturedAt
		}
	}
	now := "not found"
	if v.Start > 0 {
		now = fmt.Sprintf("%d–%d", v.Start, v.End)
		r.Cells[1].URL = b.forge.Lines(t.Path, v.Start, v.End)
	}
	st := fileCellOf(stateCell(v, b.lang))
	if tr.Marker != "" {
		st.Text += " · marker " + tr.Marker
	}
	r.Stale = v.State == codeanchors.Stale
	r.Cells = append(r.Cells, captured, fileCell{Text: now}, st)
	return r
}

// fileRowOf is a site table row as the file shows it: links only to the
// forge or within the file.
func fileRowOf(r row) fileRow {
	out := fileRow{Stale: r.Stale, Superseded: r.Superseded}
	for _, c := range r.Cells {
		out.Cells = append(out.Cells, fileCellOf(c))
	}
	return out
}

func fileCellOf(c cell) fileCell {
	fc := fileCell{Text: c.Text, Badge: c.Badge, Code: c.Code}
	if strings.HasPrefix(c.URL, "#") || strings.HasPrefix(c.URL, "https://") || strings.HasPrefix(c.URL, "http://") {
		fc.URL = c.URL
	}
	if c.Badge != "" && c.Badge != string(codeanchors.Linked) {
		fc.Why = c.Title
	}
	return fc
}

// fileContext is the [BodyContext] of the file: a link to one of its
// requirements or documents stays in the file, a claim links to the forge
// (nowhere without one), and images are inlined ([inliner]).
type fileContext struct {
	b    *Renderer
	in   map[string]bool // the requirements the file holds
	docs map[string]bool // the documents the file holds
}

func (c *fileContext) ClaimShown(t claims.Target) ClaimShown {
	s := c.b.ClaimShown(t)
	s.URL = c.b.forge.File(t.Path)
	if ts := c.b.targets[t.String()]; ts != nil && ts.Verdict.Start > 0 {
		s.URL = c.b.forge.Lines(t.Path, ts.Verdict.Start, ts.Verdict.End)
	}
	return s
}

func (c *fileContext) URLOf(id synth.NodeID) string {
	switch {
	case id.Type == claims.NodeRequirement && c.in[id.Key]:
		return "#" + reqAnchor(id.Key)
	case id.Type == claims.NodeDocument && c.docs[id.Key]:
		return "#" + docAnchor(id.Key)
	}
	return ""
}

func (c *fileContext) Fence(lang string, code []byte) template.HTML { return c.b.Fence(lang, code) }

// nodeHref is a graph box's link: within the file, or to the forge.
func (c *fileContext) nodeHref(n synth.Node) string {
	if u := c.URLOf(n.ID); u != "" {
		return u
	}
	if synth.KindOf(n.Type).Code && n.Path != "" {
		if u := c.b.forge.Lines(n.Path, n.Start, n.End); u != "" {
			return u
		}
	}
	return "#"
}

func (c *fileContext) inlineImage(contentPath string) string {
	data, ok := c.b.images[contentPath]
	if !ok {
		return ""
	}
	return "data:" + imageType(contentPath, data) + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// imageTypes are the media types of the image files content shows, by
// extension: a fixed table, not the system's, so the file is the same on
// every machine.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".webp": "image/webp", ".avif": "image/avif", ".ico": "image/x-icon",
}

func imageType(name string, data []byte) string {
	if t, ok := imageTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return http.DetectContentType(data)
}

// fileCSS is the site's stylesheet and the highlighting's, inlined.
func fileCSS() (template.CSS, error) {
	style, err := fs.ReadFile(assets.FS, "style.css")
	if err != nil {
		return "", err
	}
	chroma, err := ChromaCSS()
	if err != nil {
		return "", err
	}
	return template.CSS(string(style) + "\n" + string(chroma)), nil
}

// pageCSS is the file's @page rules: every page but the title page heads
// with its document (a named page per document) and the revision, and
// foots with its number.
func pageCSS(d *fileData) template.CSS {
	var b strings.Builder
	head := d.Title + " · " + d.Document
	b.WriteString("@page {\n  size: A4;\n  margin: 20mm 16mm 18mm;\n}\n")
	const box = "font: 8.5pt system-ui, sans-serif; color: #59636e;"
	fmt.Fprintf(&b, "@page {\n  @top-left { content: %s; %s }\n  @top-right { content: %s; %s }\n  @bottom-center { content: \"Page \" counter(page) \" of \" counter(pages); %s }\n}\n",
		cssString(head), box, cssString("revision "+short(d.Revision)+" · "+d.Date), box, box)
	b.WriteString("@page :first {\n  @top-left { content: none; }\n  @top-right { content: none; }\n  @bottom-center { content: none; }\n}\n")
	for _, fd := range d.Docs {
		fmt.Fprintf(&b, "@page %s {\n  @top-left { content: %s; %s }\n}\n.page-%s { page: %s; }\n", fd.Page, cssString(fd.Title), box, fd.Page, fd.Page)
	}
	return template.CSS(b.String())
}

// cssString quotes s as a CSS string: letters, digits and plain
// punctuation as they are, anything else as a CSS escape, so no text can
// end the string or the style element.
func cssString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" .,:;-_()[]#·/", r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "\\%x ", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
