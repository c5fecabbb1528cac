package cfamily

import (
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
