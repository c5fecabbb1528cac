package langtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NPM installs pinned npm packages ("name@version", a scoped name too)
// into one folder of the user cache, once, and returns that folder: each
// package is then at node_modules/NAME below it. A reference parser or
// formatter from npm is installed this way by the test that needs it, so
// ./test.sh needs nothing but node and npm; a missing node or npm is a
// failure, never a skip.
func NPM(tb testing.TB, pkgs ...string) string {
	tb.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "tracewiki-test-npm", strings.Join(pkgs, "+"))
	if installed(prefix, pkgs) {
		return prefix
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Fatalf("%s is needed for %s (test.sh installs it): %v", tool, strings.Join(pkgs, ", "), err)
		}
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		tb.Fatal(err)
	}
	args := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error"}, pkgs...)
	if out, err := exec.Command("npm", args...).CombinedOutput(); err != nil {
		tb.Fatalf("npm install %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return prefix
}

// installed reports whether every package has its package.json below prefix.
func installed(prefix string, pkgs []string) bool {
	for _, p := range pkgs {
		at := strings.LastIndexByte(p, '@')
		if at <= 0 {
			at = len(p)
		}
		if _, err := os.Stat(filepath.Join(prefix, "node_modules", filepath.FromSlash(p[:at]), "package.json")); err != nil {
			return false
		}
	}
	return true
}
