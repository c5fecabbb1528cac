package site

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDefaultExcludesBuildFolders checks that the default code globs leave
// out the build folders a language plug-in names (Cargo's target/), with
// no config and without site naming them: the Rust sources of target/ are
// not code files, the crate's are.
func TestDefaultExcludesBuildFolders(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"content/index.md", "src/lib.rs", "target/debug/build/x/out/gen.rs", "crates/a/target/release/gen.rs", "crates/a/src/lib.rs"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\ntitle: x\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.WS.Close()
	files, _, err := p.CodeFiles()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"crates/a/src/lib.rs", "src/lib.rs"}; !slices.Equal(files, want) {
		t.Errorf("CodeFiles = %q, want %q", files, want)
	}
	if !slices.Contains(p.Config.Code.Exclude, "**/target/**") {
		t.Errorf("default exclude %q lacks Rust's **/target/**", p.Config.Code.Exclude)
	}
}
