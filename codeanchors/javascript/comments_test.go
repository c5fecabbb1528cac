package javascript

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once (a
// hashbang line, //, /* */ and JSDoc blocks, those inside a template's
// substitution or a JSX tag too), with its lines, and nothing that only
// looks like one: in a string, a template's text, a regular expression
// literal or JSX text.
func TestComments(t *testing.T) {
	js := "#!/usr/bin/env node\n" +
		"/** Doc of f.\n * @implements REQ-1 */\n" +
		"function f(a) { // trailing\n" +
		"  const s = '// not a comment', d = \"/* nor */\";\n" +
		"  const t = `// text ${ /* in a substitution */ a } /* text\n   */`;\n" +
		"  const r = /\\/\\/ nor a regex/g, q = /[/*]/.test(s) /* after a regex */;\n" +
		"  return a / 2 // a division\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "a.js", js,
		lang.Comment{Line: 1, EndLine: 1, Text: "#!/usr/bin/env node"},
		lang.Comment{Line: 2, EndLine: 3, Text: "/** Doc of f.\n * @implements REQ-1 */"},
		lang.Comment{Line: 4, EndLine: 4, Text: "// trailing"},
		lang.Comment{Line: 6, EndLine: 6, Text: "/* in a substitution */"},
		lang.Comment{Line: 8, EndLine: 8, Text: "/* after a regex */"},
		lang.Comment{Line: 9, EndLine: 9, Text: "// a division"},
	)
	jsx := "const App = () => <div /* in a tag */ id=\"x\">// text, not a comment {/* a child comment */}</div>;\n"
	langtest.ExpectComments(t, Extract, "a.jsx", jsx,
		lang.Comment{Line: 1, EndLine: 1, Text: "/* in a tag */"},
		lang.Comment{Line: 1, EndLine: 1, Text: "/* a child comment */"},
	)
	ts := "// @implements REQ-2\n" +
		"export function g<T>(x: Array<T> /* the input */): T[] {\n" +
		"  return x.filter((y: T) => y !== '//') as T[]; /* done\n  */\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "a.ts", ts,
		lang.Comment{Line: 1, EndLine: 1, Text: "// @implements REQ-2"},
		lang.Comment{Line: 2, EndLine: 2, Text: "/* the input */"},
		lang.Comment{Line: 3, EndLine: 4, Text: "/* done\n  */"},
	)
}
