package codeanchors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MaxReportSize is the largest report [ParseReport] accepts, in bytes
// (256 MiB). Larger inputs are rejected before parsing, so a runaway log
// cannot exhaust memory; callers reading from disk may stop at
// MaxReportSize+1 bytes.
const MaxReportSize = 256 << 20

// ParseReport reads a test report: JUnit XML (a <testsuites> or <testsuite>
// root), a .NET TRX file (a <TestRun> root, see [junitParser.trx]) or `go test -json` output (one JSON event per line), detected from
// the content: XML when the first non-space byte is '<', go test -json
// otherwise. name is used in error messages only.
//
// Results are returned sorted by Suite, Name, File. A test that appears
// several times (go test -count=2, re-runs) is merged into one result: fail
// wins over pass, pass over skip.
//
// Errors about a position read "name:line: message".
func ParseReport(name string, data []byte) ([]TestResult, error) {
	return parseReport(name, data, MaxReportSize)
}

// parseReport is [ParseReport] with the size limit as a parameter, so tests
// can check the limit without allocating 256 MiB.
func parseReport(name string, data []byte, limit int) ([]TestResult, error) {
	if len(data) > limit {
		return nil, fmt.Errorf("%s: report is %d bytes, over the %d-byte limit", name, len(data), limit)
	}
	// A UTF-8 byte order mark holds no newline, so line numbers are unchanged.
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("%s: empty report", name)
	}
	var m merger
	var err error
	if trimmed[0] == '<' {
		err = parseJUnit(name, data, &m)
	} else {
		// go test -json output may begin with lines that are not JSON, such
		// as "# pkg" headers and build errors when stderr was merged in.
		err = parseGoJSON(name, data, &m)
	}
	if err != nil {
		return nil, err
	}
	return m.sorted(), nil
}

// outcomeRank orders outcomes for merging: the higher rank wins.
func outcomeRank(outcome string) int {
	switch outcome {
	case OutcomeFail:
		return 3
	case OutcomePass:
		return 2
	case OutcomeSkip:
		return 1
	}
	return 0
}

// merger collects results, merging repeats of the same Suite, Name and File.
type merger struct {
	results []TestResult
	index   map[TestResult]int // key has an empty Outcome
}

func (m *merger) add(r TestResult) {
	key := r
	key.Outcome = ""
	if i, ok := m.index[key]; ok {
		if outcomeRank(r.Outcome) > outcomeRank(m.results[i].Outcome) {
			m.results[i].Outcome = r.Outcome
		}
		return
	}
	if m.index == nil {
		m.index = make(map[TestResult]int)
	}
	m.index[key] = len(m.results)
	m.results = append(m.results, r)
}

// sorted returns the results by Suite, Name, File; after merging that key is
// unique, so the order is total.
func (m *merger) sorted() []TestResult {
	slices.SortFunc(m.results, func(a, b TestResult) int {
		return cmp.Or(
			cmp.Compare(a.Suite, b.Suite),
			cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.File, b.File),
		)
	})
	return m.results
}

// goTestEvent is the part of a test2json event that ParseReport needs;
// Time, Elapsed and Output are ignored.
type goTestEvent struct {
	Action  string
	Package string
	Test    string
}

// parseGoJSON reads `go test -json` output. Lines that do not start with '{'
// are skipped; a line that does must be a valid JSON object.
func parseGoJSON(name string, data []byte, m *merger) error {
	type key struct{ pkg, test string }
	// running holds tests whose latest "run" has no final action yet, in
	// the order first seen, so a panic or timeout becomes a fail.
	running := make(map[key]bool)
	var order []key
	events := 0
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var ev goTestEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			return fmt.Errorf("%s:%d: invalid go test -json event: %v", name, i+1, err)
		}
		if ev.Action == "" {
			continue
		}
		events++
		// A subtest's outcome is already part of its parent's.
		if ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		k := key{ev.Package, ev.Test}
		switch ev.Action {
		case "run":
			if _, seen := running[k]; !seen {
				order = append(order, k)
			}
			running[k] = true
		case "pass", "fail", "skip":
			if _, seen := running[k]; !seen {
				order = append(order, k)
			}
			running[k] = false
			m.add(TestResult{Suite: ev.Package, Name: ev.Test, Outcome: ev.Action})
		}
	}
	if events == 0 {
		return fmt.Errorf("%s: not JUnit XML and no go test -json event found", name)
	}
	for _, k := range order {
		if running[k] {
			m.add(TestResult{Suite: k.pkg, Name: k.test, Outcome: OutcomeFail})
		}
	}
	return nil
}

