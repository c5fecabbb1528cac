package site

import (
	"io"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// TestOwnWiki loads tracewiki's own wiki (content/ at the repository root,
// the default build) and checks it: the content must parse without a
// single diagnostic, every target must resolve to real code, and the
// README's gate must pass on the lock as committed (a fresh clone):
// check --fail-on stale,target_missing finds nothing, and a build reports
// 0 stale. CONTRIBUTING.md says how to keep it so.
func TestOwnWiki(t *testing.T) {
	p, err := Load("..")
	if err != nil {
		t.Fatalf("Load(..): %v", err)
	}
	defer p.Close()
	if len(p.Model.Requirements) == 0 || len(p.Model.Decisions) == 0 || len(p.Model.Pages) == 0 {
		t.Fatalf("own wiki: %d requirements, %d decisions, %d pages; want some of each",
			len(p.Model.Requirements), len(p.Model.Decisions), len(p.Model.Pages))
	}
	rep, err := p.Check()
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range rep.Targets {
		switch ts.Verdict.Reason {
		case "symbol_not_found", "target_missing", "ambiguous", "path_outside_workspace":
			t.Errorf("%s (claimed by %s): %s", ts.Target, ts.Uses[0].Node, ts.Verdict.Reason)
		}
	}

	// The README's gate: check --fail-on stale,target_missing.
	c := synth.NewCheckReport(synth.NewFindings(rep, p.Model, "en", p.Config.Lock))
	var failing []string
	for _, tg := range c.Targets {
		if tg.State == string(codeanchors.Stale) || tg.Reason == string(codeanchors.TargetMissing) {
			failing = append(failing, tg.Ref+" ("+tg.Reason+", claimed by "+tg.ClaimedBy[0].String()+")")
		}
	}
	if len(failing) > 0 {
		t.Errorf("the README's gate fails on the own wiki: %d links (see CONTRIBUTING.md):\n%s", len(failing), strings.Join(failing, "\n"))
	}

	// And the build reports 0 stale.
	s, err := p.Build(BuildOptions{Frozen: true}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Check.Count(codeanchors.Stale); n != 0 {
		t.Errorf("the own wiki's build reports %d stale links, want 0", n)
	}
}
