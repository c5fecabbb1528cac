package site

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// TestImportTooLarge: an imported field over the size a content file may
// have is refused before anything is written, naming where in the source it
// comes from, and the workspace still builds (the attack log's I-R06,
// I-S02, I-D07: the file used to be written and every build failed after).
func TestImportTooLarge(t *testing.T) {
	dir := t.TempDir()
	writeFixtureFile(t, dir, "content/requirements/REQ-1.md", []byte("---\nid: REQ-1\n---\nHere before.\n"))
	big := strings.Repeat("x", workspace.MaxSourceBytes+1)
	src := filepath.Join(t.TempDir(), "big.sdoc")
	sdoc := "[DOCUMENT]\nTITLE: Big\n\n[REQUIREMENT]\nUID: B-1\nSTATEMENT: ok\n\n[REQUIREMENT]\nUID: B-2\nSTATEMENT: >>>\n" + big + "\n<<<\n"
	if err := os.WriteFile(src, []byte(sdoc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Import(dir, ImportOptions{Format: "strictdoc", Source: src, By: "t@example.com"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "big.sdoc:8: content/requirements/big/B-2.md would be") ||
		!strings.Contains(err.Error(), "nothing written") {
		t.Fatalf("Import of a 16 MiB field: err = %.300v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "content/requirements/big")); !os.IsNotExist(err) {
		t.Errorf("the refused import wrote content/requirements/big (stat: %v)", err)
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatalf("the workspace no longer loads: %v", err)
	}
	p.Close()
}

// TestImportMovedItem: an item that moved to another document in the
// source takes its id with it: the old file, unedited since the import,
// goes, and no "id already used" is reported.
func TestImportMovedItem(t *testing.T) {
	dir := t.TempDir()
	src := t.TempDir()
	write := func(name, data string) {
		writeFixtureFile(t, src, name, []byte(data))
	}
	write("a.sdoc", "[DOCUMENT]\nTITLE: A\n\n[REQUIREMENT]\nUID: X-1\nSTATEMENT: one\n\n[REQUIREMENT]\nUID: X-2\nSTATEMENT: two\n")
	write("b.sdoc", "[DOCUMENT]\nTITLE: B\n\n[REQUIREMENT]\nUID: Y-1\nSTATEMENT: three\n")
	if _, err := Import(dir, ImportOptions{Format: "strictdoc", Source: src, By: "t"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	write("a.sdoc", "[DOCUMENT]\nTITLE: A\n\n[REQUIREMENT]\nUID: X-1\nSTATEMENT: one\n")
	write("b.sdoc", "[DOCUMENT]\nTITLE: B\n\n[REQUIREMENT]\nUID: Y-1\nSTATEMENT: three\n\n[REQUIREMENT]\nUID: X-2\nSTATEMENT: two\n")
	rep, err := Import(dir, ImportOptions{Format: "strictdoc", Source: src, By: "t"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.String(); !strings.Contains(s, "removed content/requirements/a/X-2.md") || strings.Contains(s, "already used") {
		t.Errorf("report:\n%s", s)
	}
	data, err := os.ReadFile(filepath.Join(dir, "content/requirements/b/X-2.md"))
	if err != nil || !bytes.Contains(data, []byte("two")) {
		t.Errorf("b/X-2.md: %q, %v", data, err)
	}
}
