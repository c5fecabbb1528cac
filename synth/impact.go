package synth

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// ImpactSchemaVersion is the version of the JSON of "tracewiki impact".
// Version 2: at most MaxImpactRoots roots per path, relying documents
// with titles and excerpts, and budgets.
const ImpactSchemaVersion = 2

// Bounds of an impact answer (SPEC 5). Every cut is counted: a path's
// nodes count its changed nodes, a root's located_total its candidates.
const (
	// MaxImpactRoots caps the changed nodes listed per path: those most
	// relied on (declared edges, then located candidates).
	MaxImpactRoots = 3
	// MaxImpactCandidates caps the located candidates listed per root;
	// the rest are counted.
	MaxImpactCandidates = 12
	// MaxImpactNodes caps the roots listed in all; "truncated" says when
	// more are left.
	MaxImpactNodes = 400
	// BudgetCandidates is how many candidates per root, and BudgetPages how
	// many relying pages, a budget keeps once it sheds the rest.
	BudgetCandidates = 4
	BudgetPages      = 6
)

// The sections an impact budget sheds, in this order (SPEC 5), as
// budget.shed names them. Excerpts go first, as in lookup (ShedExcerpts).
const (
	ShedCandidates = "candidates beyond the first 4 per root"
	ShedPages      = "pages beyond the first 6"
	ShedRoots      = "roots beyond the first per path"
)

// ImpactOptions says what [Knowledge.Impact] returns.
type ImpactOptions struct {
	Base   string // the git revision the changes were read from, if any
	Budget int    // tokens; 0 means no budget
}

// Change is one changed path of the workspace, and the lines of its current
// text that changed.
type Change struct {
	Path string `json:"path"`
	// Lines are the changed line ranges of the current file, in order;
	// null means the whole file (a deleted file, or a path given without
	// lines).
	Lines []LineRange `json:"lines"`
}

// LineRange is a range of changed lines, both ends included. A deletion
// has Deleted set: lines were removed between Start and End (= Start+1).
type LineRange struct {
	Start   int  `json:"start"`
	End     int  `json:"end"`
	Deleted bool `json:"deleted,omitempty"`
}

// touches reports whether the change touches a node spanning lines
// start-end: an insertion or edit overlaps it; a deletion lies between two
// of its lines.
func (r LineRange) touches(start, end int) bool {
	if r.Deleted {
		return start <= r.Start && r.End <= end
	}
	return r.Start <= end && start <= r.End
}

// ParseChange parses a changed path given by hand: PATH, or PATH#Lx-Ly for
// some of its lines. The path is relative to the workspace root and must
// stay inside it.
func ParseChange(s string) (Change, error) {
	t, err := claims.ParseTarget(s)
	if err != nil {
		return Change{}, err
	}
	if t.IsSymbol() {
		return Change{}, fmt.Errorf("%q: want PATH or PATH#Lx-Ly, not a symbol", s)
	}
	if path.IsAbs(t.Path) || t.Path == ".." || strings.HasPrefix(t.Path, "../") {
		return Change{}, fmt.Errorf("%q: the path lies outside the workspace", s)
	}
	c := Change{Path: t.Path}
	if t.IsRange() {
		c.Lines = []LineRange{{Start: t.Start, End: t.End}}
	}
	return c, nil
}

// ImpactJSON is what relies on a set of changed paths, as "tracewiki impact"
// prints it.
type ImpactJSON struct {
	SchemaVersion int    `json:"schemaVersion"`
	Base          string `json:"base,omitempty"` // the git revision compared with, if any
	// Paths are the changed paths, in path order, each with the number of
	// changed nodes found in it (0: nothing of the graph lies there).
	Paths []ImpactPath `json:"paths"`
	// Changed lists the roots, in node order: per path, the MaxImpactRoots
	// changed nodes most relied on. A changed node is the file, a symbol
	// or test whose current lines a change touches (all of them when the
	// whole file changed; a target whose symbol is not found counts as
	// changed), or a wiki page by its file.
	Changed []ImpactNode `json:"changed"`
	// Relying sums up who relies on every changed node, listed as a root
	// or not, through declared links, and the tests among the located
	// candidates.
	Relying Relying `json:"relying"`
	// Truncated is true when more than MaxImpactNodes roots were left.
	Truncated bool    `json:"truncated"`
	Budget    *Budget `json:"budget,omitempty"`
}

