package render

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// matrixFilters are the requirement matrix's static filter pages: they
// work without JavaScript, and the home page's cards link to them. With
// JavaScript the matrix page filters and sorts in place (assets/matrix.js,
// assets/sorttable.js).
var matrixFilters = []struct {
	slug, text string
	keep       func(n synth.Node) bool
}{
	{"stale", "stale", func(n synth.Node) bool { return n.Stale }},
	{"implemented", "implemented", func(n synth.Node) bool { return isTrue(n.Implemented) }},
	{"unimplemented", "not implemented", func(n synth.Node) bool { return !isTrue(n.Implemented) }},
	{"tested", "tested", func(n synth.Node) bool { return isTrue(n.Tested) }},
	{"untested", "not tested", func(n synth.Node) bool { return !isTrue(n.Tested) }},
	{"verified", "verified", func(n synth.Node) bool { return isTrue(n.Verified) }},
	{"unverified", "not verified", func(n synth.Node) bool { return !isTrue(n.Verified) }},
}

func isTrue(b *bool) bool { return b != nil && *b }

// matrixData is the traceability matrix: coverage, then one row per
// requirement.
type matrixData struct {
	Coverage []coverage
	Rows     []matrixRow
	Statuses []string // the statuses present, for the in-page filter
}

// matrixRow is one requirement of the matrix.
type matrixRow struct {
	Node                          synth.Node
	URL                           string
	Order                         int // position in natural id order, for the in-page sort
	Implemented, Tested, Verified bool
	Code, Tests                   []refState
	// Document and Parents place the requirement in its hierarchy; Tags
	// (space-separated, for the in-page tag filter) and Fields are its own.
	Document link
	Parents  []link
	Tags     string
	Fields   []field
}

// link is a named link to a page of the site ("" URL: no page).
type link struct{ Text, URL string }

// field is one custom field of a requirement.
type field struct{ Name, Value string }

// refState is a linked code target with its state.
type refState struct {
	Ref, URL, State, Why string
	// Marker is the PATH:LINE of the code marker that declares the link;
	// "" for the front matter's.
	Marker string
}

// coverage counts, for the requirements of one scope (a document or all),
// how many are implemented, tested and verified.
type coverage struct {
	Name, URL                            string
	Total, Implemented, Tested, Verified int
}

// Pct is n as a whole percentage of the total ("–" with no requirements).
func (c coverage) Pct(n int) string {
	if c.Total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d%%", n*100/c.Total)
}

func (c *coverage) add(n synth.Node) {
	c.Total++
	for _, f := range []struct {
		v *bool
		n *int
	}{{n.Implemented, &c.Implemented}, {n.Tested, &c.Tested}, {n.Verified, &c.Verified}} {
		if isTrue(f.v) {
			*f.n++
		}
	}
}

// coverage is the coverage of the normative requirements (SPEC 2: headings
// and notes are not counted), of all of them first, then of each
// requirement document in the graph's order, counting the requirements of
// its nested documents too.
func (b *Renderer) coverage(root string) []coverage {
	out := []coverage{{Name: "all requirements", URL: root + indexURL(requirementsDir)}}
	index := map[string]int{} // document folder → its row
	for _, n := range b.graph.Nodes {
		if n.Type == claims.NodeDocument {
			index[n.Document] = len(out)
			out = append(out, coverage{Name: cmp.Or(n.Title, n.Document), URL: root + NodeURL(n)})
		}
	}
	for _, n := range b.graph.Nodes {
		if n.Type != claims.NodeRequirement || (n.Normative != nil && !*n.Normative) {
			continue
		}
		out[0].add(n)
		// The requirement's document and every document it nests in.
		for f := n.Document; f != ""; f = parentFolder(f) {
			if i, ok := index[f]; ok {
				out[i].add(n)
			}
		}
	}
	return out
}

// requirementNodes returns the graph's requirement nodes in natural id
// order (REQ-2 before REQ-10).
func (b *Renderer) requirementNodes() []synth.Node {
	var out []synth.Node
	for _, n := range b.graph.Nodes {
		if n.Type == claims.NodeRequirement && !synth.IsExternal(n.ID) {
			out = append(out, n)
		}
	}
	slices.SortStableFunc(out, func(x, y synth.Node) int { return claims.CompareIDs(x.Label, y.Label) })
	return out
}

