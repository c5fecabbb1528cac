package site

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// TestInitIncludesEveryLanguage: init's [code] include names every
// language whose project files or code files lie in the repository
// (SPEC 5 init), not only the one of the project file it saw; folders the
// index would not read (hidden, node_modules, testdata) do not count; and
// a repository with no known code leaves include out, so the default of
// every registered language applies.
func TestInitIncludesEveryLanguage(t *testing.T) {
	write := func(dir string, files ...string) {
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, nil, 0o644))
		}
	}
	config := func(dir string) workspace.Config {
		data, err := os.ReadFile(filepath.Join(dir, workspace.ConfigFile))
		must(t, err)
		c, err := workspace.ParseConfig(workspace.ConfigFile, data, "x")
		must(t, err)
		return c
	}

	mixed := t.TempDir()
	write(mixed, "go.mod", "cmd/main.go", "scripts/deep/er/report.py", "scripts/util.py",
		"node_modules/x/index.js", ".git/hooks/pre-commit.rb", "testdata/case.rs", "web/README.md")
	_, note, err := Init(mixed)
	must(t, err)
	want := []string{"**/*.go", "**/*.py", "**/*.pyi"}
	if got := config(mixed).Code.Include; !slices.Equal(got, want) {
		t.Errorf("include = %q, want %q", got, want)
	}
	if !strings.Contains(note, "found go.mod, 1 .go file, 2 .py files: [code] includes **/*.go, **/*.py, **/*.pyi\n") {
		t.Errorf("note = %q, want it to say what it found", note)
	}

	// Python only, no project file: still included.
	py := t.TempDir()
	write(py, "app.PY")
	_, _, err = Init(py)
	must(t, err)
	if got := config(py).Code.Include; !slices.Equal(got, []string{"**/*.py", "**/*.pyi"}) {
		t.Errorf("python only: include = %q", got)
	}

	none := t.TempDir()
	write(none, "README.md", "Dockerfile", "vendor/lib/lib.go")
	_, note, err = Init(none)
	must(t, err)
	if strings.Contains(note, "found") {
		t.Errorf("note = %q, want nothing found", note)
	}
	if got := config(none).Code.Include; !slices.Equal(got, workspace.DefaultInclude()) {
		t.Errorf("nothing found: include = %q, want the default %q", got, workspace.DefaultInclude())
	}
	data, _ := os.ReadFile(filepath.Join(none, workspace.ConfigFile))
	if strings.Contains(string(data), "\ninclude") {
		t.Errorf("nothing found: the config sets include:\n%s", data)
	}
}
