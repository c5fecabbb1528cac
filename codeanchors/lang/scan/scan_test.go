package scan

import (
	"testing"
)

func TestErrPosition(t *testing.T) {
	s := NewSource("a/b.x", []byte("one\ntwo\n\tthree"))
	for _, c := range []struct {
		off  int
		want string
	}{
		{0, "a/b.x:1:1: m"},
		{5, "a/b.x:2:2: m"},
		{9, "a/b.x:3:2: m"},
		{14, "a/b.x:3:7: m"},
	} {
		if got := s.Err(&Error{c.off, "m"}).Error(); got != c.want {
			t.Errorf("Err at %d = %q, want %q", c.off, got, c.want)
		}
	}
}

func TestMatchBrackets(t *testing.T) {
	for _, c := range []struct {
		toks string
		want string // "" when every bracket pairs
	}{
		{"f(a[b]{c})", ""},
		{"())", "')' closes nothing"},
		{"(]", "']' where ')' should close the '(' of line 1"},
		{"{(", "'(' is never closed"},
	} {
		match, bad := MatchBrackets(len(c.toks), func(i int) byte { return c.toks[i] })
		got := ""
		if bad != nil {
			got = bad.Message(func(int) int { return 1 })
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.toks, got, c.want)
		}
		if c.want == "" {
			for i, m := range match {
				if m >= 0 && match[m] != int32(i) {
					t.Errorf("%s: %d pairs with %d, which pairs with %d", c.toks, i, m, match[m])
				}
			}
			if match[1] != 9 || match[3] != 5 || match[0] != -1 {
				t.Errorf("%s: match %v", c.toks, match)
			}
		}
	}
}

func TestLexerComments(t *testing.T) {
	l := NewLexer([]byte("\xEF\xBB\xBF/* a /* b */ c */\r\n// d\r\n"))
	if l.Pos != 3 {
		t.Fatalf("Pos %d past the byte order mark, want 3", l.Pos)
	}
	l.BlockComment(true)
	l.Comment(3, 1)
	l.Pos += 2
	l.Line++
	start := l.Pos
	l.SkipLine()
	l.Comment(start, 2)
	if l.Err != nil || len(l.Comments) != 2 || l.Comments[0].Text != "/* a /* b */ c */" || l.Comments[1].Text != "// d" {
		t.Errorf("comments %+v, error %v", l.Comments, l.Err)
	}
	u := NewLexer([]byte("/* a /* b */"))
	u.BlockComment(true)
	if u.Err == nil || u.Err.Msg != "comment not terminated" || u.Err.Off != 0 {
		t.Errorf("nested unterminated: %v", u.Err)
	}
	u = NewLexer([]byte("/* a /* b */"))
	u.BlockComment(false)
	if u.Err != nil || u.Pos != len(u.Src) {
		t.Errorf("flat: %v at %d", u.Err, u.Pos)
	}
}