// matrix is the requirements index: the traceability matrix filtered by
// slug ("" for all).
func matrix(slug string) func(b *Renderer, root string) (*pageData, any, error) {
	return func(b *Renderer, root string) (*pageData, any, error) {
		keep := func(synth.Node) bool { return true }
		d := &pageData{Title: "Requirements", Heading: "Requirements", Matrix: &matrixData{}}
		d.Filters = append(d.Filters, filter{Text: "all", URL: root + indexURL(requirementsDir), Current: slug == ""})
		for _, f := range matrixFilters {
			if f.slug == slug {
				keep = f.keep
				d.Heading = "Requirements: " + f.text
				d.Title = d.Heading
			}
			d.Filters = append(d.Filters, filter{Text: f.text, URL: root + indexURL(filterDir(f.slug)), Current: f.slug == slug})
		}
		var nodes []synth.Node
		statuses := map[string]bool{}
		for i, n := range b.requirementNodes() {
			if !keep(n) {
				continue
			}
			nodes = append(nodes, n)
			statuses[n.Status] = true
			r := b.requirement(n.Label)
			d.Matrix.Rows = append(d.Matrix.Rows, matrixRow{
				Node: n, URL: root + NodeURL(n), Order: i,
				Implemented: isTrue(n.Implemented), Tested: isTrue(n.Tested), Verified: isTrue(n.Verified),
				Code: b.refStates(r.Implements, root), Tests: b.refStates(r.Tests, root),
				Document: b.documentLink(n.Document, root), Parents: b.parentRefs(r.Parents, root),
				Tags: strings.Join(n.Tags, " "), Fields: fieldsOf(n.Fields),
			})
		}
		d.Matrix.Coverage = b.coverage(root)
		d.Matrix.Statuses = slices.Sorted(func(yield func(string) bool) {
			for s := range statuses {
				if s != "" && !yield(s) {
					return
				}
			}
		})
		return d, ListJSON{SchemaVersion: synth.SchemaVersion, Kind: claims.NodeRequirement, Title: d.Heading, Nodes: orEmpty(nodes)}, nil
	}
}

// refStates lists targets with their current states: those not linked
// (stale, unknown) first, then the linked, each in the order written, so
// that a matrix cell that folds its last links (matrixRefsShown) shows its
// problems.
func (b *Renderer) refStates(refs []claims.TargetRef, root string) []refState {
	var out []refState
	for _, ref := range refs {
		rs := refState{Ref: ref.Target.String(), URL: b.idHref(root, b.graph.TargetNodeID(ref.Target)),
			State: string(codeanchors.Uncaptured.State()), Why: codeanchors.Uncaptured.Why(b.lang)}
		if ts := b.targets[rs.Ref]; ts != nil {
			rs.State, rs.Why = string(ts.Verdict.State), ts.Verdict.Reason.Why(b.lang)
		}
		if rs.URL == root {
			rs.URL = ""
		}
		if ref.Marker {
			rs.Marker = ref.Pos.String()
		}
		out = append(out, rs)
	}
	problemsFirst(out)
	return out
}

// problemsFirst orders links not linked before the linked, keeping the
// order written within each.
func problemsFirst(refs []refState) {
	slices.SortStableFunc(refs, func(x, y refState) int {
		return cmp.Compare(b2i(x.State == string(codeanchors.Linked)), b2i(y.State == string(codeanchors.Linked)))
	})
}

// parentFolder is the folder a document folder nests in ("a/b" → "a";
// "a" → "").
func parentFolder(folder string) string {
	i := strings.LastIndexByte(folder, '/')
	if i < 0 {
		return ""
	}
	return folder[:i]
}

// documentLink links the requirement document in folder ("": none).
func (b *Renderer) documentLink(folder, root string) link {
	if folder == "" {
		return link{}
	}
	if n, ok := b.graph.Node(claims.DocumentNode(folder)); ok {
		return link{Text: cmp.Or(n.Title, folder), URL: root + NodeURL(n)}
	}
	return link{Text: folder}
}

// parentRefs links a requirement's parents, in the order written.
func (b *Renderer) parentRefs(parents []claims.IDRef, root string) []link {
	var out []link
	for _, p := range parents {
		l := link{Text: p.ID}
		if n, ok := b.graph.Node(claims.RequirementNode(p.ID)); ok {
			l.URL = b.href(root, n)
		}
		out = append(out, l)
	}
	return out
}

// fieldsOf lists custom fields by name.
func fieldsOf(m map[string]string) []field {
	var out []field
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, field{k, m[k]})
	}
	return out
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
