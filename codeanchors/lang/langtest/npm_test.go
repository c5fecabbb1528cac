//go:build conformance

package langtest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNPMInstalled checks where NPM looks for installed packages: one
// folder named by the packages (flags left out), each package's
// package.json below node_modules, a scoped name included. With every
// package in place NPM returns without running npm; with one missing it
// installs (here it cannot: npm is not on PATH, a failure).
func TestNPMInstalled(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("PATH", "") // npm cannot run
	fake := func(folder string, names ...string) string {
		prefix := NPMCache(t, folder)
		for _, name := range names {
			dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(name))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return prefix
	}
	prefix := fake("a@1.0.0+@scope/b@2.0.0", "a", "@scope/b")
	if got := NPM(t, "--ignore-scripts", "a@1.0.0", "@scope/b@2.0.0"); got != prefix {
		t.Errorf("NPM = %s, want %s", got, prefix)
	}
	prefix = fake("@scope/b@2.0.0", "@scope/b")
	if got, want := NPMPackage(t, "@scope/b@2.0.0"), filepath.Join(prefix, "node_modules", "@scope", "b"); got != want {
		t.Errorf("NPMPackage = %s, want %s", got, want)
	}
	fake("a@1.0.0+c@3.0.0", "a")
	var rec recorder
	NPM(&rec, "a@1.0.0", "c@3.0.0")
	if !rec.failed {
		t.Error("NPM passed with c@3.0.0 missing and no npm to install it")
	}
}
