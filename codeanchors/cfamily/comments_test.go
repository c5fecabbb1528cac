package cfamily

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once (//, /*
// */, Doxygen blocks, those in preprocessor lines and in branches never
// taken), with its lines, and nothing that only looks like one: in a
// string, a raw string R"(...)", a character literal or a header name.
func TestComments(t *testing.T) {
	src := "#include <a//b.h> // trailing\n" +
		"#define N 1 /* in a\n   directive */\n" +
		"#if 0\n// in a dead branch\n#endif\n" +
		"/** Doc of f.\n * @implements REQ-1 */\n" +
		"int f(char c) { /* in code */\n" +
		"  const char *s = \"// not a comment\", *r = R\"x(/* nor\n */)x\";\n" +
		"  return c == '/' || c == '*' ? '\"' : L'/'; // last\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "a.cc", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "// trailing"},
		lang.Comment{Line: 2, EndLine: 3, Text: "/* in a\n   directive */"},
		lang.Comment{Line: 5, EndLine: 5, Text: "// in a dead branch"},
		lang.Comment{Line: 7, EndLine: 8, Text: "/** Doc of f.\n * @implements REQ-1 */"},
		lang.Comment{Line: 9, EndLine: 9, Text: "/* in code */"},
		lang.Comment{Line: 12, EndLine: 12, Text: "// last"},
	)
	c := "/* C */ static int g(void) { return '/' /* x */; }\n"
	langtest.ExpectComments(t, Extract, "g.c", c,
		lang.Comment{Line: 1, EndLine: 1, Text: "/* C */"},
		lang.Comment{Line: 1, EndLine: 1, Text: "/* x */"},
	)
}
