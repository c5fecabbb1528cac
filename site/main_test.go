package site

import (
	"fmt"
	"os"
	"testing"
)

// TestMain moves tracewiki's per-user folder (the build cache's secret) to a
// temporary folder, so that no test writes the user's.
func TestMain(m *testing.M) {
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
