package main

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestHelpAnywhere runs every command's --help in an empty folder, which
// is no workspace: each prints its help on standard output and exits 0
// (help__anywhere.txtar shows it from the shell; this covers every command
// of the table, also those added later).
func TestHelpAnywhere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		var stdout, stderr bytes.Buffer
		code := run([]string{name, "--help"}, strings.NewReader(""), &stdout, &stderr)
		if code != exitOK || stderr.Len() > 0 || !strings.Contains(stdout.String(), "tracewiki "+name) {
			t.Errorf("%s --help in an empty folder: exit %d, stdout %.80q, stderr %q; want exit 0 and the help on stdout", name, code, stdout.String(), stderr.String())
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
		t.Errorf("--help wrote into the folder: %v %v", entries, err)
	}
}
