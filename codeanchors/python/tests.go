package python

import (
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// IsTest reports whether a symbol of the Python file at p is a test: every
// symbol of a test_*.py or *_test.py file is; elsewhere a name (the last
// part of the symbol) that is test alone or followed by a name that does
// not start with a lower-case letter (test_login, testLogin; not testing),
// or a Test class (TestLogin).
func (language) IsTest(p, symbol string) bool {
	if base := path.Base(p); path.Ext(base) == ".py" && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")) {
		return true
	}
	return isPythonTestName(symbol[strings.LastIndexByte(symbol, '.')+1:])
}

// isPythonTestName reports whether name is a pytest or unittest test
// function or method, or a test class.
func isPythonTestName(name string) bool {
	return lang.HasTestPrefix(name, "test") || lang.HasTestPrefix(name, "Test")
}

// MatchTests matches pytest results to a tests target of a .py file (see
// matchPython); a stub (.pyi) has no tests of its own and is matched by
// [lang.MatchByModule].
func (language) MatchTests(t claims.Target, results []lang.TestResult, _ lang.TestInput) []lang.TestResult {
	if path.Ext(t.Path) != ".py" {
		return lang.MatchByModule(t, results)
	}
	return matchPython(t, results)
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
func matchPython(t claims.Target, results []lang.TestResult) []lang.TestResult {
	module := strings.ReplaceAll(strings.TrimSuffix(t.Path, path.Ext(t.Path)), "/", ".")
	type test struct {
		classes, name string
		r             lang.TestResult
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
	var out []lang.TestResult
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
		if o := x.r.Outcome; o == lang.OutcomeFail || o == lang.OutcomeSkip && out[i].Outcome == lang.OutcomePass {
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
