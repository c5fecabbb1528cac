package rust

import (
	"testing"
)

// FuzzExtractRust checks that Extract never panics, and that what it
// returns holds its invariants (lines and offsets inside the input,
// symbols sorted, tokens in order) or is an error naming the path. It is
// seeded from the golden cases.
func FuzzExtractRust(f *testing.F) { suite.Fuzz(f, "fuzz.rs") }
