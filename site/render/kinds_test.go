package render

import (
	"testing"

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
