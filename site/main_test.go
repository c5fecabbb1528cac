package site

import (
	"flag"
	"fmt"
	"os"
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
