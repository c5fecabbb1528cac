//go:build conformance

package java

import (
	"archive/zip"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// runRef writes files under dir and runs testdata/JavaRef.java on them.
func runRef(t *testing.T, dir string, files []source) []langtest.RefResult {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "JavaRef.java"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		langtest.WriteFile(t, p, f.src)
		paths = append(paths, p)
	}
	return langtest.RunReference[langtest.RefResult](t, exec.Command(lookJava(t, "java"), "-Xss8m", script), paths)
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
		golden.Add(c.Path, f, err, refs[i].RefFile(t, Language, c.Path))
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
		a.Add(s.path, f, err, refs[i].RefFile(t, Language, s.path))
	}
	a.Report(t, fmt.Sprintf("JDK src.zip %v, %d symbols, %v", corpusModules, nsyms, time.Since(start).Round(time.Millisecond)), langtest.Corpus)
}

// BenchmarkExtract extracts the conformance corpus (the JDK's java.util,
// java.lang, java.time, javac and java.net.http sources) and reports
// symbols/s and lines/s.
func BenchmarkExtract(b *testing.B) {
	langtest.BenchExtract(b, jdkSources(b, corpusModules), func(f source) (string, []byte) { return f.path, f.src }, Extract)
}