// ImpactPath is one changed path.
type ImpactPath struct {
	Change
	Nodes int `json:"nodes"`
}

// ImpactNode is one changed node and what relies on it.
type ImpactNode struct {
	ID     NodeID          `json:"id"`
	Type   claims.NodeType `json:"type"`
	Ref    string          `json:"ref"`
	Path   string          `json:"path"`
	Start  int             `json:"start,omitempty"` // its current lines, when known
	End    int             `json:"end,omitempty"`
	State  string          `json:"state,omitempty"` // its drift verdict, when it is a link target
	Reason string          `json:"reason,omitempty"`
	// Declared lists every declared edge into the node: the claims,
	// requirements' implements and tests, and links between pages.
	Declared []ImpactEdge `json:"declared"`
	// Located lists up to MaxImpactCandidates incoming located edges
	// (tests, calls, imports, mentions; not defines), tests first, then
	// calls, imports and mentions, each by source id. LocatedTotal counts
	// them all.
	Located      []ImpactEdge `json:"located"`
	LocatedTotal int          `json:"located_total"`
}

// reliance is how much relies on a changed node: what picks the roots of
// a path, and the root a budget keeps.
func (n *ImpactNode) reliance() int { return len(n.Declared) + n.LocatedTotal }

// ImpactEdge is an edge into a changed node.
type ImpactEdge struct {
	Src      NodeID `json:"src"`
	Kind     string `json:"kind"`
	Relation string `json:"relation"`
	Stale    bool   `json:"stale"`
	Why      string `json:"why"`
	// Source and Marker are the graph edge's: "marker" and the marker's
	// PATH:LINE for a link a code marker declares (SPEC 1.6), so that a
	// changed file shows which of its comments ties it to a requirement.
	Source string `json:"source,omitempty"`
	Marker string `json:"marker,omitempty"`
}

// Relying lists, by id, the nodes that rely on the changed ones.
type Relying struct {
	// Requirements, Decisions and Pages have a declared edge into a
	// changed node.
	Requirements []ImpactDoc `json:"requirements"`
	Decisions    []ImpactDoc `json:"decisions"`
	Pages        []ImpactDoc `json:"pages"`
	// Tests are the tests with a located tests edge into a changed node,
	// all of them (not only the listed candidates).
	Tests []string `json:"tests"`
	// Claims counts the declared claims, implements and tests edges into
	// changed nodes.
	Claims int `json:"claims"`
}

// ImpactDoc is a requirement, decision or page that relies on changed
// nodes.
type ImpactDoc struct {
	ID    NodeID `json:"id"`
	Title string `json:"title"`
	Path  string `json:"path"` // its content file
	// Stale is true when one of its edges into the changed nodes is stale
	// already.
	Stale bool `json:"stale"`
	// Excerpt is what it says about the changed code: its first claim
	// sentence on a changed node, else the start of its text; at most
	// MaxExcerpt characters. Only [Knowledge.Impact] fills it.
	Excerpt string `json:"excerpt"`
}

// locatedRank orders located candidates: the tests to rerun first.
var locatedRank = map[string]int{"tests": 0, "calls": 1, "imports": 2, KindMentions: 3}

// locatedWhy explains a located edge the index left without a why.
var locatedWhy = map[string]string{
	"imports": "located: the file imports this file",
}

