package kotlin

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once, nested
// ones whole, with its lines, and nothing that only looks like one (in a
// string, a raw string, or a template's code).
func TestComments(t *testing.T) {
	src := "#!/usr/bin/env kotlin\n" +
		"/* outer /* nested\n */ still */\n" +
		"class A { // trailing\n" +
		"  val s = \"// not a comment ${f(/* in a template */)}\"\n" +
		"  val r = \"\"\"/* nor\n this */\"\"\"\n" +
		"  /** KDoc @implements REQ-1 */ fun f() {}\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "A.kts", src,
		lang.Comment{Line: 2, EndLine: 3, Text: "/* outer /* nested\n */ still */"},
		lang.Comment{Line: 4, EndLine: 4, Text: "// trailing"},
		lang.Comment{Line: 8, EndLine: 8, Text: "/** KDoc @implements REQ-1 */"},
	)
}
