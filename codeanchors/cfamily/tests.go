package cfamily

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// isTest reports whether the C or C++ file at p is a test file, which
// makes every symbol in it a test: a file whose name, without its
// extension, ends in _test, _tests, _unittest or _unittests (GoogleTest's
// and Chromium's foo_unittest.cc), or in Test or Tests after a lower-case
// letter or digit (FooTest.cpp), or starts with test_ (Unity and
// Ceedling's test_foo.c), or a file below a folder named test (the
// engine's rule covers tests). The symbol does not matter: a GoogleTest,
// Catch2 or doctest test is a macro the scanner reads and types as
// [lang.KindTest] wherever it is; a test_ function outside a test file is
// not a test (C has test_and_set and test_bit).
func isTest(p, _ string) bool {
	dir, base := path.Split(p)
	for c := range strings.SplitSeq(dir, "/") {
		if c == "test" {
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if rest, ok := strings.CutPrefix(stem, "test_"); ok && rest != "" {
		return true
	}
	for _, suf := range []string{"_test", "_tests", "_unittest", "_unittests"} {
		if rest, ok := strings.CutSuffix(stem, suf); ok && rest != "" {
			return true
		}
	}
	for _, suf := range []string{"Test", "Tests"} {
		if rest, ok := strings.CutSuffix(stem, suf); ok && rest != "" {
			c := rest[len(rest)-1]
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				return true
			}
		}
	}
	return false
}

// The macros that define a test a runner reports, by the report's naming:
// GoogleTest's symbol is Suite.Name, Catch2's and doctest's is named from
// the test's string.
var (
	gtestMacros = []string{"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "GTEST_TEST"}
	catchMacros = []string{
		"TEST_CASE", "TEST_CASE_METHOD", "TEMPLATE_TEST_CASE", "TEMPLATE_PRODUCT_TEST_CASE",
		"TEMPLATE_TEST_CASE_SIG", "TEMPLATE_LIST_TEST_CASE", "TEMPLATE_TEST_CASE_METHOD",
		"SCENARIO", "SCENARIO_METHOD", "TEST_CASE_FIXTURE", "TEST_CASE_TEMPLATE",
		"CATCH_TEST_CASE", "CATCH_TEST_CASE_METHOD", "CATCH_SCENARIO", "DOCTEST_TEST_CASE",
	}
)

// Test forms: how a report names a test.
const (
	formNone  = iota // not a test a runner reports
	formGTest        // Suite.Name
	formName         // one name: Catch2's and doctest's string, Unity's function
)

// testForm returns how a runner reports the symbol s of f: a GoogleTest
// macro's symbol (its first token is one of gtestMacros), a Catch2 or
// doctest macro's, or a Unity test (a test function whose name starts with
// test, spec or should, Unity's generate_test_runner prefixes); formNone
// for any other symbol. Helpers, fixtures and their methods in a test
// file are tests by the file rule, but no runner reports them.
func testForm(f *lang.File, s lang.Symbol) int {
	if s.Kind != lang.KindTest {
		return formNone
	}
	first := firstToken(f, s.Start)
	switch {
	case slices.Contains(gtestMacros, first):
		return formGTest
	case slices.Contains(catchMacros, first):
		return formName
	}
	last := s.Name[strings.LastIndexByte(s.Name, '.')+1:]
	if s.Kind != lang.KindType && (strings.HasPrefix(last, "test") || strings.HasPrefix(last, "spec") || strings.HasPrefix(last, "should")) {
		return formName
	}
	return formNone
}

// runnerTests returns the test symbols of f that a runner reports, with
// their forms.
func runnerTests(f *lang.File) (names []string, forms []int) {
	for _, s := range f.Symbols {
		if form := testForm(f, s); form != formNone {
			names = append(names, s.Name)
			forms = append(forms, form)
		}
	}
	return names, forms
}

// firstToken returns the text of the first token on line n of f, "" when
// none starts there.
func firstToken(f *lang.File, n int) string {
	i, _ := slices.BinarySearchFunc(f.Tokens, n, func(t lang.Token, n int) int { return t.Line - n })
	if i < len(f.Tokens) && f.Tokens[i].Line == n {
		return f.Tokens[i].Text
	}
	return ""
}

// testName normalizes a Catch2 or doctest test case name the way the
// scanner names its symbol: each run of characters outside [A-Za-z0-9_]
// becomes one '_', leading and trailing '_' are trimmed, and a leading
// digit gets a '_' before it.
func testName(s string) string {
	var b strings.Builder
	gap := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isWordByte(c) {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteByte(c)
			continue
		}
		gap = true
	}
	out := strings.Trim(b.String(), "_")
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// gtestNames returns the suite and test a GoogleTest result names, in
// every form a report gives it, and whether it has that shape:
//
//   - --gtest_output=xml: classname (or the testsuite name) Suite, name
//     Name; a value-parameterized test is classname Inst/Suite and name
//     Name/0 (or Name/param_name), a typed test Suite/0 and Name, a
//     type-parameterized one Inst/Suite/0 and Name;
//   - ctest --output-junit with gtest_discover_tests: name and classname
//     both Suite.Name (Inst/Suite.Name/0, Suite/0.Name).
//
// suites lists the candidates for Suite: the instance prefix or the type
// index cannot always be told apart (Inst/Suite or Suite/int).
func gtestNames(r lang.TestResult) (suites []string, name string) {
	suite, name := r.Suite, r.Name
	if i := strings.IndexByte(name, '.'); i > 0 {
		// ctest: the full name. A gtest suite and test name never hold '.'.
		suite, name = name[:i], name[i+1:]
	}
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[:i]
	}
	parts := strings.Split(suite, "/")
	switch len(parts) {
	case 1, 2:
		suites = parts
	case 3:
		suites = parts[1:2]
	}
	return suites, name
}

// sameFile reports whether a path a report gives (__FILE__ as compiled,
// absolute or relative to the build folder, maybe without its extension)
// names the workspace file at p: their trailing path components agree, up
// to the first "." or ".." of either.
func sameFile(reported, p string) bool {
	reported = slashes(reported)
	a, b := strings.Split(reported, "/"), strings.Split(p, "/")
	if path.Ext(a[len(a)-1]) == "" {
		last := b[len(b)-1]
		b[len(b)-1] = strings.TrimSuffix(last, path.Ext(last))
	}
	if a[len(a)-1] != b[len(b)-1] {
		return false
	}
	for i, j := len(a)-2, len(b)-2; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a[i] == "." || a[i] == ".." || a[i] == "" || b[j] == "." || b[j] == ".." {
			break
		}
		if a[i] != b[j] {
			return false
		}
	}
	return true
}

