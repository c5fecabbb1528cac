package graphsvg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

var update = flag.Bool("update", false, "rewrite the golden files of package graphsvg")

// pageHref is the href function of the tests: one page per node.
func pageHref(n synth.Node) string {
	return "../" + string(n.Type) + "/" + url.PathEscape(n.ID.Key) + "/"
}

// tid parses a node id written in a test.
func tid(s string) synth.NodeID {
	id, err := claims.ParseNodeID(s)
	if err != nil {
		panic(err)
	}
	return id
}

func testNode(id string) synth.Node {
	n := tid(id)
	return synth.Node{ID: n, Type: n.Type, Label: n.Key}
}

func testEdge(src, dst synth.NodeID, rel, kind string) synth.Edge {
	return synth.Edge{Src: src, Dst: dst, Relation: rel, Kind: kind}
}

// cases are the neighborhoods of the goldens in testdata/svg, each
// drawn around the node centerOf picks.
var cases = map[string]func() synth.Neighborhood{
	"empty": func() synth.Neighborhood { return synth.Neighborhood{} },
	"center-only": func() synth.Neighborhood {
		return synth.Neighborhood{Nodes: []synth.Node{testNode("requirement:REQ-1")}}
	},
	"small": func() synth.Neighborhood {
		return synth.Neighborhood{
			Nodes: []synth.Node{
				testNode("requirement:REQ-1"),
				testNode("decision:DEC-2"),
				testNode("symbol:src/auth.go@Login"),
				testNode("test:src/auth_test.go@TestLogin"),
			},
			Edges: []synth.Edge{
				testEdge(tid("requirement:REQ-1"), tid("decision:DEC-2"), synth.Declared, synth.KindIssues),
				testEdge(tid("requirement:REQ-1"), tid("symbol:src/auth.go@Login"), synth.Declared, synth.KindImplements),
				testEdge(tid("requirement:REQ-1"), tid("test:src/auth_test.go@TestLogin"), synth.Declared, synth.KindTests),
			},
		}
	},
	"stale-unknown": staleUnknownNeighborhood,
	"large":         largeNeighborhood,
}

// staleUnknownNeighborhood is centered on a symbol, with stale and unknown
// nodes and edges, all three relations, edges going left, right and within
// a column, a self loop, and labels that need escaping.
func staleUnknownNeighborhood() synth.Neighborhood {
	center := testNode("symbol:src/auth.go@Login")
	center.Title = "center"
	stale := testNode("requirement:REQ-3")
	stale.Stale, stale.Why = true, "the code of symbol:src/auth.go@Login changed since capture"
	gone := testNode("test:src/auth_test.go@TestGone")
	gone.State, gone.Why = "unknown", "the test no longer exists"
	weird := testNode(`page:notes/<script>&"quotes"'`)
	long := testNode("file:src/internal/very/deeply/nested/package/with/a/long/path/auth.go")
	staleSym := testNode("symbol:src/auth.go@hashPassword")
	staleSym.Stale, staleSym.State, staleSym.Why = true, "stale", "body changed"
	e1 := testEdge(tid("requirement:REQ-3"), center.ID, synth.Declared, synth.KindImplements)
	e1.Stale, e1.State, e1.Why = true, "stale", "the code changed since capture"
	e2 := testEdge(gone.ID, center.ID, synth.Located, "tests")
	e2.State, e2.Why = "unknown", "the test no longer exists"
	e3 := testEdge(center.ID, staleSym.ID, synth.Located, "calls")
	e3.Why = "a lexical match <hint>, not proof"
	return synth.Neighborhood{
		// Out of order on purpose: Draw sorts.
		Nodes: []synth.Node{weird, center, long, stale, gone, testNode("run:run_42"), staleSym, testNode("decision:DEC-9")},
		Edges: []synth.Edge{
			e1, e2, e3,
			testEdge(tid("requirement:REQ-3"), tid("run:run_42"), synth.Verified, synth.KindEvidences),
			testEdge(weird.ID, center.ID, synth.Declared, synth.KindClaims),
			testEdge(long.ID, center.ID, synth.Located, "defines"),
			testEdge(tid("decision:DEC-9"), tid("requirement:REQ-3"), synth.Located, synth.KindMentions),
			testEdge(center.ID, center.ID, synth.Located, "calls"),
		},
	}
}

