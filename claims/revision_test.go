package claims

import "testing"

func TestRevision(t *testing.T) {
	base := Revision("Users log in", []byte("Users log in\nwith a password.\n"))
	same := []struct {
		title, body string
	}{
		{"Users log in", "Users log in\nwith a password.\n"},
		{"  Users log in\t", "Users log in\nwith a password."},
		{"Users log in", "Users log in\r\nwith a password.\r\n"},
		{"Users log in", "Users log in   \nwith a password.\t\t\n"},
		{"Users log in", "\n\n  \nUsers log in\nwith a password.\n\n \t\n"},
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
		{"Users log in", "  Users log in\nwith a password.\n"}, // indentation counts
		{"Users log in", "Users log in\n\nwith a password.\n"}, // inner blank lines count
		{"Users log in", "Users log in with a password.\n"},
		{"", "Users log in\nUsers log in\nwith a password.\n"},
	}
	for _, c := range differ {
		if got := Revision(c.title, []byte(c.body)); got == base {
			t.Errorf("Revision(%q, %q) = %s, want a different revision", c.title, c.body, got)
		}
	}
}

// TestRevisionFormat pins the format: a change here changes every recorded
// evidence's revision.
func TestRevisionFormat(t *testing.T) {
	// printf 'T\n\nline' | sha256sum
	const want = "sha256:9dfbf75d5427fce4907c344b7791794246d78f5396543834cb77da40080b473c"
	if got := Revision(" T ", []byte("\nline  \r\n\n")); got != want {
		t.Errorf("Revision = %s, want %s", got, want)
	}
}
