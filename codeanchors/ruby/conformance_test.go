package ruby

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

// rubyCorpus is the real-code corpus: Ruby's standard library as Debian's
// libruby3.1 installs it, and the gems Debian's rubocop package brings
// (rubocop, rubocop-ast, parser, ast, rake, regexp_parser, webrick, ...).
// test.sh installs the ruby and rubocop packages.
var rubyCorpus = []string{"/usr/lib/ruby/3.1.0", "/usr/share/rubygems-integration/all/gems"}

// The reference is Prism, Ruby's own parser, as its wasm build on npm.
const (
	prismPackage = "@ruby/prism"
	prismVersion = "1.9.0"
)

// prismDir installs @ruby/prism at its pinned version into the user cache
// folder once and returns its folder. A missing node or npm is a failure.
func prismDir(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "tracewiki-test-npm", prismPackage+"@"+prismVersion)
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(prismPackage))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to compare with %s (test.sh installs it): %v", tool, prismPackage, err)
		}
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", prismPackage+"@"+prismVersion).CombinedOutput()
	if err != nil {
		t.Fatalf("npm install %s@%s: %v\n%s", prismPackage, prismVersion, err, out)
	}
	return dir
}

type prismSymbol struct {
	Name       string
	Start, End int
}

type prismFile struct {
	Path    string
	Symbols []prismSymbol
	Error   string
}

// prismSymbols runs testdata/rubyref.js over the files.
func prismSymbols(t *testing.T, files []string) map[string]prismFile {
	t.Helper()
	cmd := exec.Command("node", filepath.Join("testdata", "rubyref.js"), prismDir(t))
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node rubyref.js: %v\n%s", err, stderr.Bytes())
	}
	refs := map[string]prismFile{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r prismFile
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("rubyref.js output %q: %v", sc.Bytes(), err)
		}
		refs[r.Path] = r
	}
	if len(refs) != len(files) {
		t.Fatalf("rubyref.js answered for %d of %d files", len(refs), len(files))
	}
	return refs
}

// tally counts how far Extract agrees with Prism.
type tally struct {
	files, refused, symbols, names, starts, ends int
	diffs                                        []string
}

// add compares one file: a name Prism gives twice must be ambiguous; every
// other name must be found with its range; a name Prism does not give
// counts against names.
func (a *tally) add(p string, ref prismFile, src []byte) {
	if ref.Error != "" {
		a.refused++ // a file Prism refuses is no measure of names
		return
	}
	a.files++
	f, err := Extract(p, src)
	if err != nil {
		a.symbols += len(ref.Symbols)
		a.diffs = append(a.diffs, fmt.Sprintf("%v (Prism parses it)", err))
		return
	}
	times := map[string]int{}
	for _, s := range ref.Symbols {
		times[s.Name]++
	}
	mine := map[string][2]int{}
	for _, s := range f.Symbols {
		mine[s.Name] = [2]int{s.Start, s.End}
	}
	counted := map[string]bool{}
	for _, s := range ref.Symbols {
		if times[s.Name] > 1 {
			if !counted[s.Name] {
				counted[s.Name] = true
				a.symbols++
				if slices.Contains(f.Ambiguous, s.Name) {
					a.names, a.starts, a.ends = a.names+1, a.starts+1, a.ends+1
				} else {
					a.diffs = append(a.diffs, fmt.Sprintf("%s: %s is defined twice, not ambiguous", p, s.Name))
				}
			}
			continue
		}
		a.symbols++
		r, ok := mine[s.Name]
		if !ok {
			a.diffs = append(a.diffs, fmt.Sprintf("%s: missing %s %d-%d", p, s.Name, s.Start, s.End))
			continue
		}
		delete(mine, s.Name)
		a.names++
		if r[0] == s.Start {
			a.starts++
		}
		if r[1] == s.End {
			a.ends++
		}
		if r != [2]int{s.Start, s.End} {
			a.diffs = append(a.diffs, fmt.Sprintf("%s: %s %d-%d, Prism %d-%d", p, s.Name, r[0], r[1], s.Start, s.End))
		}
	}
	for name, r := range mine {
		a.symbols++
		a.diffs = append(a.diffs, fmt.Sprintf("%s: extra %s %d-%d", p, name, r[0], r[1]))
	}
	for _, name := range f.Ambiguous {
		if times[name] <= 1 {
			a.symbols++
			a.diffs = append(a.diffs, fmt.Sprintf("%s: %s ambiguous, Prism has it %d times", p, name, times[name]))
		}
	}
}

// TestConformance compares Extract's symbols and both range ends with
// Prism's over Ruby's standard library and the gems rubocop brings: at least 1,000 symbols, 99.5% of
// names and 99% of starts and ends must agree.
func TestConformance(t *testing.T) {
	var files []string
	for _, dir := range rubyCorpus {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatalf("corpus %s (test.sh installs the ruby and rubocop packages): %v", dir, err)
		}
	}
	slices.Sort(files)
	refs := prismSymbols(t, files)
	var a tally
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a.add(p, refs[p], src)
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(a.symbols, 1)) }
	t.Logf("%d files (%d refused by Prism), %d symbols: names %.2f%%, starts %.2f%%, ends %.2f%%",
		a.files, a.refused, a.symbols, pct(a.names), pct(a.starts), pct(a.ends))
	for i, d := range a.diffs {
		if i == 40 {
			t.Logf("... %d more", len(a.diffs)-40)
			break
		}
		t.Log(d)
	}
	if a.symbols < 1000 || pct(a.names) < 99.5 || pct(a.starts) < 99 || pct(a.ends) < 99 {
		t.Errorf("agreement below the bar (1,000 symbols, names 99.5%%, starts and ends 99%%)")
	}
}
