package synth

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestInputKey checks that [Input.Key] is a sound memo key: for edits of
// the fixture's content, two inputs with the same key (and index) draw
// the same graph, byte for byte; and edits that change only what no node
// or edge shows (a paragraph above a claim, a claim's text, a heading)
// keep the key, so a session draws no new graph for them.
func TestInputKey(t *testing.T) {
	order := slices.Sorted(maps.Keys(fixture))
	graph := func(files map[string]string) ([]byte, [32]byte) {
		t.Helper()
		g, rep, m := buildGraph(t, files, order, codeanchors.NewLock())
		data, err := json.Marshal(g.JSON())
		if err != nil {
			t.Fatal(err)
		}
		return data, Input{ProjectID: "shop", Model: m, Lang: "en", Report: rep, Index: g.index}.Key()
	}
	baseGraph, baseKey := graph(fixture)
	for _, c := range []struct {
		what, file, old, new string
		sameKey              bool
	}{
		{"a paragraph above a claim", "content/guide.md", "# Guide\n", "# Guide\n\nAn added paragraph.\n", true},
		{"a claim's text", "content/guide.md", "Login hashes", "Login hashes passwords", true},
		{"a heading", "content/guide.md", "See [REQ-1]", "## More\n\nSee [REQ-1]", true},
		{"a page's title", "content/guide.md", "# Guide\n", "---\ntitle: The guide\n---\n# Guide\n", false},
		{"a page's link", "content/guide.md", "(req:REQ-1)", "(req:REQ-2)", false},
		{"a claim's target", "content/guide.md", "code:auth/login.go@Login", "code:pay/pay.go@Charge", false},
		{"a decision's mention", "content/decisions/DEC-1.md", "and REQ-2.", "and REQ-1.", false},
		{"a decision's title", "content/decisions/DEC-1.md", "title: Hashing", "title: Hashes", false},
		{"a requirement's text", "content/requirements/REQ-2.md", "Users pay.", "Users pay once.", false},
		{"a requirement's issue", "content/requirements/REQ-1.md", "issues: [DEC-1]\n", "", false},
	} {
		files := maps.Clone(fixture)
		if !strings.Contains(files[c.file], c.old) {
			t.Fatalf("%s: %s has no %q", c.what, c.file, c.old)
		}
		files[c.file] = strings.Replace(files[c.file], c.old, c.new, 1)
		g, key := graph(files)
		if (key == baseKey) != c.sameKey {
			t.Errorf("%s: same key = %v, want %v", c.what, key == baseKey, c.sameKey)
		}
		if key == baseKey && !bytes.Equal(g, baseGraph) {
			t.Errorf("%s: the key stayed, but the graph changed", c.what)
		}
	}
}
