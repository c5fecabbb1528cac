package synth

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// supersededFixture is the graph fixture with two runs of REQ-1 against its
// current revision: run-old failed, run-new (recorded a day later) passed.
func supersededFixture(t *testing.T) (*Graph, *codeanchors.Report, *claims.Model) {
	t.Helper()
	var names []string
	for name := range fixture {
		names = append(names, name)
	}
	_, _, m := buildGraph(t, fixture, names, codeanchors.NewLock())
	rev := m.Requirements[0].Revision
	if m.Requirements[0].ID != "REQ-1" {
		t.Fatalf("first requirement %s, want REQ-1", m.Requirements[0].ID)
	}
	lock := codeanchors.NewLock()
	for _, run := range []struct {
		id, at, outcome string
	}{{"run-old", "2026-01-01T00:00:00Z", codeanchors.OutcomeFail}, {"run-new", "2026-01-02T00:00:00Z", codeanchors.OutcomePass}} {
		lock.RecordEvidence(codeanchors.Evidence{Req: "REQ-1", Run: run.id, Revision: rev, RecordedAt: run.at,
			Tests: []codeanchors.EvidenceTest{{Name: "auth.TestLogin", Outcome: run.outcome, Target: "auth/login_test.go@TestLogin"}}})
	}
	return buildGraph(t, fixture, names, lock)
}

// TestSupersededIsHistory checks SPEC 1.5 in every view of synth: an old
// failing run followed by a passing one leaves the requirement verified,
// one evidences edge, no problem anywhere, and the old run listed as
// superseded in check's JSON (and its text with --all only).
func TestSupersededIsHistory(t *testing.T) {
	g, rep, m := supersededFixture(t)
	req, old, cur := claims.RequirementNode("REQ-1"), claims.RunNode("run-old"), claims.RunNode("run-new")

	var evidences []Edge
	for _, e := range g.Edges {
		if e.Kind == KindEvidences {
			evidences = append(evidences, e)
		}
		if e.Src == old || e.Dst == old {
			t.Errorf("edge %s -> %s (%s): a superseded run has no edges", e.Src, e.Dst, e.Kind)
		}
	}
	if len(evidences) != 1 || evidences[0].Src != req || evidences[0].Dst != cur || evidences[0].Relation != Verified || evidences[0].Stale {
		t.Errorf("evidences edges %+v; want one, REQ-1 -> run:run-new, verified", evidences)
	}
	if n, ok := g.Node(old); !ok || n.Stale {
		t.Errorf("run:run-old node %+v (found %t); want a node, not stale: its page is history", n, ok)
	}
	if n, _ := g.Node(req); n.Stale || n.Verified == nil || !*n.Verified {
		t.Errorf("REQ-1 %+v; want verified, not stale", n)
	}

	f := NewFindings(rep, m, "en", "tracewiki.lock")
	for _, p := range f.Problems() {
		if p.Kind == LinkEvidence {
			t.Errorf("problem %s %s: want no evidence problem", p.Ref, p.Verdict.State)
		}
	}
	c := NewCheckReport(f)
	if c.SchemaVersion != 2 {
		t.Errorf("check schemaVersion %d, want 2", c.SchemaVersion)
	}
	var entry *CheckTarget
	for i := range c.Targets {
		if c.Targets[i].Ref == "run:run-old" {
			entry = &c.Targets[i]
		}
	}
	want := CheckTarget{Ref: "run:run-old", State: "superseded", Reason: "", Why: "superseded by run:run-new", SupersededBy: "run:run-new"}
	if entry == nil || entry.State != want.State || entry.Reason != want.Reason || entry.Why != want.Why || entry.SupersededBy != want.SupersededBy ||
		entry.Passed == nil || *entry.Passed {
		t.Errorf("check entry %+v; want %+v, passed false", entry, want)
	}
	if c.Count(codeanchors.Superseded) != 1 || c.Count(codeanchors.Stale) != 0 || c.CountReason(codeanchors.TestsFailed) != 0 {
		t.Errorf("totals %v; want 1 superseded, no stale, no tests_failed", c.Totals)
	}
	if text := c.Text(false); strings.Contains(text, "run-old") || !strings.Contains(text, "1 older evidence entries superseded") {
		t.Errorf("text without --all:\n%s\nwant no run-old, and the superseded count", text)
	}
	if text := c.Text(true); !strings.Contains(text, "superseded run:run-old (tests failed)\n         superseded by run:run-new\n") {
		t.Errorf("text with --all:\n%s\nwant run-old superseded by run:run-new", text)
	}
	// The fixture's code links are uncaptured (unknown); no run is a problem.
	for _, l := range NewDrift(f, g, func(NodeID) string { return "" }).Links {
		if strings.HasPrefix(l.Ref, "run:") {
			t.Errorf("drift lists %s %s; want no run", l.Ref, l.State)
		}
	}
	for _, r := range NewSARIF(f).Runs[0].Results {
		if strings.Contains(r.Message.Text, "run:") {
			t.Errorf("SARIF result %q; want none for a run", r.Message.Text)
		}
	}
	if a := GitHubAnnotations(f); strings.Contains(a, "run-old") {
		t.Errorf("annotations %q; want none for run-old", a)
	}
	man := NewManifest(g, rep, "Shop", "/", 0, nil, nil)
	if man.Superseded != 1 || man.Links["stale"] != 0 || man.Reasons[string(codeanchors.TestsFailed)] != 0 {
		t.Errorf("manifest superseded %d, links %v, reasons %v; want 1 apart, none stale", man.Superseded, man.Links, man.Reasons)
	}
}

// TestDiffSupersededRun: a PR comment says a run that left the drift because
// a newer run superseded it is no longer live, not "no longer referenced".
func TestDiffSupersededRun(t *testing.T) {
	d := DiffJSON{Fixed: []LinkChange{
		{Ref: "run:run-old", Before: &LinkState{State: "stale", Reason: string(codeanchors.TestsFailed)}, ClaimedBy: []NodeID{claims.RequirementNode("REQ-1")}},
		{Ref: "gone.go@F", Before: &LinkState{State: "unknown", Reason: string(codeanchors.TargetMissing)}, ClaimedBy: []NodeID{claims.PageNode("notes")}},
	}}
	d.Counts.Fixed = 2
	md := d.Markdown()
	for _, want := range []string{"`run:run-old`: no longer live, a newer run superseded it; was stale (`tests_failed`)", "`gone.go@F`: no longer referenced"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
