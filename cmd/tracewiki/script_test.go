package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected sections of the scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tracewiki": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each builds a small
// repository in a temporary folder and runs the real binary on it.
func TestScripts(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("refusing -update with CI set: expected output is reviewed, not regenerated in CI")
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			// Captures and evidence record a time; fix it so locks compare.
			e.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01T00:00:00Z
			e.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			return nil
		},
	})
}
