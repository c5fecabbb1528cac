package rust

import (
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Rust's golden suite: the testdata/extract/*.txtar cases (see
// its README.md), in the [langtest.ColonSections] format.
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".rs"},
	Extract:  Extract,
	Sections: func(_ langtest.Case, f *lang.File, err error) []txtar.File { return langtest.ColonSections(f, err) },
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestGolden extracts every case and compares with its sections (-update
// rewrites them, refused when CI is set: goldens are reviewed by people),
// with CRLF line endings, and checks that hashes depend on a symbol's own
// text only.
func TestGolden(t *testing.T) { suite.Run(t) }