// pathLike reports whether a report's suite names a source file rather
// than a suite: Ceedling's test/test_model, doctest's file classname.
func pathLike(suite string) bool {
	if strings.ContainsAny(suite, `/\`) {
		return true
	}
	switch strings.ToLower(path.Ext(suite)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
}

// caseNames returns the symbol names a reported test case name may stand
// for: its [testName]; for a BDD scenario ("Scenario: x", as Catch2 and
// doctest report SCENARIO("x")) also x's; for a template test case also
// the name without its type ("vectors - int" in Catch2, "vectors<int>" in
// doctest).
func caseNames(s string) []string {
	names := []string{testName(s)}
	if rest, ok := strings.CutPrefix(strings.TrimSpace(s), "Scenario:"); ok {
		s = rest
		names = append(names, testName(s))
	}
	if i := strings.LastIndex(s, " - "); i > 0 {
		names = append(names, testName(s[:i]))
	}
	if i := strings.IndexByte(s, '<'); i > 0 && strings.HasSuffix(s, ">") {
		names = append(names, testName(s[:i]))
	}
	return names
}

// reportIndex finds a report's results by the names tests have.
type reportIndex struct {
	results []lang.TestResult
	gtest   map[string][]int // "Suite.Name" → results ([gtestNames])
	name    map[string][]int // testName of the name or of a part before a '/' → results
}

func newReportIndex(results []lang.TestResult) *reportIndex {
	x := &reportIndex{results: results, gtest: map[string][]int{}, name: map[string][]int{}}
	for i, r := range results {
		suites, name := gtestNames(r)
		for _, s := range suites {
			x.gtest[s+"."+name] = append(x.gtest[s+"."+name], i)
		}
		var names []string
		for j := 0; j <= len(r.Name); j++ {
			if j == len(r.Name) || r.Name[j] == '/' {
				names = append(names, caseNames(r.Name[:j])...)
			}
		}
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			x.name[n] = append(x.name[n], i)
		}
	}
	return x
}

// find returns the indexes of the results that stand for the test symbol
// sym of the file at p, reported in form. In formGTest, sym's last two
// parts (Suite.Name, maybe after namespaces) match a GoogleTest result
// ([gtestNames]); in formName, its last part alone matches a Catch2,
// doctest or Unity result whose name, or the part of it before a '/' (a
// Catch2 section path: "adds numbers/small"), normalizes to it
// ([testName]). A result whose file attribute names another file does not
// match (GoogleTest's file); nor does a formName result whose suite is
// another file's path (Ceedling's testsuite, doctest's classname).
func (x *reportIndex) find(sym string, form int, p string) []int {
	parts := strings.Split(sym, ".")
	var cands []int
	switch {
	case form == formGTest && len(parts) >= 2:
		cands = x.gtest[parts[len(parts)-2]+"."+parts[len(parts)-1]]
	case form == formName:
		cands = x.name[parts[len(parts)-1]]
	}
	var out []int
	for _, i := range cands {
		r := x.results[i]
		if r.File != "" && !sameFile(r.File, p) {
			continue
		}
		if form == formName && r.Suite != "" && pathLike(r.Suite) && !sameFile(r.Suite, p) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// matchTests returns the results of a GoogleTest XML, ctest JUnit, Catch2
// JUnit, doctest JUnit or Ceedling JUnit report that a tests target of a C
// or C++ file stands for ([reportIndex.find] says which result is which test):
//
//   - PATH@Suite.Name: that test's results, every instance of a
//     parameterized or typed test included; PATH@adds_numbers likewise
//     for a Catch2, doctest or Unity test;
//   - PATH@Suite, when the file has test symbols Suite.Name: each of
//     them (a test suite or fixture);
//   - PATH: each of the file's tests that a runner reports ([runnerTests]).
//
// A target naming several tests matches only when the report has a result
// for each; otherwise, and when the report has none, it matches nothing.
func matchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	var f *lang.File
	if in.File != nil {
		f = in.File(t.Path)
	}
	var want []string
	var forms []int
	switch {
	case f == nil && !t.IsSymbol():
		return nil
	case f == nil:
		// Unreadable now: judge the name's shape.
		want = []string{t.Symbol}
		forms = []int{formName}
		if strings.Contains(t.Symbol, ".") {
			forms[0] = formGTest
		}
	default:
		names, fs := runnerTests(f)
		for i, name := range names {
			if !t.IsSymbol() || name == t.Symbol || strings.HasPrefix(name, t.Symbol+".") {
				want = append(want, name)
				forms = append(forms, fs[i])
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	x := newReportIndex(results)
	var idx []int
	for i, sym := range want {
		found := x.find(sym, forms[i], t.Path)
		if len(found) == 0 {
			return nil
		}
		idx = append(idx, found...)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]lang.TestResult, len(idx))
	for i, j := range idx {
		out[i] = results[j]
	}
	return out
}
