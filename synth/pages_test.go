package synth

import (
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestNewPages checks the requirement and run page models: each holds its
// own evidence (in lock order, and newest first), its own parent links and
// its children in id order, and its declared targets with their status.
func TestNewPages(t *testing.T) {
	impl := claims.Target{Path: "src/a.go", Symbol: "F"}
	m := &claims.Model{Requirements: []*claims.Requirement{
		{ID: "REQ-1", Implements: []claims.TargetRef{{Target: impl}}},
		{ID: "REQ-2"}, {ID: "REQ-10"},
	}}
	ev := func(req, run, at string) codeanchors.EvidenceStatus {
		return codeanchors.EvidenceStatus{Evidence: codeanchors.Evidence{Req: req, Run: run, RecordedAt: at}}
	}
	link := func(child, parent string) codeanchors.ParentStatus {
		return codeanchors.ParentStatus{Child: child, Parent: parent}
	}
	rep := &codeanchors.Report{
		Targets: []codeanchors.TargetStatus{{Referenced: codeanchors.Referenced{Target: impl}}},
		Evidence: []codeanchors.EvidenceStatus{
			ev("REQ-1", "r1", "2026-01-01T00:00:00Z"), ev("REQ-1", "r2", "2026-03-01T00:00:00Z"),
			ev("REQ-1", "r3", "2026-02-01T00:00:00Z"), ev("REQ-2", "r2", "2026-03-01T00:00:00Z"),
		},
		Parents: []codeanchors.ParentStatus{link("REQ-10", "REQ-1"), link("REQ-2", "REQ-1"), link("REQ-2", "REQ-2")},
	}
	p := NewPages(PageInput{Model: m, Report: rep})
	runs := func(es []codeanchors.EvidenceStatus) (out []string) {
		for _, e := range es {
			out = append(out, e.Evidence.Req+"@"+e.Evidence.Run)
		}
		return out
	}
	r1 := p.Requirements["REQ-1"]
	if got, want := runs(r1.Evidence), []string{"REQ-1@r1", "REQ-1@r2", "REQ-1@r3"}; !slices.Equal(got, want) {
		t.Errorf("REQ-1 evidence %v, want %v (lock order)", got, want)
	}
	if got, want := runs(r1.History), []string{"REQ-1@r2", "REQ-1@r3", "REQ-1@r1"}; !slices.Equal(got, want) {
		t.Errorf("REQ-1 history %v, want %v (newest first)", got, want)
	}
	if got, want := runs(p.Run("r2").Evidence), []string{"REQ-1@r2", "REQ-2@r2"}; !slices.Equal(got, want) {
		t.Errorf("run r2 evidence %v, want %v", got, want)
	}
	if got := p.Run("r9").Evidence; got != nil {
		t.Errorf("run r9 (no evidence) has %v", got)
	}
	var children []string
	for _, c := range r1.Children {
		children = append(children, c.Child)
	}
	if want := []string{"REQ-2", "REQ-10"}; !slices.Equal(children, want) {
		t.Errorf("REQ-1 children %v, want %v (id order)", children, want)
	}
	// A requirement naming itself as parent: a parent link, not a child.
	if r2 := p.Requirements["REQ-2"]; len(r2.Parents) != 2 || len(r2.Children) != 0 {
		t.Errorf("REQ-2 parents %v, children %v", r2.Parents, r2.Children)
	}
	if got := r1.Implements; len(got) != 1 || got[0].Status != &rep.Targets[0] || got[0].Node != (NodeID{Type: claims.NodeSymbol, Key: "src/a.go@F"}) {
		t.Errorf("REQ-1 implements %+v", got)
	}
}
