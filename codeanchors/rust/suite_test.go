package rust

import (
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Rust's test suite: the testdata/extract/*.txtar cases (see its
// README.md) in the [langtest.ColonSections] format, the insertion
// property's declarations, the comment cases and chroma's Rust lexer.
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".rs"},
	Language: Language,
	Sections: func(_ langtest.Case, f *lang.File, err error) []txtar.File { return langtest.ColonSections(f, err) },
	Insert: []langtest.InsertSet{{Decls: []langtest.Insertion{
		{Text: "fn tw_inserted(x: i32) -> i32 {\n    x\n}\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 3)}, Nested: true},
		{Text: "struct TwInserted {\n    a: i32,\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3)}},
	}}},
	// every comment once, doc comments and nested block comments whole,
	// and nothing that only looks like one (in a string or raw string)
	Comments: []langtest.CommentCase{{Path: "lib.rs",
		Src: "//! Crate doc.\n" +
			"/* outer /* nested\n */ still */\n" +
			"/// Doc of f. @implements REQ-1\n" +
			"fn f() { // trailing\n" +
			"    let s = \"// not a comment\";\n" +
			"    let r = r#\"/* nor\n this */\"#;\n" +
			"}\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "//! Crate doc."},
			{Line: 2, EndLine: 3, Text: "/* outer /* nested\n */ still */"},
			{Line: 4, EndLine: 4, Text: "/// Doc of f. @implements REQ-1"},
			{Line: 5, EndLine: 5, Text: "// trailing"},
		}}},
	// raw strings, lifetimes, attributes, macros and nested comments lex
	// without error tokens
	Highlight: &langtest.Highlight{Lexer: "Rust", Files: []string{"lib.rs", "src/bin/tool.rs"}, Names: []string{"rust", "rs", "Rust"}},
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs Rust's suite ([langtest.Suite.Run]): goldens (-update
// rewrites them, refused when CI is set), CRLF, context-free hashes, the
// insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

// FuzzExtractRust checks that Extract never panics, and that what it
// returns holds its invariants or is an error naming the path. It is
// seeded from the golden cases.
func FuzzExtractRust(f *testing.F) { suite.Fuzz(f, "fuzz.rs") }
