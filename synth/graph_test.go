package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// fixture is a small repository: Go code and content.
var fixture = map[string]string{
	"go.mod": "module example.com/shop\n",
	"auth/login.go": `package auth

func Login(user, password string) bool { return hash(password) == 42 }

func hash(s string) int { return len(s) }
`,
	"auth/login_test.go": `package auth

import "testing"

func TestLogin(t *testing.T) { Login("a", "b") }
`,
	"pay/pay.go": `package pay

import "example.com/shop/auth"

func Charge(user string) bool { return auth.Login(user, "x") }
`,
	"content/requirements/REQ-1.md": "---\nimplements: [auth/login.go@Login]\ntests: [auth/login_test.go@TestLogin]\nissues: [DEC-1]\n---\nUsers log in.\n",
	"content/requirements/REQ-2.md": "---\nimplements: [pay/pay.go@Charge]\n---\nUsers pay.\n",
	"content/decisions/DEC-1.md":    "---\ntitle: Hashing\n---\nSee pay/pay.go and REQ-2.\n",
	"content/guide.md":              "# Guide\n\nLogin hashes ([code](code:auth/login.go@Login)). See [REQ-1](req:REQ-1).\n",
}

// buildFixture builds the fixture's graph with its files handed over in the
// given order.
func buildFixture(t testing.TB, order []string) *Graph {
	g, _, _ := buildGraph(t, fixture, order, codeanchors.NewLock())
	return g
}

// buildGraph builds the graph of a small workspace (content/ Markdown and
// Go files of module example.com/shop), handing its files over in order
// and judging drift against lock. It returns the drift report and the
// model too.
func buildGraph(t testing.TB, files map[string]string, order []string, lock *codeanchors.Lock) (*Graph, *codeanchors.Report, *claims.Model) {
	t.Helper()
	var content []claims.File
	var code []*codeanchors.File
	sources := map[string]*codeanchors.Source{}
	for _, name := range order {
		src := []byte(files[name])
		switch {
		case strings.HasPrefix(name, "content/"):
			content = append(content, claims.File{Name: name, Data: src})
		case strings.HasSuffix(name, ".go"):
			s := codeanchors.NewSource(codeanchors.Default, name, src)
			if s.File == nil {
				t.Fatalf("%s: %v", name, s.ParseErr)
			}
			sources[name] = s
			code = append(code, s.File)
		}
	}
	m, diags := claims.Parse("content", content)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	project := map[string][]byte{"go.mod": []byte("module example.com/shop\n")}
	rep := codeanchors.Check(m, lock, sources)
	return Build(Input{
		ProjectID: "shop", Model: m, Lang: "en", Report: rep,
		Index: codeanchors.BuildIndex(codeanchors.IndexInput{Files: code, Project: project}),
	}), rep, m
}

// TestGraphOrderIndependent: the same files listed in shuffled orders give
// byte-identical graph and neighborhood JSON.
func TestGraphOrderIndependent(t *testing.T) {
	var names []string
	for name := range fixture {
		names = append(names, name)
	}
	slices.Sort(names)
	render := func(g *Graph) []byte {
		var buf bytes.Buffer
		for _, v := range []any{
			g.JSON(),
			g.Neighborhood(Query{Path: "auth/login.go", Depth: 3}),
			g.Neighborhood(Query{ReqKey: "REQ-1", IssueKey: "DEC-1", Depth: 2}),
		} {
			data, err := MarshalJSON(v)
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(data)
		}
		return buf.Bytes()
	}
	want := render(buildFixture(t, names))
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 20 {
		order := slices.Clone(names)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if got := render(buildFixture(t, order)); !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d (%q): graph JSON differs from the sorted build", i, order)
		}
	}
}

// TestNeighborhoodShape checks the invariants of every answer of a small
// graph: SPEC 3 order, edges only between returned nodes, stale_refs exactly
// the stale nodes, unknown keys adding nothing.
func TestNeighborhoodShape(t *testing.T) {
	var names []string
	for name := range fixture {
		names = append(names, name)
	}
	g := buildFixture(t, names)
	queries := []Query{
		{Path: "auth/login.go"}, {Path: "./auth/login.go", Depth: 2}, {ReqKey: "REQ-1", Depth: 3},
		{IssueKey: "DEC-1"}, {ReqKey: "REQ-9"}, {Path: "auth/login.go", ReqKey: "NOPE", IssueKey: "DEC-1", Depth: 9}, {},
	}
	for _, q := range queries {
		nb := g.Neighborhood(q).Neighborhood
		checkShape(t, q, nb)
	}
	nb := g.Neighborhood(Query{ReqKey: "REQ-9", IssueKey: "DEC-404"}).Neighborhood
	if len(nb.Nodes) != 0 || !slices.Equal(nb.Unknown, []string{"REQ-9", "DEC-404"}) {
		t.Errorf("unknown keys: nodes %d, unknown %q; want none and both keys", len(nb.Nodes), nb.Unknown)
	}
	nb = g.Neighborhood(Query{Path: "auth/login.go"}).Neighborhood
	ids := nodeIDs(nb)
	for _, want := range []string{"file:auth/login.go", "symbol:auth/login.go@Login", "symbol:auth/login.go@hash", "requirement:REQ-1"} {
		if !slices.Contains(ids, want) {
			t.Errorf("path neighborhood of auth/login.go lacks %s: %q", want, ids)
		}
	}
	if nb.Depth != 1 {
		t.Errorf("default depth = %d, want 1", nb.Depth)
	}
}

