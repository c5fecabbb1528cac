// Command gen writes a synthetic tracewiki workspace for benchmarks: Go
// packages with functions and tests, requirements that implement and test
// them, decisions, and wiki pages full of claims, each page with a fenced Go
// block and a fenced Python block (-fences=false leaves them out, writing the
// workspace of earlier benchmarks byte for byte). The same flags always write
// the same bytes (fixed seed).
//
//	go run ./bench/gen -out /tmp/big -pages 5000 -claims 10
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("out", "", "the workspace `DIR` to write (must not exist)")
	pages := flag.Int("pages", 5000, "wiki pages")
	claims := flag.Int("claims", 10, "claims per wiki page")
	reqs := flag.Int("reqs", 2000, "requirements")
	decs := flag.Int("decisions", 500, "decisions")
	files := flag.Int("files", 1000, "Go source files (each with a test file every fourth)")
	funcs := flag.Int("funcs", 10, "functions per Go file")
	seed := flag.Uint64("seed", 1, "random seed")
	fences := flag.Bool("fences", true, "a fenced Go and a fenced Python block on every wiki page")
	markers := flag.Float64("markers", 0, "the `FRACTION` of Go files whose functions' doc comments hold code markers (SPEC 1.6)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	if *out == "" {
		log.Fatal("-out is required")
	}
	if _, err := os.Stat(*out); err == nil {
		log.Fatalf("%s exists; refusing to overwrite it", *out)
	}
	g := &gen{dir: *out, fences: *fences, markers: *markers, reqs: *reqs, rng: rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15))}
	g.write("go.mod", "module example.com/big\n\ngo 1.26\n")
	g.write("tracewiki.toml", "title = \"Big\"\n")
	for f := range *files {
		g.goFile(f, *funcs)
	}
	for r := range *reqs {
		g.requirement(r, *files, *funcs, *decs)
	}
	for d := range *decs {
		g.write(fmt.Sprintf("content/decisions/DEC-%d.md", d),
			fmt.Sprintf("---\ntitle: Decision %d\nstatus: accepted\n---\nWe decided %s, see pkg%03d/f%04d.go.\n", d, g.words(12), d%(*files/20+1), d%*files))
	}
	for p := range *pages {
		g.page(p, *claims, *files, *funcs, *reqs)
	}
	if g.err != nil {
		log.Fatal(g.err)
	}
}

type gen struct {
	dir     string
	fences  bool
	markers float64 // the share of Go files with markers
	reqs    int
	rng     *rand.Rand
	err     error
}

// marked reports whether Go file f holds markers: about the markers share
// of the files, spread evenly, chosen without the random source so that
// the rest of the workspace is the same with and without markers.
func (g *gen) marked(f int) bool {
	const spread = 1000
	return g.reqs > 0 && float64(f*7919%spread) < g.markers*spread
}

// marker is the marker comment line of function i of a marked file f: one
// of the forms in turn (the generated requirement ids are no OpenFastTrace
// items), naming a requirement (every seventh one
// that does not exist, for the unknown entries).
func (g *gen) marker(f, i int) string {
	id := fmt.Sprintf("REQ-%d", (f*31+i)%g.reqs)
	if i%7 == 6 {
		id = fmt.Sprintf("REQ-X%d", f)
	}
	switch i % 4 {
	case 0:
		return "// @implements " + id + "\n"
	case 1:
		return "// @relation(" + id + ", scope=function)\n"
	case 2:
		return "// lobster-trace: " + id + "\n"
	}
	return "// @tests " + id + "\n"
}

func (g *gen) write(name, data string) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.err = err
		return
	}
	g.err = os.WriteFile(p, []byte(data), 0o644)
}

var vocabulary = strings.Fields("the order is validated before it is stored and every payment is checked against the account limit so that a retry never charges twice while the ledger keeps one entry per event")

