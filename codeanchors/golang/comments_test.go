package golang

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestComments checks that Extract hands out every comment once, as
// written (a block comment keeps its carriage returns), with its lines,
// and nothing that only looks like one (in a string or raw string).
func TestComments(t *testing.T) {
	src := "// Package p.\n" +
		"package p\n" +
		"\n" +
		"/* Block\n   comment. */\n" +
		"// F does it. @implements REQ-1\n" +
		"func F() { // trailing\n" +
		"\ts := \"// not a comment\"\n" +
		"\tr := `/* nor\n this */`\n" +
		"\t_, _ = s, r\n" +
		"}\n"
	langtest.ExpectComments(t, Extract, "p.go", src,
		lang.Comment{Line: 1, EndLine: 1, Text: "// Package p."},
		lang.Comment{Line: 4, EndLine: 5, Text: "/* Block\n   comment. */"},
		lang.Comment{Line: 6, EndLine: 6, Text: "// F does it. @implements REQ-1"},
		lang.Comment{Line: 7, EndLine: 7, Text: "// trailing"},
	)
}
