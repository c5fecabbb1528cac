package csharp

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once, with its
// lines, and nothing that only looks like one (in a string, an
// interpolation hole or a preprocessor line).
func TestComments(t *testing.T) {
	src := "/// <summary>A.</summary>\n" +
		"#region r // in a directive\n" +
		"class A { // trailing\n" +
		"  string s = \"// not a comment\";\n" +
		"  string v = @\"/* nor\n this */\";\n" +
		"  string i = $\"{f(/* in a hole */)}\";\n" +
		"  /* block\n     comment */ void F() {}\n" +
		"}\n" +
		"#endregion\n"
	langtest.ExpectComments(t, Extract, "A.cs", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "/// <summary>A.</summary>"},
		lang.Comment{Line: 3, EndLine: 3, Text: "// trailing"},
		lang.Comment{Line: 8, EndLine: 9, Text: "/* block\n     comment */"},
	)
}
