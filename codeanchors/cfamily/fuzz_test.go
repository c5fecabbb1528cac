package cfamily

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// FuzzExtractC checks that Extract never panics, and that what it returns
// holds its invariants (lines and offsets inside the input, symbols sorted,
// tokens in order) or is an error naming the path. It is seeded from the
// golden cases.
func FuzzExtractC(f *testing.F) {
	for _, c := range readCases(f) {
		f.Add(c.Src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Extract("fuzz.cpp", src)
		if err != nil {
			if file != nil || !strings.HasPrefix(err.Error(), "fuzz.cpp:") {
				t.Fatalf("Extract(%q) = %v, %v; want nil and a fuzz.cpp:LINE:COL error", src, file, err)
			}
			return
		}
		langtest.CheckFile(t, src, file)
	})
}

// BenchmarkExtractC extracts GoogleTest's and GoogleMock's sources and
// headers (Debian googletest) and the C library's top-level headers, and
// reports symbols/s and lines/s.
func BenchmarkExtractC(b *testing.B) {
	type item struct {
		path string
		src  []byte
	}
	var items []item
	for _, pat := range []string{gtestRoot + "/*/src/*.cc", gtestRoot + "/*/include/*/*.h", gtestRoot + "/*/include/*/internal/*.h", "/usr/include/*.h"} {
		names, _ := filepath.Glob(pat)
		for _, p := range names {
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Extract(p, src); err != nil {
				continue // the benchmark measures files that parse
			}
			items = append(items, item{p, src})
		}
	}
	if len(items) < 100 {
		b.Fatalf("only %d corpus files (Debian packages googletest and libc6-dev; test.sh installs them)", len(items))
	}
	slices.SortFunc(items, func(x, y item) int { return strings.Compare(x.path, y.path) })
	langtest.BenchExtract(b, items, func(it item) (string, []byte) { return it.path, it.src }, Extract)
}
