package synth

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// TestDiffParentLinks: the PR diff reports a parent link that went suspect
// (keyed by parent and child, so two children of one parent are two links)
// with its state before from the graph's parent edge, and one reviewed
// since as fixed.
func TestDiffParentLinks(t *testing.T) {
	old, new := emptySnapshot(), emptySnapshot()
	edge := func(child, parent, state, reason string) Edge {
		return Edge{Src: claims.RequirementNode(child), Dst: claims.RequirementNode(parent), Relation: Declared, Kind: KindParent, State: state, Reason: reason}
	}
	old.Graph.Edges = []Edge{edge("SW-1", "SYS-1", "linked", ""), edge("SW-2", "SYS-1", "linked", "")}
	old.Drift.Links = []DriftLink{driftLink("requirement:SYS-2", "stale", "parent_changed", "requirement:SW-3")}
	new.Graph.Edges = []Edge{edge("SW-1", "SYS-1", "stale", "parent_changed"), edge("SW-2", "SYS-1", "linked", ""), edge("SW-3", "SYS-2", "linked", "")}
	new.Drift.Links = []DriftLink{driftLink("requirement:SYS-1", "stale", "parent_changed", "requirement:SW-1")}
	d := Diff(old, new, "")
	var got []string
	for _, c := range d.Broken {
		got = append(got, fmt.Sprintf("broken %s %s %s->%s", c.Ref, joinIDs(c.ClaimedBy, ","), c.Before.State, c.After.Reason))
	}
	for _, c := range d.Fixed {
		got = append(got, fmt.Sprintf("fixed %s %s %s->%s", c.Ref, joinIDs(c.ClaimedBy, ","), c.Before.Reason, c.After.State))
	}
	want := []string{
		"broken requirement:SYS-1 requirement:SW-1 linked->parent_changed",
		"fixed requirement:SYS-2 requirement:SW-3 parent_changed->linked",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
