package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// sarifFixture is testdata/sarif/drift.txtar judged: the model, the files
// as they are now, and the check report.
type sarifFixture struct {
	model    *claims.Model
	now      map[string]string // root-relative path → text, content and code
	findings *Findings
	check    *CheckReport // the check view of findings
}

// loadSarifFixture captures every target of the fixture's wiki in before/
// (except shop/order.go@Order, left uncaptured), records evidence for REQ-1
// against an older revision and for a requirement that no longer exists,
// and judges the links against after/. shift lines are prepended to every
// Go file of after/, to move all the code down.
func loadSarifFixture(t *testing.T, shift int) sarifFixture {
	t.Helper()
	a, err := txtar.ParseFile("testdata/sarif/drift.txtar")
	if err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	fx := sarifFixture{now: map[string]string{}}
	var content []claims.File
	for _, f := range a.Files {
		switch name := f.Name; {
		case strings.HasPrefix(name, "content/"):
			content = append(content, claims.File{Name: name, Data: f.Data})
			fx.now[name] = string(f.Data)
		case strings.HasPrefix(name, "before/"):
			before[strings.TrimPrefix(name, "before/")] = f.Data
		case strings.HasPrefix(name, "after/"):
			text := string(f.Data)
			if strings.HasSuffix(name, ".go") && shift > 0 {
				pkg, rest, _ := strings.Cut(text, "\n")
				text = pkg + "\n" + strings.Repeat("\n", shift) + rest
			}
			fx.now[strings.TrimPrefix(name, "after/")] = text
		}
	}
	m, diags := claims.Parse("content", content)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	fx.model = m
	lock := codeanchors.NewLock()
	sources := map[string]*codeanchors.Source{}
	for _, r := range codeanchors.Targets(m) {
		p := r.Target.Path
		switch text, ok := fx.now[p]; {
		case strings.HasPrefix(p, "../"):
			sources[p] = &codeanchors.Source{Path: p, Absent: codeanchors.PathOutsideWorkspace}
		case ok:
			sources[p] = codeanchors.NewSource(codeanchors.Default, p, []byte(text))
		}
		data, ok := before[p]
		if !ok || r.Target.String() == "shop/order.go@Order" {
			continue
		}
		s := codeanchors.NewSource(codeanchors.Default, p, data)
		an, err := codeanchors.Capture(r.Target, codeanchors.Resolve(r.Target, nil, s), s, "2026-01-01T00:00:00Z", "test")
		if err != nil {
			t.Fatal(err)
		}
		lock.Anchors[r.Target.String()] = an
	}
	tests := []codeanchors.EvidenceTest{{Name: "shop.TestValidate", Outcome: codeanchors.OutcomePass, Target: "shop/order_test.go@TestValidate"}}
	lock.Evidence = []codeanchors.Evidence{
		{Req: "REQ-1", Revision: "sha256:before", Run: "run_1", Tests: tests},
		{Req: "REQ-9", Revision: "sha256:gone", Run: "run_1", Tests: tests},
	}
	fx.findings = NewFindings(codeanchors.Check(m, lock, sources), m, "en", "tracewiki.lock")
	fx.check = NewCheckReport(fx.findings)
	return fx
}

// sarifLog is the part of a SARIF log the tests read back.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct{ ID string } `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string `json:"ruleId"`
			RuleIndex           int    `json:"ruleIndex"`
			Level               string `json:"level"`
			Message             struct{ Text string }
			Locations           []sarifLoc        `json:"locations"`
			RelatedLocations    []sarifLoc        `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLoc struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine int `json:"startLine"`
			EndLine   int `json:"endLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func (l sarifLoc) lines() (path string, start, end int) {
	p := l.PhysicalLocation
	end = max(p.Region.EndLine, p.Region.StartLine)
	return p.ArtifactLocation.URI, p.Region.StartLine, end
}

// encodeSARIF builds, encodes, schema-checks and decodes the SARIF of fx.
func encodeSARIF(t *testing.T, fx sarifFixture) ([]byte, sarifLog) {
	t.Helper()
	data, err := MarshalJSON(NewSARIF(fx.findings))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchemaOf(t).Validate(doc); err != nil {
		t.Fatalf("the SARIF log does not match the SARIF 2.1.0 schema:\n%v\n%s", err, data)
	}
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	return data, log
}

