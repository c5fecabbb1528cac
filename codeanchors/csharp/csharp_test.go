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
	Dir:   ".",
	Ext:   []string{".cs"},
	Extra: []string{"csref.js"},
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, langtest.PackageImports)
	},
	Check:    langtest.CheckFileCalls,
	Language: Language,
	Insert:   insertions,
	Comments: comments,
	// chroma's C# lexer does not know raw interpolated strings ($$""")
	Highlight: &langtest.Highlight{Lexer: "C#", Files: []string{"Cart.cs", "src/A/B.cs"}, Names: []string{"csharp", "cs", "c#"}, Skip: func(c langtest.Case) bool { return strings.Contains(string(c.Src), `$$"""`) }},
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

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

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	// indented with no-break spaces (U+00A0), as some of Newtonsoft.Json's files are
	{Text: "class TwNbsp\n{\n\u00a0\u00a0\u00a0\u00a0void M()\n\u00a0\u00a0\u00a0\u00a0{\n\u00a0\u00a0\u00a0\u00a0}\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwNbsp", 1, 6), langtest.Sym("TwNbsp.M", 3, 5)}, Nested: true},
	{Text: "class TwInserted\n{\n    int P { get; set; }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.P", 3, 3)}, Nested: true},
}}}

// comments check that Extract hands out every comment once, with its
// lines, and nothing that only looks like one (in a string, an
// interpolation hole or a preprocessor line).
var comments = []langtest.CommentCase{{Path: "A.cs",
	Src: "/// <summary>A.</summary>\n" +
		"#region r // in a directive\n" +
		"class A { // trailing\n" +
		"  string s = \"// not a comment\";\n" +
		"  string v = @\"/* nor\n this */\";\n" +
		"  string i = $\"{f(/* in a hole */)}\";\n" +
		"  /* block\n     comment */ void F() {}\n" +
		"}\n" +
		"#endregion\n",
	Want: []lang.Comment{
		{Line: 1, EndLine: 1, Text: "/// <summary>A.</summary>"},
		{Line: 3, EndLine: 3, Text: "// trailing"},
		{Line: 8, EndLine: 9, Text: "/* block\n     comment */"},
	}}}
