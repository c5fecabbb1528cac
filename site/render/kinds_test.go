package render

import (
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// TestNodePagesCoverKinds checks that every kind with a page of its own
// ([synth.Kind.Dir]) has the function that fills its page in, and no other
// kind has one.
func TestNodePagesCoverKinds(t *testing.T) {
	for _, k := range synth.Kinds {
		if _, ok := nodePages[k.Type]; ok != (k.Dir != "") {
			t.Errorf("kind %s: page folder %q, page function %v", k.Type, k.Dir, ok)
		}
	}
	if len(nodePages) > len(synth.Kinds) {
		t.Errorf("%d page functions for %d kinds", len(nodePages), len(synth.Kinds))
	}
}

// TestListsCoverKinds checks that every kind with an index page of its own
// ([synth.Kind.Listed]) has its list's columns, but requirements, whose
// index is the matrix, and no other kind has them.
func TestListsCoverKinds(t *testing.T) {
	for _, k := range synth.Kinds {
		want := k.Listed && k.Type != claims.NodeRequirement
		if _, ok := lists[k.Type]; ok != want {
			t.Errorf("kind %s: listed %t, list columns %t", k.Type, k.Listed, ok)
		}
	}
}
