package rust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// FuzzExtractRust checks that Extract never panics, and that what it
// returns holds its invariants (lines and offsets inside the input,
// symbols sorted, tokens in order) or is an error naming the path. It is
// seeded from the golden cases.
func FuzzExtractRust(f *testing.F) { suite.Fuzz(f, "fuzz.rs") }

// BenchmarkExtractRust extracts the standard library's core/src (Debian
// rust-src) and reports symbols/s and lines/s.
func BenchmarkExtractRust(b *testing.B) {
	type item struct {
		path string
		src  []byte
	}
	var items []item
	err := filepath.WalkDir(filepath.Join(rustSrc, "core", "src"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			items = append(items, item{p, src})
		}
		return err
	})
	if err != nil {
		b.Fatalf("corpus (Debian package rust-src; test.sh installs it): %v", err)
	}
	slices.SortFunc(items, func(x, y item) int { return strings.Compare(x.path, y.path) })
	langtest.BenchExtract(b, items, func(it item) (string, []byte) { return it.path, it.src }, Extract)
}
