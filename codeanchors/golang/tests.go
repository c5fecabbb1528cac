package golang

import (
	"bufio"
	"bytes"
	"path"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// IsTest reports whether a symbol of the Go file at p is a test: every
// symbol of a *_test.go file is; elsewhere a name (the last part of the
// symbol) that is Test, Benchmark, Fuzz or Example, alone or followed by a
// name that does not start with a lower-case letter, as go test decides
// (TestLogin, Test_login, Example; not Testing or Benchmarks).
func (language) IsTest(p, symbol string) bool {
	if path.Ext(p) == ".go" && strings.HasSuffix(path.Base(p), "_test.go") {
		return true
	}
	return isGoTestName(symbol[strings.LastIndexByte(symbol, '.')+1:])
}

// isGoTestName reports whether name is a test, benchmark, fuzz target or
// example by go test's rule.
func isGoTestName(name string) bool {
	return lang.HasTestPrefix(name, "Test") || lang.HasTestPrefix(name, "Benchmark") ||
		lang.HasTestPrefix(name, "Fuzz") || lang.HasTestPrefix(name, "Example")
}

// MatchTests matches go test -json (or go-junit-report) results: PATH@TestX
// is the result with Suite = the package's import path (from the nearest
// go.mod at or above PATH's folder) and Name = TestX. A whole _test.go file
// stands for every test function in it, and matches only when the report
// has them all.
func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	pkg, ok := packagePath(in.Project, path.Dir(t.Path))
	if !ok {
		return nil
	}
	var names []string
	switch {
	case t.IsSymbol():
		names = []string{t.Symbol}
	default:
		f := in.File(t.Path)
		if f == nil {
			return nil
		}
		for _, sym := range f.Symbols {
			if sym.Kind == lang.KindTest && !strings.Contains(sym.Name, ".") {
				names = append(names, sym.Name)
			}
		}
	}
	var out []lang.TestResult
	for _, n := range names {
		found := false
		for _, r := range results {
			if r.Suite == pkg && r.Name == n {
				out = append(out, r)
				found = true
			}
		}
		if !found {
			return nil
		}
	}
	return out
}

// packagePath returns the import path of the Go package in a root-relative
// folder, from the nearest go.mod at or above it among the project files;
// ok is false outside any module.
func packagePath(project map[string][]byte, dir string) (pkg string, ok bool) {
	for d, rel := dir, ""; ; {
		if m := modulePath(project[path.Join(d, "go.mod")]); m != "" {
			return path.Join(m, rel), true
		}
		if d == "." {
			return "", false
		}
		rel = path.Join(path.Base(d), rel)
		d = path.Dir(d)
	}
}

// modulePath returns the module path of a go.mod, "" when it has none.
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			rest = strings.TrimSpace(rest)
			if s, err := strconv.Unquote(rest); err == nil {
				return s
			}
			return rest
		}
	}
	return ""
}
