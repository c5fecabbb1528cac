package synth

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// ImpactSchemaVersion is the version of the JSON of "tracewiki impact".
const ImpactSchemaVersion = 1

// Bounds of an impact answer.
const (
	// MaxImpactCandidates caps the located candidates listed per changed
	// node; the rest are counted.
	MaxImpactCandidates = 12
	// MaxImpactNodes caps the changed nodes listed; "truncated" says when
	// more changed.
	MaxImpactNodes = 400
)

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
	// Changed lists the changed nodes, in node order: the file, the
	// symbols and tests whose current lines a change touches (all of them
	// when the whole file changed; a target whose symbol is not found
	// counts as changed), and wiki pages by their file.
	Changed []ImpactNode `json:"changed"`
	// Relying sums up who relies on the changed nodes through declared
	// links, and the tests among the located candidates.
	Relying Relying `json:"relying"`
	// Truncated is true when more than MaxImpactNodes nodes changed.
	Truncated bool `json:"truncated"`
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

// ImpactEdge is an edge into a changed node.
type ImpactEdge struct {
	Src      NodeID `json:"src"`
	Kind     string `json:"kind"`
	Relation string `json:"relation"`
	Stale    bool   `json:"stale"`
	Why      string `json:"why"`
}

// Relying lists, by id, the nodes that rely on the changed ones.
type Relying struct {
	Requirements []string `json:"requirements"` // with a declared edge into a changed node
	Decisions    []string `json:"decisions"`
	Pages        []string `json:"pages"`
	// Tests are the tests with a located tests edge into a changed node,
	// all of them (not only the listed candidates).
	Tests []string `json:"tests"`
	// Claims counts the declared claims, implements and tests edges into
	// changed nodes.
	Claims int `json:"claims"`
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
	var changed []int32
	for _, p := range order {
		ip := byPath[p]
		slices.SortFunc(ip.Lines, func(a, b LineRange) int {
			return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), boolCmp(a.Deleted, b.Deleted))
		})
		ip.Lines = slices.Compact(ip.Lines)
		for _, i := range g.nodesAt(p) {
			if n := g.Nodes[i]; ip.Lines == nil || n.Type == claims.NodeFile || n.Type == claims.NodePage || touched(n, ip.Lines) {
				changed = append(changed, i)
				ip.Nodes++
			}
		}
		out.Paths = append(out.Paths, *ip)
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if len(changed) > MaxImpactNodes {
		changed, out.Truncated = changed[:MaxImpactNodes], true
	}
	rel := map[claims.NodeType]map[NodeID]bool{claims.NodeRequirement: {}, claims.NodeDecision: {}, claims.NodePage: {}, claims.NodeTest: {}}
	for _, i := range changed {
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
			ie := ImpactEdge{Src: e.Src, Kind: e.Kind, Relation: e.Relation, Stale: e.Stale, Why: e.Why}
			switch {
			case e.Relation != Located:
				in.Declared = append(in.Declared, ie)
				if slices.Contains(claimKinds, e.Kind) {
					out.Relying.Claims++
				}
				if typ := e.Src.Type; rel[typ] != nil && typ != claims.NodeTest {
					rel[typ][e.Src] = true
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
		out.Changed = append(out.Changed, in)
	}
	sorted := func(m map[NodeID]bool) []string {
		s := []string{}
		for id := range m {
			s = append(s, id.String())
		}
		slices.Sort(s)
		return s
	}
	out.Relying.Requirements = sorted(rel[claims.NodeRequirement])
	out.Relying.Decisions = sorted(rel[claims.NodeDecision])
	out.Relying.Pages = sorted(rel[claims.NodePage])
	out.Relying.Tests = sorted(rel[claims.NodeTest])
	return out
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

// Text renders the answer for people: per changed path its changed nodes,
// each with what relies on it, then the summary.
func (im *ImpactJSON) Text() string {
	var b strings.Builder
	if im.Base != "" {
		fmt.Fprintf(&b, "changes since %s: ", im.Base)
	}
	fmt.Fprintf(&b, "%d changed path%s, %d changed node%s\n", len(im.Paths), plural(len(im.Paths)), len(im.Changed), plural(len(im.Changed)))
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
	}
	if im.Truncated {
		fmt.Fprintf(&b, "\n(more than %d nodes changed; the rest are not listed)\n", MaxImpactNodes)
	}
	r := im.Relying
	fmt.Fprintf(&b, "\nrelying: %d claim%s", r.Claims, plural(r.Claims))
	for _, l := range []struct {
		name string
		ids  []string
	}{{"requirement", r.Requirements}, {"decision", r.Decisions}, {"page", r.Pages}, {"test", r.Tests}} {
		if len(l.ids) > 0 {
			fmt.Fprintf(&b, ", %d %s%s", len(l.ids), l.name, plural(len(l.ids)))
		}
	}
	b.WriteString("\n")
	for _, ids := range [][]string{r.Requirements, r.Decisions, r.Pages, r.Tests} {
		for _, id := range ids {
			fmt.Fprintf(&b, "  %s\n", id)
		}
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