func nodeIDs(nb Neighborhood) []string {
	var ids []string
	for _, n := range nb.Nodes {
		ids = append(ids, n.ID.String())
	}
	return ids
}

func checkShape(t *testing.T, q Query, nb Neighborhood) {
	t.Helper()
	if nb.Depth < MinDepth || nb.Depth > MaxDepth {
		t.Errorf("%+v: depth %d not clamped", q, nb.Depth)
	}
	if !slices.IsSortedFunc(nb.Nodes, compareNodes) {
		t.Errorf("%+v: nodes not in type, id order", q)
	}
	if !slices.IsSortedFunc(nb.Edges, func(a, b Edge) int { return compareEdges(&a, &b) }) {
		t.Errorf("%+v: edges not in src, dst, kind order", q)
	}
	in := map[NodeID]bool{}
	var stale []string
	for _, n := range nb.Nodes {
		if in[n.ID] {
			t.Errorf("%+v: node %s twice", q, n.ID)
		}
		in[n.ID] = true
		if n.Stale {
			stale = append(stale, n.ID.String())
		}
	}
	for _, e := range nb.Edges {
		if !in[e.Src] || !in[e.Dst] {
			t.Errorf("%+v: edge %s -> %s leaves the neighborhood", q, e.Src, e.Dst)
		}
		if e.Relation != Declared && e.Relation != Located && e.Relation != Verified {
			t.Errorf("%+v: edge relation %q", q, e.Relation)
		}
	}
	if !slices.Equal(stale, nb.StaleRefs) && !(len(stale) == 0 && len(nb.StaleRefs) == 0) {
		t.Errorf("%+v: stale_refs %q, want %q", q, nb.StaleRefs, stale)
	}
	if len(nb.Nodes) > MaxNodes || len(nb.Edges) > MaxEdges {
		t.Errorf("%+v: %d nodes, %d edges: over the caps", q, len(nb.Nodes), len(nb.Edges))
	}
}

// manyCallers is an index where n functions, in n/100 files, call one
// function F, and a requirement implements F.
func manyCallers(n int) Input {
	target := &codeanchors.File{Path: "core/f.go", Symbols: []codeanchors.Symbol{{Name: "F", Kind: codeanchors.KindFunc, Start: 1, End: 1}}}
	files := []*codeanchors.File{target}
	var edges []codeanchors.Located
	for i := range n {
		if i%100 == 0 {
			files = append(files, &codeanchors.File{Path: fmt.Sprintf("callers/c%04d.go", i/100)})
		}
		f := files[len(files)-1]
		name := fmt.Sprintf("Caller%05d", i)
		f.Symbols = append(f.Symbols, codeanchors.Symbol{Name: name, Kind: codeanchors.KindFunc, Start: i%100 + 1, End: i%100 + 1})
		edges = append(edges, codeanchors.Located{From: codeanchors.Ref{Path: f.Path, Symbol: name}, To: codeanchors.Ref{Path: target.Path, Symbol: "F"}, Kind: codeanchors.EdgeCalls})
	}
	for _, f := range files {
		for _, s := range f.Symbols {
			edges = append(edges, codeanchors.Located{From: codeanchors.Ref{Path: f.Path}, To: codeanchors.Ref{Path: f.Path, Symbol: s.Name}, Kind: codeanchors.EdgeDefines})
		}
	}
	target.Symbols[0].End = 1
	tgt, _ := claims.ParseTarget("core/f.go@F")
	m := &claims.Model{Requirements: []*claims.Requirement{{ID: "REQ-1", Implements: []claims.TargetRef{{Target: tgt}}}}}
	return Input{ProjectID: "caps", Model: m, Report: codeanchors.Check(m, codeanchors.NewLock(), nil), Index: &codeanchors.Index{Files: files, Edges: edges}}
}

// TestNeighborhoodCaps: thousands of callers give at most 400 nodes and 800
// edges, and say truncated; a small answer does not.
func TestNeighborhoodCaps(t *testing.T) {
	g := Build(manyCallers(5000))
	for _, q := range []Query{{Path: "core/f.go"}, {Path: "core/f.go", Depth: 3}, {ReqKey: "REQ-1", Depth: 2}} {
		nb := g.Neighborhood(q).Neighborhood
		checkShape(t, q, nb)
		if !nb.Truncated || len(nb.Nodes) != MaxNodes {
			t.Errorf("%+v: %d nodes, %d edges, truncated %t; want %d nodes and truncated", q, len(nb.Nodes), len(nb.Edges), nb.Truncated, MaxNodes)
		}
	}
	small := Build(manyCallers(10)).Neighborhood(Query{Path: "core/f.go"}).Neighborhood
	if small.Truncated || len(small.Nodes) != 13 { // REQ-1, F, its file, 10 callers
		t.Errorf("10 callers: %d nodes, truncated %t; want 13, not truncated: %q", len(small.Nodes), small.Truncated, nodeIDs(small))
	}
}

