package java

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// corpusModules are the folders of the JDK's src.zip that TestConformance
// reads: the collections, the core language classes, the compiler's own
// tree, parser and code generator (generics, nested types, enums with
// bodies, annotations, records in java.lang), about 1,500 files.
var corpusModules = []string{
	"java.base/java/util/",
	"java.base/java/lang/",
	"java.base/java/time/",
	"jdk.compiler/com/sun/tools/javac/",
	"java.net.http/",
}

// A source is one Java file of the corpus.
type source struct {
	path string // slash-separated, relative to the corpus root
	src  []byte
}

// jdkSources returns the JDK's library sources (src.zip, Debian's
// openjdk-17-source) for the modules listed, read from the zip next to
// javac's real path, or else from any JDK under /usr/lib/jvm.
func jdkSources(tb testing.TB, prefixes []string) []source {
	tb.Helper()
	javac := lookJava(tb, "javac")
	var zips []string
	if real, err := filepath.EvalSymlinks(javac); err == nil {
		zips = append(zips, filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "src.zip"))
	}
	more, _ := filepath.Glob("/usr/lib/jvm/*/lib/src.zip")
	zips = append(zips, more...)
	for _, z := range zips {
		r, err := zip.OpenReader(z)
		if err != nil {
			continue
		}
		defer r.Close()
		var files []source
		for _, f := range r.File {
			if !strings.HasSuffix(f.Name, ".java") || !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(f.Name, p) }) {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				tb.Fatal(err)
			}
			src, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				tb.Fatal(err)
			}
			files = append(files, source{f.Name, src})
		}
		slices.SortFunc(files, func(a, b source) int { return strings.Compare(a.path, b.path) })
		if len(files) < 500 {
			tb.Fatalf("%s: only %d files under %v", z, len(files), prefixes)
		}
		return files
	}
	tb.Fatalf("no JDK src.zip found (looked at %v): install Debian's openjdk-17-source (./test.sh does)", zips)
	return nil
}

// lookJava returns the path of a JDK tool, failing clearly when the JDK is
// missing.
func lookJava(tb testing.TB, tool string) string {
	tb.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		tb.Fatalf("%s is not on PATH: the Java conformance test uses javac's own parser; install default-jdk-headless (./test.sh does)", tool)
	}
	return p
}

// refResult is one line of testdata/JavaRef.java's output.
type refResult struct {
	Path      string            `json:"path"`
	Symbols   []json.RawMessage `json:"symbols"`
	Ambiguous []string          `json:"ambiguous"`
	Error     string            `json:"error"`
}

// runRef writes files under dir and runs testdata/JavaRef.java on them.
func runRef(t *testing.T, dir string, files []source) []refResult {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "JavaRef.java"))
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
	cmd := exec.Command(lookJava(t, "java"), "-Xss8m", script)
	cmd.Stdin = &list
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java JavaRef.java: %v\n%s", err, stderr.Bytes())
	}
	var res []refResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r refResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("JavaRef.java output %q: %v", sc.Bytes(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(files) {
		t.Fatalf("JavaRef.java: %d results for %d files\n%s", len(res), len(files), stderr.Bytes())
	}
	return res
}

// refFile converts javac's result for the file at path: symbols
// [name, kind, start, end], where a test file's symbols are all tests (the
// file rule, not javac's).
func refFile(t *testing.T, path string, r refResult) langtest.RefFile {
	t.Helper()
	ref := langtest.RefFile{Ambiguous: r.Ambiguous, Error: r.Error}
	for _, raw := range r.Symbols {
		var v [4]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: reference symbol %s: %v", path, raw, err)
		}
		kind := v[1].(string)
		if lang.IsTest(Language, path, "") {
			kind = lang.KindTest
		}
		ref.Symbols = append(ref.Symbols, langtest.RefSymbol{Name: v[0].(string), Kind: kind, Start: int(v[2].(float64)), End: int(v[3].(float64))})
	}
	return ref
}

// TestConformance compares Extract with javac's parser
// (testdata/JavaRef.java, run from source with the JDK's java). The golden
// cases must agree exactly, and so must every file javac parses (or the
// case expects an error that javac reports too). The corpus is the JDK's
// own library sources in corpusModules (Debian's openjdk-17-source); with
// -short only its first 300 files. It must reach the thresholds, with at
// least 1,000 symbols.
func TestConformance(t *testing.T) {
	start := time.Now()
	cases := readCases(t)
	var files []source
	for _, c := range cases {
		files = append(files, source{filepath.Base(c.File) + "/" + c.Path, c.Src})
	}
	refs := runRef(t, t.TempDir(), files)
	golden := langtest.Agreement{Reference: "javac"}
	for i, c := range cases {
		f, err := Extract(c.Path, c.Src)
		if (err != nil) != (refs[i].Error != "") {
			t.Errorf("%s: Extract error %v; javac error %q", c.File, err, refs[i].Error)
		}
		golden.Add(c.Path, f, err, refFile(t, c.Path, refs[i]))
	}
	golden.Report(t, "testdata", langtest.Golden)

	corpus := jdkSources(t, corpusModules)
	if testing.Short() {
		corpus = corpus[:300]
	}
	refs = runRef(t, t.TempDir(), corpus)
	a := langtest.Agreement{Reference: "javac"}
	var nsyms int
	for i, s := range corpus {
		f, err := Extract(s.path, s.src)
		if f != nil {
			nsyms += len(f.Symbols)
		}
		a.Add(s.path, f, err, refFile(t, s.path, refs[i]))
	}
	a.Report(t, fmt.Sprintf("JDK src.zip %v, %d symbols, %v", corpusModules, nsyms, time.Since(start).Round(time.Millisecond)), langtest.Corpus)
}
