package synth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// kindTypes lists the types of the kinds that keep, in table order.
func kindTypes(keep func(Kind) bool) []string {
	var out []string
	for _, k := range Kinds {
		if keep(k) {
			out = append(out, string(k.Type))
		}
	}
	return out
}

func TestKindsOrder(t *testing.T) {
	var want []string
	for _, typ := range claims.NodeTypes {
		want = append(want, string(typ))
	}
	if got := kindTypes(func(Kind) bool { return true }); !slices.Equal(got, want) {
		t.Errorf("Kinds are %v, claims.NodeTypes %v: one row per node type, in SPEC 3's order", got, want)
	}
	for _, k := range Kinds {
		if got := KindOf(k.Type); got.Type != k.Type {
			t.Errorf("KindOf(%s) = %s", k.Type, got.Type)
		}
		if k.Dir != "" && k.Template == "" {
			t.Errorf("kind %s has pages but no template", k.Type)
		}
		if k.Named && !k.Code {
			t.Errorf("kind %s is named within a file but not code", k.Type)
		}
	}
	if k := KindOf("nonsense"); k.Type != "" || k.Dir != "" {
		t.Errorf("KindOf(unknown) = %+v, want the zero Kind", k)
	}
}

// TestKindsInSchemas checks every enumeration of node types in the JSON
// schemas and the search script against [Kinds], so a kind added to the
// table but not to a schema (or the other way round) fails here.
func TestKindsInSchemas(t *testing.T) {
	all := kindTypes(func(Kind) bool { return true })
	for _, c := range []struct {
		schema, pointer string
		want            []string
	}{
		{"graph", "/$defs/nodeType/enum", all},
		{"search", "/$defs/entry/properties/type/enum", all},
		{"manifest", "/properties/nodes/required", all},
		// A node's page: every kind with a page of its own.
		{"node", "/properties/node/properties/type/enum", kindTypes(func(k Kind) bool { return k.Dir != "" })},
		// An index page's kind.
		{"list", "/properties/kind/enum", kindTypes(func(k Kind) bool { return k.Listed })},
	} {
		got := schemaStrings(t, c.schema, c.pointer)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s.schema.json %s = %v, the kind table says %v", c.schema, c.pointer, got, c.want)
		}
	}
	// The graph schema says what each kind's nodes hold, one branch per kind.
	for _, typ := range all {
		if !strings.Contains(readSchema(t, "graph"), `"const": "`+typ+`"`) {
			t.Errorf("graph.schema.json has no branch for the nodes of kind %s", typ)
		}
	}
	// Search breaks ties by kind in SPEC 3's order; the search page by
	// node number (TestSearchClientTieOrder) and filters kinds by the
	// names the head gives, NodeTypes.
	if !slices.Equal(NodeTypes, all) {
		t.Errorf("search's kinds (NodeTypes) = %v, the kind table says %v", NodeTypes, all)
	}
}

func readSchema(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "assets", "schemas", name+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// schemaStrings is the list of strings at a JSON pointer of a schema.
func schemaStrings(t *testing.T, name, pointer string) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(readSchema(t, name)), &v); err != nil {
		t.Fatalf("%s.schema.json: %v", name, err)
	}
	for _, p := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s.schema.json: no %s", name, pointer)
		}
		v = obj[p]
	}
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("%s.schema.json %s is no list", name, pointer)
	}
	var out []string
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

func TestDocOf(t *testing.T) {
	m := &claims.Model{
		Requirements: []*claims.Requirement{{ID: "REQ-2"}, {ID: "REQ-10"}},
		Pages:        []*claims.Page{{Path: "guides/login"}},
	}
	if d := DocOf(m, Node{ID: claims.RequirementNode("REQ-10"), Type: claims.NodeRequirement}); d != &m.Requirements[1].Doc {
		t.Errorf("DocOf(REQ-10) = %p, want the requirement's", d)
	}
	if d := DocOf(m, Node{ID: claims.PageNode("guides/login"), Type: claims.NodePage}); d != &m.Pages[0].Doc {
		t.Errorf("DocOf(page) = %p, want the page's", d)
	}
	// Not in the model: nil, not a neighbor's document.
	if d := DocOf(m, Node{ID: claims.RequirementNode("REQ-3"), Type: claims.NodeRequirement}); d != nil {
		t.Errorf("DocOf(REQ-3) = %p, want nil", d)
	}
	if d := DocOf(m, Node{ID: claims.FileNode("a.go"), Type: claims.NodeFile}); d != nil {
		t.Errorf("DocOf(file) = %p, want nil", d)
	}
}

// TestRelocationsInSchema checks that check.schema.json (whose relocation
// definition drift.schema.json shares) names every way a relocation
// candidate is found, most certain first, as codeanchors orders them.
func TestRelocationsInSchema(t *testing.T) {
	want := []string{codeanchors.SameText, codeanchors.SameTokens, codeanchors.SameBody, codeanchors.SameName}
	if got := schemaStrings(t, "check", "/$defs/relocation/properties/how/enum"); !slices.Equal(got, want) {
		t.Errorf("check.schema.json relocation how = %v, codeanchors has %v", got, want)
	}
}
