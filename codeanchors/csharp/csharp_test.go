package csharp

import (
	"slices"
	"strings"
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

// TestUnicodeSpaces checks that every Unicode space separator is white
// space to the lexer and the token hash: a file indented and spaced with
// U+00A0, U+2003 and U+3000 (and a preprocessor line spaced with them)
// gives the symbols and tokens of the same file with ASCII spaces.
func TestUnicodeSpaces(t *testing.T) {
	const ascii = "namespace N\n{\n    class A\n    {\n        #if  DEBUG\n        int F(int x) => x;\n        #endif\n        void G() { }\n    }\n}\n"
	for _, space := range []string{"\u00a0", "\u2003", "\u3000", "\u00a0\t"} {
		src := strings.ReplaceAll(ascii, " ", space)
		want, err := Extract("A.cs", []byte(ascii))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Extract("A.cs", []byte(src))
		if err != nil {
			t.Errorf("spaces %q: %v", space, err)
			continue
		}
		if len(got.Symbols) != len(want.Symbols) {
			t.Errorf("spaces %q: symbols %v, want %v", space, got.Symbols, want.Symbols)
			continue
		}
		for i := range got.Symbols {
			got.Symbols[i].StartOff, got.Symbols[i].EndOff = want.Symbols[i].StartOff, want.Symbols[i].EndOff
		}
		if !slices.Equal(got.Symbols, want.Symbols) || !slices.Equal(got.Tokens, want.Tokens) {
			t.Errorf("spaces %q: symbols %v tokens %q, want %v %q", space, got.Symbols, langtest.TokenTexts(got.Tokens),
				want.Symbols, langtest.TokenTexts(want.Tokens))
		}
	}
}
