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
	Dir:   ".",
	Ext:   []string{".java"},
	Extra: []string{"JavaRef.java", "prettier.js"},
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, langtest.PackageImports)
	},
	Check:     langtest.CheckFileCalls,
	Language:  Language,
	Insert:    insertions,
	Comments:  comments,
	Highlight: &langtest.Highlight{Lexer: "Java", Files: []string{"Cart.java", "src/main/java/a/B.java"}, Names: []string{"java", "Java"}},
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

// FuzzExtract checks that Extract never panics, fails with a File, or
// returns a range outside the input, seeded with the golden cases.
func FuzzExtract(f *testing.F) { suite.Fuzz(f, "fuzz.java") }

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "class TwInserted {\n    void m() {\n    }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.m", 2, 3)}, Nested: true},
	{Text: "enum TwEnum {\n    A, B;\n\n    int f() { return 1; }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwEnum", 1, 5), langtest.Sym("TwEnum.f", 4, 4)}, Nested: true},
}}}

// comments check that Extract hands out every comment once, with its
// lines, and nothing that only looks like one (in a string or text block).
var comments = []langtest.CommentCase{{Path: "A.java",
	Src: "// header\n" +
		"package p;\n" +
		"/** Doc of A.\n" +
		" * @implements REQ-1 */\n" +
		"class A { // trailing\n" +
		"  String s = \"// not a comment\";\n" +
		"  String b = \"\"\"\n    /* nor this */\n    \"\"\";\n" +
		"  /**/ void f() {}\n" +
		"}\n",
	Want: []lang.Comment{
		{Line: 1, EndLine: 1, Text: "// header"},
		{Line: 3, EndLine: 4, Text: "/** Doc of A.\n * @implements REQ-1 */"},
		{Line: 5, EndLine: 5, Text: "// trailing"},
		{Line: 10, EndLine: 10, Text: "/**/"},
	}}}
