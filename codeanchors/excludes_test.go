package codeanchors

import (
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/golang"
	"github.com/tracewiki/tracewiki/codeanchors/rust"
)

// TestRegistryExcludes checks that the default excludes come from the
// languages that ask for them (lang.Excluder), once each, and from no other.
func TestRegistryExcludes(t *testing.T) {
	if got := NewRegistry(golang.Language).Excludes(); len(got) != 0 {
		t.Errorf("Go alone: Excludes = %q, want none", got)
	}
	if got := NewRegistry(rust.Language, golang.Language).Excludes(); !slices.Equal(got, []string{"**/target/**"}) {
		t.Errorf("Rust and Go: Excludes = %q, want [**/target/**]", got)
	}
	if got := Default.Excludes(); !slices.Contains(got, "**/target/**") {
		t.Errorf("Default.Excludes = %q, want Cargo's target/", got)
	}
}
