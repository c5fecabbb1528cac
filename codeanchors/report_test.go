package codeanchors

import (
	"cmp"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// expectReport checks that ParseReport(name, input) returns want.
func expectReport(t *testing.T, name, input string, want []TestResult) {
	t.Helper()
	got, err := ParseReport(name, []byte(input))
	if err != nil {
		t.Errorf("ParseReport(%q, %q) error: %v", name, input, err)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseReport(%q, %q) = %v, want %v", name, input, got, want)
	}
}

// expectReportError checks that ParseReport(name, input) fails with want.
func expectReportError(t *testing.T, name, input, want string) {
	t.Helper()
	got, err := ParseReport(name, []byte(input))
	if err == nil || err.Error() != want {
		t.Errorf("ParseReport(%q, %q) = %v, %v, want error %q", name, input, got, err, want)
	}
}

// jsonLines joins go test -json events, one per line.
func jsonLines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestParseReportFiles(t *testing.T) {
	const (
		auth = "github.com/acme/shop/auth"
		cart = "github.com/acme/shop/cart"
		pay  = "github.com/acme/shop/payments"
	)
	tests := []struct {
		file string
		want []TestResult
	}{
		{"go-test.json", []TestResult{
			{Suite: auth, Name: "TestLockout", Outcome: OutcomeFail},
			{Suite: auth, Name: "TestLogin", Outcome: OutcomePass},
			{Suite: auth, Name: "TestSSO", Outcome: OutcomeSkip},
			{Suite: pay, Name: "TestCharge", Outcome: OutcomeFail}, // timed out
			{Suite: pay, Name: "TestRefund", Outcome: OutcomePass},
		}},
		{"go-test-count2.json", []TestResult{
			{Suite: auth, Name: "TestLogin", Outcome: OutcomePass},
			{Suite: auth, Name: "TestSessionExpiry", Outcome: OutcomeFail}, // passed once, failed once
		}},
		{"go-junit-report.xml", []TestResult{
			{Suite: auth, Name: "TestLockout", Outcome: OutcomeFail},
			{Suite: auth, Name: "TestLogin", Outcome: OutcomePass},
			{Suite: auth, Name: "TestLogin/bad_password", Outcome: OutcomePass},
			{Suite: auth, Name: "TestSSO", Outcome: OutcomeSkip},
			{Suite: cart, Name: "[build failed]", Outcome: OutcomeFail},
		}},
		{"pytest-xunit1.xml", []TestResult{
			{Suite: "tests.test_auth", Name: "test_lockout[3]", File: "tests/test_auth.py", Outcome: OutcomePass},
			{Suite: "tests.test_auth", Name: "test_lockout[5]", File: "tests/test_auth.py", Outcome: OutcomeSkip}, // xfail
			{Suite: "tests.test_auth.TestLogin", Name: "test_bad_password", File: "tests/test_auth.py", Outcome: OutcomeFail},
			{Suite: "tests.test_auth.TestLogin", Name: "test_ok", File: "tests/test_auth.py", Outcome: OutcomePass},
			{Suite: "tests.test_auth.TestLogin", Name: "test_sso", File: "tests/test_auth.py", Outcome: OutcomeSkip},
			{Suite: "tests.test_cart", Name: "test_total", File: "tests/test_cart.py", Outcome: OutcomeFail}, // <error>
		}},
		{"pytest-xunit2.xml", []TestResult{
			{Suite: "tests.test_auth.TestLogin", Name: "test_bad_password", Outcome: OutcomeFail},
			{Suite: "tests.test_auth.TestLogin", Name: "test_ok", Outcome: OutcomePass},
			{Suite: "tests.test_cart", Name: "test_total", Outcome: OutcomePass},
		}},
		{"jest-junit.xml", []TestResult{
			{Suite: "cart applies a coupon > 100% as zero", Name: "cart applies a coupon > 100% as zero", File: "src/cart.test.js", Outcome: OutcomePass},
			{Suite: "cart totals line items", Name: "cart totals line items", File: "src/cart.test.js", Outcome: OutcomePass},
			{Suite: "login accepts a valid password", Name: "login accepts a valid password", File: "src/auth.test.js", Outcome: OutcomePass},
			{Suite: "login locks the account after five tries", Name: "login locks the account after five tries", File: "src/auth.test.js", Outcome: OutcomeFail},
			{Suite: "login signs in with SSO", Name: "login signs in with SSO", File: "src/auth.test.js", Outcome: OutcomeSkip},
		}},
		{"vitest.xml", []TestResult{
			{Suite: "src/auth.test.ts", Name: "login > accepts a valid password", Outcome: OutcomePass},
			{Suite: "src/auth.test.ts", Name: "login > locks the account after five tries", Outcome: OutcomeFail},
			{Suite: "src/auth.test.ts", Name: "login > signs in with SSO", Outcome: OutcomeSkip},
			{Suite: "src/cart.test.ts", Name: "cart > totals line items", Outcome: OutcomePass},
		}},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(filepath.Join("testdata", "reports", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		expectReport(t, tt.file, string(data), tt.want)
	}
}

func TestParseReportGoJSON(t *testing.T) {
	tests := []struct {
		desc  string
		input string
		want  []TestResult
	}{
		{"pass fail skip, sorted", jsonLines(
			`{"Action":"run","Package":"p","Test":"TestB"}`,
			`{"Action":"pass","Package":"p","Test":"TestB","Elapsed":0}`,
			`{"Action":"run","Package":"p","Test":"TestA"}`,
			`{"Action":"fail","Package":"p","Test":"TestA","Elapsed":0}`,
			`{"Action":"run","Package":"a","Test":"TestC"}`,
			`{"Action":"skip","Package":"a","Test":"TestC","Elapsed":0}`,
		), []TestResult{
			{Suite: "a", Name: "TestC", Outcome: OutcomeSkip},
			{Suite: "p", Name: "TestA", Outcome: OutcomeFail},
			{Suite: "p", Name: "TestB", Outcome: OutcomePass},
		}},
		{"merge: fail wins over pass, pass over skip", jsonLines(
			`{"Action":"pass","Package":"p","Test":"TestA"}`,
			`{"Action":"fail","Package":"p","Test":"TestA"}`,
			`{"Action":"pass","Package":"p","Test":"TestA"}`,
			`{"Action":"skip","Package":"p","Test":"TestB"}`,
			`{"Action":"pass","Package":"p","Test":"TestB"}`,
			`{"Action":"skip","Package":"p","Test":"TestB"}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomeFail},
			{Suite: "p", Name: "TestB", Outcome: OutcomePass},
		}},
		{"same test name in two packages", jsonLines(
			`{"Action":"pass","Package":"p","Test":"TestA"}`,
			`{"Action":"fail","Package":"q","Test":"TestA"}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomePass},
			{Suite: "q", Name: "TestA", Outcome: OutcomeFail},
		}},
		{"panicked package: run without final action fails", jsonLines(
			`{"Action":"run","Package":"p","Test":"TestOK"}`,
			`{"Action":"pass","Package":"p","Test":"TestOK"}`,
			`{"Action":"run","Package":"p","Test":"TestBoom"}`,
			`{"Action":"output","Package":"p","Test":"TestBoom","Output":"panic: boom\n"}`,
			`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.003s\n"}`,
			`{"Action":"fail","Package":"p","Elapsed":0.003}`,
		), []TestResult{
			{Suite: "p", Name: "TestBoom", Outcome: OutcomeFail},
			{Suite: "p", Name: "TestOK", Outcome: OutcomePass},
		}},
		{"-count=2: second run never finished", jsonLines(
			`{"Action":"run","Package":"p","Test":"TestA"}`,
			`{"Action":"pass","Package":"p","Test":"TestA"}`,
			`{"Action":"run","Package":"p","Test":"TestA"}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomeFail},
		}},
		{"subtests ignored", jsonLines(
			`{"Action":"run","Package":"p","Test":"TestA"}`,
			`{"Action":"run","Package":"p","Test":"TestA/one"}`,
			`{"Action":"fail","Package":"p","Test":"TestA/one"}`,
			`{"Action":"run","Package":"p","Test":"TestA/two"}`,
			`{"Action":"fail","Package":"p","Test":"TestA"}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomeFail},
		}},
		{"skipped tests", jsonLines(
			`{"Action":"run","Package":"p","Test":"TestA"}`,
			`{"Action":"output","Package":"p","Test":"TestA","Output":"--- SKIP: TestA (0.00s)\n"}`,
			`{"Action":"skip","Package":"p","Test":"TestA"}`,
			`{"Action":"skip","Package":"q","Elapsed":0}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomeSkip},
		}},
		{"non-JSON lines skipped, CRLF, BOM", "\uFEFF# p\r\n./x.go:3:1: syntax error\r\n\r\n" + jsonLines(
			`  {"Action":"pass","Package":"p","Test":"TestA"}`+"\r",
			`FAIL	q [build failed]`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomePass},
		}},
		{"only package events", jsonLines(
			`{"Action":"start","Package":"p"}`,
			`{"Action":"output","Package":"p","Output":"FAIL\tp [build failed]\n"}`,
			`{"Action":"fail","Package":"p","Elapsed":0,"FailedBuild":"p"}`,
		), nil},
		{"bench and unknown actions ignored", jsonLines(
			`{"Action":"bench","Package":"p","Test":"BenchmarkA"}`,
			`{"Action":"pause","Package":"p","Test":"TestA"}`,
			`{"Action":"cont","Package":"p","Test":"TestA"}`,
			`{"Action":"pass","Package":"p","Test":"TestA"}`,
		), []TestResult{
			{Suite: "p", Name: "TestA", Outcome: OutcomePass},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			expectReport(t, "r.json", tt.input, tt.want)
		})
	}
}

func TestParseReportJUnit(t *testing.T) {
	tests := []struct {
		desc  string
		input string
		want  []TestResult
	}{
		{"testsuite root, classname falls back to suite name",
			`<testsuite name="s"><testcase name="a"/><testcase name="b" classname="c"/></testsuite>`,
			[]TestResult{
				{Suite: "c", Name: "b", Outcome: OutcomePass},
				{Suite: "s", Name: "a", Outcome: OutcomePass},
			}},
		{"nested testsuites and testsuite",
			`<testsuites name="all"><testsuites><testsuite name="outer"><testsuite name="inner"><testcase name="a"/></testsuite><testcase name="b"/></testsuite></testsuites><testcase name="c"/></testsuites>`,
			[]TestResult{
				{Name: "c", Outcome: OutcomePass},
				{Suite: "inner", Name: "a", Outcome: OutcomePass},
				{Suite: "outer", Name: "b", Outcome: OutcomePass},
			}},
		{"failure, error, skipped; fail beats skipped in one testcase", `<?xml version="1.0"?>
<!DOCTYPE testsuites>
<!-- generated -->
<testsuites>
  <testsuite name="s">
    <testcase name="f"><failure message="x">boom</failure></testcase>
    <testcase name="e"><error/></testcase>
    <testcase name="s"><skipped/></testcase>
    <testcase name="fs"><skipped/><failure/></testcase>
    <testcase name="sf"><failure/><skipped/></testcase>
    <testcase name="p"><system-out>ok</system-out><properties><property name="k" value="v"/></properties></testcase>
    <testcase name="flaky"><flakyFailure message="x"><stackTrace>t</stackTrace></flakyFailure></testcase>
  </testsuite>
</testsuites>
`,
			[]TestResult{
				{Suite: "s", Name: "e", Outcome: OutcomeFail},
				{Suite: "s", Name: "f", Outcome: OutcomeFail},
				{Suite: "s", Name: "flaky", Outcome: OutcomePass},
				{Suite: "s", Name: "fs", Outcome: OutcomeFail},
				{Suite: "s", Name: "p", Outcome: OutcomePass},
				{Suite: "s", Name: "s", Outcome: OutcomeSkip},
				{Suite: "s", Name: "sf", Outcome: OutcomeFail},
			}},
		{"re-runs merged by suite, name and file",
			`<testsuites>
<testsuite name="run1"><testcase classname="c" name="a" file="x.py"><failure/></testcase><testcase classname="c" name="b"><skipped/></testcase></testsuite>
<testsuite name="run2"><testcase classname="c" name="a" file="x.py"/><testcase classname="c" name="b"/><testcase classname="c" name="a" file="y.py"/></testsuite>
</testsuites>`,
			[]TestResult{
				{Suite: "c", Name: "a", File: "x.py", Outcome: OutcomeFail},
				{Suite: "c", Name: "a", File: "y.py", Outcome: OutcomePass},
				{Suite: "c", Name: "b", Outcome: OutcomePass},
			}},
		{"namespaced elements, BOM, leading space",
			"\uFEFF \n<j:testsuite xmlns:j=\"urn:j\" name=\"s\"><j:testcase name=\"a\"><j:skipped/></j:testcase></j:testsuite>",
			[]TestResult{
				{Suite: "s", Name: "a", Outcome: OutcomeSkip},
			}},
		{"empty suites", `<testsuites tests="0"></testsuites>`, nil},
		{"a status that says the test did not run (GoogleTest, ctest)",
			`<testsuite name="s"><testcase name="d" status="notrun" result="suppressed"/><testcase name="c" status="disabled"><properties/></testcase><testcase name="r" status="run"/><testcase name="f" status="notrun"><failure/></testcase></testsuite>`,
			[]TestResult{
				{Suite: "s", Name: "c", Outcome: OutcomeSkip},
				{Suite: "s", Name: "d", Outcome: OutcomeSkip},
				{Suite: "s", Name: "f", Outcome: OutcomeFail},
				{Suite: "s", Name: "r", Outcome: OutcomePass},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			expectReport(t, "r.xml", tt.input, tt.want)
		})
	}
}

func TestParseReportErrors(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"", "r: empty report"},
		{" \n\t", "r: empty report"},
		{"hello\nworld\n", "r: not JUnit XML and no go test -json event found"},
		{"# p\n{}\n", "r: not JUnit XML and no go test -json event found"},
		{"{\"Action\":\"pass\",\"Test\":\"A\"}\n{\"Action\":\"pass\",\n", "r:2: invalid go test -json event: unexpected end of JSON input"},
		{"# p\n\n{\"Action\":5}\n", "r:3: invalid go test -json event: json: cannot unmarshal number into Go struct field goTestEvent.Action of type string"},
		{"{\"Action\":\"pass\"}x\n", "r:1: invalid go test -json event: invalid character 'x' after top-level value"},
		{"<testsuites>\n<testsuite>\n</testsuites>\n", "r:3: invalid JUnit XML: element <testsuite> closed by </testsuites>"},
		{"<testsuites>\n<testsuite name=\"s\">\n<testcase name=\"a\">\n", "r:4: invalid JUnit XML: unexpected EOF"},
		{"<testsuites>\n<testcase name=\"a\"><failure>\n", "r:3: invalid JUnit XML: unexpected EOF"},
		{"<testsuites>\n<testcase name=\"a\">&nbsp;</testcase></testsuites>", "r:2: invalid JUnit XML: invalid character entity &nbsp;"},
		{"<testsuites>\n\n<testcase classname=\"c\"/></testsuites>", "r:3: <testcase> without a name attribute"},
		{"<?xml version=\"1.0\"?>\n<html><body/></html>", "r:2: root element is <html>, want <testsuites> or <testsuite>"},
		{"<testsuite/>\n<testsuite/>", "r:2: second root element <testsuite>"},
		{"<?xml version=\"1.0\"?>\n<!-- nothing -->\n", "r:3: no <testsuites> or <testsuite> element"},
		{"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite/>", "r:1: invalid JUnit XML: xml: encoding \"ISO-8859-1\" declared but Decoder.CharsetReader is nil"},
		{"<", "r:1: invalid JUnit XML: unexpected EOF"},
	}
	for _, tt := range tests {
		expectReportError(t, "r", tt.input, tt.want)
	}
}

func TestParseReportSizeLimit(t *testing.T) {
	input := []byte(`{"Action":"pass","Package":"p","Test":"TestA"}`)
	want := "r: report is 46 bytes, over the 45-byte limit"
	if _, err := parseReport("r", input, len(input)-1); err == nil || err.Error() != want {
		t.Errorf("parseReport(%q, limit %d) error = %v, want %q", input, len(input)-1, err, want)
	}
	if _, err := parseReport("r", input, len(input)); err != nil {
		t.Errorf("parseReport(%q, limit %d) error = %v, want nil", input, len(input), err)
	}
}

func FuzzParseReport(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "reports", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("<testsuite name=\"s\"><testcase name=\"a\"><skipped/></testcase></testsuite>"))
	f.Add([]byte(jsonLines(`{"Action":"run","Package":"p","Test":"TestA"}`, `not json`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		results, err := ParseReport("fuzz", data)
		if err != nil {
			if results != nil {
				t.Errorf("ParseReport returned results %v with error %v", results, err)
			}
			return
		}
		for i, r := range results {
			if r.Name == "" {
				t.Errorf("result %d has an empty Name: %+v", i, r)
			}
			if outcomeRank(r.Outcome) == 0 {
				t.Errorf("result %d has outcome %q: %+v", i, r.Outcome, r)
			}
			if i > 0 {
				p := results[i-1]
				if c := cmp.Or(cmp.Compare(p.Suite, r.Suite), cmp.Compare(p.Name, r.Name), cmp.Compare(p.File, r.File)); c >= 0 {
					t.Errorf("results %d and %d not sorted and merged: %+v, %+v", i-1, i, p, r)
				}
			}
		}
	})
}
