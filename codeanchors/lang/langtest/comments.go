package langtest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// ExpectComments checks that extract hands out exactly want as the
// comments of src, in order, with their lines and text as written, and
// that the comments do not depend on the line endings: with CRLF, the same
// comments, none ending in '\r'.
func ExpectComments(t *testing.T, extract func(string, []byte) (*lang.File, error), path, src string, want ...lang.Comment) {
	t.Helper()
	f, err := extract(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !slices.Equal(f.Comments, want) {
		t.Errorf("%s: comments\n%s\nwant\n%s", path, formatComments(f.Comments), formatComments(want))
	}
	crlf, err := extract(path, []byte(toCRLF(src)))
	if err != nil {
		t.Fatalf("%s with CRLF: %v", path, err)
	}
	if !slices.Equal(crlf.Comments, lf(want)) {
		t.Errorf("%s with CRLF: comments\n%s\nwant\n%s", path, formatComments(crlf.Comments), formatComments(lf(want)))
	}
}

// toCRLF returns src with every "\n" a "\r\n".
func toCRLF(src string) string {
	var b []byte
	for i := range len(src) {
		if src[i] == '\n' {
			b = append(b, '\r')
		}
		b = append(b, src[i])
	}
	return string(b)
}

// lf returns want as a CRLF source would give it: a comment spanning lines
// holds "\r\n" where it held "\n".
func lf(want []lang.Comment) []lang.Comment {
	out := slices.Clone(want)
	for i := range out {
		out[i].Text = toCRLF(out[i].Text)
	}
	return out
}

func formatComments(cs []lang.Comment) string {
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("  %d-%d doc=%v %q\n", c.Line, c.EndLine, c.Doc, c.Text)
	}
	return s
}
