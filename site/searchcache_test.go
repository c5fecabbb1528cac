package site

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// TestCachedSearch checks that search answers from the last build's index
// exactly as from the analysis of the workspace, and only while the build
// is up to date and its index is in its output.
func TestCachedSearch(t *testing.T) {
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	if _, ok := CachedSearch(dir, cache); ok {
		t.Fatal("a cached search before any build")
	}
	same := func(t *testing.T, ix *synth.SearchIndex) {
		t.Helper()
		p, err := Load(dir)
		must(t, err)
		defer p.Close()
		k, err := p.Knowledge()
		must(t, err)
		for _, q := range []string{"checkout", "charges the card", "cart total", "pay", "REQ-1", "refund", "nothing here at all"} {
			o := synth.SearchOptions{Explain: true}
			got, err := synth.MarshalCompact(ix.Search(q, o))
			must(t, err)
			want, err := synth.MarshalCompact(k.Search(q, o))
			must(t, err)
			if !bytes.Equal(got, want) {
				t.Errorf("search %q from the build's index:\n%s\nfrom the workspace:\n%s", q, got, want)
			}
		}
	}
	buildCached(t, dir, out, cache)
	ix, ok := CachedSearch(dir, cache)
	if !ok {
		t.Fatal("no cached search after a build of an unchanged workspace")
	}
	same(t, ix)

	page := filepath.Join(dir, "content", "guides", "checkout.md")
	data, err := os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, bytes.Replace(data, []byte("charges the card"), []byte("charges the cart"), 1), 0o644))
	if _, ok := CachedSearch(dir, cache); ok {
		t.Error("a cached search after a page changed")
	}
	buildCached(t, dir, out, cache)
	if ix, ok = CachedSearch(dir, cache); !ok {
		t.Fatal("no cached search after the build that followed the change")
	}
	same(t, ix)

	index := filepath.Join(out, "api", "search.json")
	must(t, os.WriteFile(index, []byte(`{"schemaVersion":1,"entries":[]}`), 0o644))
	if _, ok := CachedSearch(dir, cache); ok {
		t.Error("a cached search from an output whose index was replaced")
	}
	if _, ok := CachedSearch(dir, nil); ok {
		t.Error("a cached search without a cache")
	}
}
