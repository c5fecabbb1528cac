package codeanchors

import (
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// TestMatcher finds the report results that stand for a requirement's tests
// targets.
type TestMatcher struct {
	// GoPackage returns the import path of the Go package in a
	// root-relative folder, from its go.mod; ok is false outside any module.
	GoPackage func(dir string) (pkg string, ok bool)
	// Source returns the parsed source of a path, nil when unreadable; it is
	// used to list the tests of a whole-file target.
	Source func(path string) *Source
}

// Match returns the results that a tests target stands for, or none when
// the report does not have them all.
//
//   - Go, PATH@TestX: the result with Suite = the package's import path and
//     Name = TestX. A whole _test.go file stands for every test function in
//     it, and matches only when the report has them all.
//   - Other languages: results whose File is PATH, or whose Suite is PATH's
//     dotted module name ("tests/test_auth.py" → "tests.test_auth"),
//     followed by the symbol's enclosing classes; Name is the symbol's last
//     part. Without a symbol, every such result of the file.
func (m TestMatcher) Match(t claims.Target, results []TestResult) []TestResult {
	switch path.Ext(t.Path) {
	case ".go":
		return m.matchGo(t, results)
	case ".py":
		return m.matchPython(t, results)
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts":
		return m.matchJS(t, results)
	}
	return m.matchOther(t, results)
}

// matchOther matches results by file, or by a suite that is the target's
// dotted module name.
func (m TestMatcher) matchOther(t claims.Target, results []TestResult) []TestResult {
	module := strings.ReplaceAll(strings.TrimSuffix(t.Path, path.Ext(t.Path)), "/", ".")
	suite, name := module, ""
	if t.IsSymbol() {
		parts := strings.Split(t.Symbol, ".")
		name = parts[len(parts)-1]
		if len(parts) > 1 {
			suite += "." + strings.Join(parts[:len(parts)-1], ".")
		}
	}
	var out []TestResult
	for _, r := range results {
		inFile := r.File == t.Path || (r.File == "" && (r.Suite == module || strings.HasPrefix(r.Suite, module+".")))
		switch {
		case !inFile:
		case !t.IsSymbol():
			out = append(out, r)
		case r.Name == name && (r.File == t.Path || r.Suite == suite):
			out = append(out, r)
		}
	}
	return out
}

func (m TestMatcher) matchGo(t claims.Target, results []TestResult) []TestResult {
	pkg, ok := m.GoPackage(path.Dir(t.Path))
	if !ok {
		return nil
	}
	var names []string
	switch {
	case t.IsSymbol():
		names = []string{t.Symbol}
	default:
		s := m.Source(t.Path)
		if s == nil || s.File == nil {
			return nil
		}
		for _, sym := range s.File.Symbols {
			if sym.Kind == KindTest && !strings.Contains(sym.Name, ".") {
				names = append(names, sym.Name)
			}
		}
	}
	var out []TestResult
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

// matchPython matches pytest JUnit results (xunit1 or xunit2) to a Python
// tests target. A result belongs to the target's file when its File is the
// target's path (or a suffix of it after a "/": pytest's rootdir may be a
// subfolder) or, without File, when its Suite (classname) starts with a
// module path that is the target's dotted path or a dotted suffix of it
// ("tests.test_auth", or "test_auth" from a rootdir of tests/, or
// "pkg.tests.test_x" for src/pkg/tests/test_x.py). The rest of the Suite
// is the test's classes: PATH@TestLogin.test_ok is the result of
// classname MODULE.TestLogin named test_ok; PATH@test_x the one of
// classname MODULE named test_x; PATH@TestLogin every test of that class.
// A parametrized test (test_x[1-2]) counts for test_x, its results merged
// into one under the plain name: fail if any failed, else skip if any was
// skipped, else pass. A whole-file target stands for every test of the
// file and needs at least one.
func (m TestMatcher) matchPython(t claims.Target, results []TestResult) []TestResult {
	module := strings.ReplaceAll(strings.TrimSuffix(t.Path, path.Ext(t.Path)), "/", ".")
	type test struct {
		classes, name string
		r             TestResult
	}
	var tests []test
	for _, r := range results {
		file := strings.TrimPrefix(r.File, "./")
		byFile := file != "" && (file == t.Path || strings.HasSuffix(t.Path, "/"+file))
		if file != "" && !byFile {
			continue
		}
		classes, ok := pyClasses(module, r.Suite)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(r.Name, "[")
		tests = append(tests, test{classes, name, r})
	}
	inClass := func(classes, _ string) bool { return classes == t.Symbol || strings.HasPrefix(classes, t.Symbol+".") }
	isClass := false
	for _, x := range tests {
		isClass = isClass || t.IsSymbol() && inClass(x.classes, x.name)
	}
	var keep func(classes, name string) bool
	switch {
	case !t.IsSymbol():
		keep = func(string, string) bool { return true }
	case isClass:
		keep = inClass
	default:
		classes, name := "", t.Symbol
		if i := strings.LastIndexByte(t.Symbol, '.'); i >= 0 {
			classes, name = t.Symbol[:i], t.Symbol[i+1:]
		}
		keep = func(c, n string) bool { return c == classes && n == name }
	}
	var out []TestResult
	index := map[[2]string]int{}
	for _, x := range tests {
		if !keep(x.classes, x.name) {
			continue
		}
		key := [2]string{x.classes, x.name}
		i, seen := index[key]
		if !seen {
			index[key] = len(out)
			r := x.r
			r.Name = x.name
			out = append(out, r)
			continue
		}
		// All parameters must pass: fail wins, then skip.
		if o := x.r.Outcome; o == OutcomeFail || o == OutcomeSkip && out[i].Outcome == OutcomePass {
			out[i].Outcome = o
		}
	}
	return out
}

// matchJS matches Jest, Vitest and Mocha results to a JavaScript or
// TypeScript tests target. JavaScript tests are calls (describe, it, test)
// whose titles are free text, not symbols, so the target is the test file:
// PATH stands for every result of that file, and matches when the report
// has at least one. A result is of the file when its File (jest-junit with
// addFileAttribute) or, without one, its Suite (Vitest's and jest-junit's
// suiteNameTemplate "{filepath}") is PATH, written as is, with a leading
// "./", as an absolute path ending in "/PATH", or as a path that PATH ends
// with after a "/" (the runner's root is a subfolder, as in a monorepo
// package). Mocha's reporters name the file only on the suite, which the
// report parser does not keep: their results match no file. A PATH@SYMBOL
// target (a helper function of a test file) stands for no result: a report
// cannot tell which tests ran through a helper, and evidence is never
// guessed.
func (m TestMatcher) matchJS(t claims.Target, results []TestResult) []TestResult {
	if t.IsSymbol() {
		return nil
	}
	same := func(p string) bool {
		p = strings.ReplaceAll(p, `\`, "/")
		p = strings.TrimPrefix(p, "./")
		abs := strings.HasPrefix(p, "/") || len(p) > 2 && p[1] == ':'
		return p == t.Path || abs && strings.HasSuffix(p, "/"+t.Path) || !abs && p != "" && strings.HasSuffix(t.Path, "/"+p)
	}
	var out []TestResult
	for _, r := range results {
		if r.File != "" && same(r.File) || r.File == "" && same(r.Suite) {
			out = append(out, r)
		}
	}
	return out
}
