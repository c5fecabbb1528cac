package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tracewiki/tracewiki/site/workspace"
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

// TestCodeFilesOneWalk checks the single walk of [Project.CodeFiles]
// against doublestar walking each include glob on its own (what it did
// before), on a tree with dot files, multi-dot extensions, excluded and
// nested build folders, a site folder and a symlink, under several configs.
func TestCodeFilesOneWalk(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"content/index.md", "a.go", ".go", "b.d.ts", "c.ts", "x.GO", ".hidden/h.go", "src/.dot/d.py",
		"src/m.py", "src/deep/er/n.js", "vendor/v.go", "src/vendor/w.go", "node_modules/p/i.js",
		"public/index.html", "public/s.js", "gen/z.tsx", "gen/keep/k.tsx", "notes.txt",
	} {
		writeFixtureFile(t, dir, name, []byte("x\n"))
	}
	writeFixtureFile(t, dir, "out/site/s.go", []byte("x\n"))
	writeFixtureFile(t, dir, "out/site/api/manifest.json", []byte(`{"schemaVersion":1,"project_id":"p","nodes":{},"links":{},"artifacts":[]}`))
	if err := os.Symlink("src/m.py", filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	configs := []struct{ include, exclude []string }{
		{nil, nil}, // the defaults
		{[]string{"**/*.go", "**/*.d.ts", "src/**/*.py"}, []string{"**/vendor/**"}},
		{[]string{"**/*.{go,ts,tsx}", "*.py", "**/*.js"}, []string{"gen/*.tsx", "{vendor,node_modules}/**", "**/.*/**"}},
		{[]string{"**"}, []string{"content/**", "public/**"}},
	}
	for i, c := range configs {
		p, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.include != nil {
			p.Config.Code.Include, p.Config.Code.Exclude = c.include, c.exclude
		}
		got, _, err := p.CodeFiles()
		if err != nil {
			t.Fatal(err)
		}
		want := globEach(t, p)
		if !slices.Equal(got, want) {
			t.Errorf("config %d (include %q, exclude %q):\none walk  %q\nper glob  %q", i, p.Config.Code.Include, p.Config.Code.Exclude, got, want)
		}
		p.Close()
	}
}

// globEach lists the code files the old way: one doublestar walk per
// include glob, each file then tested against every exclude glob and the
// site folders.
func globEach(t *testing.T, p *Project) []string {
	t.Helper()
	exclude := append(slices.Clone(p.Config.Code.Exclude), p.Config.Output+"/**")
	sites := &siteDirs{fsys: p.WS.FS()}
	var files []string
	for _, pattern := range p.Config.Code.Include {
		err := doublestar.GlobWalk(p.WS.FS(), pattern, func(name string, d fs.DirEntry) error {
			if workspace.MatchAny(exclude, name) || sites.in(name) {
				return nil
			}
			files = append(files, name)
			return nil
		}, doublestar.WithFailOnIOErrors(), doublestar.WithFilesOnly(), doublestar.WithNoFollow())
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}
