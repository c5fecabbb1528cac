package synth

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// NodeID is a node's identity, TYPE:KEY ([claims.NodeID]).
type NodeID = claims.NodeID

// Edge relations: exactly these three.
const (
	// Declared edges were recorded on purpose: a requirement's implements,
	// tests and issues, a claim, a link to a requirement, decision or page.
	Declared = "declared"
	// Located edges were found mechanically: code structure from the index,
	// a decision mentioning a path or key. A hint, never a declaration.
	Located = "located"
	// Verified is an evidences edge that resolves against the requirement's
	// current revision with its tests passed: the only relation called
	// verified.
	Verified = "verified"
)

// Declared and located edge kinds of the graph (the code index adds
// defines, imports, calls and tests).
const (
	KindImplements = "implements"
	KindTests      = "tests"
	KindIssues     = "issues"
	KindClaims     = "claims"
	KindLinks      = "links"
	KindSupersedes = "supersedes"
	KindEvidences  = "evidences"
	KindMentions   = "mentions"
	// KindParent is a declared edge from a requirement to a parent it
	// refines; it carries the link's suspect state.
	KindParent = "parent"
	// KindContains is a declared edge from a requirement document to a
	// requirement or a nested document in its folder.
	KindContains = "contains"
)

// Node is one node of the graph. Fields that do not apply to its type are
// left out of its JSON.
type Node struct {
	ID    NodeID          `json:"id"`
	Type  claims.NodeType `json:"type"`
	Label string          `json:"label"`
	// Stale and Why: a stale node carries a stale badge and says why. For a
	// code target Why also explains an unknown state (a deleted test
	// degrades, it is not stale).
	Stale bool   `json:"stale"`
	Why   string `json:"why"`
	// State and Reason are the drift verdict of a code target node.
	State       string `json:"state,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Moved       bool   `json:"moved,omitempty"`
	Reformatted bool   `json:"reformatted,omitempty"`
	Title       string `json:"title,omitempty"`
	Status      string `json:"status,omitempty"`
	Path        string `json:"path,omitempty"`
	Symbol      string `json:"symbol,omitempty"`
	Kind        string `json:"kind,omitempty"`  // symbol kind, page type
	Start       int    `json:"start,omitempty"` // current lines of a symbol
	End         int    `json:"end,omitempty"`
	// Implemented, Tested and Verified are set on requirement nodes only.
	Implemented *bool  `json:"implemented,omitempty"`
	Tested      *bool  `json:"tested,omitempty"`
	Verified    *bool  `json:"verified,omitempty"`
	Revision    string `json:"revision,omitempty"`
	// Requirement structure (SPEC 1.2): set on requirement nodes; a
	// document node has its folder in Document and its title.
	Document  string            `json:"document,omitempty"`
	Level     string            `json:"level,omitempty"`
	Tags      []string          `json:"tags,omitempty"`
	Fields    map[string]string `json:"fields,omitempty"`
	Normative *bool             `json:"normative,omitempty"` // nil: normative (the default); false for headings and notes
	Derived   bool              `json:"derived,omitempty"`
}

// Edge is one directed edge.
type Edge struct {
	Src      NodeID `json:"src"`
	Dst      NodeID `json:"dst"`
	Relation string `json:"relation"`
	Kind     string `json:"kind"`
	Stale    bool   `json:"stale"`
	Why      string `json:"why"`
	State    string `json:"state,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Source is "marker" for a requirement's link a code marker declares,
	// and Marker the marker's PATH:LINE (SPEC 1.6); both empty otherwise.
	Source string `json:"source,omitempty"`
	Marker string `json:"marker,omitempty"`
}

// Graph is the traceability graph. Nodes are sorted by type then id, edges
// by src, dst and kind; both are read-only once built.
type Graph struct {
	ProjectID string
	Nodes     []Node
	Edges     []Edge
	ids       map[NodeID]int32
	ends      [][2]int32         // per edge: its src and dst node
	adj       [][]int32          // per node: incident edges, by neighbor then edge
	byPath    map[string][]int32 // path → its file, symbol and test nodes, and requirements targeting it
	index     *codeanchors.Index // decides which symbols are tests; nil: by name
}

