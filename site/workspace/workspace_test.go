package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWorkspaceSymlinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "secret.go"), []byte("package secret\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "src", "a.go"), []byte("package a\n"), 0o644))
	must(t, os.Symlink(filepath.Join("..", "..", "secret.go"), filepath.Join(root, "src", "out.go")))
	must(t, os.Symlink(filepath.Join(dir, "secret.go"), filepath.Join(root, "src", "abs.go")))
	must(t, os.Symlink("a.go", filepath.Join(root, "src", "in.go")))
	must(t, os.Symlink(filepath.Join("..", "..", "nowhere.go"), filepath.Join(root, "src", "dangling.go")))
	must(t, os.Symlink(dir, filepath.Join(root, "up")))

	ws, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	tests := []struct {
		path string
		want error // nil: readable
	}{
		{"src/a.go", nil},
		{"src/in.go", nil},
		{"src/out.go", ErrOutside},
		{"src/abs.go", ErrOutside},
		{"src/dangling.go", ErrOutside},
		{"up/secret.go", ErrOutside},
		{"../secret.go", ErrOutside},
		{"src/../../secret.go", ErrOutside},
		{"/etc/passwd", ErrOutside},
		{"src/missing.go", fs.ErrNotExist},
	}
	for _, tt := range tests {
		data, err := ws.ReadFile(tt.path)
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("ReadFile(%q) = %v, want the file", tt.path, err)
		case tt.want != nil && !errors.Is(err, tt.want):
			t.Errorf("ReadFile(%q) = %q, %v; want %v", tt.path, data, err, tt.want)
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, nil, 0o644))
	}
	write("proj/tracewiki.toml")
	write("proj/auth/deep/a.go")
	write("locked/tracewiki.lock")
	write("locked/src/a.go")
	write("bare/content/index.md")
	write("bare/src/a.go")
	write("nested/tracewiki.toml")
	write("nested/sub/tracewiki.lock")
	write("nested/sub/x/a.go")
	must(t, os.MkdirAll(filepath.Join(dir, "nothing", "here"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "proj", "tracewiki.lock"), 0o755)) // a folder is no marker
	tests := []struct{ start, want string }{
		{"proj", "proj"},
		{"proj/auth", "proj"},
		{"proj/auth/deep", "proj"},
		{"locked/src", "locked"},
		{"bare", "bare"},
		{"bare/src", ""}, // content/ counts only in the current folder
		{"nested/sub/x", "nested/sub"},
		{"nothing/here", ""},
	}
	for _, tt := range tests {
		got, err := Find(filepath.Join(dir, filepath.FromSlash(tt.start)))
		switch {
		case tt.want == "" && !errors.Is(err, ErrNoWorkspace):
			t.Errorf("Find(%s) = %q, %v; want ErrNoWorkspace", tt.start, got, err)
		case tt.want != "" && (err != nil || got != filepath.Join(dir, filepath.FromSlash(tt.want))):
			t.Errorf("Find(%s) = %q, %v; want %s", tt.start, got, err, tt.want)
		}
	}
}
