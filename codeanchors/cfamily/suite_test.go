package cfamily

import (
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is C's and C++'s test suite: the testdata/extract/*.txtar cases
// (see its README.md) in langtest's qualified format, a call's qualifier
// and name apart ("QUAL NAME"), the insertion property for C and C++
// apart, the comment cases and chroma's C and C++ lexers. Ext are the
// extensions the cases cover (the language claims more).
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".c", ".h", ".cc", ".cpp", ".hpp"},
	Language: Language,
	Sections: func(_ langtest.Case, f *lang.File, err error) []txtar.File { return langtest.QualSections(f, err, " ") },
	Insert:   insertions,
	Comments: comments,
	Highlight: &langtest.Highlight{Lexer: "C++",
		Files: []string{"src/shapes.cpp", "include/shapes.hpp", "src/shapes.cc", "src/shapes.cxx", "include/shapes.hh"},
		Names: []string{"cpp", "c++", "cc"},
		Also:  []langtest.Highlight{{Lexer: "C", Files: []string{"src/list.c"}, Names: []string{"c", "C"}}}},
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

// TestHighlightHeader checks that a .h fragment gets chroma's C or C++
// lexer (a header is either).
func TestHighlightHeader(t *testing.T) {
	if l := lexers.Match("include/list.h"); l == nil || l.Config().Name != "C" && l.Config().Name != "C++" {
		t.Errorf(".h: lexer %v, want chroma's C or C++ lexer", l)
	}
}

// FuzzExtractC checks that Extract never panics, and that what it returns
// holds its invariants or is an error naming the path. It is seeded from
// the golden cases.
func FuzzExtractC(f *testing.F) { suite.Fuzz(f, "fuzz.cpp") }

// anonymous is a declaration inserted in both languages. issue 24: a
// function returning an anonymous enum, struct or union was missed, with
// everything after it.
var anonymous = langtest.Insertion{
	Text:    "int twBefore(void) { return 0; }\nstatic enum { TW_A, TW_B } twPick(int x) { return x ? TW_A : TW_B; }\nint twAfter(void) { return 1; }\n",
	Symbols: []lang.Symbol{langtest.Sym("twBefore", 1, 1), langtest.Sym("twPick", 2, 2), langtest.Sym("twAfter", 3, 3)},
}

// insertions are the insertion property's declarations
// (langtest.CheckInsertions), C and C++ apart: a declaration inserted
// between two others keeps every symbol, shifted, and adds its own, or
// Extract fails with a path:line error.
var insertions = []langtest.InsertSet{
	{Name: "c", Ext: []string{".c", ".h"}, Decls: []langtest.Insertion{
		anonymous,
		{Text: "static struct { int x, y; } twOrigin(void) {\n    struct { int x, y; } o = {0, 0};\n    return o;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twOrigin", 1, 4)}},
		{Text: "union twU {\n    int i;\n    float f;\n};\n", Symbols: []lang.Symbol{langtest.Sym("twU", 1, 4)}},
	}},
	{Name: "c++", Ext: []string{".cc", ".cpp", ".hpp"}, Decls: []langtest.Insertion{
		anonymous,
		// issue 24: X.~X spanned the class (3-7)
		{Text: "class TwX {\npublic:\n    ~TwX();\n    int f();\n};\n\nTwX::~TwX() = default;\n",
			Symbols: []lang.Symbol{langtest.Sym("TwX", 1, 5), langtest.Sym("TwX.f", 4, 4), langtest.Sym("TwX.~TwX", 7, 7)}},
		{Text: "struct TwY {\n    TwY() = delete;\n    bool operator==(const TwY &) const;\n};\n", Symbols: []lang.Symbol{langtest.Sym("TwY", 1, 4), langtest.Sym("TwY.TwY", 2, 2)}, Nested: true},
	}},
}

// comments check that Extract hands out every comment once (//, /* */,
// Doxygen blocks, those in preprocessor lines and in branches never
// taken), with its lines, and nothing that only looks like one: in a
// string, a raw string R"(...)", a character literal or a header name.
var comments = []langtest.CommentCase{
	{Path: "a.cc",
		Src: "#include <a//b.h> // trailing\n" +
			"#define N 1 /* in a\n   directive */\n" +
			"#if 0\n// in a dead branch\n#endif\n" +
			"/** Doc of f.\n * @implements REQ-1 */\n" +
			"int f(char c) { /* in code */\n" +
			"  const char *s = \"// not a comment\", *r = R\"x(/* nor\n */)x\";\n" +
			"  return c == '/' || c == '*' ? '\"' : L'/'; // last\n" +
			"}\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "// trailing"},
			{Line: 2, EndLine: 3, Text: "/* in a\n   directive */"},
			{Line: 5, EndLine: 5, Text: "// in a dead branch"},
			{Line: 7, EndLine: 8, Text: "/** Doc of f.\n * @implements REQ-1 */"},
			{Line: 9, EndLine: 9, Text: "/* in code */"},
			{Line: 12, EndLine: 12, Text: "// last"},
		}},
	{Path: "g.c",
		Src: "/* C */ static int g(void) { return '/' /* x */; }\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "/* C */"},
			{Line: 1, EndLine: 1, Text: "/* x */"},
		}},
}
