package render

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompactHTML checks that highlighted HTML kept compact expands to
// exactly what was kept, for empty, small, large and incompressible text,
// and that the kept copy is smaller than the HTML it stands for.
func TestCompactHTML(t *testing.T) {
	h := newHighlighter()
	var code strings.Builder
	for i := range 200 {
		fmt.Fprintf(&code, "func F%d(x int) int { return x*%d + %d }\n", i, i, i*7)
	}
	fence := []byte(h.Fence("go", []byte(code.String())))
	noise := make([]byte, 10000)
	for i := range noise {
		noise[i] = byte(i * 7919 >> 3)
	}
	for _, html := range [][]byte{nil, []byte("<pre>x</pre>"), fence, noise} {
		c := compact(html)
		if got := c.html(); string(got) != string(html) {
			t.Errorf("compact(%d bytes) expands to %d bytes that differ", len(html), len(got))
		}
		if string(c.html()) != string(html) {
			t.Errorf("a second expansion of %d bytes differs", len(html))
		}
	}
	if c := compact(fence); len(c.z)*4 > len(fence) {
		t.Errorf("%d bytes of highlighted HTML kept in %d bytes, want under a quarter", len(fence), len(c.z))
	}
}

// BenchmarkHighlightFences highlights the fences of 500 pages as a build
// does (each page a Go fence of its own and a Python one shared with every
// 50th page, both wanted by two pages), and reports the bytes the
// highlighter keeps per distinct fence and fences shown per second.
func BenchmarkHighlightFences(b *testing.B) {
	const pages = 500
	gofence := func(p int) []byte {
		return fmt.Appendf(nil, "// Page%05d shows the call.\nfunc Page%05d(ctx context.Context, x int) (int, error) {\n\tif x < %d {\n\t\treturn 0, fmt.Errorf(\"page %d: x=%%d too small\", x)\n\t}\n\treturn x*%d + len(\"order\"), nil\n}\n", p, p, p%97, p, p%89+1)
	}
	pyfence := func(p int) []byte {
		return fmt.Appendf(nil, "def settle_%02d(ledger, event):\n    \"\"\"Settle one event.\"\"\"\n    if event.id in ledger:  # already settled\n        return ledger[event.id]\n    ledger[event.id] = event.amount * %d\n    return ledger[event.id]\n", p%50, p%50+1)
	}
	b.ReportAllocs()
	shown, kept, distinct := 0, 0, 0
	for b.Loop() {
		h := newHighlighter()
		for range 2 {
			for p := range pages {
				_ = h.Fence("go", gofence(p))
				_ = h.Fence("python", pyfence(p))
				shown += 2
			}
		}
		kept, distinct = 0, len(h.fences)
		for _, r := range h.fences {
			kept += len(r.html.z)
		}
	}
	b.ReportMetric(float64(kept)/float64(distinct), "kept-bytes/fence")
	b.ReportMetric(float64(shown)/b.Elapsed().Seconds(), "fences/s")
}