// junitParser walks a JUnit XML document token by token.
type junitParser struct {
	name string
	data []byte
	d    *xml.Decoder
	m    *merger
}

// errorAt returns an error at byte offset off of the input.
func (p *junitParser) errorAt(off int64, format string, args ...any) error {
	off = min(max(off, 0), int64(len(p.data)))
	line := 1 + bytes.Count(p.data[:off], []byte("\n"))
	return fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))
}

// tokenError turns an error from the decoder into a positioned error.
func (p *junitParser) tokenError(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	msg := err.Error()
	if se, ok := errors.AsType[*xml.SyntaxError](err); ok {
		msg = se.Msg
	}
	return p.errorAt(p.d.InputOffset(), "invalid JUnit XML: %s", msg)
}

// parseJUnit reads a JUnit XML report: a <testsuites> or <testsuite> root,
// suites nested to any depth, and <testcase> elements inside them.
func parseJUnit(name string, data []byte, m *merger) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	p := &junitParser{name: name, data: data, d: d, m: m}
	// suites holds the name of the nearest enclosing <testsuite> for each
	// open suite element; a <testsuites> inherits its parent's.
	var suites []string
	sawRoot := false
	for {
		start := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			if !sawRoot {
				return p.errorAt(start, "no <testsuites> or <testsuite> element")
			}
			return nil
		}
		if err != nil {
			return p.tokenError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(suites) == 0 {
				if sawRoot {
					return p.errorAt(start, "second root element <%s>", t.Name.Local)
				}
				if t.Name.Local == "TestRun" {
					return p.trx(t, start)
				}
				if t.Name.Local != "testsuites" && t.Name.Local != "testsuite" {
					return p.errorAt(start, "root element is <%s>, want <testsuites> or <testsuite>", t.Name.Local)
				}
				sawRoot = true
			}
			switch t.Name.Local {
			case "testsuites":
				suites = append(suites, lastSuite(suites, ""))
			case "testsuite":
				suites = append(suites, xmlAttr(t, "name"))
			case "testcase":
				if err := p.testcase(t, start, lastSuite(suites, "")); err != nil {
					return err
				}
			default:
				// <properties>, <system-out> and the like.
				if err := d.Skip(); err != nil {
					return p.tokenError(err)
				}
			}
		case xml.EndElement:
			// The decoder checks that end tags match, so this closes a suite.
			suites = suites[:len(suites)-1]
		}
	}
}

// testcase reads the children of a <testcase> start element at offset start
// and records its result.
func (p *junitParser) testcase(t xml.StartElement, start int64, suite string) error {
	r := TestResult{
		Suite:   cmp.Or(xmlAttr(t, "classname"), suite),
		Name:    xmlAttr(t, "name"),
		File:    xmlAttr(t, "file"),
		Outcome: OutcomePass,
	}
	if r.Name == "" {
		return p.errorAt(start, "<testcase> without a name attribute")
	}
	// A test that did not run may say so only by its status: GoogleTest's
	// DISABLED_ tests (status="notrun"), ctest's disabled tests.
	if s := xmlAttr(t, "status"); s == "notrun" || s == "disabled" {
		r.Outcome = OutcomeSkip
	}
	for {
		tok, err := p.d.Token()
		if err != nil {
			return p.tokenError(err)
		}
		switch c := tok.(type) {
		case xml.StartElement:
			// Other children (<system-out>, surefire's <flakyFailure> and
			// <rerunFailure>) leave the outcome alone: a flaky test passed.
			switch c.Name.Local {
			case "failure", "error":
				r.Outcome = OutcomeFail
			case "skipped":
				if r.Outcome != OutcomeFail {
					r.Outcome = OutcomeSkip
				}
			}
			if err := p.d.Skip(); err != nil {
				return p.tokenError(err)
			}
		case xml.EndElement:
			p.m.add(r)
			return nil
		}
	}
}

// xmlAttr returns the value of the attribute with local name local, or "".
func xmlAttr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// lastSuite returns the last element of s, or def when s is empty.
func lastSuite(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[len(s)-1]
}
