package claims

import (
	"slices"
	"testing"
)

func TestCompareIDs(t *testing.T) {
	ids := []string{"REQ-10", "REQ-2", "REQ-1", "A", "REQ-01", "REQ-1.10", "REQ-1.2", "SW-1", "REQ", "REQ-9a", "REQ-9"}
	want := []string{"A", "REQ", "REQ-01", "REQ-1", "REQ-1.2", "REQ-1.10", "REQ-2", "REQ-9", "REQ-9a", "REQ-10", "SW-1"}
	slices.SortFunc(ids, CompareIDs)
	if !slices.Equal(ids, want) {
		t.Errorf("natural order = %q, want %q", ids, want)
	}
	for _, c := range [][2]string{{"REQ-2", "REQ-10"}, {"a9", "a10"}, {"x", "x1"}} {
		if CompareIDs(c[0], c[1]) >= 0 || CompareIDs(c[1], c[0]) <= 0 {
			t.Errorf("CompareIDs(%q, %q) not antisymmetric or not less", c[0], c[1])
		}
	}
}

func TestCompareLevels(t *testing.T) {
	levels := []string{"", "1.10", "2", "1.2", "1", "1.2.1", "2.0", "10"}
	want := []string{"1", "1.2", "1.2.1", "1.10", "2", "2.0", "10", ""}
	slices.SortStableFunc(levels, CompareLevels)
	if !slices.Equal(levels, want) {
		t.Errorf("level order = %q, want %q", levels, want)
	}
	for _, c := range []struct {
		level string
		depth int
		valid bool
	}{{"1", 1, true}, {"1.2.3", 3, true}, {"2.0", 1, true}, {"", 1, false}, {"1..2", 0, false}, {"a", 0, false}, {"1.", 0, false}} {
		if validLevel(c.level) != c.valid {
			t.Errorf("validLevel(%q) = %t, want %t", c.level, !c.valid, c.valid)
		}
		if c.valid && Depth(c.level) != c.depth {
			t.Errorf("Depth(%q) = %d, want %d", c.level, Depth(c.level), c.depth)
		}
	}
}
