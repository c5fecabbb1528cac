package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tracewiki/tracewiki/site"
)

var update = flag.Bool("update", false, "rewrite the expected sections of the scripts")

func TestMain(m *testing.M) {
	testscript.Main(hermetic{m}, map[string]func(){
		"tracewiki": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// hermetic runs the tests with the build cache in a temporary folder, the
// user cache and config folders moved to others, which must stay without a
// tracewiki folder (a test that reached the user's cache fails the run),
// and tracewiki's config folder (the cache secret) in a temporary one.
type hermetic struct{ m *testing.M }

func (h hermetic) Run() int {
	tmp, err := os.MkdirTemp("", "tracewiki-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	userCache := filepath.Join(tmp, "user")
	userConfig := filepath.Join(tmp, "userconfig")
	os.Setenv("XDG_CACHE_HOME", userCache)
	os.Setenv("XDG_CONFIG_HOME", userConfig)
	os.Setenv(site.CacheEnv, filepath.Join(tmp, "build"))
	os.Setenv(site.ConfigDirEnv, filepath.Join(tmp, "config"))
	code := h.m.Run()
	if _, err := os.Stat(filepath.Join(userCache, "tracewiki")); err == nil {
		fmt.Fprintf(os.Stderr, "FAIL: a test wrote the user's build cache (%s); tests must set %s or --cache\n", userCache, site.CacheEnv)
		return 1
	}
	if _, err := os.Stat(filepath.Join(userConfig, "tracewiki")); err == nil {
		fmt.Fprintf(os.Stderr, "FAIL: a test wrote the user's config folder (%s); tests must set %s\n", userConfig, site.ConfigDirEnv)
		return 1
	}
	return code
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
			// Each script its own build cache, never the user's.
			cache, err := os.MkdirTemp("", "tracewiki-script-cache-")
			if err != nil {
				return err
			}
			e.Defer(func() { os.RemoveAll(cache) })
			e.Setenv(site.CacheEnv, cache)
			// And its own cache secret, outside the cache, as a user has.
			config, err := os.MkdirTemp("", "tracewiki-script-config-")
			if err != nil {
				return err
			}
			e.Defer(func() { os.RemoveAll(config) })
			e.Setenv(site.ConfigDirEnv, config)
			// The folder of the tracewiki command alone: a script sets
			// PATH to it to run tracewiki where no other program is found.
			if bin, err := exec.LookPath("tracewiki"); err == nil {
				e.Setenv("TRACEWIKI_BIN", filepath.Dir(bin))
			}
			return nil
		},
	})
}
