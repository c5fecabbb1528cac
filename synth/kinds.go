package synth

import (
	"cmp"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
)

// Kind is one node type and what the code that handles a node asks of its
// type: where its page lives, whether it is code or a document, how its
// page is drawn. [Kinds] is the one table of them: the renderer, the graph,
// lookup and diff read it instead of switching on a node's type, and a test
// checks the JSON schemas' enums and the search script against it, so a
// new kind is one row here (and its page's code), not an edit in ten places.
type Kind struct {
	Type claims.NodeType
	// Dir is the site folder of the kind's pages ("requirements"); "" for
	// a kind with no page of its own (a symbol lives on its file's page).
	Dir string
	// Nested marks a key that is a slash-separated path whose segments
	// become folders (a wiki page, a document), not one folder name.
	Nested bool
	// Code marks a code node: its key is its target (SPEC 1.3), its Path
	// its file, and its file's page lists it.
	Code bool
	// Named marks a code node named within its file (a symbol, a test):
	// its label is its name, not its key, and its id alone does not make
	// its page's URL.
	Named bool
	// Doc finds the model document whose text the kind's page shows (a
	// requirement's, decision's, wiki page's, a requirement document's
	// introduction); nil for a kind with no text of its own.
	Doc func(m *claims.Model, key string) *claims.Doc
	// Authored marks a kind written as one Markdown file of its own (a
	// requirement, decision, wiki page): a page diff compares it.
	Authored bool
	// Mentioned marks a kind that documents name by its key in their text
	// (an id, a symbol's name, a file's path): lookup looks for it there.
	Mentioned bool
	// Numbered marks a kind whose page heading is "ID: Title".
	Numbered bool
	// Template is the template of the kind's page.
	Template string
	// Listed marks a kind with an index page of its own, whose JSON names
	// it as its kind (the requirements matrix, the decisions, pages and
	// code lists).
	Listed bool
}

// Kinds lists every node kind in the order of SPEC 3 ([claims.NodeTypes]).
var Kinds = []Kind{
	{Type: claims.NodeRequirement, Dir: "requirements", Doc: requirementDoc, Authored: true, Mentioned: true, Numbered: true, Template: "node", Listed: true},
	{Type: claims.NodeDecision, Dir: "decisions", Doc: decisionDoc, Authored: true, Mentioned: true, Numbered: true, Template: "node", Listed: true},
	{Type: claims.NodeSymbol, Code: true, Named: true, Mentioned: true},
	{Type: claims.NodeTest, Dir: "tests", Code: true, Named: true, Mentioned: true, Template: "node"},
	{Type: claims.NodeRun, Dir: "runs", Mentioned: true, Template: "node"},
	{Type: claims.NodePage, Dir: "pages", Nested: true, Doc: pageDoc, Authored: true, Template: "node", Listed: true},
	{Type: claims.NodeFile, Dir: "code", Code: true, Mentioned: true, Template: "node", Listed: true},
	{Type: claims.NodeDocument, Dir: "documents", Nested: true, Doc: documentDoc, Template: "document"},
}

// KindOf returns the kind of a node type; the zero Kind for an unknown one.
func KindOf(t claims.NodeType) Kind {
	if i := t.Rank(); i >= 0 {
		return Kinds[i]
	}
	return Kind{}
}

// KindRank is the place of a node type's row in [Kinds], SPEC 3's order,
// by which lists of nodes are sorted; an unknown type comes last.
func KindRank(t claims.NodeType) int {
	if i := t.Rank(); i >= 0 {
		return i
	}
	return len(Kinds)
}

// DocOf is the model document whose text node n's page shows ([Kind.Doc]);
// nil for a node of a kind without text, or one the model does not hold.
func DocOf(m *claims.Model, n Node) *claims.Doc {
	if k := KindOf(n.Type); k.Doc != nil {
		return k.Doc(m, n.ID.Key)
	}
	return nil
}

// find returns the element of a sorted slice whose key compares equal,
// or the zero value.
func find[E any, K any](s []E, key K, compare func(E, K) int) (e E) {
	if i, ok := slices.BinarySearchFunc(s, key, compare); ok {
		return s[i]
	}
	return e
}

// Requirement is the model's requirement with the id; nil for none.
func Requirement(m *claims.Model, id string) *claims.Requirement {
	return find(m.Requirements, id, func(r *claims.Requirement, id string) int { return claims.CompareIDs(r.ID, id) })
}

// Decision is the model's decision with the id; nil for none.
func Decision(m *claims.Model, id string) *claims.Decision {
	return find(m.Decisions, id, func(d *claims.Decision, id string) int { return cmp.Compare(d.ID, id) })
}

// WikiPage is the model's wiki page at the content path; nil for none.
func WikiPage(m *claims.Model, path string) *claims.Page {
	return find(m.Pages, path, func(p *claims.Page, path string) int { return cmp.Compare(p.Path, path) })
}

// Document is the model's requirement document in the folder; nil for none.
func Document(m *claims.Model, folder string) *claims.Document {
	return find(m.Documents, folder, func(d *claims.Document, folder string) int { return cmp.Compare(d.Path, folder) })
}

func requirementDoc(m *claims.Model, id string) *claims.Doc {
	if r := Requirement(m, id); r != nil {
		return &r.Doc
	}
	return nil
}

func decisionDoc(m *claims.Model, id string) *claims.Doc {
	if d := Decision(m, id); d != nil {
		return &d.Doc
	}
	return nil
}

func pageDoc(m *claims.Model, path string) *claims.Doc {
	if p := WikiPage(m, path); p != nil {
		return &p.Doc
	}
	return nil
}

func documentDoc(m *claims.Model, folder string) *claims.Doc {
	if d := Document(m, folder); d != nil {
		return &d.Doc
	}
	return nil
}
