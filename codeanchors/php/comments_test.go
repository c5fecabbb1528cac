package php

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once (#, //
// ending at ?>, /* */, doc blocks), with its lines, and nothing that only
// looks like one (in a string, inline HTML, or an attribute #[...]).
func TestComments(t *testing.T) {
	src := "<p>// HTML</p>\n" +
		"<?php # hash ?>\n" +
		"<?php\n" +
		"/** Doc of f.\n * @implements REQ-1 */\n" +
		"#[Attr]\n" +
		"function f() { // trailing\n" +
		"  $s = '// not a comment';\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "a.php", src,
		lang.Comment{Line: 2, EndLine: 2, Text: "# hash "},
		lang.Comment{Line: 4, EndLine: 5, Text: "/** Doc of f.\n * @implements REQ-1 */"},
		lang.Comment{Line: 7, EndLine: 7, Text: "// trailing"},
	)
}
