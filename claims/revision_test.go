package claims

import (
	"strings"
	"testing"
)

func TestRevision(t *testing.T) {
	base := Revision("Users log in", []byte("Users log in\nwith a password.\n"))
	same := []struct {
		title, body string
	}{
		{"Users log in", "Users log in\nwith a password.\n"},
		{"  Users log in\t", "Users log in\nwith a password."},
		{"Users log in", "Users log in\r\nwith a password.\r\n"},
		{"Users log in", "Users log in \nwith a password.\t\t\n"},
		{"Users log in", "\n\n  \nUsers log in\nwith a password.\n\n \t\n"},
		{"Users log in", "Users log in with a password.\n"}, // re-wrapped
		{"Users log in", "Users\nlog\nin\nwith\na\npassword.\n"},
		{"Users log in", "Users log in\n    with a password.\n"}, // a continuation line's indentation
		{"Users log in", "Users  log in \t with a password.\n"},
	}
	for _, c := range same {
		if got := Revision(c.title, []byte(c.body)); got != base {
			t.Errorf("Revision(%q, %q) = %s, want %s (same words)", c.title, c.body, got, base)
		}
	}
	differ := []struct {
		title, body string
	}{
		{"Users log in", "Users log in\nwith a passphrase.\n"},
		{"Users sign in", "Users log in\nwith a password.\n"},
		{"Users log in", "    Users log in\nwith a password.\n"}, // a code block
		{"Users log in", "Users log in\n\nwith a password.\n"},   // two paragraphs
		{"Users log in", "Users log in  \nwith a password.\n"},   // a hard break
		{"Users log in", "Users log in   \nwith a password.\n"},
		{"Users log in", "Users log in\\\nwith a password.\n"},
		{"Users log in", "Users log in\n# with a password.\n"}, // a heading
		{"Users log in", "Users log in\n- with a password.\n"}, // a list
		{"Users log in", "Users login with a password.\n"},
		{"", "Users log in\nUsers log in\nwith a password.\n"},
	}
	for _, c := range differ {
		if got := Revision(c.title, []byte(c.body)); got == base {
			t.Errorf("Revision(%q, %q) = %s, want a different revision", c.title, c.body, got)
		}
	}
}

// TestRevisionRewrap checks that re-wrapping the paragraphs of each kind of
// block Markdown wraps keeps the revision, and that changing a word, a
// list item, a heading, a code block or a table makes a new one.
func TestRevisionRewrap(t *testing.T) {
	const body = `Intro paragraph that a formatter
may wrap anywhere it likes.

## A heading stays one line

- First item whose text
  goes on.
- Second item.
  1. Nested item
     wrapped.

> A quoted paragraph
> wrapped twice.

Hard break here\
and here  
then soft.

` + "```go\nfunc f() {\n\treturn  1\n}\n```\n" + `
    indented  code
    block

| a  | b |
|----|---|
| 1  | 2 |

Last words with ` + "`a code span`" + `.
`
	base := Revision("T", []byte(body))
	same := map[string]string{
		"intro re-wrapped":      strings.Replace(body, "formatter\nmay wrap", "formatter may\nwrap", 1),
		"intro on one line":     strings.Replace(body, "formatter\nmay", "formatter may", 1),
		"item re-wrapped":       strings.Replace(body, "text\n  goes on.", "text goes\n  on.", 1),
		"item continued lazily": strings.Replace(body, "text\n  goes on.", "text\ngoes on.", 1),
		"nested item joined":    strings.Replace(body, "item\n     wrapped.", "item wrapped.", 1),
		"quote re-wrapped":      strings.Replace(body, "> A quoted paragraph\n> wrapped twice.", "> A quoted\n> paragraph wrapped twice.", 1),
		"quote lazily":          strings.Replace(body, "paragraph\n> wrapped", "paragraph\nwrapped", 1),
		"hard break respelled":  strings.Replace(body, "here  \nthen", "here\\\nthen", 1),
		"after hard break":      strings.Replace(body, "here  \nthen soft.", "here  \n   then soft.", 1),
		"spaces in a paragraph": strings.Replace(body, "Last words with", "Last   words\twith", 1),
		"span wrapped":          strings.Replace(body, "`a code span`", "`a code\nspan`", 1),
		"CRLF":                  strings.ReplaceAll(body, "\n", "\r\n"),
	}
	for name, b := range same {
		if b == body {
			t.Fatalf("%s: the test's replacement changed nothing", name)
		}
		if got := Revision("T", []byte(b)); got != base {
			t.Errorf("%s: a new revision, want the same\n%s", name, b)
		}
	}
	differ := map[string]string{
		"a word":             strings.Replace(body, "may wrap", "must wrap", 1),
		"a heading's word":   strings.Replace(body, "stays one line", "stays a line", 1),
		"a heading wrapped":  strings.Replace(body, "## A heading stays one line", "## A heading\nstays one line", 1),
		"a list item split":  strings.Replace(body, "text\n  goes on.", "text\n- goes on.", 1),
		"an item's word":     strings.Replace(body, "Second item.", "Second entry.", 1),
		"an item's marker":   strings.Replace(body, "- Second item.", "* Second item.", 1),
		"a code line":        strings.Replace(body, "return  1", "return 1", 1),
		"a code block wrap":  strings.Replace(body, "func f() {\n\treturn", "func f() { return", 1),
		"an indented block":  strings.Replace(body, "indented  code\n    block", "indented  code block", 1),
		"a table re-spaced":  strings.Replace(body, "| a  | b |", "| a | b |", 1),
		"a table cell":       strings.Replace(body, "| 1  | 2 |", "| 1  | 3 |", 1),
		"a hard break soft":  strings.Replace(body, "here  \nthen", "here\nthen", 1),
		"a paragraph split":  strings.Replace(body, "formatter\nmay", "formatter\n\nmay", 1),
		"paragraphs joined":  strings.Replace(body, "wrapped twice.\n\nHard", "wrapped twice.\nHard", 1),
		"a word in the span": strings.Replace(body, "`a code span`", "`a code spam`", 1),
	}
	for name, b := range differ {
		if b == body {
			t.Fatalf("%s: the test's replacement changed nothing", name)
		}
		if got := Revision("T", []byte(b)); got == base {
			t.Errorf("%s: the same revision, want a new one\n%s", name, b)
		}
	}
}

