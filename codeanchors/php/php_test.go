package php

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is PHP's golden suite: the testdata/extract/*.txtar cases, in the
// [langtest.ColonSections] format.
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".php"},
	Extract:  Extract,
	Sections: func(_ langtest.Case, f *lang.File, err error) []txtar.File { return langtest.ColonSections(f, err) },
	Language: Language,
	Insert:   insertions,
	Comments: comments,
	// chroma's PHP lexer does not know a file starting with inline HTML
	// (strings.txtar) nor an attribute on an anonymous class
	// (anonymous.txtar); highlighting shows those as plain text
	Highlight: &langtest.Highlight{Lexer: "PHP", Files: []string{"index.php", "src/App/Kernel.php"}, Names: []string{"php", "PHP"}, Skip: func(c langtest.Case) bool {
		return strings.HasSuffix(c.File, "strings.txtar") || strings.HasSuffix(c.File, "anonymous.txtar")
	}},
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

func TestErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"<?php\nfunction f() {\n", "e.php:2:14: { is not closed"},
		{"<?php\n$a = 'x;\n", "e.php:2:6: string not terminated"},
		{"<?php\n/* x\n", "e.php:2:1: comment not terminated"},
		{"<?php\n$x = <<<EOT\nabc\n", "e.php:2:6: heredoc EOT not terminated"},
		{"<?php\nf(];\n", "e.php:2:3: unexpected ]: ( opened at offset 7 is not closed"},
		{"<?php\n}\n", "e.php:2:1: unexpected }"},
	} {
		langtest.ExpectExtractError(t, "Extract", Extract, "e.php", tt.src, tt.want)
	}
}

// FuzzExtractPHP checks that Extract never panics and that what it returns
// holds its invariants, or is an error naming the path.
func FuzzExtractPHP(f *testing.F) { suite.Fuzz(f, "fuzz.php") }

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "function tw_inserted($x)\n{\n    return $x;\n}\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 4)}, Nested: true},
	{Text: "class TwInserted\n{\n    public function m() {}\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.m", 3, 3)}},
}}}

// comments check that Extract hands out every comment once (#, //
// ending at ?>, /* */, doc blocks), with its lines, and nothing that only
// looks like one (in a string, inline HTML, or an attribute #[...]).
var comments = []langtest.CommentCase{{Path: "a.php",
	Src: "<p>// HTML</p>\n" +
		"<?php # hash ?>\n" +
		"<?php\n" +
		"/** Doc of f.\n * @implements REQ-1 */\n" +
		"#[Attr]\n" +
		"function f() { // trailing\n" +
		"  $s = '// not a comment';\n" +
		"}\n",
	Want: []lang.Comment{
		{Line: 2, EndLine: 2, Text: "# hash "},
		{Line: 4, EndLine: 5, Text: "/** Doc of f.\n * @implements REQ-1 */"},
		{Line: 7, EndLine: 7, Text: "// trailing"},
	}}}