// sarifSchemaOf compiles the official SARIF 2.1.0 schema committed in
// testdata (see testdata/sarif/README.md), with formats asserted.
func sarifSchemaOf(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile("testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSARIF checks the SARIF of a workspace where every drift reason occurs:
// it matches the SARIF 2.1.0 schema, has one rule per reason and one result
// per stale or unknown link (none for linked, moved or reformatted ones), in
// ref order, and every line it names is the right one in the fixture files.
func TestSARIF(t *testing.T) {
	fx := loadSarifFixture(t, 0)
	_, log := encodeSARIF(t, fx)
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	for i, r := range codeanchors.Reasons {
		if i >= len(ids) || ids[i] != string(r) {
			t.Fatalf("rules = %q, want one per reason in SPEC order", ids)
		}
	}

	want := []struct{ ref, rule, level, at string }{
		{"../outside/secret.go@Secret", "path_outside_workspace", "warning", "content/guide.md"},
		{"run:run_1", "requirement_changed_since_verification", "warning", "content/requirements/REQ-1.md"},
		{"run:run_1", "target_missing", "note", "tracewiki.lock"},
		{"shop/order.go@Order", "uncaptured", "note", "shop/order.go"},
		{"shop/order_test.go@TestValidate", "content_changed", "warning", "shop/order_test.go"},
		{"shop/price.go@Discount", "symbol_not_found", "warning", "content/guide.md"},
		{"shop/price.go@Price", "content_changed", "warning", "shop/price.go"},
		{"shop/setup.go@init", "ambiguous", "note", "content/guide.md"},
		{"shop/tax.go", "target_missing", "note", "content/guide.md"},
	}
	if len(run.Results) != len(want) {
		for _, r := range run.Results {
			t.Log(r.Message.Text)
		}
		t.Fatalf("%d results, want %d", len(run.Results), len(want))
	}
	seen := map[string]bool{}
	for i, r := range run.Results {
		w := want[i]
		msg := r.Message.Text
		if !strings.HasPrefix(msg, w.ref+" is ") || r.RuleID != w.rule || r.Level != w.level {
			t.Errorf("result %d = %s %s %q, want %s %s for %s", i, r.RuleID, r.Level, msg, w.rule, w.level, w.ref)
			continue
		}
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("%s: ruleIndex %d is not rule %s", w.ref, r.RuleIndex, r.RuleID)
		}
		if why := codeanchors.Reason(w.rule).Why("en"); !strings.Contains(msg, why) {
			t.Errorf("%s: message %q lacks the why %q", w.ref, msg, why)
		}
		if len(r.Locations) != 1 {
			t.Fatalf("%s: %d locations, want 1", w.ref, len(r.Locations))
		}
		loc := r.Locations[0]
		if uri := loc.PhysicalLocation.ArtifactLocation.URI; uri != w.at || loc.PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("%s: located in %s (base %q), want %s under %%SRCROOT%%", w.ref, uri, loc.PhysicalLocation.ArtifactLocation.URIBaseID, w.at)
		}
		fp := r.PartialFingerprints["tracewikiLink/v1"]
		if fp == "" || seen[fp] {
			t.Errorf("%s: fingerprint %q missing or not unique", w.ref, fp)
		}
		seen[fp] = true

		switch {
		case strings.HasPrefix(w.ref, "run:"):
			checkEvidenceLines(t, fx, w.ref, msg, loc)
		case !strings.HasPrefix(w.at, "content/"):
			checkCodeLines(t, fx, w.ref, loc)
		default:
			// Located where the link is written: the first related location.
			if len(r.RelatedLocations) == 0 || loc.PhysicalLocation != r.RelatedLocations[0].PhysicalLocation {
				t.Errorf("%s: located at %v, not at the first place it is written", w.ref, loc)
			}
		}
		if !strings.HasPrefix(w.ref, "run:") {
			checkWrittenLines(t, fx, w.ref, msg, r.RelatedLocations)
		}
	}
}

