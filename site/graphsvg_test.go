package site

import (
	"bytes"
	"cmp"
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
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

var update = flag.Bool("update", false, "rewrite the golden files of package site")

// svgHref is the href function of the tests: one page per node.
func svgHref(n synth.Node) string {
	return "../" + n.Type + "/" + url.PathEscape(strings.TrimPrefix(n.ID, n.Type+":")) + "/"
}

func svgNode(id string) synth.Node {
	typ, label, _ := strings.Cut(id, ":")
	return synth.Node{ID: id, Type: typ, Label: label}
}

func svgEdge(src, dst, rel, kind string) synth.Edge {
	return synth.Edge{Src: src, Dst: dst, Relation: rel, Kind: kind}
}

// svgCases are the neighborhoods of the goldens in testdata/svg, each
// drawn around the node svgCenter picks.
var svgCases = map[string]func() synth.Neighborhood{
	"empty": func() synth.Neighborhood { return synth.Neighborhood{} },
	"center-only": func() synth.Neighborhood {
		return synth.Neighborhood{Nodes: []synth.Node{svgNode("requirement:REQ-1")}}
	},
	"small": func() synth.Neighborhood {
		return synth.Neighborhood{
			Nodes: []synth.Node{
				svgNode("requirement:REQ-1"),
				svgNode("decision:DEC-2"),
				svgNode("symbol:src/auth.go@Login"),
				svgNode("test:src/auth_test.go@TestLogin"),
			},
			Edges: []synth.Edge{
				svgEdge("requirement:REQ-1", "decision:DEC-2", synth.Declared, synth.KindIssues),
				svgEdge("requirement:REQ-1", "symbol:src/auth.go@Login", synth.Declared, synth.KindImplements),
				svgEdge("requirement:REQ-1", "test:src/auth_test.go@TestLogin", synth.Declared, synth.KindTests),
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
	center := svgNode("symbol:src/auth.go@Login")
	center.Title = "center"
	stale := svgNode("requirement:REQ-3")
	stale.Stale, stale.Why = true, "the code of symbol:src/auth.go@Login changed since capture"
	gone := svgNode("test:src/auth_test.go@TestGone")
	gone.State, gone.Why = "unknown", "the test no longer exists"
	weird := svgNode(`page:notes/<script>&"quotes"'`)
	long := svgNode("file:src/internal/very/deeply/nested/package/with/a/long/path/auth.go")
	staleSym := svgNode("symbol:src/auth.go@hashPassword")
	staleSym.Stale, staleSym.State, staleSym.Why = true, "stale", "body changed"
	e1 := svgEdge("requirement:REQ-3", center.ID, synth.Declared, synth.KindImplements)
	e1.Stale, e1.State, e1.Why = true, "stale", "the code changed since capture"
	e2 := svgEdge(gone.ID, center.ID, synth.Located, "tests")
	e2.State, e2.Why = "unknown", "the test no longer exists"
	e3 := svgEdge(center.ID, staleSym.ID, synth.Located, "calls")
	e3.Why = "a lexical match <hint>, not proof"
	return synth.Neighborhood{
		// Out of order on purpose: GraphSVG sorts.
		Nodes: []synth.Node{weird, center, long, stale, gone, svgNode("run:run_42"), staleSym, svgNode("decision:DEC-9")},
		Edges: []synth.Edge{
			e1, e2, e3,
			svgEdge("requirement:REQ-3", "run:run_42", synth.Verified, synth.KindEvidences),
			svgEdge(weird.ID, center.ID, synth.Declared, synth.KindClaims),
			svgEdge(long.ID, center.ID, synth.Located, "defines"),
			svgEdge("decision:DEC-9", "requirement:REQ-3", synth.Located, synth.KindMentions),
			svgEdge(center.ID, center.ID, synth.Located, "calls"),
		},
	}
}

// largeNeighborhoodCounts is how many nodes of each type the large case
// has: 400 in all, the most a neighborhood holds.
var largeNeighborhoodCounts = []struct {
	typ string
	n   int
}{
	{synth.TypeSymbol, 120}, {synth.TypeRequirement, 60}, {synth.TypeTest, 70},
	{synth.TypeFile, 50}, {synth.TypeDecision, 40}, {synth.TypeRun, 8}, {synth.TypePage, 52},
}

func largeNeighborhood() synth.Neighborhood {
	r := rand.New(rand.NewPCG(400, 1))
	var nb synth.Neighborhood
	for _, c := range largeNeighborhoodCounts {
		for i := range c.n {
			n := svgNode(fmt.Sprintf("%s:%s/item%03d", c.typ, c.typ, i))
			n.Stale = r.IntN(10) == 0
			nb.Nodes = append(nb.Nodes, n)
		}
	}
	center := nb.Nodes[57].ID // a symbol in the middle of its column
	rels := []string{synth.Declared, synth.Located, synth.Verified}
	seen := map[[2]string]bool{}
	for len(nb.Edges) < 800 {
		a := nb.Nodes[r.IntN(len(nb.Nodes))].ID
		b := center
		if r.IntN(2) == 0 {
			b = nb.Nodes[r.IntN(len(nb.Nodes))].ID
		}
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		if a == b || seen[[2]string{a, b}] {
			continue
		}
		seen[[2]string{a, b}] = true
		e := svgEdge(a, b, rels[r.IntN(3)], "links")
		e.Stale = r.IntN(8) == 0
		nb.Edges = append(nb.Edges, e)
	}
	nb.Nodes[57].Title = "center"
	return nb
}

// svgCenter is the center of the test neighborhoods: the node marked
// with the title "center", else the first node.
func svgCenter(nb synth.Neighborhood) string {
	for _, n := range nb.Nodes {
		if n.Title == "center" {
			return n.ID
		}
	}
	if len(nb.Nodes) == 0 {
		return "requirement:REQ-0"
	}
	return nb.Nodes[0].ID
}

func TestGraphSVGGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people, not by CI")
	}
	dir := filepath.Join("testdata", "svg")
	produced := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(svgCases)) {
		nb := svgCases[name]()
		got := []byte(GraphSVG(nb, svgCenter(nb), svgHref))
		checkXML(t, name, got)
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
			t.Fatalf("%s: %v (run go test ./site -run GraphSVG -update)", name, err)
		}
		want = bytes.TrimSuffix(want, []byte("\n"))
		checkXML(t, file, want)
		if !bytes.Equal(got, want) {
			t.Errorf("GraphSVG(%s) differs from %s; run with -update and review the diff\ngot:\n%s", name, file, got)
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

// svgBoxInfo is one <a> of a drawing: its classes, href, title and text.
type svgBoxInfo struct {
	class, href, title, text string
	rects                    int
}

// parseSVG returns the <a> boxes of svg, the total number of <rect>
// elements, and the classes of every <path>.
func parseSVG(t *testing.T, svg []byte) (boxes []svgBoxInfo, rects int, paths []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var cur *svgBoxInfo
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
				boxes = append(boxes, svgBoxInfo{class: attr["class"], href: attr["href"]})
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

func TestGraphSVGLarge(t *testing.T) {
	nb := largeNeighborhood()
	center := svgCenter(nb)
	svg := []byte(GraphSVG(nb, center, svgHref))
	boxes, rects, paths := parseSVG(t, svg)

	// Every column but the runs' is full: 6*(MaxColumnNodes+1) boxes and
	// the 8 runs, under the 7*13 bound.
	full := 0
	want := 0
	for _, c := range largeNeighborhoodCounts {
		want += min(c.n, MaxColumnNodes)
		if c.n > MaxColumnNodes {
			full++
			want++
		}
	}
	if rects != want || len(boxes) != want || want > 7*(MaxColumnNodes+1) || full != 6 {
		t.Errorf("%d rects and %d boxes, want %d", rects, len(boxes), want)
	}
	byID := map[string]synth.Node{}
	for _, n := range nb.Nodes {
		byID[n.ID] = n
	}
	shown := map[string]bool{}
	perType := map[string][]string{}
	more := map[string]string{}
	for _, b := range boxes {
		if b.rects != 1 {
			t.Errorf("box %q has %d rects", b.title, b.rects)
		}
		if strings.Contains(b.class, "more") {
			if b.href != "#neighbors" {
				t.Errorf("more box %q links to %q", b.text, b.href)
			}
			more[strings.Fields(b.class)[2]] = b.text
			continue
		}
		id, _, _ := strings.Cut(b.title, "\n")
		n, ok := byID[id]
		if !ok {
			t.Errorf("box for unknown node %q", id)
			continue
		}
		if want := svgHref(n); b.href != want {
			t.Errorf("box %q links to %q, want href() = %q", id, b.href, want)
		}
		shown[id] = true
		perType[n.Type] = append(perType[n.Type], id)
		if n.Stale != strings.Contains(b.class, "stale") || (id == center) != strings.Contains(b.class, "center") {
			t.Errorf("box %q has classes %q", id, b.class)
		}
	}
	for _, c := range largeNeighborhoodCounts {
		ids := perType[c.typ]
		if len(ids) != min(c.n, MaxColumnNodes) {
			t.Errorf("column %s: %d node boxes, want %d", c.typ, len(ids), min(c.n, MaxColumnNodes))
			continue
		}
		want := ""
		if c.n > MaxColumnNodes {
			want = "+" + strconv.Itoa(c.n-MaxColumnNodes) + " more"
		}
		if more["node-"+c.typ] != want {
			t.Errorf("column %s: more box says %q, want %q", c.typ, more["node-"+c.typ], want)
		}
		// The chosen: the center, then stale nodes, then by id.
		var chosen []synth.Node
		for _, n := range nb.Nodes {
			if n.Type == c.typ {
				chosen = append(chosen, n)
			}
		}
		slices.SortFunc(chosen, func(a, b synth.Node) int {
			return cmp.Or(svgFirst(a.ID == center, b.ID == center), svgFirst(a.Stale, b.Stale), strings.Compare(a.ID, b.ID))
		})
		for i, n := range chosen[:len(ids)] {
			if ids[i] != n.ID {
				t.Errorf("column %s, row %d: %s, want %s", c.typ, i, ids[i], n.ID)
			}
		}
	}
	if perType[synth.TypeSymbol][0] != center {
		t.Errorf("the center %s is not first in its column", center)
	}

	// Edges only between shown boxes, plus one faint edge per column whose
	// hidden nodes include a neighbor of the center.
	drawn := 0
	for _, e := range nb.Edges {
		if shown[e.Src] && shown[e.Dst] {
			drawn++
		}
	}
	faint := 0
	for _, p := range paths {
		if p == "edge more faint" {
			faint++
		}
	}
	if len(paths)-faint != drawn || faint != full {
		t.Errorf("%d edges and %d faint edges drawn, want %d and %d", len(paths)-faint, faint, drawn, full)
	}
	if want := fmt.Sprintf(`aria-label="Neighborhood of %s: 400 nodes, 800 edges"`, center); !bytes.Contains(svg, []byte(want)) {
		t.Errorf("no %s", want)
	}
}

func TestGraphSVGDetails(t *testing.T) {
	nb := staleUnknownNeighborhood()
	center := svgCenter(nb)
	svg := string(GraphSVG(nb, center, svgHref))
	boxes, _, paths := parseSVG(t, []byte(svg))
	for _, want := range []string{
		`class="tw-graph"`, `role="img"`,
		`aria-label="Neighborhood of symbol:src/auth.go@Login: 8 nodes, 8 edges"`,
		`class="node node-symbol center"`, `class="node node-requirement stale"`,
		`class="node node-test unknown"`, `class="badge"`,
		`<title>page:notes/&lt;script&gt;&amp;&#34;quotes&#34;&#39;</title>`,
		`requirements (1)`, `symbols (2)`,
		`src/internal/very/deeply/n…`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %s in\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "<script") || strings.Contains(svg, "style") {
		t.Errorf("unescaped markup or a style in\n%s", svg)
	}
	for _, want := range []string{
		"edge rel-declared stale", "edge rel-located unknown", "edge rel-located", "edge rel-verified", "edge rel-declared",
	} {
		if !slices.Contains(paths, want) {
			t.Errorf("no path of class %q in %q", want, paths)
		}
	}
	// Columns in SPEC 3 order, whatever the node order.
	var order []string
	for _, h := range strings.Split(svg, `class="col-title"`)[1:] {
		_, h, _ = strings.Cut(h, ">")
		h, _, _ = strings.Cut(h, " (")
		order = append(order, h)
	}
	if want := []string{"requirements", "decisions", "symbols", "tests", "runs", "pages", "files"}; !slices.Equal(order, want) {
		t.Errorf("columns %q, want %q", order, want)
	}
	for _, b := range boxes {
		if b.href == "" || strings.Contains(b.href, "<") {
			t.Errorf("box %q has href %q", b.title, b.href)
		}
	}

	// Deterministic whatever the order of nodes and edges.
	r := rand.New(rand.NewPCG(5, 6))
	for range 10 {
		r.Shuffle(len(nb.Nodes), func(i, j int) { nb.Nodes[i], nb.Nodes[j] = nb.Nodes[j], nb.Nodes[i] })
		r.Shuffle(len(nb.Edges), func(i, j int) { nb.Edges[i], nb.Edges[j] = nb.Edges[j], nb.Edges[i] })
		if again := string(GraphSVG(nb, center, svgHref)); again != svg {
			t.Fatalf("GraphSVG depends on the order of its input:\n%s\n%s", svg, again)
		}
	}

	// A dangerous href is neutralized.
	bad := string(GraphSVG(nb, center, func(synth.Node) string { return "javascript:alert(1)" }))
	if strings.Contains(bad, "javascript") {
		t.Errorf("javascript: href kept")
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
		if got := svgTruncate(c.in, c.n); got != c.want {
			t.Errorf("svgTruncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestSVGEscape(t *testing.T) {
	var b strings.Builder
	svgEscape(&b, "a<b>&\"'\x00\x01\n\t\xff\uFFFD\uFFFE ok")
	want := "a&lt;b&gt;&amp;&#34;&#39;\uFFFD\uFFFD&#10;&#9;\uFFFD\uFFFD\uFFFD ok"
	if b.String() != want {
		t.Errorf("svgEscape = %q, want %q", b.String(), want)
	}
	checkXML(t, "escaped", []byte("<svg>"+b.String()+"</svg>"))
}

// BenchmarkGraphSVG draws the largest neighborhood there is: 400 nodes
// and 800 edges.
func BenchmarkGraphSVG(b *testing.B) {
	nb := largeNeighborhood()
	center := svgCenter(nb)
	b.ReportAllocs()
	for b.Loop() {
		GraphSVG(nb, center, svgHref)
	}
	b.ReportMetric(float64(len(nb.Nodes))*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
