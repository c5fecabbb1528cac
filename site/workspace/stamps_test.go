package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestStampsAndListing checks what a workspace records of what it saw: a
// read file's stamp, a listed folder's listing with the output's swap
// folders hidden, and that the listing changes with a new content file
// but not with an editor's backup, which no walk takes.
func TestStampsAndListing(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"content/a.md", "content/a.md~", "public/index.html", ".public.new-12-1/x"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(name), 0o644))
	}
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.Walked([]string{"**/*.go"})
	ws.HideOutput(dir, filepath.Join(dir, "public"))
	entries, err := fs.ReadDir(ws.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"content", "public"}; !slices.Equal(names, want) {
		t.Errorf("the root lists %v, want %v (the swap folder hidden)", names, want)
	}
	if _, err := ws.ReadFile("content/a.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadDir(ws.FS(), "content"); err != nil {
		t.Fatal(err)
	}
	st, stable := ws.Stamps()
	if !stable {
		t.Fatal("the stamps are unstable though nothing changed")
	}
	if a := st.Paths["content/a.md"]; a.Missing || a.Size != int64(len("content/a.md")) {
		t.Errorf("the stamp of content/a.md is %+v", a)
	}
	if got, ok := ws.StampOfPath("content/a.md"); !ok || got != st.Paths["content/a.md"] {
		t.Errorf("StampOfPath = %+v, %v; want the stamp Stamps holds", got, ok)
	}
	for _, folder := range []string{".", "content"} {
		if now, err := ws.Listing(folder, st.Walks); err != nil || now != st.Lists[folder] {
			t.Errorf("Listing(%q) = %x, %v; want the stamped %x", folder, now, err, st.Lists[folder])
		}
	}
	must(t, os.WriteFile(filepath.Join(dir, "content", "b.md~"), nil, 0o644))
	if now, _ := ws.Listing("content", st.Walks); now != st.Lists["content"] {
		t.Error("an editor's backup changed the folder's listing")
	}
	must(t, os.WriteFile(filepath.Join(dir, "content", "b.md"), nil, 0o644))
	if now, _ := ws.Listing("content", st.Walks); now == st.Lists["content"] {
		t.Error("a new page did not change the folder's listing")
	}
	ws.Unsure()
	if ws.Stable() {
		t.Error("Stable after Unsure")
	}
}