func (g *gen) words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[g.rng.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

func goPath(f int) string { return fmt.Sprintf("pkg%03d/f%04d.go", f/20, f) }

func (g *gen) goFile(f, funcs int) {
	var b strings.Builder
	fmt.Fprintf(&b, "package pkg%03d\n\n", f/20)
	for i := range funcs {
		fmt.Fprintf(&b, "// F%04d_%d %s.\n", f, i, g.words(6))
		if g.marked(f) {
			b.WriteString(g.marker(f, i))
		}
		fmt.Fprintf(&b, "func F%04d_%d(x int) int {\n", f, i)
		for range 3 + g.rng.IntN(12) {
			fmt.Fprintf(&b, "\tx = x*%d + %d\n", g.rng.IntN(97), g.rng.IntN(89))
		}
		if i > 0 {
			fmt.Fprintf(&b, "\tx += F%04d_%d(x)\n", f, i-1)
		}
		b.WriteString("\treturn x\n}\n\n")
	}
	g.write(goPath(f), b.String())
	if f%4 == 0 {
		var t strings.Builder
		fmt.Fprintf(&t, "package pkg%03d\n\nimport \"testing\"\n\n", f/20)
		for i := range funcs {
			fmt.Fprintf(&t, "func TestF%04d_%d(t *testing.T) {\n\tif F%04d_%d(1) == 0 {\n\t\tt.Skip()\n\t}\n}\n\n", f, i, f, i)
		}
		g.write(strings.TrimSuffix(goPath(f), ".go")+"_test.go", t.String())
	}
}

func (g *gen) requirement(r, files, funcs, decs int) {
	f, i := g.rng.IntN(files), g.rng.IntN(funcs)
	tf := f - f%4
	g.write(fmt.Sprintf("content/requirements/REQ-%d.md", r), fmt.Sprintf(
		"---\ntitle: Requirement %d\nstatus: accepted\nimplements: [%s@F%04d_%d]\ntests: [%s@TestF%04d_%d]\nissues: [DEC-%d]\n---\nThe system shall %s.\n",
		r, goPath(f), f, i, strings.TrimSuffix(goPath(tf), ".go")+"_test.go", tf, i, r%decs, g.words(15)))
}

func (g *gen) page(p, claims, files, funcs, reqs int) {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: Page %d\ntype: implementation\n---\n# Page %d\n\n", p, p)
	for c := range claims {
		f, i := g.rng.IntN(files), g.rng.IntN(funcs)
		fmt.Fprintf(&b, "Claim %d: %s ([code](code:%s@F%04d_%d)).\n", c, g.words(10), goPath(f), f, i)
		if c%5 == 4 {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "\nSee [REQ-%d](req:REQ-%d).\n", p%reqs, p%reqs)
	if g.fences {
		b.WriteString(fences(p))
	}
	g.write(fmt.Sprintf("content/area%02d/page%05d.md", p%50, p), b.String())
}

// fences returns a page's fenced blocks: a Go one unique to the page and a
// Python one shared by every fiftieth page (teams paste the same usage
// snippet into many pages). They are derived from p, not from the random
// stream, so -fences=false writes the same workspace as before they existed.
func fences(p int) string {
	return fmt.Sprintf("\nUsage:\n\n```go\n"+
		"// Page%05d shows the call.\n"+
		"func Page%05d(ctx context.Context, x int) (int, error) {\n"+
		"\tif x < %d {\n\t\treturn 0, fmt.Errorf(\"page %d: x=%%d too small\", x)\n\t}\n"+
		"\treturn x*%d + len(\"order\"), nil\n}\n```\n\n"+
		"```python\n"+
		"def settle_%02d(ledger, event):\n"+
		"    \"\"\"Settle one event; a retry never charges twice.\"\"\"\n"+
		"    if event.id in ledger:  # already settled\n"+
		"        return ledger[event.id]\n"+
		"    ledger[event.id] = event.amount * %d\n"+
		"    return ledger[event.id]\n```\n",
		p, p, p%97, p, p%89+1, p%50, p%50+1)
}
