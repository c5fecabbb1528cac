package site

import (
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// TestOwnSearchQuestions: the sentence questions of issue 25's "Done
// when" find the right node in the top 5 of tracewiki's own wiki, through
// the knowledge that the CLI and MCP answer from. Each question names the
// ids that are right, and an id prefix for "the code that does it".
func TestOwnSearchQuestions(t *testing.T) {
	p, err := Load("..")
	if err != nil {
		t.Fatalf("Load(..): %v", err)
	}
	k, err := p.Knowledge()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q     string
		right []string // ids, or prefixes ending in "@" or "/"
	}{
		{"where is the lock file written", []string{"requirement:REQ-6", "symbol:codeanchors/lock.go@", "symbol:site/lockfile.go@"}},
		{"what verifies drift reasons", []string{"requirement:REQ-4"}},
		{"how does relink follow a renamed file", []string{"page:workflow", "symbol:site/relink.go@", "symbol:cmd/tracewiki/relink.go@"}},
		{"drift reasons", []string{"requirement:REQ-4"}},
		{"relink", []string{"page:workflow"}},
	} {
		out := k.Search(c.q, synth.SearchOptions{Limit: 5})
		var ids []string
		for _, r := range out.Results {
			ids = append(ids, r.ID)
		}
		if !slices.ContainsFunc(ids, func(id string) bool {
			return slices.ContainsFunc(c.right, func(r string) bool {
				return id == r || (strings.HasSuffix(r, "@") || strings.HasSuffix(r, "/")) && strings.HasPrefix(id, r)
			})
		}) {
			t.Errorf("search %q: top 5 %q has none of %q", c.q, ids, c.right)
		}
	}
}