// largeNeighborhoodCounts is how many nodes of each type the large case
// has: 400 in all, the most a neighborhood holds.
var largeNeighborhoodCounts = []struct {
	typ claims.NodeType
	n   int
}{
	{claims.NodeSymbol, 120}, {claims.NodeRequirement, 60}, {claims.NodeTest, 70},
	{claims.NodeFile, 50}, {claims.NodeDecision, 40}, {claims.NodeRun, 8}, {claims.NodePage, 52},
}

func largeNeighborhood() synth.Neighborhood {
	r := rand.New(rand.NewPCG(400, 1))
	var nb synth.Neighborhood
	for _, c := range largeNeighborhoodCounts {
		for i := range c.n {
			n := testNode(fmt.Sprintf("%s:%s/item%03d", c.typ, c.typ, i))
			n.Stale = r.IntN(10) == 0
			nb.Nodes = append(nb.Nodes, n)
		}
	}
	center := nb.Nodes[57].ID // a symbol in the middle of its column
	rels := []string{synth.Declared, synth.Located, synth.Verified}
	seen := map[[2]synth.NodeID]bool{}
	for len(nb.Edges) < 800 {
		a := nb.Nodes[r.IntN(len(nb.Nodes))].ID
		b := center
		if r.IntN(2) == 0 {
			b = nb.Nodes[r.IntN(len(nb.Nodes))].ID
		}
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		if a == b || seen[[2]synth.NodeID{a, b}] {
			continue
		}
		seen[[2]synth.NodeID{a, b}] = true
		e := testEdge(a, b, rels[r.IntN(3)], "links")
		e.Stale = r.IntN(8) == 0
		nb.Edges = append(nb.Edges, e)
	}
	nb.Nodes[57].Title = "center"
	return nb
}

// centerOf is the center of the test neighborhoods: the node marked
// with the title "center", else the first node.
func centerOf(nb synth.Neighborhood) synth.NodeID {
	for _, n := range nb.Nodes {
		if n.Title == "center" {
			return n.ID
		}
	}
	if len(nb.Nodes) == 0 {
		return tid("requirement:REQ-0")
	}
	return nb.Nodes[0].ID
}

func TestGraphSVGGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people, not by CI")
	}
	dir := filepath.Join("testdata", "svg")
	produced := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		nb := cases[name]()
		got := []byte(Draw(nb, centerOf(nb), pageHref))
		for _, d := range bytes.Split(got, []byte("\n")) {
			checkXML(t, name, d)
		}
		file := filepath.Join(dir, name+".svg")
		produced[name+".svg"] = true
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v (run go test ./site/render/graphsvg -update)", name, err)
		}
		want = bytes.TrimSuffix(want, []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Errorf("Draw(%s) differs from %s; run with -update and review the diff\ngot:\n%s", name, file, got)
		}
	}
	// Fail on goldens no case produced: they would rot unchecked.
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !produced[e.Name()] {
			t.Errorf("%s: no test case produces this golden; delete it or add the case", filepath.Join(dir, e.Name()))
		}
	}
}

// checkXML fails unless svg is one well-formed XML element.
func checkXML(t *testing.T, name string, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", name, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if tok.Name.Local != "svg" {
					t.Errorf("%s: root element <%s>, want <svg>", name, tok.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(tok)) > 0 {
				t.Errorf("%s: text %q outside the <svg>", name, tok)
			}
		}
	}
	if roots != 1 {
		t.Errorf("%s: %d root elements, want 1", name, roots)
	}
}

// boxInfo is one <a> of a drawing: its classes, href, title and text.
type boxInfo struct {
	class, href, title, text string
	rects                    int
}

// parseSVG returns the <a> boxes of svg, the total number of <rect>
// elements, and the classes of every <path>.
func parseSVG(t *testing.T, svg []byte) (boxes []boxInfo, rects int, paths []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var cur *boxInfo
	var stack []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch tok.Name.Local {
			case "a":
				boxes = append(boxes, boxInfo{class: attr["class"], href: attr["href"]})
				cur = &boxes[len(boxes)-1]
			case "rect":
				rects++
				if cur != nil {
					cur.rects++
				}
			case "path":
				paths = append(paths, attr["class"])
			}
			stack = append(stack, tok.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if tok.Name.Local == "a" {
				cur = nil
			}
		case xml.CharData:
			if cur == nil {
				continue
			}
			switch stack[len(stack)-1] {
			case "title":
				cur.title += string(tok)
			case "text":
				if cur.text == "" {
					cur.text = string(tok)
				}
			}
		}
	}
	return boxes, rects, paths
}

