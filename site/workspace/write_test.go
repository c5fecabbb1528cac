package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFile checks that a write replaces the file whole and leaves no
// temporary file, that a symlink is refused rather than followed, and that
// folders are made inside the workspace only.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "target.md"), []byte("theirs\n"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "target.md"), filepath.Join(dir, "link.md")))
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	must(t, ws.MkdirAll("content/sub"))
	for _, data := range []string{"first\n", "second\n"} {
		must(t, ws.WriteFile("content/sub/p.md", []byte(data)))
		if got, err := os.ReadFile(filepath.Join(dir, "content", "sub", "p.md")); err != nil || string(got) != data {
			t.Fatalf("after WriteFile(%q): %q, %v", data, got, err)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, "content", "sub"))
	if err != nil || len(entries) != 1 {
		t.Errorf("the folder holds %v, %v; want p.md alone (no %s file left)", entries, err, TempSuffix)
	}
	if err := ws.WriteFile("link.md", []byte("mine\n")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("WriteFile over a symlink = %v, want it refused", err)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "target.md")); string(got) != "theirs\n" {
		t.Errorf("the symlink's target became %q", got)
	}
	if err := ws.MkdirAll("../escape"); err == nil {
		t.Error("MkdirAll made a folder outside the workspace")
	}
	must(t, ws.Remove("content/sub/p.md"))
	if ws.Exists("content/sub/p.md") {
		t.Error("Remove left the file")
	}
}
