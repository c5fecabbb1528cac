package java

import (
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Java's golden suite: the testdata/*.txtar cases (see
// testdata/README.md), with the package and imports in an "imports"
// section.
var suite = langtest.Suite{
	Dir:     ".",
	Ext:     []string{".java"},
	Extra:   []string{"JavaRef.java", "prettier.js"},
	Extract: Extract,
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, langtest.PackageImports)
	},
	Check: langtest.CheckFileCalls,
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestGolden checks Extract on every testdata/*.txtar case (-update
// rewrites the expected sections, refused when CI is set), with CRLF line
// endings, and that hashes depend on a symbol's own text only.
func TestGolden(t *testing.T) { suite.Run(t) }

// FuzzExtract checks that Extract never panics, fails with a File, or
// returns a range outside the input, seeded with the golden cases.
func FuzzExtract(f *testing.F) { suite.Fuzz(f, "fuzz.java") }
