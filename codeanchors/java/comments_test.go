package java

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once, with its
// lines, and nothing that only looks like one (in a string or text block).
func TestComments(t *testing.T) {
	src := "// header\n" +
		"package p;\n" +
		"/** Doc of A.\n" +
		" * @implements REQ-1 */\n" +
		"class A { // trailing\n" +
		"  String s = \"// not a comment\";\n" +
		"  String b = \"\"\"\n    /* nor this */\n    \"\"\";\n" +
		"  /**/ void f() {}\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "A.java", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "// header"},
		lang.Comment{Line: 3, EndLine: 4, Text: "/** Doc of A.\n * @implements REQ-1 */"},
		lang.Comment{Line: 5, EndLine: 5, Text: "// trailing"},
		lang.Comment{Line: 10, EndLine: 10, Text: "/**/"},
	)
}
