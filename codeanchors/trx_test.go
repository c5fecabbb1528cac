package codeanchors

import (
	"fmt"
	"strings"
	"testing"
)

// trxSample is the shape dotnet test --logger trx writes (trimmed): an
// xUnit fact, a theory with two cases (one failed), a skipped test, a
// nested class and an MSTest class qualified with its assembly.
const trxSample = `<?xml version="1.0" encoding="utf-8"?>
<TestRun id="1" name="run" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>
    <UnitTestResult testId="a" testName="Acme.Shop.CartTests.Adds" outcome="Passed" />
    <UnitTestResult testId="b" testName="Acme.Shop.CartTests.Sizes(n: 1)" outcome="Passed" />
    <UnitTestResult testId="c" testName="Acme.Shop.CartTests.Sizes(n: 2)" outcome="Failed">
      <Output><ErrorInfo><Message>boom</Message></ErrorInfo></Output>
    </UnitTestResult>
    <UnitTestResult testId="d" testName="Acme.Shop.CartTests.Later" outcome="NotExecuted" />
    <UnitTestResult testId="e" testName="IsEmpty" outcome="Passed" />
    <UnitTestResult testId="f" testName="Runs" outcome="Timeout" />
    <UnitTestResult testId="g" testName="Orphan.Test" outcome="Passed" />
  </Results>
  <TestDefinitions>
    <UnitTest name="Adds" id="a"><TestMethod className="Acme.Shop.CartTests" name="Adds" /></UnitTest>
    <UnitTest name="Sizes(n: 1)" id="b"><TestMethod className="Acme.Shop.CartTests" name="Sizes" /></UnitTest>
    <UnitTest name="Sizes(n: 2)" id="c"><TestMethod className="Acme.Shop.CartTests" name="Sizes" /></UnitTest>
    <UnitTest name="Later" id="d"><TestMethod className="Acme.Shop.CartTests" name="Later" /></UnitTest>
    <UnitTest name="IsEmpty" id="e"><TestMethod className="Acme.Shop.CartTests+WhenEmpty" name="IsEmpty" /></UnitTest>
    <UnitTest name="Runs" id="f"><TestMethod className="Acme.Ms.Checks, Acme.Ms, Version=1.0.0.0" name="Runs" /></UnitTest>
  </TestDefinitions>
</TestRun>
`

func TestParseTRX(t *testing.T) {
	got, err := ParseReport("run.trx", []byte(trxSample))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range got {
		lines = append(lines, fmt.Sprintf("%s %s %s", r.Suite, r.Name, r.Outcome))
	}
	want := []string{
		" Orphan.Test pass",
		"Acme.Ms.Checks Runs fail",
		"Acme.Shop.CartTests Adds pass",
		"Acme.Shop.CartTests Later skip",
		"Acme.Shop.CartTests Sizes fail",
		"Acme.Shop.CartTests+WhenEmpty IsEmpty pass",
	}
	if g := strings.Join(lines, "\n"); g != strings.Join(want, "\n") {
		t.Errorf("ParseReport(TRX) =\n%s\nwant\n%s", g, strings.Join(want, "\n"))
	}
	for _, bad := range []struct{ src, want string }{
		{"<TestRun>\n<Results>\n</TestRun>", "run.trx:3: invalid JUnit XML"},
		{"<TestRun></TestRun>", "run.trx:1: TRX file without results or test definitions"},
		{"<TestRun><Results><UnitTestResult testId=\"a\" outcome=\"Passed\"/></Results></TestRun>\n<TestRun/>", "run.trx:2: second root element <TestRun>"},
	} {
		if _, err := ParseReport("run.trx", []byte(bad.src)); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("ParseReport(%q) = %v, want %s...", bad.src, err, bad.want)
		}
	}
}
