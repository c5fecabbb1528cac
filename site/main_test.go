package site

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of package site")

// TestMain moves tracewiki's per-user folder (the build cache's secret) to a
// temporary folder, so that no test writes the user's. A test's child
// process (TestPatchKilled) inherits its parent's, and so its secret.
func TestMain(m *testing.M) {
	if os.Getenv(ConfigDirEnv) != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "tracewiki-test-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(ConfigDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// replaceIn replaces the first old in the workspace file name (slash path
// under dir) with new; the test fails when the file has no old, so an
// edit that no longer applies cannot pass unseen.
func replaceIn(t testing.TB, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(p)
	must(t, err)
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s has no %q", name, old)
	}
	must(t, os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644))
}
