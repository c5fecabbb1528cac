//go:build conformance

package python

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// pyStdlib returns the folder of Python's standard library, from python3.
func pyStdlib(tb testing.TB) string {
	tb.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		tb.Fatal("python3 is not on PATH: the Python conformance test and benchmark use Python's own ast module and standard library as their reference; install python3")
	}
	out, err := exec.Command("python3", "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		tb.Fatalf("python3: cannot find the standard library: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// A pySource is one .py file of the standard library.
type pySource struct {
	path string // slash-separated, relative to the stdlib folder
	src  []byte
}

// readPyStdlib reads every .py file of the standard library, sorted by
// path; installed packages (site-packages) are not the standard library.
func readPyStdlib(tb testing.TB) (string, []pySource) {
	tb.Helper()
	root := pyStdlib(tb)
	var files []pySource
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "site-packages" || d.Name() == "__pycache__" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".py") || !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, pySource{filepath.ToSlash(rel), src})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) < 500 {
		tb.Fatalf("%s: only %d .py files; the standard library is missing", root, len(files))
	}
	return root, files
}

// astFile is one line of testdata/extract/astsymbols.py's output.
type astFile struct {
	Path      string
	Error     string
	Symbols   [][3]json.RawMessage // name, start, end
	Ambiguous []string
}

// TestPythonConformance compares Extract with Python's own ast module
// (testdata/extract/astsymbols.py applies the SPEC 1.3 rules to ast's tree)
// over the whole standard library: names, start and end lines. Files ast
// cannot parse (Python 2 data files, bad encodings kept on purpose in
// test/) are left out.
func TestPythonConformance(t *testing.T) {
	start := time.Now()
	root, files := readPyStdlib(t)

	// Python runs while Go extracts.
	cmd := exec.Command("python3", filepath.Join("testdata", "extract", "astsymbols.py"), root)
	var list bytes.Buffer
	for _, f := range files {
		list.WriteString(f.path + "\n")
	}
	cmd.Stdin = &list
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("python3 astsymbols.py: %v", err)
	}
	var ref []astFile
	var refErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var a astFile
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				refErr = fmt.Errorf("astsymbols.py output %q: %v", sc.Text(), err)
				return
			}
			ref = append(ref, a)
		}
		refErr = sc.Err()
	}()

	got := make([]*lang.File, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				got[i], errs[i] = Extract(files[i].path, files[i].src)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	goTime := time.Since(start)

	<-done
	if err := cmd.Wait(); err != nil || refErr != nil {
		t.Fatalf("python3 astsymbols.py: %v %v\n%s", err, refErr, stderr.Bytes())
	}
	if len(ref) != len(files) {
		t.Fatalf("astsymbols.py printed %d files, want %d", len(ref), len(files))
	}

	a := langtest.Agreement{Reference: "ast"}
	var bothFail, lines int
	for i, r := range ref {
		if r.Path != files[i].path {
			t.Fatalf("astsymbols.py line %d is %s, want %s", i+1, r.Path, files[i].path)
		}
		if r.Error != "" && errs[i] != nil {
			bothFail++
		}
		rf := langtest.RefFile{Ambiguous: r.Ambiguous, Error: r.Error}
		for _, s := range r.Symbols {
			var rs langtest.RefSymbol
			if json.Unmarshal(s[0], &rs.Name) != nil || json.Unmarshal(s[1], &rs.Start) != nil || json.Unmarshal(s[2], &rs.End) != nil {
				t.Fatalf("%s: bad symbol %s", r.Path, s)
			}
			rf.Symbols = append(rf.Symbols, rs)
		}
		if r.Error == "" {
			lines += len(lang.Lines(files[i].src))
		}
		a.Add(r.Path, got[i], errs[i], rf)
	}
	t.Logf("%d files (%d lines) of %s; %d left out because ast cannot parse them (%d rejected by Extract too); Go extraction %v, total %v",
		a.Files, lines, root, a.Skipped, bothFail, goTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	a.Report(t, "Python standard library", langtest.Thresholds{Names: 99.5, Ranges: 99, MinSymbols: 10000})
}

func BenchmarkExtractPython(b *testing.B) {
	_, files := readPyStdlib(b)
	var srcs []pySource
	for _, f := range files {
		if _, err := Extract(f.path, f.src); err == nil { // not the Python 2 data files and bad encodings kept in test/
			srcs = append(srcs, f)
		}
	}
	langtest.BenchExtract(b, srcs, func(f pySource) (string, []byte) { return f.path, f.src }, Extract)
}