// Impact answers which claims, pages, requirements and tests rely on the
// changed paths. Paths are cleaned; changes of one path are merged.
func (g *Graph) Impact(changes []Change) ImpactJSON {
	out := ImpactJSON{SchemaVersion: ImpactSchemaVersion, Paths: []ImpactPath{}, Changed: []ImpactNode{}}
	rel := map[claims.NodeType]map[NodeID]bool{claims.NodeRequirement: {}, claims.NodeDecision: {}, claims.NodePage: {}, claims.NodeTest: {}}
	stale := map[NodeID]bool{}
	type root struct {
		i int32
		n ImpactNode
	}
	var roots []root
	for _, ip := range mergeChanges(changes) {
		var nodes []root
		for _, i := range g.nodesAt(ip.Path) {
			if n := g.Nodes[i]; ip.Lines == nil || n.Type == claims.NodeFile || n.Type == claims.NodePage || touched(n, ip.Lines) || g.markerTouched(i, ip) {
				nodes = append(nodes, root{i, g.impactNode(i, &out.Relying, rel, stale)})
			}
		}
		ip.Nodes = len(nodes)
		// The roots are the nodes most relied on; ties by node order.
		slices.SortStableFunc(nodes, func(a, b root) int { return cmp.Compare(b.n.reliance(), a.n.reliance()) })
		roots = append(roots, nodes[:min(len(nodes), MaxImpactRoots)]...)
		out.Paths = append(out.Paths, ip)
	}
	slices.SortFunc(roots, func(a, b root) int { return cmp.Compare(a.i, b.i) })
	if len(roots) > MaxImpactNodes {
		roots, out.Truncated = roots[:MaxImpactNodes], true
	}
	for _, r := range roots {
		out.Changed = append(out.Changed, r.n)
	}
	docs := func(m map[NodeID]bool) []ImpactDoc {
		list := []ImpactDoc{}
		for id := range m {
			n, _ := g.Node(id)
			list = append(list, ImpactDoc{ID: id, Title: cmp.Or(n.Title, n.Label), Path: n.Path, Stale: stale[id]})
		}
		slices.SortFunc(list, func(a, b ImpactDoc) int { return a.ID.Compare(b.ID) })
		return list
	}
	out.Relying.Requirements = docs(rel[claims.NodeRequirement])
	out.Relying.Decisions = docs(rel[claims.NodeDecision])
	out.Relying.Pages = docs(rel[claims.NodePage])
	out.Relying.Tests = []string{}
	for id := range rel[claims.NodeTest] {
		out.Relying.Tests = append(out.Relying.Tests, id.String())
	}
	slices.Sort(out.Relying.Tests)
	return out
}

// mergeChanges cleans the paths of changes and merges the changes of one
// path, in path order; a whole-file change wins over lines.
func mergeChanges(changes []Change) []ImpactPath {
	byPath := map[string]*ImpactPath{}
	var order []string
	for _, c := range changes {
		p := path.Clean(c.Path)
		ip := byPath[p]
		if ip == nil {
			ip = &ImpactPath{Change: Change{Path: p, Lines: []LineRange{}}}
			byPath[p] = ip
			order = append(order, p)
		}
		if c.Lines == nil || ip.Lines == nil {
			ip.Lines = nil // the whole file
		} else {
			ip.Lines = append(ip.Lines, c.Lines...)
		}
	}
	slices.Sort(order)
	out := make([]ImpactPath, 0, len(order))
	for _, p := range order {
		ip := byPath[p]
		slices.SortFunc(ip.Lines, func(a, b LineRange) int {
			return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), boolCmp(a.Deleted, b.Deleted))
		})
		ip.Lines = slices.Compact(ip.Lines)
		out = append(out, *ip)
	}
	return out
}

