package site

import (
	"testing"
)

// TestOwnWiki loads tracewiki's own wiki (content/ at the repository root,
// the default build) and checks it: the content must parse without a
// single diagnostic, and every target must resolve to real code. Drift is
// allowed (code moves on between captures) but a target that names nothing
// is a broken claim.
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
}