// Input is what [Build] draws the graph from.
type Input struct {
	ProjectID string
	Model     *claims.Model
	Report    *codeanchors.Report // drift of every link; the only source of stale and why
	Index     *codeanchors.Index  // code structure; nil for none
	Lang      string              // language of the whys
	// Externals are the bundles of the repositories this one links into
	// (SPEC 1.8): their requirements named as parents become nodes with
	// the states their bundles give. Nil for none.
	Externals codeanchors.Externals
}

// TargetNodeID is the node id of a code target in g: symbol:PATH@SYMBOL
// (test: for a test, as [codeanchors.Index.IsTest] decides with g's code
// index), file:PATH for a whole file, symbol:PATH#Lx-Ly for a bare line
// range. A nil g, or one without an index, tells tests by name only.
func (g *Graph) TargetNodeID(t claims.Target) NodeID {
	var ix *codeanchors.Index
	if g != nil {
		ix = g.index
	}
	return targetNodeID(ix, t)
}

func targetNodeID(ix *codeanchors.Index, t claims.Target) NodeID {
	switch {
	case t.External != "" && t.Path != "" && !t.IsSymbol() && !t.IsRange():
		return claims.FileNode(t.String()) // file:payments:src/charge.go
	case t.External != "":
		return NodeID{Type: claims.NodeSymbol, Key: t.String()} // symbol:payments:src/charge.go@Charge
	case t.IsSymbol():
		return symbolNodeID(ix, t.Path, t.Symbol)
	case t.IsRange():
		return NodeID{Type: claims.NodeSymbol, Key: t.String()}
	}
	return claims.FileNode(t.Path)
}

// label is a node's short display name: its id without the type, and for
// code nodes inside a folder, the file's base name and the symbol
// ("graph.go@Build"); the id keeps the full path.
func label(typ claims.NodeType, ref string) string {
	if !KindOf(typ).Named {
		return ref
	}
	if name, rest, ok := claims.CutExternal(ref); ok {
		return name + ":" + label(typ, rest) // an external's code keeps its name
	}
	if i := strings.LastIndexByte(strings.Split(ref, "@")[0], '/'); i >= 0 {
		return ref[i+1:]
	}
	return ref
}

// symbolNodeID is the id of a symbol: test:PATH@SYMBOL for a test, as
// [codeanchors.Index.IsTest] decides (the extracted symbol's kind, else
// the name rule), else symbol:PATH@SYMBOL.
func symbolNodeID(ix *codeanchors.Index, path, symbol string) NodeID {
	key := claims.Target{Path: path, Symbol: symbol}.String()
	if ix.IsTest(path, symbol) {
		return NodeID{Type: claims.NodeTest, Key: key}
	}
	return NodeID{Type: claims.NodeSymbol, Key: key}
}

func refNodeID(ix *codeanchors.Index, r codeanchors.Ref) NodeID {
	if r.Symbol == "" {
		return claims.FileNode(r.Path)
	}
	return symbolNodeID(ix, r.Path, r.Symbol)
}

// builder collects nodes and edges; Build sorts and indexes them.
type builder struct {
	in    Input
	nodes map[NodeID]*Node
	edges []Edge
	// targets maps a requirement node to the paths of its implements and
	// tests targets, for path neighborhoods.
	targets map[NodeID][]string
}

func (b *builder) node(id NodeID) *Node {
	n := b.nodes[id]
	if n == nil {
		n = &Node{ID: id, Type: id.Type, Label: label(id.Type, id.Key)}
		b.nodes[id] = n
	}
	return n
}

func (b *builder) edge(src, dst NodeID, rel, kind string, v *codeanchors.Verdict) {
	e := Edge{Src: src, Dst: dst, Relation: rel, Kind: kind}
	if v != nil {
		b.judged(&e, v)
	}
	b.edges = append(b.edges, e)
}

// judged sets an edge's state, reason, staleness and why from a verdict.
func (b *builder) judged(e *Edge, v *codeanchors.Verdict) {
	e.State, e.Reason = string(v.State), string(v.Reason)
	e.Stale = v.State == codeanchors.Stale
	e.Why = v.Why(b.in.Lang)
	if e.Why == "" {
		e.Why = v.Note
	}
}

