package rust

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once, doc
// comments and nested block comments whole, with its lines, and nothing
// that only looks like one (in a string or raw string).
func TestComments(t *testing.T) {
	src := "//! Crate doc.\n" +
		"/* outer /* nested\n */ still */\n" +
		"/// Doc of f. @implements REQ-1\n" +
		"fn f() { // trailing\n" +
		"    let s = \"// not a comment\";\n" +
		"    let r = r#\"/* nor\n this */\"#;\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "lib.rs", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "//! Crate doc."},
		lang.Comment{Line: 2, EndLine: 3, Text: "/* outer /* nested\n */ still */"},
		lang.Comment{Line: 4, EndLine: 4, Text: "/// Doc of f. @implements REQ-1"},
		lang.Comment{Line: 5, EndLine: 5, Text: "// trailing"},
	)
}
