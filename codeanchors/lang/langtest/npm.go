//go:build conformance

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
// package is then at node_modules/NAME below it. An argument that starts
// with "--" is a flag for npm install (--ignore-scripts, say, for a wasm
// reference that needs no build): it is passed on, but neither names the
// folder nor counts as a package. A reference parser, formatter or corpus
// from npm is installed this way by the test that needs it, so ./test.sh
// needs nothing but node and npm; a missing node or npm is a failure,
// never a skip.
func NPM(tb testing.TB, args ...string) string {
	tb.Helper()
	var pkgs, flags []string
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			flags = append(flags, a)
		} else {
			pkgs = append(pkgs, a)
		}
	}
	prefix := NPMCache(tb, strings.Join(pkgs, "+"))
	if installed(prefix, pkgs) {
		return prefix
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Fatalf("%s is needed for %s (test.sh installs it): %v", tool, strings.Join(pkgs, ", "), err)
		}
	}
	npmArgs := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error"}, flags...)
	if out, err := exec.Command("npm", append(npmArgs, pkgs...)...).CombinedOutput(); err != nil {
		tb.Fatalf("npm install %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return prefix
}

// NPMPackage installs one pinned npm package ("name@version") with [NPM]
// and returns the package's own folder.
func NPMPackage(tb testing.TB, pkg string) string {
	tb.Helper()
	return filepath.Join(NPM(tb, pkg), "node_modules", filepath.FromSlash(packageName(pkg)))
}

// NPMCache returns the folder name below the user cache folder where the
// tests keep what they fetch from npm, created.
func NPMCache(tb testing.TB, name string) string {
	tb.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "tracewiki-test-npm", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// installed reports whether every package has its package.json below prefix.
func installed(prefix string, pkgs []string) bool {
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(prefix, "node_modules", filepath.FromSlash(packageName(p)), "package.json")); err != nil {
			return false
		}
	}
	return true
}

// packageName returns the name of a "name@version" reference; a scoped
// name's leading '@' is part of the name.
func packageName(pkg string) string {
	if at := strings.LastIndexByte(pkg, '@'); at > 0 {
		return pkg[:at]
	}
	return pkg
}