// checkCodeLines checks that a result located in code spans the current
// declaration line of the symbol its ref names.
func checkCodeLines(t *testing.T, fx sarifFixture, ref string, loc sarifLoc) {
	t.Helper()
	path, start, end := loc.lines()
	p, sym, _ := strings.Cut(ref, "@")
	if path != p {
		t.Errorf("%s: located in %s, want the target's file", ref, path)
	}
	decl := regexp.MustCompile(`^(func |type )` + regexp.QuoteMeta(sym) + `\b`)
	if recv, name, ok := strings.Cut(sym, "."); ok {
		decl = regexp.MustCompile(`^func \(\w+ \*?` + regexp.QuoteMeta(recv) + `\) ` + regexp.QuoteMeta(name) + `\(`)
	}
	var decls []int
	for i, line := range strings.Split(fx.now[p], "\n") {
		if decl.MatchString(line) {
			decls = append(decls, i+1)
		}
	}
	if len(decls) != 1 {
		t.Fatalf("%s: %d declarations of %s in the fixture, want 1", ref, len(decls), sym)
	}
	if decls[0] < start || decls[0] > end {
		t.Errorf("%s: region %d-%d does not hold its declaration, line %d of %s", ref, start, end, decls[0], p)
	}
}

// checkWrittenLines checks that every related location is a line of the
// content that writes the link, and that the message names its writers.
func checkWrittenLines(t *testing.T, fx sarifFixture, ref, msg string, related []sarifLoc) {
	t.Helper()
	var want []int
	for _, r := range codeanchors.Targets(fx.model) {
		if r.Target.String() == ref {
			for _, u := range r.Uses {
				want = append(want, u.Pos.Line)
				if !strings.Contains(msg, u.Node.String()) {
					t.Errorf("%s: message %q does not name %s", ref, msg, u.Node)
				}
			}
		}
	}
	if len(related) != len(want) || len(want) == 0 {
		t.Fatalf("%s: %d related locations, want %d", ref, len(related), len(want))
	}
	for _, l := range related {
		path, start, _ := l.lines()
		lines := strings.Split(fx.now[path], "\n")
		if start < 1 || start > len(lines) || !strings.Contains(lines[start-1], ref) {
			t.Errorf("%s: related location %s:%d does not write the link", ref, path, start)
		}
	}
}

// checkEvidenceLines checks that expired evidence spans its requirement's
// whole file and that evidence for a deleted requirement points at the lock.
func checkEvidenceLines(t *testing.T, fx sarifFixture, ref, msg string, loc sarifLoc) {
	t.Helper()
	path, start, end := loc.lines()
	if path == "tracewiki.lock" {
		if !strings.Contains(msg, "requirement:REQ-9") || start != 1 {
			t.Errorf("%s: %q at %s:%d, want REQ-9's evidence at the lock's first line", ref, msg, path, start)
		}
		return
	}
	n := strings.Count(strings.TrimSuffix(fx.now[path], "\n"), "\n") + 1
	if !strings.Contains(msg, "requirement:REQ-1") || start != 1 || end != n {
		t.Errorf("%s: %q at %s:%d-%d, want REQ-1's file, lines 1-%d", ref, msg, path, start, end, n)
	}
}

// TestSARIFSchemaRejects checks that the schema test has teeth: a log with
// a level SARIF does not define, or a line 0, fails validation.
func TestSARIFSchemaRejects(t *testing.T) {
	data, _ := encodeSARIF(t, loadSarifFixture(t, 0))
	schema := sarifSchemaOf(t)
	for _, bad := range [][2]string{{`"level": "warning"`, `"level": "severe"`}, {`"startLine": `, `"startLine": 0, "x": `}} {
		broken := bytes.Replace(data, []byte(bad[0]), []byte(bad[1]), 1)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(broken))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("a log with %s passes the schema", bad[1])
		}
	}
}