// Build draws the graph: linear in the model's links, the report and the
// index's edges.
func Build(in Input) *Graph {
	b := &builder{in: in, nodes: map[NodeID]*Node{}, targets: map[NodeID][]string{}}
	b.edges = make([]Edge, 0, edgesAbout(in))
	b.addRequirements()
	b.addDocs()
	b.addTargets()
	b.addEvidence()
	b.addIndex()
	b.addMentions()
	b.markStale()
	return b.finish()
}

// edgesAbout is about how many edges Build adds, at least: the builder
// appends each edge to one slice, which would otherwise grow (and copy)
// some twenty times on a large workspace.
func edgesAbout(in Input) int {
	n := 0
	if in.Index != nil {
		n += len(in.Index.Edges)
	}
	if r := in.Report; r != nil {
		n += len(r.Evidence) + len(r.Parents)
		for i := range r.Targets {
			n += len(r.Targets[i].Uses)
		}
	}
	if m := in.Model; m != nil {
		n += len(m.Documents)
		for _, r := range m.Requirements {
			n += 1 + len(r.Issues) + len(r.Doc.Links)
		}
		for _, d := range m.Decisions {
			n += len(d.Supersedes) + len(d.Doc.Links)
		}
		for _, p := range m.Pages {
			n += len(p.Doc.Links)
		}
	}
	return n
}

func (b *builder) addRequirements() {
	status := map[string]codeanchors.RequirementStatus{}
	if b.in.Report != nil {
		for _, s := range b.in.Report.Requirements {
			status[s.ID] = s
		}
	}
	for _, r := range b.in.Model.Requirements {
		n := b.node(claims.RequirementNode(r.ID))
		s := status[r.ID]
		n.Title, n.Status, n.Revision = r.Title, r.Status, r.Revision
		n.Implemented, n.Tested, n.Verified = &s.Implemented, &s.Tested, &s.Verified
		n.Document, n.Level, n.Tags, n.Fields, n.Derived = r.Document, r.Level, r.Tags, r.Fields, r.Derived
		if !r.Normative {
			n.Normative = &r.Normative // present only when false: the default is true
		}
		if r.Document != "" {
			b.edge(claims.DocumentNode(r.Document), n.ID, Declared, KindContains, nil)
		}
		for _, d := range r.Issues {
			b.edge(n.ID, claims.DecisionNode(d.ID), Declared, KindIssues, nil)
		}
		for _, t := range slices.Concat(r.Implements, r.Tests) {
			b.targets[n.ID] = append(b.targets[n.ID], t.Target.Path)
		}
	}
	b.addParents()
	for _, d := range b.in.Model.Documents {
		n := b.node(claims.DocumentNode(d.Path))
		n.Title, n.Document, n.Path = d.Title, d.Path, d.Doc.File
		if up := d.Parent(); up != "" {
			b.edge(claims.DocumentNode(up), n.ID, Declared, KindContains, nil)
		}
	}
	for _, d := range b.in.Model.Decisions {
		n := b.node(claims.DecisionNode(d.ID))
		n.Title, n.Status = d.Title, d.Status
		for _, s := range d.Supersedes {
			b.edge(n.ID, claims.DecisionNode(s.ID), Declared, KindSupersedes, nil)
		}
	}
	for _, p := range b.in.Model.Pages {
		n := b.node(claims.PageNode(p.Path))
		n.Title, n.Kind, n.Path = p.Title, p.Type, p.Doc.File
	}
}

// addParents adds a parent edge from every requirement to each of its
// parents, with the link's verdict when the report judged it.
func (b *builder) addParents() {
	if b.in.Report != nil {
		for i := range b.in.Report.Parents {
			ps := &b.in.Report.Parents[i]
			b.externalRequirement(ps.Parent)
			b.edge(claims.RequirementNode(ps.Child), claims.RequirementNode(ps.Parent), Declared, KindParent, &ps.Verdict)
		}
		return
	}
	for _, r := range b.in.Model.Requirements {
		for _, p := range r.Parents {
			b.edge(claims.RequirementNode(r.ID), claims.RequirementNode(p.ID), Declared, KindParent, nil)
		}
	}
}

