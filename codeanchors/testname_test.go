package codeanchors

import "testing"

func TestIsTest(t *testing.T) {
	for _, tt := range []struct {
		path, symbol string
		want         bool
	}{
		// Go test files and names.
		{"pkg/a_test.go", "helper", true},
		{"pkg/a_test.go", "T.method", true},
		{"pkg/a.go", "TestLogin", true},
		{"pkg/a.go", "Test", true},
		{"pkg/a.go", "Test_login", true},
		{"pkg/a.go", "Test2", true},
		{"pkg/a.go", "TestÉcole", true},
		{"pkg/a.go", "Testing", false},
		{"pkg/a.go", "TestingHelper", false},
		{"pkg/a.go", "Testécole", false}, // é is lower-case
		{"pkg/a.go", "BenchmarkParse", true},
		{"pkg/a.go", "Benchmark", true},
		{"pkg/a.go", "Benchmarks", false},
		{"pkg/a.go", "FuzzExtract", true},
		{"pkg/a.go", "Fuzzy", false},
		{"pkg/a.go", "Example", true},
		{"pkg/a.go", "ExampleFile_Lookup", true},
		{"pkg/a.go", "Example_second", true},
		{"pkg/a.go", "Examples", false},
		{"pkg/a.go", "Suite.TestLogin", true},
		{"pkg/a.go", "TestSuite.helper", false},
		{"pkg/a.go", "test_helper", false}, // a Python name in Go
		{"pkg/testutil.go", "Helper", false},
		{"pkg/testing.go", "F", false},
		{"pkg/a_test.go.orig", "F", false},
		{"pkg/test.go", "F", false},
		{"pkg/a_tests.go", "F", false},

		// Python.
		{"src/test_auth.py", "helper", true},
		{"src/auth_test.py", "helper", true},
		{"src/auth.py", "test_login", true},
		{"src/auth.py", "test", true},
		{"src/auth.py", "testLogin", true},
		{"src/auth.py", "testing_helper", false},
		{"src/auth.py", "TestLogin", true},
		{"src/auth.py", "TestLogin.setUp", false},
		{"src/auth.py", "Case.test_login", true},
		{"src/auth.py", "BenchmarkResult", false}, // a Go name in Python
		{"src/auth.py", "login", false},
		{"src/testing.py", "f", false},
		{"src/attest_x.py", "f", false},
		{"src/test_x.pyc", "f", false},

		// Test directories.
		{"tests/conftest.py", "fixture", true},
		{"pkg/tests/helpers.go", "F", true},
		{"web/__tests__/a.js", "f", true},
		{"tests", "f", false},              // a file called tests
		{"pkg/tests.go", "F", false},       // not a directory
		{"pkg/mytests/a.go", "F", false},   // not the whole component
		{"pkg/test/a.go", "F", false},      // singular is not listed
		{`pkg\tests\a.go`, "F", true},      // backslashes
		{"pkg/testsuite/a.py", "f", false}, //

		// JavaScript and TypeScript.
		{"web/a.test.ts", "f", true},
		{"web/a.test.tsx", "f", true},
		{"web/a.spec.js", "f", true},
		{"web/a.spec.mjs", "f", true},
		{"web/a.test.cts", "f", true},
		{"web/a.spec.jsx", "f", true},
		{"web/a.spec.mts", "f", true},
		{"web/a.test.cjs", "f", true},
		{"web/a.test.md", "f", false},
		{"web/a.spec.json", "f", false},
		{"web/atest.ts", "f", false},
		{"web/a.ts", "TestFoo", false},
		{"web/a.ts", "testUtils", false},

		// No path, or another language: either rule.
		{"", "TestLogin", true},
		{"", "test_login", true},
		{"", "Login", false},
		{"doc.md", "Testing", false},
	} {
		if got := IsTest(tt.path, tt.symbol); got != tt.want {
			t.Errorf("IsTest(%q, %q) = %v, want %v", tt.path, tt.symbol, got, tt.want)
		}
	}
}