// drawings splits Draw's output into its wide and narrow drawings.
func drawings(t *testing.T, svg string) (wide, narrow string) {
	t.Helper()
	parts := strings.Split(svg, "\n")
	if len(parts) != 2 || !strings.Contains(parts[0], `class="tw-graph wide"`) || !strings.Contains(parts[1], `class="tw-graph narrow"`) {
		t.Fatalf("want a wide and a narrow drawing, got:\n%s", svg)
	}
	for _, p := range parts {
		checkXML(t, "drawing", []byte(p))
	}
	return parts[0], parts[1]
}

// rects returns the x, y, width and height of every <rect> of a drawing.
func rects(svg string) [][4]int {
	re := regexp.MustCompile(`<rect x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"`)
	var out [][4]int
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		var r [4]int
		for i := range r {
			r[i], _ = strconv.Atoi(m[i+1])
		}
		out = append(out, r)
	}
	return out
}

// TestGraphSVGLarge draws the largest neighborhood: each side is capped,
// with a "+N more" box, stale neighbors are the ones kept, no edge passes
// through a box, and the drawings fit their viewBox.
func TestGraphSVGLarge(t *testing.T) {
	nb := largeNeighborhood()
	center := centerOf(nb)
	svg := string(Draw(nb, center, pageHref))
	wide, narrow := drawings(t, svg)
	st := starOf(nb, center)
	in, out := map[synth.NodeID]bool{}, map[synth.NodeID]bool{}
	for _, e := range nb.Edges {
		if e.Src == center && e.Dst != center {
			out[e.Dst] = true
		}
		if e.Dst == center && e.Src != center {
			in[e.Src] = true
		}
	}
	if len(st.in)+st.hiddenIn != len(in) || len(st.out)+st.hiddenOut != len(out) {
		t.Errorf("sides: %d+%d in, %d+%d out; want %d and %d", len(st.in), st.hiddenIn, len(st.out), st.hiddenOut, len(in), len(out))
	}
	if len(st.in) != MaxSideNodes || len(st.out) != MaxSideNodes {
		t.Errorf("sides draw %d and %d boxes, want %d each", len(st.in), len(st.out), MaxSideNodes)
	}
	for _, d := range []string{wide, narrow} {
		boxes, nrects, paths := parseSVG(t, []byte(d))
		// The center, 2×MaxSideNodes neighbors, two "+N more" boxes.
		if want := 1 + 2*MaxSideNodes + 2; len(boxes) != want || nrects != want {
			t.Errorf("%d boxes and %d rects, want %d", len(boxes), nrects, want)
		}
		more := 0
		for _, b := range boxes {
			if strings.Contains(b.class, "more") {
				more++
				if b.href != "#neighbors" {
					t.Errorf("more box links to %q", b.href)
				}
			}
		}
		if more != 2 {
			t.Errorf("%d more boxes, want 2", more)
		}
		// One edge per drawn neighbor (plus the legend's samples).
		edges := 0
		for _, p := range paths {
			if strings.HasPrefix(p, "edge ") {
				edges++
			}
		}
		if want := 2*MaxSideNodes + 4; edges != want {
			t.Errorf("%d edge paths, want %d (one per neighbor and four in the legend)", edges, want)
		}
		checkGeometry(t, d)
	}
	// Stale neighbors come first: with more neighbors than room, every
	// drawn neighbor on a side is stale before any fresh one is drawn.
	for _, side := range [][]*neighbor{st.in, st.out} {
		fresh := false
		for _, n := range side {
			s := n.stale || n.node.Stale || n.unknown
			if s && fresh {
				t.Errorf("stale %s drawn after a fresh neighbor", n.node.ID)
			}
			fresh = fresh || !s
		}
	}
	if want := fmt.Sprintf(`aria-label="Neighborhood of %s: 400 nodes, 800 edges"`, center); !strings.Contains(svg, want) {
		t.Errorf("no %s", want)
	}
}