// addDocs adds the links of every document: to requirements, decisions and
// pages.
func (b *builder) addDocs() {
	each(b.in.Model, func(id NodeID, d *claims.Doc) {
		for _, l := range d.Links {
			dst := LinkNodeID(l)
			if dst != id && b.nodes[dst] != nil {
				b.edge(id, dst, Declared, KindLinks, nil)
			}
		}
	})
}

// LinkNodeID is the node a requirement, decision or page link of a
// document points at; the zero id for other links.
func LinkNodeID(l claims.Link) NodeID {
	switch l.Kind {
	case claims.LinkRequirement:
		return claims.RequirementNode(l.To)
	case claims.LinkDecision:
		return claims.DecisionNode(l.To)
	case claims.LinkPage:
		return claims.PageNode(l.To)
	}
	return NodeID{}
}

// each calls fn for every document of m with its node id.
func each(m *claims.Model, fn func(id NodeID, d *claims.Doc)) {
	for _, r := range m.Requirements {
		fn(claims.RequirementNode(r.ID), &r.Doc)
	}
	for _, d := range m.Decisions {
		fn(claims.DecisionNode(d.ID), &d.Doc)
	}
	for _, p := range m.Pages {
		fn(claims.PageNode(p.Path), &p.Doc)
	}
}

// addTargets adds every code target with its verdict, and the declared
// edges to it: implements, tests, claims.
func (b *builder) addTargets() {
	if b.in.Report == nil {
		return
	}
	for i := range b.in.Report.Targets {
		ts := &b.in.Report.Targets[i]
		id := targetNodeID(b.in.Index, ts.Target)
		n := b.node(id)
		v := ts.Verdict
		n.Path, n.Symbol = ts.Target.Path, ts.Target.Symbol
		n.State, n.Reason = string(v.State), string(v.Reason)
		n.Stale = v.State == codeanchors.Stale
		n.Why = v.Why(b.in.Lang)
		n.Moved, n.Reformatted = v.Moved, v.Reformatted
		n.Start, n.End = v.Start, v.End
		// Every use of the target has its verdict: judged once.
		e := Edge{Dst: id, Relation: Declared}
		b.judged(&e, &ts.Verdict)
		for _, u := range ts.Uses {
			e.Src, e.Kind = u.Node, u.Role
			e.Source, e.Marker = "", ""
			if u.Marker {
				e.Source, e.Marker = SourceMarker, u.Pos.String()
			}
			b.edges = append(b.edges, e)
		}
	}
}

// addEvidence adds a run node per evidence entry and its evidences edge:
// verified when linked with its tests passed, declared otherwise. A
// superseded entry is history, not a link: its run is a node (whose page
// lists it) but it adds no edge.
func (b *builder) addEvidence() {
	if b.in.Report == nil {
		return
	}
	for _, es := range b.in.Report.Evidence {
		run := b.node(claims.RunNode(es.Evidence.Run))
		if es.Verdict.State == codeanchors.Superseded {
			continue
		}
		rel := Declared
		if es.Verdict.State == codeanchors.Linked && es.Evidence.Passed() {
			rel = Verified
		}
		b.edge(claims.RequirementNode(es.Evidence.Req), run.ID, rel, KindEvidences, &es.Verdict)
	}
}

// addIndex adds the located structure of the code: every indexed file and
// symbol, and the defines, imports, calls and tests edges.
func (b *builder) addIndex() {
	if b.in.Index == nil {
		return
	}
	for _, f := range b.in.Index.Files {
		fn := b.node(claims.FileNode(f.Path))
		fn.Path = f.Path
		for _, s := range f.Symbols {
			n := b.node(symbolNodeID(b.in.Index, f.Path, s.Name))
			n.Path, n.Symbol, n.Kind = f.Path, s.Name, s.Kind
			if n.State == "" { // a target's current lines come from its verdict
				n.Start, n.End = s.Start, s.End
			}
		}
	}
	for _, e := range b.in.Index.Edges {
		b.edge(refNodeID(b.in.Index, e.From), refNodeID(b.in.Index, e.To), Located, e.Kind, nil)
		b.edges[len(b.edges)-1].Why = e.Why
	}
}