// benchGraph generates a graph of 100,000 symbols in 5,000 files with
// 2,000 requirements and about 300,000 located call edges.
func benchGraph(b *testing.B) *Graph {
	const files, perFile, reqs = benchFiles, 20, 2000
	rng := rand.New(rand.NewPCG(1, 2))
	var fs []*codeanchors.File
	var edges []codeanchors.Located
	for i := range files {
		f := &codeanchors.File{Path: benchFile(i)}
		for j := range perFile {
			name := fmt.Sprintf("F%02d", j)
			f.Symbols = append(f.Symbols, codeanchors.Symbol{Name: name, Kind: codeanchors.KindFunc, Start: j*10 + 1, End: j*10 + 9})
			edges = append(edges, codeanchors.Located{From: codeanchors.Ref{Path: f.Path}, To: codeanchors.Ref{Path: f.Path, Symbol: name}, Kind: codeanchors.EdgeDefines})
		}
		fs = append(fs, f)
	}
	for _, f := range fs {
		for _, s := range f.Symbols {
			for range 3 {
				callee := fs[rng.IntN(files)]
				edges = append(edges, codeanchors.Located{From: codeanchors.Ref{Path: f.Path, Symbol: s.Name}, To: codeanchors.Ref{Path: callee.Path, Symbol: fmt.Sprintf("F%02d", rng.IntN(perFile))}, Kind: codeanchors.EdgeCalls})
			}
		}
	}
	m := &claims.Model{}
	for i := range reqs {
		f := fs[rng.IntN(files)]
		tgt := claims.Target{Path: f.Path, Symbol: fmt.Sprintf("F%02d", rng.IntN(perFile))}
		m.Requirements = append(m.Requirements, &claims.Requirement{ID: fmt.Sprintf("REQ-%d", i), Implements: []claims.TargetRef{{Target: tgt}}})
	}
	g := Build(Input{ProjectID: "bench", Model: m, Index: &codeanchors.Index{Files: fs, Edges: edges}})
	b.Logf("%d nodes, %d edges", len(g.Nodes), len(g.Edges))
	return g
}

const benchFiles = 5000

// benchFile is the path of benchGraph's file i.
func benchFile(i int) string { return fmt.Sprintf("pkg%03d/f%04d.go", i/50, i) }

// BenchmarkNeighborhood queries benchGraph's graph.
func BenchmarkNeighborhood(b *testing.B) {
	g := benchGraph(b)
	for _, depth := range []int{1, 3} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				g.Neighborhood(Query{Path: benchFile((i * 7919) % benchFiles), Depth: depth})
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i), "ns/query")
		})
	}
}

// TestFinishEdgeOrder checks the graph's edges against their definition on
// random edges, many duplicate or dangling, between nodes of every type:
// the edges whose ends exist, sorted stably by src, dst, kind and relation,
// one per src, dst and kind (the first added); and each edge's ends.
func TestFinishEdgeOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20 {
		b := &builder{in: Input{Model: &claims.Model{}}, nodes: map[NodeID]*Node{}, targets: map[NodeID][]string{}}
		var ids []NodeID
		for _, typ := range claims.NodeTypes {
			for k := range 1 + rng.IntN(6) {
				id := NodeID{Type: typ, Key: fmt.Sprintf("k%d", rng.IntN(4)*10+k)}
				b.node(id)
				ids = append(ids, id)
			}
		}
		ids = append(ids, NodeID{Type: claims.NodeFile, Key: "missing.go"}, NodeID{Type: "zz-unknown", Key: "x"})
		kinds := []string{KindLinks, KindContains, KindMentions}
		rels := []string{Declared, Located}
		for i := range 200 {
			b.edge(ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))], rels[rng.IntN(len(rels))], kinds[rng.IntN(len(kinds))], nil)
			b.edges[len(b.edges)-1].Why = fmt.Sprint(i) // tells duplicates apart
		}
		want := slices.DeleteFunc(slices.Clone(b.edges), func(e Edge) bool { return b.nodes[e.Src] == nil || b.nodes[e.Dst] == nil })
		slices.SortStableFunc(want, func(a, b Edge) int { return compareEdges(&a, &b) })
		want = slices.CompactFunc(want, func(a, b Edge) bool { return a.Src == b.Src && a.Dst == b.Dst && a.Kind == b.Kind })
		g := b.finish()
		if !slices.Equal(g.Edges, want) {
			t.Fatalf("round %d: edges\n%v\nwant\n%v", round, g.Edges, want)
		}
		for i, e := range g.Edges {
			if g.Nodes[g.ends[i][0]].ID != e.Src || g.Nodes[g.ends[i][1]].ID != e.Dst {
				t.Fatalf("round %d: edge %d (%v) has ends %v", round, i, e, g.ends[i])
			}
		}
	}
}
