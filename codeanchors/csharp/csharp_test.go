package csharp

import (
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is C#'s golden suite: the testdata/*.txtar cases (see
// testdata/README.md), with the namespace and usings in an "imports"
// section.
var suite = langtest.Suite{
	Dir:     ".",
	Ext:     []string{".cs"},
	Extra:   []string{"csref.js"},
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
func FuzzExtract(f *testing.F) { suite.Fuzz(f, "fuzz.cs") }

// BenchmarkExtract extracts the conformance corpus (UniTask, UniRx and
// ONNX Runtime's C# bindings from npm) and reports symbols/s and lines/s.
// Files that do not parse (braces split across #if branches, which
// tree-sitter rejects too) are left out.
func BenchmarkExtract(b *testing.B) {
	var files []source
	for _, f := range corpusSources(b) {
		if _, err := Extract(f.path, f.src); err == nil {
			files = append(files, f)
		}
	}
	langtest.BenchExtract(b, files, func(f source) (string, []byte) { return f.path, f.src }, Extract)
}
