package javascript

import (
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// IsTest reports whether a symbol of the JavaScript or TypeScript file at p
// is a test: every symbol of a *.test.EXT or *.spec.EXT file is (EXT one of
// the language's extensions); elsewhere never, since JavaScript tests are
// calls (describe, it, test), not names.
func (language) IsTest(p, _ string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	if !isJSExt(ext) {
		return false
	}
	stem := strings.TrimSuffix(base, ext)
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
}

// isJSExt reports whether ext is one of the language's extensions.
func isJSExt(ext string) bool {
	switch ext {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// MatchTests matches Jest, Vitest and Mocha results; see matchJS.
func (language) MatchTests(t claims.Target, results []lang.TestResult, _ lang.TestInput) []lang.TestResult {
	return matchJS(t, results)
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
func matchJS(t claims.Target, results []lang.TestResult) []lang.TestResult {
	if t.IsSymbol() {
		return nil
	}
	same := func(p string) bool {
		p = strings.ReplaceAll(p, `\`, "/")
		p = strings.TrimPrefix(p, "./")
		abs := strings.HasPrefix(p, "/") || len(p) > 2 && p[1] == ':'
		return p == t.Path || abs && strings.HasSuffix(p, "/"+t.Path) || !abs && p != "" && strings.HasSuffix(t.Path, "/"+p)
	}
	var out []lang.TestResult
	for _, r := range results {
		if r.File != "" && same(r.File) || r.File == "" && same(r.Suite) {
			out = append(out, r)
		}
	}
	return out
}
