package codeanchors

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsTest reports whether the symbol named symbol ("f", "Recv.Name",
// "Class.method") in the file at path is a test. It is the one place that
// decides this.
//
// Every symbol of a test file is a test: a file named *_test.go, test_*.py,
// *_test.py, *.test.EXT or *.spec.EXT (EXT one of js, jsx, ts, tsx, mjs, cjs,
// mts, cts), or below a directory named tests or __tests__.
//
// Elsewhere the last component of the symbol decides, by the rules of the
// file's language:
//
//   - Go (.go): Test, Benchmark, Fuzz or Example, alone or followed by a
//     name that does not start with a lower-case letter, as go test decides
//     (TestLogin, Test_login, Example; not Testing or Benchmarks).
//   - Python (.py, .pyi): test alone or followed by a name that does not
//     start with a lower-case letter (test_login, testLogin; not testing),
//     or a Test class (TestLogin).
//   - JavaScript and TypeScript: never; their tests are calls, not names.
//   - Any other path, or none: either the Go or the Python rule.
func IsTest(p, symbol string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	if isTestPath(p) {
		return true
	}
	name := symbol[strings.LastIndexByte(symbol, '.')+1:]
	switch ext := path.Ext(p); ext {
	case ".go":
		return isGoTestName(name)
	case ".py", ".pyi":
		return isPythonTestName(name)
	default:
		if isJSExt(ext) {
			return false
		}
		return isGoTestName(name) || isPythonTestName(name)
	}
}

// isTestPath reports whether the slash-separated path p names a test file.
func isTestPath(p string) bool {
	dir, base := path.Split(p)
	for c := range strings.SplitSeq(dir, "/") {
		if c == "tests" || c == "__tests__" {
			return true
		}
	}
	switch ext := path.Ext(base); {
	case ext == ".go":
		return strings.HasSuffix(base, "_test.go")
	case ext == ".py":
		return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")
	case isJSExt(ext):
		stem := strings.TrimSuffix(base, ext)
		return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
	}
	return false
}

func isJSExt(ext string) bool {
	switch ext {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// isGoTestName reports whether name is a test, benchmark, fuzz target or
// example by go test's rule.
func isGoTestName(name string) bool {
	return hasTestPrefix(name, "Test") || hasTestPrefix(name, "Benchmark") ||
		hasTestPrefix(name, "Fuzz") || hasTestPrefix(name, "Example")
}

// isPythonTestName reports whether name is a pytest or unittest test
// function or method, or a test class.
func isPythonTestName(name string) bool {
	return hasTestPrefix(name, "test") || hasTestPrefix(name, "Test")
}

// hasTestPrefix reports whether name is prefix alone or prefix followed by
// a rune that is not a lower-case letter (cmd/go's isTest).
func hasTestPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}
