package synth

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
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

// TestParentLinkWording: a parent link's entry reads as its child being
// suspect because its parent changed, with the child's id in the to-do, in
// check's text and the PR diff; other entries keep their ref and why.
func TestParentLinkWording(t *testing.T) {
	sw1 := []NodeID{claims.RequirementNode("SW-1")}
	if c, p, ok := ParentLink("requirement:SYS-1", sw1); !ok || c != "SW-1" || p != "SYS-1" {
		t.Errorf("ParentLink = %q, %q, %v; want SW-1, SYS-1, true", c, p, ok)
	}
	for _, ref := range []string{"run:ci-1", "a/b.go@F", "a/b.go"} {
		if _, _, ok := ParentLink(ref, sw1); ok || LinkName(ref, sw1) != ref {
			t.Errorf("%s is taken for a parent link (name %q)", ref, LinkName(ref, sw1))
		}
	}
	pc := codeanchors.ParentChanged
	for _, c := range []struct{ lang, why, todo string }{
		{"en", "SW-1 is suspect: its parent SYS-1 changed after SW-1 was reviewed",
			"read SYS-1's new text, update SW-1 if needed, then run: tracewiki review SW-1"},
		{"es", "SW-1 es sospechoso: su padre SYS-1 cambió desde que se revisó SW-1",
			"lea el nuevo texto de SYS-1, actualice SW-1 si hace falta y ejecute: tracewiki review SW-1"},
	} {
		if got := LinkWhy("requirement:SYS-1", sw1, pc, pc.Why(c.lang), c.lang); got != c.why {
			t.Errorf("LinkWhy(%s) = %q, want %q", c.lang, got, c.why)
		}
		if got := LinkToDo("requirement:SYS-1", sw1, pc, c.lang); got != c.todo {
			t.Errorf("LinkToDo(%s) = %q, want %q", c.lang, got, c.todo)
		}
	}
	// A code target keeps its why (a never-existed one too) and its REF.
	never := codeanchors.SymbolNotFound.WhyNever("en")
	if got := LinkWhy("a/b.go@F", sw1, codeanchors.SymbolNotFound, never, "en"); got != never {
		t.Errorf("a code target's why became %q", got)
	}
	if got := LinkToDo("a/b.go@F", sw1, codeanchors.ContentChanged, "en"); !strings.HasSuffix(got, "tracewiki capture a/b.go@F") {
		t.Errorf("a code target's to-do is %q", got)
	}

	rep := &CheckReport{lang: "en", Totals: map[string]int{"stale": 1}, Targets: []CheckTarget{{
		Ref: "requirement:SYS-1", State: "stale", Reason: string(pc), Why: pc.Why("en"), ClaimedBy: sw1,
	}}}
	text := rep.Text(false)
	for _, want := range []string{
		"stale    requirement:SW-1 -> requirement:SYS-1\n",
		"parent_changed: SW-1 is suspect: its parent SYS-1 changed after SW-1 was reviewed\n",
		"then run: tracewiki review SW-1\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("check text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "CHILD") || strings.Contains(text, "stale    requirement:SYS-1") {
		t.Errorf("check text names a placeholder or the parent as stale:\n%s", text)
	}

	old, new := emptySnapshot(), emptySnapshot()
	for _, lang := range []string{"en", "es"} {
		new.Drift.Links = []DriftLink{{Ref: "requirement:SYS-1", State: "stale", Reason: string(pc), Why: pc.Why(lang), ClaimedBy: sw1}}
		d := Diff(old, new, "")
		md := d.Markdown()
		want := map[string]string{"en": "SW-1 is suspect: its parent SYS-1", "es": "SW-1 es sospechoso: su padre SYS-1"}[lang]
		if !strings.Contains(md, "`requirement:SW-1 -> requirement:SYS-1` **stale**") || !strings.Contains(md, want) {
			t.Errorf("PR diff (%s) does not name the child's link and its why %q:\n%s", lang, want, md)
		}
	}
}
