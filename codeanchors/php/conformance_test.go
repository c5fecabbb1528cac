package php

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// phpCorpus is the real-code corpus: the PHP libraries Debian installs
// under /usr/share/php (test.sh installs php-symfony-console and
// php-league-commonmark, which bring Symfony's Console and String
// components, League CommonMark and Config, Nette Schema and Utils,
// Dflydev's dot-access-data and PSR interfaces).
const phpCorpus = "/usr/share/php"

// The reference is the php-parser npm package (glayzzle), pinned.
const phpParserVersion = "3.7.0"

// npmPackage installs an npm package at a pinned version into the user
// cache folder once and returns its folder (as codeanchors/javascript's
// conformance test does).
func npmPackage(t *testing.T, name, version string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "tracewiki-test-npm", name+"@"+version)
	dir := filepath.Join(prefix, "node_modules", name)
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to compare with %s (the CI machine has it): %v", tool, name, err)
		}
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", name+"@"+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s@%s: %v\n%s", name, version, err, out)
	}
	return dir
}

type refSymbol struct {
	Name       string
	Start, End int
}

type refFile struct {
	Path    string
	Symbols []refSymbol
	Error   string
}

// reference runs testdata/phpref.js over the files.
func reference(t *testing.T, files []string) map[string]refFile {
	t.Helper()
	dir := npmPackage(t, "php-parser", phpParserVersion)
	cmd := exec.Command("node", filepath.Join("testdata", "phpref.js"), dir)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node phpref.js: %v\n%s", err, stderr.Bytes())
	}
	refs := map[string]refFile{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r refFile
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("phpref.js output %q: %v", sc.Bytes(), err)
		}
		refs[r.Path] = r
	}
	if len(refs) != len(files) {
		t.Fatalf("phpref.js answered for %d of %d files", len(refs), len(files))
	}
	return refs
}

// agreement compares Extract with the reference over files: symbols the
// reference finds twice in a file are ambiguous for both.
type agreement struct {
	files, symbols, names, starts, ends int
	diffs                               []string
}

func compare(t *testing.T, files []string, read func(string) []byte) agreement {
	t.Helper()
	refs := reference(t, files)
	var a agreement
	for _, p := range files {
		r := refs[p]
		src := read(p)
		f, err := Extract(p, src)
		if r.Error != "" {
			// A file the reference refuses is no measure of names.
			continue
		}
		a.files++
		if err != nil {
			a.symbols += len(r.Symbols)
			a.diffs = append(a.diffs, fmt.Sprintf("%s: %v (the reference parses it)", p, err))
			continue
		}
		count := map[string]int{}
		for _, s := range r.Symbols {
			count[s.Name]++
		}
		got := map[string]refSymbol{}
		for _, s := range f.Symbols {
			got[s.Name] = refSymbol{s.Name, s.Start, s.End}
		}
		for _, s := range r.Symbols {
			a.symbols++
			if count[s.Name] > 1 {
				if slices.Contains(f.Ambiguous, s.Name) {
					a.names++
					a.starts++
					a.ends++
				} else {
					a.diffs = append(a.diffs, fmt.Sprintf("%s: %s is defined %d times, not ambiguous", p, s.Name, count[s.Name]))
				}
				continue
			}
			g, ok := got[s.Name]
			if !ok {
				a.diffs = append(a.diffs, fmt.Sprintf("%s: missing %s %d-%d", p, s.Name, s.Start, s.End))
				continue
			}
			delete(got, s.Name)
			a.names++
			if g.Start == s.Start {
				a.starts++
			}
			if g.End == s.End {
				a.ends++
			}
			if g.Start != s.Start || g.End != s.End {
				a.diffs = append(a.diffs, fmt.Sprintf("%s: %s %d-%d, reference %d-%d", p, s.Name, g.Start, g.End, s.Start, s.End))
			}
		}
		for _, g := range got {
			a.symbols++ // an extra symbol counts against names
			a.diffs = append(a.diffs, fmt.Sprintf("%s: extra %s %d-%d", p, g.Name, g.Start, g.End))
		}
	}
	return a
}

// TestConformance compares Extract's symbols and both range ends with the
// php-parser reference over Debian's PHP libraries: at least 1,000
// symbols, 99.5% of names and 99% of starts and ends must agree.
func TestConformance(t *testing.T) {
	var files []string
	err := filepath.WalkDir(phpCorpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".php") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("corpus %s (test.sh installs php-symfony-console and php-league-commonmark): %v", phpCorpus, err)
	}
	slices.Sort(files)
	a := compare(t, files, func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	})
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(a.symbols, 1)) }
	t.Logf("%d files, %d symbols: names %.2f%%, starts %.2f%%, ends %.2f%%", a.files, a.symbols, pct(a.names), pct(a.starts), pct(a.ends))
	for i, d := range a.diffs {
		if i == 30 {
			t.Logf("... %d more", len(a.diffs)-30)
			break
		}
		t.Log(d)
	}
	if a.symbols < 1000 || pct(a.names) < 99.5 || pct(a.starts) < 99 || pct(a.ends) < 99 {
		t.Errorf("agreement below the bar (1,000 symbols, names 99.5%%, starts and ends 99%%)")
	}
}
