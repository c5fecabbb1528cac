package claims

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestNodeIDRoundTrip(t *testing.T) {
	ids := []NodeID{
		RequirementNode("REQ-3"), DecisionNode("FAU-9"), PageNode("guides/login"), FileNode("src/auth.py"),
		RunNode("run_123"), DocumentNode("system/brakes"),
		{NodeSymbol, "src/auth.py@login"}, {NodeTest, "tests/test_auth.py@test_login"},
		{NodeSymbol, "a.go#L1-L9"}, {NodeFile, "odd:name/with:colons.go"},
	}
	for _, id := range ids {
		s := id.String()
		if !strings.HasPrefix(s, string(id.Type)+":") {
			t.Errorf("%#v.String() = %q, want TYPE:KEY", id, s)
		}
		got, err := ParseNodeID(s)
		if err != nil || got != id {
			t.Errorf("ParseNodeID(%q) = %#v, %v; want %#v", s, got, err, id)
		}
		data, err := json.Marshal(id)
		if err != nil || string(data) != `"`+s+`"` {
			t.Errorf("json.Marshal(%#v) = %s, %v; want the string %q", id, data, err, s)
		}
		var back NodeID
		if err := json.Unmarshal(data, &back); err != nil || back != id {
			t.Errorf("json.Unmarshal(%s) = %#v, %v; want %#v", data, back, err, id)
		}
	}
	// Compare sorts ids as their strings sort.
	bySort := slices.Clone(ids)
	slices.SortFunc(bySort, NodeID.Compare)
	var strs []string
	for _, id := range bySort {
		strs = append(strs, id.String())
	}
	if !slices.IsSorted(strs) {
		t.Errorf("Compare order %q is not the strings' order", strs)
	}
	var zero NodeID
	if zero.String() != "" || !zero.IsZero() {
		t.Errorf("zero NodeID = %q", zero.String())
	}
	if err := json.Unmarshal([]byte(`""`), &zero); err != nil || !zero.IsZero() {
		t.Errorf(`json "" = %#v, %v; want the zero id`, zero, err)
	}
}

func TestParseNodeIDErrors(t *testing.T) {
	for _, s := range []string{"", "REQ-1", "requirement:", ":REQ-1", "widget:x", "Requirement:REQ-1"} {
		if id, err := ParseNodeID(s); err == nil {
			t.Errorf("ParseNodeID(%q) = %#v, want an error", s, id)
		}
	}
}

func FuzzNodeID(f *testing.F) {
	f.Add("requirement:REQ-1")
	f.Add("symbol:a/b.go@T.M")
	f.Add("file:x:y")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseNodeID(s)
		if err != nil {
			return
		}
		if id.String() != s {
			t.Fatalf("ParseNodeID(%q).String() = %q", s, id.String())
		}
		again, err := ParseNodeID(id.String())
		if err != nil || again != id {
			t.Fatalf("round trip of %q: %#v, %v", s, again, err)
		}
	})
}
