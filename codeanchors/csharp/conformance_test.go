//go:build conformance

package csharp

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
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
// (name@version), installed with langtest.NPM without running their
// install scripts (the wasm builds need none) and without peer
// dependencies (the Unity packages name Unity's).
func nodeModules(tb testing.TB, pkgs ...string) string {
	tb.Helper()
	return filepath.Join(langtest.NPM(tb, append([]string{"--ignore-scripts", "--legacy-peer-deps"}, pkgs...)...), "node_modules")
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

// runRef writes files under dir and runs testdata/csref.js on them.
func runRef(t *testing.T, dir string, files []source) []langtest.RefResult {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "csref.js"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		langtest.WriteFile(t, p, f.src)
		paths = append(paths, p)
	}
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "NODE_MODULES="+nodeModules(t, referencePackages...))
	return langtest.RunReference[langtest.RefResult](t, cmd, paths)
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
		files = append(files, source{filepath.Base(c.File) + "/" + c.Path, c.Src})
	}
	refs := runRef(t, t.TempDir(), files)
	golden := langtest.Agreement{Reference: "tree-sitter"}
	for i, c := range cases {
		f, err := Extract(c.Path, c.Src)
		if (err != nil) != (refs[i].Error != "") {
			t.Errorf("%s: Extract error %v; tree-sitter error %q", c.File, err, refs[i].Error)
		}
		golden.Add(c.Path, f, err, refs[i].RefFile(t, Language, c.Path))
	}
	golden.Report(t, "testdata", langtest.Golden)

	corpus := corpusSources(t)
	refs = runRef(t, t.TempDir(), corpus)
	a := langtest.Agreement{Reference: "tree-sitter"}
	var nsyms int
	for i, s := range corpus {
		f, err := Extract(s.path, s.src)
		if f != nil {
			nsyms += len(f.Symbols)
		}
		a.Add(s.path, f, err, refs[i].RefFile(t, Language, s.path))
	}
	a.Report(t, fmt.Sprintf("npm %v, %d symbols, %v", corpusPackages, nsyms, time.Since(start).Round(time.Millisecond)), langtest.Corpus)
}

// BenchmarkExtract extracts the conformance corpus (UniTask, UniRx and
// ONNX Runtime's C# bindings from npm) and reports symbols/s and lines/s.
// Files that do not parse (braces split across #if branches, which
// tree-sitter rejects too) are left out.
func BenchmarkExtract(b *testing.B) {
	var files []source
	for _, f := range corpusSources(b) {
		if _, err := Extract(f.path, f.src); err == nil {
			files = append(files, f)
		}
	}
	langtest.BenchExtract(b, files, func(f source) (string, []byte) { return f.path, f.src }, Extract)
}