// checkGeometry checks one drawing: every box inside the viewBox, no two
// boxes overlapping, no edge endpoint inside a box other than touching its
// side, and no straight part of an edge crossing a box: an edge's control
// points stay in the gaps between boxes.
func checkGeometry(t *testing.T, svg string) {
	t.Helper()
	var w, h int
	if _, err := fmt.Sscanf(svg[strings.Index(svg, `viewBox="`):], `viewBox="0 0 %d %d"`, &w, &h); err != nil {
		t.Fatalf("no viewBox: %v", err)
	}
	if strings.Contains(svg, ` width="`+strconv.Itoa(w)+`" height="`) {
		t.Errorf("the drawing has a fixed pixel size")
	}
	boxes := rects(svg)
	for i, r := range boxes {
		if r[0] < 0 || r[1] < 0 || r[0]+r[2] > w || r[1]+r[3] > h {
			t.Errorf("box %v outside the %dx%d viewBox", r, w, h)
		}
		for _, q := range boxes[i+1:] {
			if r[0] < q[0]+q[2] && q[0] < r[0]+r[2] && r[1] < q[1]+q[3] && q[1] < r[1]+r[3] {
				t.Errorf("boxes %v and %v overlap", r, q)
			}
		}
	}
	re := regexp.MustCompile(`d="M(-?\d+) (-?\d+) C(-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)"`)
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		var p [8]int
		for i := range p {
			p[i], _ = strconv.Atoi(m[i+1])
		}
		// A cubic Bézier stays inside the hull of its control points; the
		// hull's x range is [min x, max x]. No box may lie strictly inside
		// that x range and the y range, except the two it joins (touched
		// at their sides).
		minX, maxX := min(p[0], p[2], p[4], p[6]), max(p[0], p[2], p[4], p[6])
		minY, maxY := min(p[1], p[3], p[5], p[7]), max(p[1], p[3], p[5], p[7])
		for _, r := range boxes {
			if r[0] < maxX && minX < r[0]+r[2] && r[1] < maxY && minY < r[1]+r[3] {
				t.Errorf("edge %s passes over box %v", m[0], r)
			}
		}
		if p[6] < 0 || p[6] > w || p[7] < 0 || p[7] > h {
			t.Errorf("edge %s ends outside the drawing", m[0])
		}
	}
}

func TestGraphSVGDetails(t *testing.T) {
	nb := staleUnknownNeighborhood()
	center := centerOf(nb)
	svg := string(Draw(nb, center, pageHref))
	wide, narrow := drawings(t, svg)
	for _, d := range []string{wide, narrow} {
		boxes, _, paths := parseSVG(t, []byte(d))
		for _, want := range []string{
			`role="img"`,
			`aria-label="Neighborhood of symbol:src/auth.go@Login: 8 nodes, 8 edges"`,
			`class="node node-symbol center"`, `class="node node-requirement stale"`,
			`class="node node-test unknown"`, `class="badge"`,
			`<title>page:notes/&lt;script&gt;&amp;&#34;quotes&#34;&#39;</title>`,
			`links in (4)`, `links out (1)`,
			`requirement · implements`, `symbol · calls`,
			`marker-end="url(#tw-arrow-`, `<marker id="tw-arrow-`,
			`class="legend"`, `located (found in code)`,
		} {
			if !strings.Contains(d, want) {
				t.Errorf("no %s in\n%s", want, d)
			}
		}
		if strings.Contains(d, "<script") {
			t.Errorf("unescaped markup in\n%s", d)
		}
		for _, want := range []string{"edge rel-declared stale", "edge rel-located unknown", "edge rel-located", "edge rel-declared"} {
			if !slices.Contains(paths, want) {
				t.Errorf("no path of class %q in %q", want, paths)
			}
		}
		for _, b := range boxes {
			if b.href == "" || strings.Contains(b.href, "<") {
				t.Errorf("box %q has href %q", b.title, b.href)
			}
		}
		// Edges between two neighbors (REQ-3 → run_42, DEC-9 → REQ-3)
		// and the self loop are in the list, not in the drawing.
		if strings.Contains(d, "run_42") || strings.Contains(d, "DEC-9") {
			t.Errorf("a node linked only to other neighbors is drawn")
		}
		checkGeometry(t, d)
	}

	// Deterministic whatever the order of nodes and edges.
	r := rand.New(rand.NewPCG(5, 6))
	for range 10 {
		r.Shuffle(len(nb.Nodes), func(i, j int) { nb.Nodes[i], nb.Nodes[j] = nb.Nodes[j], nb.Nodes[i] })
		r.Shuffle(len(nb.Edges), func(i, j int) { nb.Edges[i], nb.Edges[j] = nb.Edges[j], nb.Edges[i] })
		if again := string(Draw(nb, center, pageHref)); again != svg {
			t.Fatalf("Draw depends on the order of its input:\n%s\n%s", svg, again)
		}
	}

	// A dangerous href is neutralized.
	bad := string(Draw(nb, center, func(synth.Node) string { return "javascript:alert(1)" }))
	if strings.Contains(bad, "javascript") {
		t.Errorf("javascript: href kept")
	}
}

