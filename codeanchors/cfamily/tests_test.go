package cfamily_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/cfamily"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

func TestIsTestFile(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"src/cart_test.cc", true},
		{"src/cart_test.cpp", true},
		{"src/cart_test.c", true},
		{"src/cart_tests.cxx", true},
		{"src/cart_unittest.cc", true},
		{"src/test_cart.c", true},
		{"src/CartTest.cpp", true},
		{"src/CartTests.cpp", true},
		{"src/Cart2Test.cpp", true},
		{"test/cart.c", true},
		{"fw/test/support/cart.h", true},
		{"src/cart.c", false},
		{"src/test.c", false},
		{"src/_test.c", false},
		{"src/test_.c", false},
		{"src/Test.cpp", false},
		{"src/LATEST.cpp", false},   // not ...Test after a lower-case letter
		{"src/contest.c", false},    // no _test
		{"src/testing/x.c", false},  // testing is not test
		{"src/attest_test.h", true}, // a test helper header
	} {
		if got := cfamily.IsTestFile(tt.path, ""); got != tt.want {
			t.Errorf("isTest(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// testFile builds the extracted file of a test source by hand: each symbol
// given as "line kind first-token name" ("6 test TEST CartTest.AddsItems"),
// its first token on its first line.
func testFile(path string, syms ...string) *lang.File {
	f := &lang.File{Path: path, Parser: "hand@1"}
	for _, s := range syms {
		var line int
		fields := strings.Fields(s)
		for _, c := range fields[0] {
			line = line*10 + int(c-'0')
		}
		f.Symbols = append(f.Symbols, lang.Symbol{Name: fields[3], Kind: fields[1], Start: line, End: line + 2})
		f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: fields[2]}, lang.Token{Line: line, Text: "("})
	}
	f.SortSymbols()
	return f
}

var reportFiles = map[string]*lang.File{
	// A GoogleTest file below tests/: every symbol is a test by the
	// engine's rule, the fixture class and a helper included.
	"tests/cart_test.cc": testFile("tests/cart_test.cc",
		"3 test static make_cart",
		"6 test TEST CartTest.AddsItems",
		"12 test TEST CartTest.RejectsNegative",
		"18 test class CartFixture",
		"19 test void CartFixture.SetUp",
		"25 test TEST_F CartFixture.Totals",
		"29 test TEST_F CartFixture.DISABLED_Discounts",
		"37 test TEST_P PriceTest.Rounds",
		"48 test TYPED_TEST StackTest.Push"),
	"tests/order_test.cc": testFile("tests/order_test.cc", "4 test TEST OrderTest.Ships"),
	"tests/other_test.cc": testFile("tests/other_test.cc", "4 test TEST CartTest.AddsItems"),
	"tests/vector_test.cpp": testFile("tests/vector_test.cpp",
		"3 test TEST_CASE adds_numbers",
		"10 test TEST_CASE vectors_can_be_sized",
		"30 test TEST_CASE_METHOD Fixture_totals_add_up",
		"40 test int helper",
		"50 test SCENARIO carts_can_be_emptied",
		"60 test TEMPLATE_TEST_CASE sums"),
	"tests/math_test.cpp":  testFile("tests/math_test.cpp", "3 test TEST_CASE adds_numbers", "8 test TEST_CASE divides"),
	"tests/other_test.cpp": testFile("tests/other_test.cpp", "5 test TEST_CASE adds_numbers"),
	// Unity tests outside tests/: test by the file name rule.
	"fw/test/test_stack.c": testFile("fw/test/test_stack.c",
		"5 test void setUp",
		"7 test void tearDown",
		"9 test void test_push_adds_item",
		"15 test void test_pop_on_empty_fails",
		"21 test void test_peek"),
	// Not a test file: a Unity-looking name is no test.
	"src/bits.c": testFile("src/bits.c", "3 func int test_bit"),
}

func readReport(t *testing.T, name string) []lang.TestResult {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reports", name))
	if err != nil {
		t.Fatal(err)
	}
	results, err := codeanchors.ParseReport(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// TestMatchTests matches tests targets against the sample reports of
// testdata/reports; each want lists the matched results as
// "suite|name|outcome".
func TestMatchTests(t *testing.T) {
	in := lang.TestInput{File: func(p string) *lang.File { return reportFiles[p] }}
	for _, tt := range []struct {
		report, target string
		want           []string
	}{
		{"gtest.xml", "tests/cart_test.cc@CartTest.AddsItems", []string{"CartTest|AddsItems|pass"}},
		{"gtest.xml", "tests/cart_test.cc@CartTest.RejectsNegative", []string{"CartTest|RejectsNegative|fail"}},
		{"gtest.xml", "tests/cart_test.cc@PriceTest.Rounds", []string{"Values/PriceTest|Rounds/0|pass", "Values/PriceTest|Rounds/1|pass"}},
		{"gtest.xml", "tests/cart_test.cc@StackTest.Push", []string{"StackTest/0|Push|pass", "StackTest/1|Push|pass"}},
		{"gtest.xml", "tests/cart_test.cc@CartTest", []string{"CartTest|AddsItems|pass", "CartTest|RejectsNegative|fail"}},
		{"gtest.xml", "tests/cart_test.cc@CartFixture", []string{"CartFixture|DISABLED_Discounts|skip", "CartFixture|Totals|pass"}},
		{"gtest.xml", "tests/cart_test.cc", []string{
			"CartFixture|DISABLED_Discounts|skip", "CartFixture|Totals|pass",
			"CartTest|AddsItems|pass", "CartTest|RejectsNegative|fail",
			"StackTest/0|Push|pass", "StackTest/1|Push|pass",
			"Values/PriceTest|Rounds/0|pass", "Values/PriceTest|Rounds/1|pass"}},
		{"gtest.xml", "tests/cart_test.cc@CartFixture.SetUp", nil}, // a fixture's method: no runner reports it
		{"gtest.xml", "tests/cart_test.cc@make_cart", nil},
		{"gtest.xml", "tests/cart_test.cc@CartTest.Missing", nil},
		{"gtest.xml", "tests/order_test.cc", []string{"OrderTest|Ships|skip"}},
		// The file attribute names cart_test.cc: not this file's test.
		{"gtest.xml", "tests/other_test.cc@CartTest.AddsItems", nil},
		// An unreadable file: the symbol's shape decides.
		{"gtest.xml", "tests/gone_test.cc@CartTest.AddsItems", nil},
		{"gtest.xml", "tests/gone_test.cc", nil},

		{"ctest-junit.xml", "tests/cart_test.cc@CartTest.AddsItems", []string{"CartTest.AddsItems|CartTest.AddsItems|pass"}},
		{"ctest-junit.xml", "tests/cart_test.cc@PriceTest.Rounds", []string{"Values/PriceTest.Rounds/0|Values/PriceTest.Rounds/0|pass", "Values/PriceTest.Rounds/1|Values/PriceTest.Rounds/1|pass"}},
		{"ctest-junit.xml", "tests/cart_test.cc@StackTest.Push", []string{"StackTest/0.Push|StackTest/0.Push|pass"}},
		{"ctest-junit.xml", "tests/cart_test.cc@CartFixture", []string{"CartFixture.DISABLED_Discounts|CartFixture.DISABLED_Discounts|skip", "CartFixture.Totals|CartFixture.Totals|pass"}},
		{"ctest-junit.xml", "tests/cart_test.cc", []string{
			"CartFixture.DISABLED_Discounts|CartFixture.DISABLED_Discounts|skip", "CartFixture.Totals|CartFixture.Totals|pass",
			"CartTest.AddsItems|CartTest.AddsItems|pass", "CartTest.RejectsNegative|CartTest.RejectsNegative|fail",
			"StackTest/0.Push|StackTest/0.Push|pass",
			"Values/PriceTest.Rounds/0|Values/PriceTest.Rounds/0|pass", "Values/PriceTest.Rounds/1|Values/PriceTest.Rounds/1|pass"}},
		// Not in this report: the whole file needs every test.
		{"ctest-junit.xml", "tests/order_test.cc", nil},
		// ctest names no file: the name decides.
		{"ctest-junit.xml", "tests/other_test.cc@CartTest.AddsItems", []string{"CartTest.AddsItems|CartTest.AddsItems|pass"}},

		{"catch2-junit.xml", "tests/vector_test.cpp@adds_numbers", []string{"cart_tests.global|adds numbers|pass"}},
		{"catch2-junit.xml", "tests/vector_test.cpp@vectors_can_be_sized", []string{
			"cart_tests.global|vectors can be sized/resizing bigger changes size|pass",
			"cart_tests.global|vectors can be sized/resizing smaller changes size|fail"}},
		{"catch2-junit.xml", "tests/vector_test.cpp@Fixture_totals_add_up", []string{"cart_tests.CartFixture|Fixture: totals add up|pass"}},
		{"catch2-junit.xml", "tests/vector_test.cpp@carts_can_be_emptied", []string{
			"cart_tests.global|Scenario: carts can be emptied/Given: a cart with items/When: it is emptied/Then: it has none|pass"}},
		{"catch2-junit.xml", "tests/vector_test.cpp@sums", []string{"cart_tests.global|sums - float|pass", "cart_tests.global|sums - int|pass"}},
		{"catch2-junit.xml", "tests/vector_test.cpp", []string{
			"cart_tests.CartFixture|Fixture: totals add up|pass",
			"cart_tests.global|Scenario: carts can be emptied/Given: a cart with items/When: it is emptied/Then: it has none|pass",
			"cart_tests.global|adds numbers|pass",
			"cart_tests.global|sums - float|pass", "cart_tests.global|sums - int|pass",
			"cart_tests.global|vectors can be sized/resizing bigger changes size|pass",
			"cart_tests.global|vectors can be sized/resizing smaller changes size|fail"}},
		{"catch2-junit.xml", "tests/vector_test.cpp@helper", nil},
		// A GoogleTest target does not match by its last name alone.
		{"catch2-junit.xml", "tests/cart_test.cc@CartTest.AddsItems", nil},

		{"doctest-junit.xml", "tests/math_test.cpp@adds_numbers", []string{"/home/ci/shop/tests/math_test.cpp|adds numbers|pass"}},
		{"doctest-junit.xml", "tests/other_test.cpp@adds_numbers", []string{"/home/ci/shop/tests/other_test.cpp|adds numbers|fail"}},
		{"doctest-junit.xml", "tests/math_test.cpp", []string{"/home/ci/shop/tests/math_test.cpp|adds numbers|pass", "/home/ci/shop/tests/math_test.cpp|divides|pass"}},

		{"ceedling-junit.xml", "fw/test/test_stack.c@test_push_adds_item", []string{"test/test_stack|test_push_adds_item|pass"}},
		{"ceedling-junit.xml", "fw/test/test_stack.c", []string{
			"test/test_stack|test_peek|skip", "test/test_stack|test_pop_on_empty_fails|fail", "test/test_stack|test_push_adds_item|pass"}},
		{"ceedling-junit.xml", "fw/test/test_stack.c@setUp", nil},
		{"ceedling-junit.xml", "src/bits.c@test_bit", nil},
	} {
		target, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range cfamily.MatchTests(target, readReport(t, tt.report), in) {
			got = append(got, r.Suite+"|"+r.Name+"|"+r.Outcome)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: matchTests(%s) = %q, want %q", tt.report, tt.target, got, tt.want)
		}
	}
}
