package claims

import (
	"strings"
	"testing"
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
