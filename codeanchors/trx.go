package codeanchors

import (
	"encoding/xml"
	"strings"
)

// trxRun is the part of a Visual Studio TRX file (dotnet test --logger trx)
// that a report needs: each test's result and, in its definition, the class
// and method it ran.
type trxRun struct {
	Results []struct {
		TestID   string `xml:"testId,attr"`
		TestName string `xml:"testName,attr"`
		Outcome  string `xml:"outcome,attr"`
	} `xml:"Results>UnitTestResult"`
	Tests []struct {
		ID     string `xml:"id,attr"`
		Name   string `xml:"name,attr"`
		Method struct {
			ClassName string `xml:"className,attr"`
			Name      string `xml:"name,attr"`
		} `xml:"TestMethod"`
	} `xml:"TestDefinitions>UnitTest"`
}

// trx reads a TRX document whose <TestRun> root element t starts at offset
// start, as JUnit results: Suite is the test method's class name (without
// an assembly qualification, "Acme.CartTests"; a nested class after '+'),
// Name is the method's name, or the result's testName when the run has no
// definition for it. Outcomes: Passed (and PassedButRunAborted) pass;
// NotExecuted, Inconclusive, Pending and NotRunnable are skipped; any other
// (Failed, Error, Timeout, Aborted, ...) fails. The cases of a theory share
// their method's name and merge, fail winning.
func (p *junitParser) trx(t xml.StartElement, start int64) error {
	var run trxRun
	if err := p.d.DecodeElement(&run, &t); err != nil {
		return p.tokenError(err)
	}
	if len(run.Results) == 0 && len(run.Tests) == 0 {
		return p.errorAt(start, "TRX file without results or test definitions")
	}
	type def struct{ class, method string }
	defs := make(map[string]def, len(run.Tests))
	for _, u := range run.Tests {
		class, _, _ := strings.Cut(u.Method.ClassName, ",")
		defs[u.ID] = def{strings.TrimSpace(class), u.Method.Name}
	}
	for _, r := range run.Results {
		d, ok := defs[r.TestID]
		name := d.method
		if !ok || name == "" {
			name = r.TestName
		}
		outcome := OutcomeFail
		switch r.Outcome {
		case "Passed", "PassedButRunAborted":
			outcome = OutcomePass
		case "NotExecuted", "Inconclusive", "Pending", "NotRunnable":
			outcome = OutcomeSkip
		}
		p.m.add(TestResult{Suite: d.class, Name: name, Outcome: outcome})
	}
	// The document must end after the root, as a JUnit one does.
	for {
		tok, err := p.d.Token()
		if err != nil {
			return nil // io.EOF: the end of the document
		}
		if se, ok := tok.(xml.StartElement); ok {
			return p.errorAt(p.d.InputOffset(), "second root element <%s>", se.Name.Local)
		}
	}
}
