package render

import (
	"strings"
	"testing"
)

// TestSegmentBounded: every segment fits a file name, long ones keep a
// readable prefix and stay distinct, and the site's own file names are
// escaped.
func TestSegmentBounded(t *testing.T) {
	long := strings.Repeat("r", 300)
	cjk := "Test" + strings.Repeat("日本語", 10)
	seen := map[string]string{}
	for _, s := range []string{long, long + "x", cjk, cjk + "語", strings.Repeat("~", 200), strings.Repeat("a~", 100)} {
		got := segment(s)
		if len(got) > MaxSegment {
			t.Errorf("segment(%.20q...) is %d bytes, more than %d", s, len(got), MaxSegment)
		}
		if !strings.Contains(got, "~~") {
			t.Errorf("segment(%.20q...) = %q, want a hashed tail after ~~", s, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("segment(%.20q...) = segment(%.20q...) = %q", s, prev, got)
		}
		seen[got] = s
		i := strings.Index(got, "~~")
		if j := strings.LastIndexByte(got[:i], '~'); j >= 0 && j+3 > i || !strings.HasPrefix(escapeSegment(s), got[:i]) {
			t.Errorf("segment(%.20q...) = %q: the prefix is not a whole prefix of the escaped name", s, got)
		}
	}
	for s, want := range map[string]string{
		"index.html": "index~2ehtml", "index.json": "index~2ejson", "INDEX.HTML": "INDEX~2eHTML",
		"REQ-1": "REQ-1", "short日": "short~e6~97~a5", "..": "~2e~2e", "": "~",
	} {
		if got := segment(s); got != want {
			t.Errorf("segment(%q) = %q, want %q", s, got, want)
		}
	}
}