// addMentions adds a located mentions edge from a decision to every file
// path and requirement id its title or body names, unless a declared link
// already joins them.
func (b *builder) addMentions() {
	if len(b.in.Model.Decisions) == 0 {
		return
	}
	declared := map[[2]NodeID]bool{}
	for _, e := range b.edges {
		// Only a decision's own declared links are asked about.
		if e.Relation != Located && (e.Src.Type == claims.NodeDecision || e.Dst.Type == claims.NodeDecision) {
			declared[[2]NodeID{e.Src, e.Dst}] = true
			declared[[2]NodeID{e.Dst, e.Src}] = true
		}
	}
	for _, d := range b.in.Model.Decisions {
		src := claims.DecisionNode(d.ID)
		seen := map[NodeID]bool{}
		for _, w := range words(d.Title + "\n" + string(d.Doc.Body)) {
			for _, dst := range []NodeID{claims.FileNode(w), claims.RequirementNode(w)} {
				if b.nodes[dst] == nil || seen[dst] || declared[[2]NodeID{src, dst}] {
					continue
				}
				seen[dst] = true
				b.edge(src, dst, Located, KindMentions, nil)
				b.edges[len(b.edges)-1].Why = "the decision's text mentions " + w + "; a located hint, not a declared link"
			}
		}
	}
}

