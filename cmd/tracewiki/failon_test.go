package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFailOnSuperseded: superseded evidence entries are history, never a
// finding (SPEC 1.5), so --fail-on superseded is bad usage, exit 2, for
// every command that takes --fail-on; it is refused before any workspace
// is read.
func TestFailOnSuperseded(t *testing.T) {
	for _, cmd := range []string{"check", "build"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--root", t.TempDir(), cmd, "--fail-on", "stale,superseded"}, nil, &stdout, &stderr)
		if code != exitBad || !strings.Contains(stderr.String(), "superseded evidence entries are history") {
			t.Errorf("%s --fail-on stale,superseded: exit %d, stderr %q; want 2 and why", cmd, code, stderr.String())
		}
	}
}
