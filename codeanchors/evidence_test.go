package codeanchors

import (
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// entry is a passing (or failing) evidence entry of REQ-1 for run at time
// at, recorded against revision sha256:1.
func entry(run, at string, passed bool) Evidence {
	outcome := OutcomePass
	if !passed {
		outcome = OutcomeFail
	}
	return Evidence{Req: "REQ-1", Run: run, Revision: "sha256:1", RecordedAt: at,
		Tests: []EvidenceTest{{Target: "a_test.go@TestA", Outcome: outcome}}}
}

// TestCheckSupersedes checks SPEC 1.5: only a requirement's newest entry
// (by recorded time, then run id) is judged and decides verified; every
// older one is superseded by it, with no reason, whatever its own outcome.
func TestCheckSupersedes(t *testing.T) {
	m := &claims.Model{Requirements: []*claims.Requirement{{ID: "REQ-1", Revision: "sha256:1"}}}
	check := func(entries ...Evidence) (map[string]Verdict, bool) {
		l := NewLock()
		l.Evidence = entries
		rep := Check(m, l, nil)
		got := map[string]Verdict{}
		for _, es := range rep.Evidence {
			got[es.Evidence.Run] = es.Verdict
		}
		return got, rep.Requirements[0].Verified
	}
	superseded := func(by string) Verdict { return Verdict{State: Superseded, SupersededBy: by} }

	// An old failing run, then a passing one at the same time whose run id
	// sorts after it, then an older passing one: the passing run at the
	// newest time decides.
	got, verified := check(
		entry("run-a", "2026-01-01T00:00:00Z", false),
		entry("run-b", "2026-01-02T00:00:00Z", false),
		entry("run-c", "2026-01-02T00:00:00Z", true),
	)
	want := map[string]Verdict{"run-a": superseded("run-c"), "run-b": superseded("run-c"), "run-c": {State: Linked}}
	for run, w := range want {
		if got[run] != w {
			t.Errorf("%s: %+v, want %+v", run, got[run], w)
		}
	}
	if !verified {
		t.Error("REQ-1 not verified by its newest, passing run")
	}
	if w := got["run-a"].Why("en"); w != "superseded by run:run-c" {
		t.Errorf("why = %q, want %q", w, "superseded by run:run-c")
	}
	if w := got["run-a"].Why("es"); w != "sustituida por run:run-c" {
		t.Errorf("why (es) = %q", w)
	}

	// A newer failing run un-verifies, and is the one live problem.
	got, verified = check(entry("run-c", "2026-01-02T00:00:00Z", true), entry("run-d", "2026-01-03T00:00:00Z", false))
	if verified {
		t.Error("REQ-1 verified although its newest run failed")
	}
	if v := got["run-d"]; v.State != Stale || v.Reason != TestsFailed {
		t.Errorf("run-d: %+v, want stale tests_failed", v)
	}
	if v := got["run-c"]; v != superseded("run-d") {
		t.Errorf("run-c: %+v, want superseded by run-d", v)
	}
	if Superseded.Problem() || Linked.Problem() || !Stale.Problem() || !Unknown.Problem() {
		t.Error("Problem: want stale and unknown only")
	}
}

func TestKeepEvidence(t *testing.T) {
	l := NewLock()
	for _, run := range []string{"r5", "r1", "r3", "r2", "r4"} {
		l.RecordEvidence(entry(run, "2026-01-0"+run[1:]+"T00:00:00Z", true))
	}
	other := entry("x1", "2025-01-01T00:00:00Z", true)
	other.Req = "REQ-2"
	l.RecordEvidence(other)
	if n := len(l.Evidence); n != 6 {
		t.Fatalf("recorded %d entries, want 6: older runs are history, kept", n)
	}
	if n := l.KeepEvidence(2); n != 3 {
		t.Errorf("KeepEvidence(2) dropped %d, want 3", n)
	}
	var runs []string
	for _, e := range l.Evidence {
		runs = append(runs, e.Req+"/"+e.Run)
	}
	if want := []string{"REQ-1/r4", "REQ-1/r5", "REQ-2/x1"}; !slices.Equal(runs, want) {
		t.Errorf("kept %q, want %q: the newest of each requirement", runs, want)
	}
	if n := l.KeepEvidence(0); n != 1 || len(l.Evidence) != 2 {
		t.Errorf("KeepEvidence(0) dropped %d, kept %d; want the newest of each kept", n, len(l.Evidence))
	}
	// Recording the same run again replaces its entry.
	l.RecordEvidence(entry("r5", "2026-02-01T00:00:00Z", false))
	if n := len(l.Evidence); n != 2 || l.Evidence[0].Passed() {
		t.Errorf("re-recorded run: %d entries, first passed=%t; want 2, the new failing one", n, l.Evidence[0].Passed())
	}
}