// words splits text into the words a mention can be: runs of letters,
// digits and the characters of paths and ids, without trailing
// punctuation, and a PATH@SYMBOL word also as its PATH.
func words(text string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == '@' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		w = strings.TrimRight(w, ".-")
		if p, _, ok := strings.Cut(w, "@"); ok {
			w = p
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// markStale makes a requirement, decision or page stale when one of its
// declared links is, with the distinct whys of those links.
func (b *builder) markStale() {
	whys := map[NodeID][]string{}
	for _, e := range b.edges {
		if e.Stale && e.Relation != Located {
			whys[e.Src] = append(whys[e.Src], e.Why)
		}
	}
	for id, ws := range whys {
		n := b.nodes[id]
		if n == nil || KindOf(n.Type).Code {
			continue
		}
		slices.Sort(ws)
		n.Stale, n.Why = true, strings.Join(slices.Compact(ws), "; ")
	}
}

func (b *builder) finish() *Graph {
	g := &Graph{ProjectID: b.in.ProjectID, ids: make(map[NodeID]int32, len(b.nodes)), byPath: map[string][]int32{}, index: b.in.Index}
	// Nodes and edges are large structs: sort pointers and indexes, then
	// copy each once.
	type nodeKey struct {
		rank int // the type's
		n    *Node
	}
	nodes := make([]nodeKey, 0, len(b.nodes))
	for _, n := range b.nodes {
		nodes = append(nodes, nodeKey{KindRank(n.Type), n})
	}
	// compareNodes, with each type's rank found once.
	slices.SortFunc(nodes, func(a, b nodeKey) int { return cmp.Or(cmp.Compare(a.rank, b.rank), a.n.ID.Compare(b.n.ID)) })
	g.Nodes = make([]Node, len(nodes))
	for i, k := range nodes {
		g.Nodes[i] = *k.n
		g.ids[k.n.ID] = int32(i)
	}
	// Drop edges to nodes that do not exist (a link the parser already
	// reported), sort by src, dst, kind and relation (stably: the order
	// added breaks ties), and keep one edge per src, dst, kind: the first.
	// The ends compare as their places in id order, numbers; the large
	// edges are sorted as small keys, then copied once.
	rank := idOrder(g.Nodes)
	type edgeKey struct {
		ends     uint64 // the ends' ranks in id order
		src, dst int32  // the ends' node indexes
		i        int32  // the edge's index in b.edges
	}
	keys := make([]edgeKey, 0, len(b.edges))
	for i := range b.edges {
		e := &b.edges[i]
		s, okS := g.ids[e.Src]
		d, okD := g.ids[e.Dst]
		if okS && okD {
			keys = append(keys, edgeKey{uint64(rank[s])<<32 | uint64(rank[d]), s, d, int32(i)})
		}
	}
	slices.SortFunc(keys, func(x, y edgeKey) int {
		if c := cmp.Compare(x.ends, y.ends); c != 0 {
			return c
		}
		ex, ey := &b.edges[x.i], &b.edges[y.i]
		return cmp.Or(cmp.Compare(ex.Kind, ey.Kind), cmp.Compare(ex.Relation, ey.Relation), cmp.Compare(x.i, y.i))
	})
	g.Edges = make([]Edge, 0, len(keys))
	g.ends = make([][2]int32, 0, len(keys))
	for j, k := range keys {
		e := &b.edges[k.i]
		if j > 0 && keys[j-1].ends == k.ends && b.edges[keys[j-1].i].Kind == e.Kind {
			continue // the same src, dst and kind as the edge kept before
		}
		g.Edges = append(g.Edges, *e)
		g.ends = append(g.ends, [2]int32{k.src, k.dst})
	}
	b.edges = nil

	g.adj = make([][]int32, len(g.Nodes))
	for i, se := range g.ends {
		s, d := se[0], se[1]
		g.adj[s] = append(g.adj[s], int32(i))
		if d != s {
			g.adj[d] = append(g.adj[d], int32(i))
		}
	}
	for i, inc := range g.adj {
		slices.SortFunc(inc, func(x, y int32) int {
			return cmp.Or(cmp.Compare(g.other(int32(i), x), g.other(int32(i), y)), cmp.Compare(x, y))
		})
	}
	for i, n := range g.Nodes {
		if KindOf(n.Type).Code {
			g.byPath[n.Path] = append(g.byPath[n.Path], int32(i))
		}
	}
	for req, paths := range b.targets {
		for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
			g.byPath[p] = append(g.byPath[p], g.ids[req])
		}
	}
	for p, ns := range g.byPath {
		slices.Sort(ns)
		g.byPath[p] = slices.Compact(ns)
	}
	return g
}

// other returns the node at the other end of edge e from node n.
func (g *Graph) other(n, e int32) int32 {
	if g.ends[e][0] == n {
		return g.ends[e][1]
	}
	return g.ends[e][0]
}

// Node returns the node with the id, and whether it exists.
func (g *Graph) Node(id NodeID) (Node, bool) {
	i, ok := g.ids[id]
	if !ok {
		return Node{}, false
	}
	return g.Nodes[i], true
}

// idOrder returns each node's place in id order (type, then key), the
// order of edges' ends, for nodes sorted by [compareNodes]: type rank,
// then id. Each type's nodes are then one run in key order, and id order
// is those runs ordered by type.
func idOrder(nodes []Node) []int32 {
	type run struct {
		typ        claims.NodeType
		start, end int
	}
	var runs []run
	for i, n := range nodes {
		if len(runs) == 0 || runs[len(runs)-1].typ != n.Type {
			runs = append(runs, run{n.Type, i, i})
		}
		runs[len(runs)-1].end = i + 1
	}
	slices.SortFunc(runs, func(a, b run) int { return cmp.Compare(a.typ, b.typ) })
	rank := make([]int32, len(nodes))
	next := int32(0)
	for _, r := range runs {
		for i := r.start; i < r.end; i++ {
			rank[i] = next
			next++
		}
	}
	return rank
}

func compareNodes(a, b Node) int {
	return cmp.Or(cmp.Compare(KindRank(a.Type), KindRank(b.Type)), a.ID.Compare(b.ID))
}

func compareEdges(a, b *Edge) int {
	return cmp.Or(a.Src.Compare(b.Src), a.Dst.Compare(b.Dst), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Relation, b.Relation))
}

// GraphSchemaVersion versions the whole-graph JSON.
const GraphSchemaVersion = 1

// GraphJSON is the whole graph as JSON (api/graph.json).
type GraphJSON struct {
	SchemaVersion int    `json:"schemaVersion"`
	ProjectID     string `json:"project_id"`
	Nodes         []Node `json:"nodes"`
	Edges         []Edge `json:"edges"`
}

// JSON returns the whole graph as its JSON document.
func (g *Graph) JSON() GraphJSON {
	return GraphJSON{SchemaVersion: GraphSchemaVersion, ProjectID: g.ProjectID, Nodes: g.Nodes, Edges: g.Edges}
}
