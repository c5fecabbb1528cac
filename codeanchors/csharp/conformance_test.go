package csharp

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
	"time"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Thresholds of TestConformance (issue 15: names 99.5%, range ends 99%).
const (
	conformNames  = 99.5
	conformRanges = 99.0
)

// The reference parser and the corpus, npm packages at pinned versions:
// tree-sitter's C# grammar (its wasm build, run by web-tree-sitter), and
// real C# that ships on npm: Cysharp's UniTask, neuecc's UniRx and the C#
// bindings of ONNX Runtime for Unity.
var (
	referencePackages = []string{"web-tree-sitter@0.25.10", "tree-sitter-c-sharp@0.23.5"}
	corpusPackages    = []string{"com.cysharp.unitask@2.2.5", "com.neuecc.unirx@7.1.0", "com.github.asus4.onnxruntime@0.4.9"}
)

// nodeModules returns a node_modules folder holding the npm packages
// (name@version), installing them with npm into the user cache folder the
// first time, without running their install scripts (the wasm builds need
// none). A missing node or npm is a clear failure, not a skip.
func nodeModules(tb testing.TB, pkgs ...string) string {
	tb.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "tracewiki-test-npm", strings.Join(pkgs, "+"))
	dir := filepath.Join(prefix, "node_modules")
	if _, err := os.Stat(filepath.Join(prefix, "installed")); err == nil {
		return dir
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Fatalf("%s is needed to install %v (the CI machine has it): %v", tool, pkgs, err)
		}
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		tb.Fatal(err)
	}
	args := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error",
		"--ignore-scripts", "--legacy-peer-deps"}, pkgs...)
	if out, err := exec.Command("npm", args...).CombinedOutput(); err != nil {
		tb.Fatalf("npm install %v: %v\n%s", pkgs, err, out)
	}
	if err := os.WriteFile(filepath.Join(prefix, "installed"), nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// A source is one C# file of the corpus.
type source struct {
	path string // slash-separated, relative to node_modules
	src  []byte
}

// corpusSources reads every .cs file of the corpus packages, by path.
func corpusSources(tb testing.TB) []source {
	tb.Helper()
	dir := nodeModules(tb, corpusPackages...)
	var files []source
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".cs") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, source{filepath.ToSlash(rel), src})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(files, func(a, b source) int { return strings.Compare(a.path, b.path) })
	if len(files) < 300 {
		tb.Fatalf("%s: only %d .cs files; the corpus is missing", dir, len(files))
	}
	return files
}

// refResult is one line of testdata/csref.js's output.
type refResult struct {
	Path      string            `json:"path"`
	Symbols   []json.RawMessage `json:"symbols"`
	Ambiguous []string          `json:"ambiguous"`
	Error     string            `json:"error"`
}

