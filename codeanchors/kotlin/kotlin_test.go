package kotlin_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is the golden suite of testdata/extract (see its README.md).
var suite = langtest.Suite{
	Dir: "extract", Ext: []string{".kt", ".kts"}, Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, imports)
	},
	Language:  kotlin.Language,
	Insert:    insertions,
	Comments:  comments,
	Highlight: &langtest.Highlight{Lexer: "Kotlin", Files: []string{"Cart.kt", "src/main/kotlin/a/B.kt", "build.gradle.kts"}, Names: []string{"kotlin", "Kotlin", "kt"}, Gaps: chromaGaps},
}

// imports renders a file's package and imports: "package NAME", then one
// import a line, "as ALIAS" after an aliased one.
func imports(f *lang.File) []byte {
	var b bytes.Buffer
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	for i, imp := range f.Imports {
		b.WriteString(imp)
		if f.ImportNames[i] != "" {
			b.WriteString(" as " + f.ImportNames[i])
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments and highlighting.
func TestSuite(t *testing.T) { suite.Run(t) }

func FuzzExtractKotlin(f *testing.F) { suite.Fuzz(f, "fuzz.kt") }

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "fun twInserted(x: Int): Int {\n    return x\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}, Nested: true},
	{Text: "class TwInserted {\n    fun m() = 1\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3), langtest.Sym("TwInserted.m", 2, 2)}, Nested: true},
	{Text: "fun twExpr(x: Int) =\n    x + 1\n", Symbols: []lang.Symbol{langtest.Sym("twExpr", 1, 2)}, Nested: true},
}}}

// comments check that Extract hands out every comment once, nested
// ones whole, with its lines, and nothing that only looks like one (in a
// string, a raw string, or a template's code).
var comments = []langtest.CommentCase{{Path: "A.kts",
	Src: "#!/usr/bin/env kotlin\n" +
		"/* outer /* nested\n */ still */\n" +
		"class A { // trailing\n" +
		"  val s = \"// not a comment ${f(/* in a template */)}\"\n" +
		"  val r = \"\"\"/* nor\n this */\"\"\"\n" +
		"  /** KDoc @implements REQ-1 */ fun f() {}\n" +
		"}\n",
	Want: []lang.Comment{
		{Line: 2, EndLine: 3, Text: "/* outer /* nested\n */ still */"},
		{Line: 4, EndLine: 4, Text: "// trailing"},
		{Line: 8, EndLine: 8, Text: "/** KDoc @implements REQ-1 */"},
	}}}

// chromaGaps are the constructs chroma's Kotlin lexer does not know, where
// it gives error tokens (highlighting falls back to plain text there, the
// page still shows every character): case:line -> construct.
var chromaGaps = map[string]string{
	"annotations.txtar:10":       "an annotation list @[A B]",
	"expression_bodies.txtar:52": "a label on a lambda run outer@{",
	"enums_nested.txtar:37":      "an object expression object : T { in a property",
	"extensions.txtar:19":        "a function-type receiver fun (() -> Unit).f()",
	"properties.txtar:25":        "a generic extension property val <T> List<T>.x",
	"properties.txtar:28":        "a destructuring declaration val (a, b) = ...",
	"strings.txtar:11":           "a raw string ending in more than three quotes",
}
