package site

import "testing"

// TestWithAgentsSection: a CRLF file gets the section with CRLF, a file
// without a final newline gets one before the blank line, and a section
// ending the file without a newline is replaced whole.
func TestWithAgentsSection(t *testing.T) {
	const sec = AgentsBegin + "\nnew\n" + AgentsEnd + "\n"
	for _, tc := range []struct{ in, want, what string }{
		{"# A\r\n", "# A\r\n\r\n" + AgentsBegin + "\r\nnew\r\n" + AgentsEnd + "\r\n", "appended"},
		{"# A", "# A\n\n" + sec, "appended"},
		{"x\n" + AgentsBegin + "\nold\n" + AgentsEnd, "x\n" + sec, "replaced"},
	} {
		got, what, err := withAgentsSection([]byte(tc.in), sec)
		if err != nil || string(got) != tc.want || what != tc.what {
			t.Errorf("%q: %q, %s, %v; want %q, %s", tc.in, got, what, err, tc.want, tc.what)
		}
	}
}
