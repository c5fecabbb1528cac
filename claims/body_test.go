package claims

import (
	"strings"
	"testing"
	"time"
)

// TestBodyRefused: invalid UTF-8 in a body is an error at its line and
// column, as in frontmatter, and so is a list nested deeper than MaxIndent
// columns, which is refused before the parser spends cubic time on it.
func TestBodyRefused(t *testing.T) {
	deep := strings.Builder{}
	for i := range 3000 {
		deep.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	for _, c := range []struct{ name, data, want string }{
		{"invalid UTF-8", "---\ntitle: T\n---\nfine\nab\xffc\n", "content/p.md:5:3: syntax: invalid UTF-8: the file must be UTF-8 text"},
		{"invalid UTF-8 without frontmatter", "x\n\xc3\x28\n", "content/p.md:2:1: syntax: invalid UTF-8"},
		{"deep list", "# Deep\n\n" + deep.String(), "content/p.md:54:1: syntax: indented 102 columns, more than the 100 tracewiki reads"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte(c.data)}})
			if len(ds) != 1 || !strings.Contains(ds[0].String(), c.want) {
				t.Errorf("Parse diagnostics = %v, want one containing %q", ds, c.want)
			}
		})
	}
	// What stays allowed: deep but bounded lists, blank lines of spaces,
	// valid UTF-8 of every width.
	ok := "# OK\n\n" + strings.Repeat(" ", 600) + "\n- é 日本 😀\n" + strings.Repeat("  ", 49) + "- deep\n"
	if _, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte(ok)}}); len(ds) != 0 {
		t.Errorf("Parse of an acceptable body: %v", ds)
	}
}

// BenchmarkParseDeepList parses the worst body the indentation bound lets
// through: lists nested 50 levels deep, repeated to about 9 MB (the
// attack's size; 3000 levels took 52 s before the bound).
func BenchmarkParseDeepList(b *testing.B) {
	var nest strings.Builder
	for i := range 50 {
		nest.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	body := []byte("# Deep\n\n" + strings.Repeat(nest.String()+"\npara\n\n", 9<<20/(nest.Len()+8)))
	files := []File{{Name: "content/p.md", Data: body}}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, ds := Parse("content", files); len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}

// TestBodyDeepCode: the indentation bound is for Markdown nesting, not for
// code. A code block's lines (fenced, in a list item or a blockquote, or
// indented) may be indented past MaxIndent; a deep line that the parser
// would read as Markdown is refused as before, however a fence near it
// tries to hide it.
func TestBodyDeepCode(t *testing.T) {
	deepList := strings.Builder{} // 3000 levels, most indented past MaxIndent
	for i := range 3000 {
		deepList.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	pad := func(n int) string { return strings.Repeat(" ", n) }
	for _, c := range []struct{ name, body string }{
		{"fence", "# Code\n\n```yaml\na:\n" + pad(140) + "b: 1\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tc\n```\n\nAfter.\n"},
		{"tilde fence, unclosed", "~~~\n" + pad(300) + "x\n"},
		{"fence in a list item", "- item\n\n  ```go\n  func f() {\n" + pad(120) + "return\n  }\n  ```\n- next\n"},
		{"fence in a blockquote", "> ```\n> " + pad(200) + "x\n> ```\n"},
		{"fence holding a deep list", "```\n" + deepList.String() + "```\n"},
		{"indented code block", "Text.\n\n" + pad(150) + "code\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte(c.body)}}); len(ds) != 0 {
				t.Errorf("Parse diagnostics = %v, want none", ds)
			}
		})
	}
	for _, c := range []struct{ name, body, want string }{
		// A 4-space "```" is indented code, not a fence: the list after it is Markdown.
		{"indented fence marker", "Text.\n\n    ```\n" + deepList.String(), "content/p.md:55:1: syntax: indented 102 columns"},
		{"closed fence", "```\ncode\n```\n" + deepList.String(), "content/p.md:55:1: syntax: indented 102 columns"},
		{"fence ended by its list item", "- ```\n" + deepList.String(), "content/p.md:53:1: syntax: indented 102 columns"},
		{"fence ended by its blockquote", "> ```\n- a\n" + pad(110) + "- b\n", "content/p.md:3:1: syntax: indented 110 columns"},
		{"backtick in the info string", "``` a`b\n" + deepList.String(), "content/p.md:53:1: syntax: indented 102 columns"},
		{"paragraph line", "Text\n" + pad(120) + "more text\n", "content/p.md:2:1: syntax: indented 120 columns"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte(c.body)}})
			if len(ds) != 1 || !strings.Contains(ds[0].String(), c.want) {
				t.Errorf("Parse diagnostics = %v, want one containing %q", ds, c.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("refusing took %v: the bound let the parser nest", d)
			}
		})
	}
	// Invalid UTF-8 after a deep fenced line is still reported, at its place.
	_, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte("```\n" + pad(200) + "x\n```\nab\xffc\n")}})
	if len(ds) != 1 || !strings.Contains(ds[0].String(), "content/p.md:4:3: syntax: invalid UTF-8") {
		t.Errorf("Parse diagnostics = %v, want invalid UTF-8 at 4:3", ds)
	}
}

// BenchmarkParseDeepFence parses about 9 MB of fenced code whose lines are
// indented 150 columns: the bound asks a second, shallow parse whether
// they are code.
func BenchmarkParseDeepFence(b *testing.B) {
	line := strings.Repeat(" ", 150) + "x := f(y)\n"
	body := []byte("# Deep\n\n```go\n" + strings.Repeat(line, 9<<20/len(line)) + "```\n")
	files := []File{{Name: "content/p.md", Data: body}}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, ds := Parse("content", files); len(ds) != 0 {
			b.Fatal(ds)
		}
	}
}