// impactNode lists the edges into the changed node i, and adds who relies
// on it to rel (by node type), whose edges are stale to stale, and its
// claims to r.
func (g *Graph) impactNode(i int32, r *Relying, rel map[claims.NodeType]map[NodeID]bool, stale map[NodeID]bool) ImpactNode {
	n := g.Nodes[i]
	in := ImpactNode{
		ID: n.ID, Type: n.Type, Ref: n.Ref(), Path: n.Path, Start: n.Start, End: n.End, State: n.State, Reason: n.Reason,
		Declared: []ImpactEdge{}, Located: []ImpactEdge{},
	}
	for _, ei := range g.adj[i] {
		e := g.Edges[ei]
		if e.Dst != n.ID || e.Src == n.ID {
			continue
		}
		ie := ImpactEdge{Src: e.Src, Kind: e.Kind, Relation: e.Relation, Stale: e.Stale, Why: e.Why, Source: e.Source, Marker: e.Marker}
		switch {
		case e.Relation != Located:
			in.Declared = append(in.Declared, ie)
			if slices.Contains(claimKinds, e.Kind) {
				r.Claims++
			}
			if typ := e.Src.Type; rel[typ] != nil && typ != claims.NodeTest {
				rel[typ][e.Src] = true
				stale[e.Src] = stale[e.Src] || e.Stale
			}
		case e.Kind != "defines":
			if ie.Why == "" {
				ie.Why = locatedWhy[e.Kind]
			}
			in.Located = append(in.Located, ie)
			if e.Kind == "tests" {
				rel[claims.NodeTest][e.Src] = true
			}
		}
	}
	slices.SortStableFunc(in.Declared, func(a, b ImpactEdge) int {
		return cmp.Or(a.Src.Compare(b.Src), cmp.Compare(a.Kind, b.Kind))
	})
	slices.SortStableFunc(in.Located, func(a, b ImpactEdge) int {
		return cmp.Or(cmp.Compare(rank(a.Kind), rank(b.Kind)), a.Src.Compare(b.Src), cmp.Compare(a.Kind, b.Kind))
	})
	in.LocatedTotal = len(in.Located)
	in.Located = in.Located[:min(len(in.Located), MaxImpactCandidates)]
	return in
}

// Impact is [Graph.Impact] with what the documents say: each relying
// document's content file and excerpt, the base, and with a budget the
// sections shed in SPEC 5's order.
func (k *Knowledge) Impact(changes []Change, o ImpactOptions) ImpactJSON {
	out := k.in.Graph.Impact(changes)
	out.Base = o.Base
	k.impactExcerpts(&out)
	if o.Budget > 0 {
		fitImpact(&out, o.Budget)
	}
	return out
}

// impactExcerpts fills in each relying document's content file and
// excerpt: its first claim sentence whose target is a changed node (or
// lies in a changed file), else the start of its text.
func (k *Knowledge) impactExcerpts(out *ImpactJSON) {
	g := k.in.Graph
	changed, files := map[NodeID]bool{}, map[string]bool{}
	for _, n := range out.Changed {
		changed[n.ID] = true
		if n.Type == claims.NodeFile {
			files[n.Path] = true
		}
	}
	want := map[NodeID]*ImpactDoc{}
	for _, list := range [][]ImpactDoc{out.Relying.Requirements, out.Relying.Decisions, out.Relying.Pages} {
		for i := range list {
			want[list[i].ID] = &list[i]
		}
	}
	each(k.in.Model, func(id NodeID, d *claims.Doc) {
		doc := want[id]
		if doc == nil {
			return
		}
		doc.Path = cmp.Or(d.File, doc.Path)
		text := string(d.Body)
		for _, c := range d.Claims {
			if c.HasTarget && (changed[g.TargetNodeID(c.Target)] || files[c.Target.Path]) {
				text = c.Text
				break
			}
		}
		doc.Excerpt = clip(strings.Join(strings.Fields(text), " "), MaxExcerpt, false)
	})
}