// TestSARIFFingerprints checks that moving all the code down changes the
// regions but not the fingerprints: code scanning keeps tracking the same
// alerts.
func TestSARIFFingerprints(t *testing.T) {
	_, a := encodeSARIF(t, loadSarifFixture(t, 0))
	_, b := encodeSARIF(t, loadSarifFixture(t, 3))
	ra, rb := a.Runs[0].Results, b.Runs[0].Results
	if len(ra) != len(rb) {
		t.Fatalf("%d results, then %d after moving the code", len(ra), len(rb))
	}
	moved := 0
	for i := range ra {
		if !maps.Equal(ra[i].PartialFingerprints, rb[i].PartialFingerprints) {
			t.Errorf("%s: fingerprint changed when the code moved", ra[i].Message.Text)
		}
		if ra[i].Locations[0] != rb[i].Locations[0] {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no region moved with the code")
	}
}

// TestSARIFDeterministic checks that the same inputs give the same bytes,
// and that an all-linked workspace gives an empty results array (which
// closes the alerts of earlier runs), not null.
func TestSARIFDeterministic(t *testing.T) {
	a, _ := encodeSARIF(t, loadSarifFixture(t, 0))
	b, _ := encodeSARIF(t, loadSarifFixture(t, 0))
	if !bytes.Equal(a, b) {
		t.Error("two runs on the same inputs differ")
	}
	fx := loadSarifFixture(t, 0)
	fx.findings.Links = slices.DeleteFunc(fx.findings.Links, func(l Finding) bool { return l.Verdict.State != "linked" })
	data, _ := encodeSARIF(t, fx)
	if !bytes.Contains(data, []byte(`"results": []`)) {
		t.Errorf("all linked: want \"results\": [], got\n%s", data)
	}
}

// TestGitHubAnnotations checks the workflow commands: one line per result
// of the SARIF log, at the same place, warning for stale and notice for
// unknown, with properties and data escaped as the Actions runner expects.
func TestGitHubAnnotations(t *testing.T) {
	fx := loadSarifFixture(t, 0)
	_, log := encodeSARIF(t, fx)
	out := GitHubAnnotations(fx.findings)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	results := log.Runs[0].Results
	if len(lines) != len(results) {
		t.Fatalf("%d annotations, want %d:\n%s", len(lines), len(results), out)
	}
	cmdRE := regexp.MustCompile(`^::(warning|notice) file=([^,:]+),line=(\d+)(?:,endLine=(\d+))?,title=tracewiki%3A ([a-z_]+)::([^\r\n]+)$`)
	for i, line := range lines {
		r := results[i]
		m := cmdRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("annotation %d is not a workflow command: %s", i, line)
			continue
		}
		path, start, end := r.Locations[0].lines()
		wantCmd := map[string]string{"warning": "warning", "note": "notice"}[r.Level]
		got := fmt.Sprintf("%s %s %s", m[1], m[2], m[5])
		if want := fmt.Sprintf("%s %s %s", wantCmd, path, r.RuleID); got != want {
			t.Errorf("annotation %d = %s, want %s", i, got, want)
		}
		gotLines := m[3] + "-" + m[4]
		wantLines := fmt.Sprint(start, "-")
		if end > start {
			wantLines += fmt.Sprint(end)
		}
		if gotLines != wantLines {
			t.Errorf("annotation %d: lines %s, want %s", i, gotLines, wantLines)
		}
		first, places, _ := strings.Cut(strings.ReplaceAll(m[6], "%0A", "\n"), "\n")
		n := 0
		if places != "" {
			n = strings.Count(places, "\n") + 1
		}
		if first != r.Message.Text || n != len(r.RelatedLocations) {
			t.Errorf("annotation %d: message %q and %d places, want the SARIF message %q and %d places", i, first, n, r.Message.Text, len(r.RelatedLocations))
		}
	}
}

func TestEscapeWorkflowCommand(t *testing.T) {
	for _, c := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"a:b,c", "a:b,c", "a%3Ab%2Cc"},
		{"100%\r\nnext", "100%25%0D%0Anext", "100%25%0D%0Anext"},
		{"%3A", "%253A", "%253A"},
	} {
		if got := escapeData(c.in); got != c.data {
			t.Errorf("escapeData(%q) = %q, want %q", c.in, got, c.data)
		}
		if got := escapeProperty(c.in); got != c.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", c.in, got, c.prop)
		}
	}
}