// runRef writes files under dir and runs testdata/csref.js on them.
func runRef(t *testing.T, dir string, files []source) []refResult {
	t.Helper()
	modules := nodeModules(t, referencePackages...)
	script, err := filepath.Abs(filepath.Join("testdata", "csref.js"))
	if err != nil {
		t.Fatal(err)
	}
	var list bytes.Buffer
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.src, 0o666); err != nil {
			t.Fatal(err)
		}
		list.WriteString(p + "\n")
	}
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "NODE_MODULES="+modules)
	cmd.Stdin = &list
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node csref.js: %v\n%s", err, stderr.Bytes())
	}
	var res []refResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r refResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("csref.js output %q: %v", sc.Bytes(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(files) {
		t.Fatalf("csref.js: %d results for %d files\n%s", len(res), len(files), stderr.Bytes())
	}
	return res
}

// refSymbol is one symbol of a reference or extractor result.
type refSymbol struct {
	kind       string // "" for an ambiguous name
	start, end int
}

// agreement counts how often Extract agrees with tree-sitter.
type agreement struct {
	files, skipped       int
	names, namesAgreed   int
	ranges, starts, ends int
	disagreements        []string
	errorsRefClean       []string
}

func pct(n, d int) float64 {
	if d == 0 {
		return 100
	}
	return 100 * float64(n) / float64(d)
}

func (a *agreement) String() string {
	return fmt.Sprintf("%d files (%d skipped: tree-sitter reports a syntax error); names %d/%d = %.3f%%; start %d/%d = %.3f%%; end %d/%d = %.3f%%",
		a.files, a.skipped, a.namesAgreed, a.names, pct(a.namesAgreed, a.names),
		a.starts, a.ranges, pct(a.starts, a.ranges), a.ends, a.ranges, pct(a.ends, a.ranges))
}

// compare adds one file: what Extract found (or its error) against the
// reference.
func (a *agreement) compare(t *testing.T, file string, f *lang.File, err error, ref refResult) {
	if ref.Error != "" {
		a.skipped++
		return
	}
	if err != nil {
		a.errorsRefClean = append(a.errorsRefClean, err.Error())
	}
	a.files++
	got := map[string]refSymbol{}
	if f != nil {
		for _, s := range f.Symbols {
			got[s.Name] = refSymbol{s.Kind, s.Start, s.End}
		}
		for _, n := range f.Ambiguous {
			got[n] = refSymbol{}
		}
	}
	want := map[string]refSymbol{}
	for _, raw := range ref.Symbols {
		var v [4]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: reference symbol %s: %v", file, raw, err)
		}
		kind := v[1].(string)
		if lang.IsTest(Language, file, "") {
			kind = lang.KindTest // a test file's symbols are all tests (the file rule)
		}
		want[v[0].(string)] = refSymbol{kind, int(v[2].(float64)), int(v[3].(float64))}
	}
	for _, n := range ref.Ambiguous {
		want[n] = refSymbol{}
	}
	names := make([]string, 0, len(got)+len(want))
	for n := range got {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := got[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		g, gok := got[n]
		w, wok := want[n]
		a.names++
		switch {
		case !gok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %s %d-%d: missing", file, n, w.kind, w.start, w.end))
			continue
		case !wok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %s %d-%d: unknown to tree-sitter", file, n, g.kind, g.start, g.end))
			continue
		case g.kind != w.kind:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: kind %q, tree-sitter %q (\"\" is ambiguous)", file, n, g.kind, w.kind))
			continue
		}
		a.namesAgreed++
		if g.kind == "" {
			continue
		}
		a.ranges++
		if g.start == w.start {
			a.starts++
		}
		if g.end == w.end {
			a.ends++
		}
		if g.start != w.start || g.end != w.end {
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: lines %d-%d, tree-sitter %d-%d", file, n, g.start, g.end, w.start, w.end))
		}
	}
}

// report logs a's figures; strict fails on any disagreement, else only
// below the thresholds.
func (a *agreement) report(t *testing.T, what string, strict bool) {
	t.Helper()
	t.Logf("%s: %s", what, a)
	for _, e := range a.errorsRefClean[:min(len(a.errorsRefClean), 20)] {
		t.Logf("  error where tree-sitter parses: %s", e)
	}
	for _, d := range a.disagreements[:min(len(a.disagreements), 40)] {
		t.Logf("  %s", d)
	}
	if len(a.disagreements) > 40 {
		t.Logf("  ... and %d more", len(a.disagreements)-40)
	}
	switch {
	case strict && (len(a.disagreements) > 0 || len(a.errorsRefClean) > 0):
		t.Errorf("%s: Extract and tree-sitter disagree", what)
	case pct(a.namesAgreed, a.names) < conformNames || pct(a.starts, a.ranges) < conformRanges || pct(a.ends, a.ranges) < conformRanges:
		t.Errorf("%s: below the %.1f%% / %.0f%% agreement targets", what, conformNames, conformRanges)
	}
}

// TestConformance compares Extract with tree-sitter-c-sharp
// (testdata/csref.js). The golden cases must agree exactly (and fail
// together); the corpus (corpusPackages) must reach the thresholds over at
// least 1,000 symbols.
func TestConformance(t *testing.T) {
	start := time.Now()
	cases := readCases(t)
	var files []source
	for _, c := range cases {
		files = append(files, source{filepath.Base(c.file) + "/" + c.path, c.src})
	}
	refs := runRef(t, t.TempDir(), files)
	var golden agreement
	for i, c := range cases {
		f, err := Extract(c.path, c.src)
		if (err != nil) != (refs[i].Error != "") {
			t.Errorf("%s: Extract error %v; tree-sitter error %q", c.file, err, refs[i].Error)
		}
		golden.compare(t, c.path, f, err, refs[i])
	}
	golden.report(t, "testdata", true)

	corpus := corpusSources(t)
	refs = runRef(t, t.TempDir(), corpus)
	var a agreement
	var nsyms int
	for i, s := range corpus {
		f, err := Extract(s.path, s.src)
		if f != nil {
			nsyms += len(f.Symbols)
		}
		a.compare(t, s.path, f, err, refs[i])
	}
	a.report(t, fmt.Sprintf("npm %v, %d symbols, %v", corpusPackages, nsyms, time.Since(start).Round(time.Millisecond)), false)
	if a.ranges < 1000 {
		t.Errorf("only %d symbols compared; the corpus is missing", a.ranges)
	}
}
