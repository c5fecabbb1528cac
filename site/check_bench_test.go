package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// writeCorpus writes a synthetic workspace: files Go files of funcs funcs
// each, and wiki pages claiming every func once (files*funcs claims, 100 per
// page). The seed is fixed, so every run measures the same corpus.
func writeCorpus(tb testing.TB, dir string, files, funcs int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var page strings.Builder
	pageN := 0
	flush := func() {
		if page.Len() == 0 {
			return
		}
		name := filepath.Join(dir, "content", fmt.Sprintf("page%04d.md", pageN))
		must(tb, os.WriteFile(name, []byte(page.String()), 0o644))
		page.Reset()
		pageN++
	}
	must(tb, os.MkdirAll(filepath.Join(dir, "content"), 0o755))
	claims := 0
	for f := range files {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\n", f/50)
		for g := range funcs {
			fmt.Fprintf(&src, "// F%d does things.\nfunc F%d(x int) int {\n", g, g)
			for range 3 + rng.IntN(10) {
				fmt.Fprintf(&src, "\tx = x*%d + %d\n", rng.IntN(100), rng.IntN(100))
			}
			src.WriteString("\treturn x\n}\n\n")
			fmt.Fprintf(&page, "F%d computes ([code](code:pkg/f%04d.go@F%d)).\n", g, f, g)
			if claims++; claims%100 == 0 {
				flush()
			}
		}
		d := filepath.Join(dir, "pkg")
		must(tb, os.MkdirAll(d, 0o755))
		must(tb, os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.go", f)), []byte(src.String()), 0o644))
	}
	flush()
}

// BenchmarkCheck measures "tracewiki check" (load, parse content, read,
// parse and hash every source once, judge every anchor) on 10,000 captured
// anchors over 1,000 Go files.
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	writeCorpus(b, dir, 1000, 10)
	captureAll(b, dir)
	b.ReportAllocs()
	var anchors int
	for b.Loop() {
		p, err := Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := p.Check()
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
		anchors += len(rep.Targets)
		for _, ts := range rep.Targets {
			if ts.Verdict.State != codeanchors.Linked {
				b.Fatalf("%s: %s", ts.Target, ts.Verdict.Reason)
			}
		}
	}
	b.ReportMetric(float64(anchors)/b.Elapsed().Seconds(), "anchors/s")
}
