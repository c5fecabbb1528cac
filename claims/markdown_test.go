package claims

import (
	"slices"
	"testing"
)

// expectClaims parses md as a page and checks the text of its claims.
func expectClaims(t *testing.T, md string, want ...string) {
	t.Helper()
	m, ds := Parse("content", []File{{Name: "content/p.md", Data: []byte(md)}})
	if len(ds) > 0 {
		t.Errorf("Parse(%q): diagnostics:\n%v", md, ds)
	}
	var got []string
	for _, c := range m.Pages[0].Doc.Claims {
		got = append(got, c.Text)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Parse(%q) claims = %q, want %q", md, got, want)
	}
}

func TestClaimSentences(t *testing.T) {
	expectClaims(t, "A [x](code:a.go). B.", "A x.")
	expectClaims(t, "A. B [x](code:a.go)", "B x")
	expectClaims(t, "A! B? C [x](code:a.go)... D.", "C x...")
	expectClaims(t, "Call `a.B()` then [x](code:a.go@B). Next.", "Call a.B() then x.")
	expectClaims(t, "In v1.2 the [x](code:a.go@B) runs.", "In v1.2 the x runs.")
	expectClaims(t, "Use e.g. [x](code:a.go@B) here.", "x here.")
	expectClaims(t, "Line one\nand [x](code:a.go) two. Three.", "Line one and x two.")
	expectClaims(t, "Hard  \nbreak [x](code:a.go).", "Hard break x.")
	expectClaims(t, "*A.* [x](code:a.go)", "x")
	expectClaims(t, "A &lt;b&gt; [x](code:a.go).", "A <b> x.")
	expectClaims(t, "```\n[x](code:a.go)\n```\n`[y](code:b.go)`")
	expectClaims(t, "[x](<code:a b.go>) spaces.", "x spaces.")
	expectClaims(t, "Two [a](code:a.go) and [b](code:b.go).", "Two a and b.", "Two a and b.")
}

func TestHeadingIDs(t *testing.T) {
	body := []byte("# Hello, World!\n\n## Hello World\n\n# Ünïcode\n\n### snake_case and-dash\n\n    # not a heading\n\n> # Quoted\n")
	want := []string{"hello-world", "hello-world-1", "ncode", "snake-case-and-dash", "quoted"}
	if got := HeadingIDs(body); !slices.Equal(got, want) {
		t.Errorf("HeadingIDs = %q, want %q", got, want)
	}
}