// TestGraphSVGFile checks a file's page: the file and its symbols are the
// center, and a neighbor linked to several of its symbols is drawn once,
// saying through which.
func TestGraphSVGFile(t *testing.T) {
	file := synth.Node{ID: tid("file:cart/cart.go"), Type: claims.NodeFile, Label: "cart/cart.go", Path: "cart/cart.go", Title: "center"}
	sym := func(name string) synth.Node {
		return synth.Node{ID: tid("symbol:cart/cart.go@" + name), Type: claims.NodeSymbol, Label: "cart.go@" + name, Path: "cart/cart.go"}
	}
	a, b := sym("Cart.Total"), sym("Cart.Validate")
	caller := synth.Node{ID: tid("symbol:pay/pay.go@Charge"), Type: claims.NodeSymbol, Label: "pay.go@Charge", Path: "pay/pay.go"}
	nb := synth.Neighborhood{
		Nodes: []synth.Node{file, a, b, caller, testNode("requirement:REQ-1")},
		Edges: []synth.Edge{
			testEdge(caller.ID, a.ID, synth.Located, "calls"),
			testEdge(caller.ID, b.ID, synth.Located, "calls"),
			testEdge(tid("requirement:REQ-1"), a.ID, synth.Declared, synth.KindImplements),
			testEdge(file.ID, a.ID, synth.Located, "defines"),
			testEdge(file.ID, b.ID, synth.Located, "defines"),
		},
	}
	wide, narrow := drawings(t, string(Draw(nb, file.ID, pageHref)))
	for _, d := range []string{wide, narrow} {
		boxes, _, _ := parseSVG(t, []byte(d))
		if len(boxes) != 3 {
			t.Errorf("%d boxes, want 3: the file and its two neighbors (its own symbols stand with it)", len(boxes))
		}
		for _, want := range []string{"symbol · calls via Cart.Total +1", "requirement · implements via Cart.Total", "file and its 2 symbols"} {
			if !strings.Contains(d, want) {
				t.Errorf("no %q in\n%s", want, d)
			}
		}
		checkGeometry(t, d)
	}
}

func TestSVGTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactlyten", 10, "exactlyten"},
		{"elevenchars", 10, "elevencha…"},
		{"ünïcödé-längüägé", 8, "ünïcödé…"},
	} {
		if got := truncate(c.in, c.n); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestSVGEscape(t *testing.T) {
	var b strings.Builder
	escape(&b, "a<b>&\"'\x00\x01\n\t\xff\uFFFD\uFFFE ok")
	want := "a&lt;b&gt;&amp;&#34;&#39;\uFFFD\uFFFD&#10;&#9;\uFFFD\uFFFD\uFFFD ok"
	if b.String() != want {
		t.Errorf("escape = %q, want %q", b.String(), want)
	}
	checkXML(t, "escaped", []byte("<svg>"+b.String()+"</svg>"))
}

// BenchmarkGraphSVG draws the largest neighborhood there is: 400 nodes
// and 800 edges.
func BenchmarkGraphSVG(b *testing.B) {
	nb := largeNeighborhood()
	center := centerOf(nb)
	b.ReportAllocs()
	for b.Loop() {
		Draw(nb, center, pageHref)
	}
	b.ReportMetric(float64(len(nb.Nodes))*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// TestGraphSVGKindOrder checks that a side lists its neighbors by kind in
// the order of the kind table ([synth.Kinds]), documents included, however
// the neighborhood lists them.
func TestGraphSVGKindOrder(t *testing.T) {
	center := tid("requirement:REQ-1")
	nb := synth.Neighborhood{Nodes: []synth.Node{testNode(center.String())}}
	for _, k := range slices.Backward(synth.Kinds) {
		key := "x"
		if k.Type == claims.NodeRequirement {
			key = "REQ-2"
		}
		n := testNode(string(k.Type) + ":" + key)
		nb.Nodes = append(nb.Nodes, n)
		nb.Edges = append(nb.Edges, testEdge(n.ID, center, synth.Declared, "mentions"))
	}
	wide, _ := drawings(t, string(Draw(nb, center, pageHref)))
	boxes, _, _ := parseSVG(t, []byte(wide))
	var got, want []string
	for _, b := range boxes {
		if !strings.Contains(b.class, "center") {
			got = append(got, strings.TrimPrefix(strings.Fields(b.class)[1], "node-"))
		}
	}
	for _, k := range synth.Kinds {
		want = append(want, string(k.Type))
	}
	if !slices.Equal(got, want) {
		t.Errorf("neighbors drawn in kind order %v, the kind table's is %v", got, want)
	}
}