// fitImpact sheds sections in SPEC 5's order until out fits: excerpts,
// candidates beyond the first BudgetCandidates per root, pages beyond the
// first BudgetPages, then every root of a path but the one most relied
// on. The paths, the requirements and decisions, the tests and the counts
// are never shed; when even they do not fit, budget.fits is false.
func fitImpact(out *ImpactJSON, tokens int) {
	b := &Budget{Tokens: tokens}
	out.Budget = b
	r := &out.Relying
	fit(out, b, []shedStep{
		func() string {
			shed := false
			for _, list := range [][]ImpactDoc{r.Requirements, r.Decisions, r.Pages} {
				for i := range list {
					shed = shed || list[i].Excerpt != ""
					list[i].Excerpt = ""
				}
			}
			if !shed {
				return ""
			}
			return ShedExcerpts
		},
		func() string {
			shed := false
			for i := range out.Changed {
				if n := &out.Changed[i]; len(n.Located) > BudgetCandidates {
					n.Located, shed = n.Located[:BudgetCandidates], true
				}
			}
			if !shed {
				return ""
			}
			return ShedCandidates
		},
		func() string {
			if len(r.Pages) <= BudgetPages {
				return ""
			}
			r.Pages = r.Pages[:BudgetPages]
			return ShedPages
		},
		func() string {
			kept := firstRoots(out.Changed)
			if len(kept) == len(out.Changed) {
				return ""
			}
			out.Changed = kept
			return ShedRoots
		},
	})
}

// firstRoots keeps, of each path's roots (in node order), the one most
// relied on, as [Graph.Impact] ranks them.
func firstRoots(roots []ImpactNode) []ImpactNode {
	best := map[string]int{} // path → index in roots
	for i := range roots {
		p := roots[i].Path
		if j, ok := best[p]; !ok || roots[i].reliance() > roots[j].reliance() {
			best[p] = i
		}
	}
	kept := []ImpactNode{}
	for i := range roots {
		if best[roots[i].Path] == i {
			kept = append(kept, roots[i])
		}
	}
	return kept
}