// TestRevisionFormat pins both forms: a change here changes every recorded
// evidence's revision.
func TestRevisionFormat(t *testing.T) {
	// printf 'T\n\nline' | sha256sum
	const want = "sha256:9dfbf75d5427fce4907c344b7791794246d78f5396543834cb77da40080b473c"
	for _, f := range []func(string, []byte) string{Revision, LegacyRevision} {
		if got := f(" T ", []byte("\nline  \r\n\n")); got != want {
			t.Errorf("Revision = %s, want %s", got, want)
		}
	}
	// printf 'T\n\na b' | sha256sum: the paragraph unwrapped
	const joined = "sha256:050b13df40cc6b93f1efc7f235ab45da3e53f2469aad5f624cd31288ab38a498"
	if got := Revision("T", []byte("a\n  b\n")); got != joined {
		t.Errorf("Revision = %s, want %s", got, joined)
	}
	// printf 'T\n\na\nb' | sha256sum: the lines as written
	const asWritten = "sha256:009d91d80a62535319a9f37b376131deb9f163bbdd8faa6572d182e181b465aa"
	if got := LegacyRevision("T", []byte("a\nb\n")); got != asWritten {
		t.Errorf("LegacyRevision = %s, want %s", got, asWritten)
	}
}

// TestRevisionsMatch checks that an entry recorded by either form matches
// the text it was recorded for, and that the legacy form still expires on a
// re-wrap (it kept lines as written), while the new form does not.
func TestRevisionsMatch(t *testing.T) {
	old := []byte("Users log in\nwith a password.\n")
	rewrapped := []byte("Users log in with\na password.\n")
	v := Revisions{Current: Revision("T", rewrapped), Legacy: LegacyRevision("T", rewrapped)}
	if !v.Matches(Revision("T", old)) {
		t.Error("an entry recorded by the new form against the old wrapping does not match the re-wrapped text")
	}
	if v.Matches(LegacyRevision("T", old)) {
		t.Error("an entry recorded by the legacy form against the old wrapping matches the re-wrapped text; the legacy form kept lines")
	}
	same := Revisions{Current: Revision("T", old), Legacy: LegacyRevision("T", old)}
	if !same.Matches(LegacyRevision("T", old)) {
		t.Error("an entry recorded by the legacy form does not match its own text")
	}
	if same.Matches("") || same.Matches(Revision("T", []byte("Users log out.\n"))) {
		t.Error("another text's revision matches")
	}
}
