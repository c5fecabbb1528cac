package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// docItem is one entry of a document's printable tree: a nested document's
// heading, or a requirement (a heading when it is not normative).
type docItem struct {
	Depth    int // heading depth below the page's h1: 1 → h2, capped at 5
	Section  bool
	ID       string // requirement id; "" for a document
	Title    string
	URL      string
	Level    string
	Status   string
	Body     template.HTML
	Node     synth.Node
	Parents  []docLink
	Children []docLink
	Tags     []string
	Fields   []fact
	// Open and Close are the heading's tags, h2 to h6 by Depth.
	Open, Close                   template.HTML
	Implemented, Tested, Verified bool
}

// withHeading sets the heading tags of an item from its depth.
func (it docItem) withHeading(class string) docItem {
	h := fmt.Sprintf("h%d", min(it.Depth, 5)+1)
	it.Open = template.HTML(fmt.Sprintf("<%s class=%q>", h, class))
	it.Close = template.HTML("</" + h + ">")
	return it
}

// docLink is a parent or child of a requirement on a document page, with
// the state of the link (parents only).
type docLink struct {
	ID, URL, Title string
	Stale          bool
	Why            string
}

// documentPage is the printable page of a requirement document: its
// introduction, then its requirements in level order, then its nested
// documents as sections, each requirement with its text, state badges,
// parents and children.
func (b *Renderer) documentPage(d *pageData, n synth.Node, root string) error {
	folder := n.ID.Key
	d.Heading = n.Title
	d.Facts = append(d.Facts, fact{Name: "folder", Value: b.content + "/requirements/" + folder})
	dp := b.models.Documents[folder]
	if dp == nil {
		return fmt.Errorf("document %s: not in the model", folder)
	}
	doc := dp.Doc
	if doc.Prefix != "" {
		d.Facts = append(d.Facts, fact{Name: "prefix", Value: doc.Prefix})
	}
	if up := doc.Parent(); up != "" {
		d.Facts = append(d.Facts, fact{Name: "part of", Value: up, URL: root + idURL(claims.DocumentNode(up))})
	}
	if doc.Doc.File != "" {
		var err error
		if d.Body, err = b.body(&doc.Doc, root, doc.Title); err != nil {
			return err
		}
	}
	d.Facts = append(d.Facts, fact{Name: "coverage", Value: dp.Coverage.String()})
	return b.documentTree(d, dp, 0, root)
}

func (b *Renderer) documentTree(d *pageData, dp *synth.DocumentPage, depth int, root string) error {
	doc := dp.Doc
	if depth > 0 {
		d.Tree = append(d.Tree, docItem{Depth: min(depth, 5), Section: true, Title: doc.Title, URL: root + idURL(claims.DocumentNode(doc.Path))}.withHeading("doc-section"))
	}
	for _, rp := range dp.Requirements {
		it, err := b.docRequirement(rp, depth, root)
		if err != nil {
			return err
		}
		d.Tree = append(d.Tree, it)
	}
	for _, sub := range dp.Sections {
		if err := b.documentTree(d, sub, depth+1, root); err != nil {
			return err
		}
	}
	return nil
}

func (b *Renderer) docRequirement(rp *synth.RequirementPage, depth int, root string) (docItem, error) {
	it := b.docItemOf(rp, depth, root)
	var err error
	it.Body, err = b.body(&rp.Req.Doc, root, rp.Req.Title)
	return it.withHeading("doc-title"), err
}

// docItemOf is a requirement's item on a document page, without its body
// (the HTML export renders that in its own context).
func (b *Renderer) docItemOf(rp *synth.RequirementPage, depth int, root string) docItem {
	r := rp.Req
	n, _ := b.graph.Node(claims.RequirementNode(r.ID))
	it := docItem{
		Depth: min(depth+claims.Depth(r.Level), 5), Section: !r.Normative, ID: r.ID, Title: r.Title,
		URL: root + idURL(claims.RequirementNode(r.ID)), Level: r.Level, Status: r.Status, Node: n, Tags: r.Tags,
	}
	for _, k := range sortedKeys(r.Fields) {
		it.Fields = append(it.Fields, fact{Name: k, Value: r.Fields[k]})
	}
	it.Parents, it.Children = b.parentLinks(rp, root)
	it.Implemented = n.Implemented != nil && *n.Implemented
	it.Tested = n.Tested != nil && *n.Tested
	it.Verified = n.Verified != nil && *n.Verified
	return it
}

