package python

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every # comment and every
// docstring (Doc; strings joined implicitly are one) once, in source
// order, with its lines, and nothing that only looks like one: a # in a
// string or an f-string's literal text, a string that is not the first
// statement of its module, class or function, a bytes literal in a
// docstring's place, and an f-string there.
func TestComments(t *testing.T) {
	src := "#!/usr/bin/env python3\n" +
		"\"\"\"Module doc.\n@implements REQ-1\"\"\"\n" +
		"import os  # trailing\n" +
		"s = '# not a comment'\n" +
		"\"not a docstring: not the first statement\"\n" +
		"class C:\n" +
		"    r'''Class doc. # not a comment'''\n" +
		"    def m(self):\n" +
		"        # before the docstring\n" +
		"        \"Method doc.\"  # after it\n" +
		"        x = f\"# {self  # a comment in a field\n" +
		"        }\"\n" +
		"def f(): 'Inline doc.'\n" +
		"def g():\n" +
		"    b'bytes are no docstring'\n" +
		"def h():\n" +
		"    f'nor is an f-string {1}'\n" +
		"    def inner():\n" +
		"        '''Inner doc.'''\n" +
		"def k():\n" +
		"    \"Joined \" 'docstring.'  # Python joins them\n"
	langtest.ExpectComments(t, Extract, "m.py", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "#!/usr/bin/env python3"},
		lang.Comment{Line: 2, EndLine: 3, Text: "\"\"\"Module doc.\n@implements REQ-1\"\"\"", Doc: true},
		lang.Comment{Line: 4, EndLine: 4, Text: "# trailing"},
		lang.Comment{Line: 8, EndLine: 8, Text: "r'''Class doc. # not a comment'''", Doc: true},
		lang.Comment{Line: 10, EndLine: 10, Text: "# before the docstring"},
		lang.Comment{Line: 11, EndLine: 11, Text: "\"Method doc.\"", Doc: true},
		lang.Comment{Line: 11, EndLine: 11, Text: "# after it"},
		lang.Comment{Line: 12, EndLine: 12, Text: "# a comment in a field"},
		lang.Comment{Line: 14, EndLine: 14, Text: "'Inline doc.'", Doc: true},
		lang.Comment{Line: 20, EndLine: 20, Text: "'''Inner doc.'''", Doc: true},
		lang.Comment{Line: 22, EndLine: 22, Text: "\"Joined \" 'docstring.'", Doc: true},
		lang.Comment{Line: 22, EndLine: 22, Text: "# Python joins them"},
	)
}