func rank(kind string) int {
	if r, ok := locatedRank[kind]; ok {
		return r
	}
	return len(locatedRank)
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// nodesAt returns, in node order, the file, symbol, test and page nodes of
// a path.
func (g *Graph) nodesAt(p string) []int32 {
	var out []int32
	for _, i := range g.byPath[p] {
		if g.Nodes[i].Type != claims.NodeRequirement {
			out = append(out, i)
		}
	}
	for i, n := range g.Nodes {
		if n.Type == claims.NodePage && n.Path == p {
			out = append(out, int32(i))
		}
	}
	slices.Sort(out)
	return out
}

// touched reports whether a change touches the node's current lines. A
// node without current lines (a target whose symbol is gone) counts as
// touched: nothing says it is not.
func touched(n Node, lines []LineRange) bool {
	if n.Start == 0 {
		return true
	}
	for _, r := range lines {
		if r.touches(n.Start, n.End) {
			return true
		}
	}
	return false
}

// markerTouched reports whether the change ip touches the line of a code
// marker that declares a link to node i (SPEC 1.6): editing or deleting
// the marker changes the link, even where the marker lies outside its
// target's lines (a comment above a class).
func (g *Graph) markerTouched(i int32, ip ImpactPath) bool {
	id := g.Nodes[i].ID
	for _, ei := range g.adj[i] {
		e := g.Edges[ei]
		if e.Dst != id || e.Marker == "" {
			continue
		}
		k := strings.LastIndexByte(e.Marker, ':') // PATH:LINE, the path may hold a colon
		if k < 0 || e.Marker[:k] != ip.Path {
			continue
		}
		n, err := strconv.Atoi(e.Marker[k+1:])
		if err != nil {
			continue
		}
		for _, r := range ip.Lines {
			if r.touches(n, n) {
				return true
			}
		}
	}
	return false
}

// Text renders the answer for people: per changed path its changed nodes,
// each with what relies on it, then the summary.
func (im *ImpactJSON) Text() string {
	var b strings.Builder
	if im.Base != "" {
		fmt.Fprintf(&b, "changes since %s: ", im.Base)
	}
	total := 0
	for _, p := range im.Paths {
		total += p.Nodes
	}
	fmt.Fprintf(&b, "%d changed path%s, %d changed node%s\n", len(im.Paths), plural(len(im.Paths)), total, plural(total))
	byPath := map[string][]ImpactNode{}
	for _, n := range im.Changed {
		byPath[n.Path] = append(byPath[n.Path], n)
	}
	for _, p := range im.Paths {
		fmt.Fprintf(&b, "\n%s", p.Path)
		if p.Lines != nil {
			var rs []string
			for _, r := range p.Lines {
				switch {
				case r.Deleted:
					rs = append(rs, fmt.Sprintf("deleted after %d", r.Start))
				case r.Start == r.End:
					rs = append(rs, fmt.Sprint(r.Start))
				default:
					rs = append(rs, fmt.Sprintf("%d-%d", r.Start, r.End))
				}
			}
			fmt.Fprintf(&b, " (lines %s)", strings.Join(rs, ", "))
		}
		if p.Nodes == 0 {
			b.WriteString(": nothing in the graph\n")
			continue
		}
		b.WriteString("\n")
		for _, n := range byPath[p.Path] {
			if n.Type == claims.NodePage {
				fmt.Fprintf(&b, "  %s", n.ID)
			} else {
				fmt.Fprintf(&b, "  %s %s", n.Type, n.Ref)
			}
			if n.Start > 0 && n.Type != claims.NodeFile {
				fmt.Fprintf(&b, " (lines %d-%d)", n.Start, n.End)
			}
			if n.Reason != "" {
				fmt.Fprintf(&b, " [%s: %s]", n.State, n.Reason)
			}
			b.WriteString("\n")
			for _, e := range n.Declared {
				fmt.Fprintf(&b, "    %-8s %-10s %s", e.Relation, e.Kind, e.Src)
				if e.Marker != "" {
					fmt.Fprintf(&b, " (marker %s)", e.Marker)
				}
				if e.Stale {
					b.WriteString(" (stale)")
				}
				b.WriteString("\n")
			}
			for _, e := range n.Located {
				fmt.Fprintf(&b, "    %-8s %-10s %s: %s\n", e.Relation, e.Kind, e.Src, e.Why)
			}
			if more := n.LocatedTotal - len(n.Located); more > 0 {
				fmt.Fprintf(&b, "    … and %d more located candidate%s\n", more, plural(more))
			}
		}
		if more := p.Nodes - len(byPath[p.Path]); more > 0 {
			fmt.Fprintf(&b, "  … and %d more changed node%s, relied on less\n", more, plural(more))
		}
	}
	if im.Truncated {
		fmt.Fprintf(&b, "\n(more than %d roots; the rest are not listed)\n", MaxImpactNodes)
	}
	r := im.Relying
	fmt.Fprintf(&b, "\nrelying: %d claim%s", r.Claims, plural(r.Claims))
	for _, l := range []struct {
		name string
		n    int
	}{{"requirement", len(r.Requirements)}, {"decision", len(r.Decisions)}, {"page", len(r.Pages)}, {"test", len(r.Tests)}} {
		if l.n > 0 {
			fmt.Fprintf(&b, ", %d %s%s", l.n, l.name, plural(l.n))
		}
	}
	b.WriteString("\n")
	for _, docs := range [][]ImpactDoc{r.Requirements, r.Decisions, r.Pages} {
		for _, d := range docs {
			fmt.Fprintf(&b, "  %s: %s\n", d.ID, d.Title)
			if d.Excerpt != "" {
				fmt.Fprintf(&b, "    %s\n", d.Excerpt)
			}
		}
	}
	for _, id := range r.Tests {
		fmt.Fprintf(&b, "  %s\n", id)
	}
	if im.Budget != nil && len(im.Budget.Shed) > 0 {
		fmt.Fprintf(&b, "\nto fit %d tokens, shed: %s\n", im.Budget.Tokens, strings.Join(im.Budget.Shed, "; "))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