// parentLinks lists a requirement's parents, with each link's state, and
// its children.
func (b *Renderer) parentLinks(rp *synth.RequirementPage, root string) (parents, children []docLink) {
	link := func(id string) docLink {
		l := docLink{ID: id, URL: root + idURL(claims.RequirementNode(id))}
		if synth.IsExternal(claims.RequirementNode(id)) {
			l.URL = b.externalURL(claims.RequirementNode(id))
		}
		if n, ok := b.graph.Node(claims.RequirementNode(id)); ok {
			l.Title = n.Title
		}
		return l
	}
	for _, ps := range rp.Parents {
		l := link(ps.Parent)
		l.Stale = ps.Verdict.State == codeanchors.Stale
		// The why names the child as suspect, not the parent as stale.
		l.Why = synth.LinkWhy(claims.RequirementNode(ps.Parent).String(), []synth.NodeID{claims.RequirementNode(ps.Child)},
			ps.Verdict.Reason, ps.Verdict.Reason.Why(b.lang), b.lang)
		parents = append(parents, l)
	}
	for _, ps := range rp.Children { // in id order
		children = append(children, link(ps.Child))
	}
	return parents, children
}

// requirementStructure adds a requirement's document, level, tags, fields,
// parents and children to its page.
func (b *Renderer) requirementStructure(d *pageData, rp *synth.RequirementPage, root string) {
	r := rp.Req
	if r.Document != "" {
		d.Facts = append(d.Facts, fact{Name: "document", Value: b.document(r.Document).Title, URL: root + documentItemURL(r.Document, r.ID)})
	}
	if r.Level != "" {
		d.Facts = append(d.Facts, fact{Name: "level", Value: r.Level})
	}
	if !r.Normative {
		d.Facts = append(d.Facts, fact{Name: "normative", Value: "no (a heading or note)"})
	}
	if r.Derived {
		d.Facts = append(d.Facts, fact{Name: "derived", Value: "yes (no parent expected)"})
	}
	if len(r.Tags) > 0 {
		d.Facts = append(d.Facts, fact{Name: "tags", Value: strings.Join(r.Tags, ", ")})
	}
	for _, k := range sortedKeys(r.Fields) {
		d.Facts = append(d.Facts, fact{Name: k, Value: r.Fields[k]})
	}
	parents, children := b.parentLinks(rp, root)
	if len(parents) == 0 && len(children) == 0 {
		return
	}
	t := table{Title: "Parents", Head: []string{"requirement", "title", "link"}, Empty: "none: a top-level or derived requirement"}
	for _, p := range parents {
		st := cell{Text: "reviewed", Badge: "linked"}
		if p.Stale {
			st = cell{Text: "suspect", Badge: "stale", Title: p.Why}
		} else if p.Why != "" {
			st = cell{Text: "not reviewed", Badge: "unknown", Title: p.Why}
		}
		t.Rows = append(t.Rows, row{Stale: p.Stale, Cells: []cell{{Text: p.ID, URL: p.URL}, {Text: p.Title}, st}})
	}
	d.Tables = append(d.Tables, t)
	c := table{Title: "Children", Head: []string{"requirement", "title"}, Empty: "none"}
	for _, ch := range children {
		c.Rows = append(c.Rows, row{Cells: []cell{{Text: ch.ID, URL: ch.URL}, {Text: ch.Title}}})
	}
	d.Tables = append(d.Tables, c)
}

func (b *Renderer) document(folder string) *claims.Document {
	return synth.Document(b.model, folder)
}
