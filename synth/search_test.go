package synth

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// searchFixture has confusable names beside a requirement about the lock
// file: "lock" must put the requirement first.
var searchFixture = map[string]string{
	"go.mod": "module example.com/shop\n",
	"walk/names.go": `package walk

type Blocklist struct{}

func unlockAll() {}

type mdWalker struct{}

func (w *mdWalker) block() {}

func clock() int { return 0 }

func lockFile() {}
`,
	"walk/names_test.go": `package walk

import "testing"

func TestLockFile(t *testing.T) { lockFile() }
`,
	"content/requirements/REQ-7.md":  "---\ntitle: The lock file is never damaged\nimplements: [walk/names.go@lockFile]\ntests: [walk/names_test.go@TestLockFile]\n---\nA failed build leaves the lock as it was.\n",
	"content/requirements/REQ-10.md": "---\ntitle: Clock skew is tolerated\n---\nTimes come from the lock, not the clock.\n",
	"content/decisions/ADR-1.md":     "---\ntitle: Block lists\n---\nWe keep a Blocklist; unlockAll clears it.\n",
	"content/walkers.md":             "# The Markdown walker\n\nThe walker skips a block ([code](code:walk/names.go@mdWalker.block)).\n",
	"content/lock.md":                "# lock\n\nAbout the lock file.\n",
}

func searchIndexOf(t testing.TB, files map[string]string) (*SearchIndex, *Graph) {
	t.Helper()
	g, _, m := buildGraph(t, files, slices.Sorted(maps.Keys(files)), codeanchors.NewLock())
	idx := NewSearch(g, m, func(NodeID) string { return "" })
	return NewSearchIndex(idx.Entries), g
}

func rankedIDs(ix *SearchIndex, q, kind string) []string {
	var ids []string
	for _, r := range ix.Rank(q, kind) {
		ids = append(ids, fmt.Sprintf("%s=%d", ix.entries[r.Index].ID, r.Score))
	}
	return ids
}

func TestSearchRanking(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	for _, c := range []struct {
		q    string
		want []string // the ranking's head, id=score
	}{
		// The page lock is an exact id; the requirement's title has the
		// word, and so has lockFile's (camelCase); the confusable symbols
		// only contain it.
		{"lock", []string{"page:lock=5", "requirement:REQ-7=3", "symbol:walk/names.go@lockFile=3", "test:walk/names_test.go@TestLockFile=3", "requirement:REQ-10=2",
			"decision:ADR-1=1", "symbol:walk/names.go@Blocklist=1", "symbol:walk/names.go@clock=1", "symbol:walk/names.go@mdWalker.block=1", "symbol:walk/names.go@unlockAll=1"}},
		{"REQ-7", []string{"requirement:REQ-7=5"}},
		{"requirement:req-7", []string{"requirement:REQ-7=5"}},
		{"walk/names.go@mdWalker.block", []string{"symbol:walk/names.go@mdWalker.block=5", "page:walkers=2"}},
		{"the lock file is never damaged", []string{"requirement:REQ-7=4"}},
		{"  The   LOCK file  ", []string{"requirement:REQ-7=3", "page:lock=2"}},
		{"walker", []string{"symbol:walk/names.go@mdWalker=3", "symbol:walk/names.go@mdWalker.block=3", "page:walkers=3"}},
		{"clock", []string{"requirement:REQ-10=3", "symbol:walk/names.go@clock=3"}},
		{"blocklist", []string{"symbol:walk/names.go@Blocklist=3", "decision:ADR-1=2"}},
		{"nothing-like-this", nil},
		{"", nil},
	} {
		got := rankedIDs(ix, c.q, "")
		if len(got) < len(c.want) || !slices.Equal(got[:len(c.want)], c.want) {
			t.Errorf("Rank(%q) = %q, want it to start with %q", c.q, got, c.want)
		}
		if c.want == nil && got != nil {
			t.Errorf("Rank(%q) = %q, want nothing", c.q, got)
		}
	}
	// Without the exact title page, "lock" puts the requirement first,
	// ahead of every confusable symbol.
	files := maps.Clone(searchFixture)
	delete(files, "content/lock.md")
	ix2, _ := searchIndexOf(t, files)
	if got := rankedIDs(ix2, "lock", ""); got[0] != "requirement:REQ-7=3" {
		t.Errorf(`Rank("lock") = %q; want the lock-file requirement first`, got)
	}
	for _, confusable := range []string{"Blocklist", "unlockAll", "mdWalker.block", "clock"} {
		for _, r := range ix2.Rank("lock", "") {
			if e := ix2.entries[r.Index]; strings.HasSuffix(e.ID.Key, "@"+confusable) && r.Score != ScoreSubstring {
				t.Errorf(`Rank("lock"): %s scores %d, want %d (a substring only)`, e.ID, r.Score, ScoreSubstring)
			}
		}
	}
}

// TestSearchKindFilter: filtering by kind keeps the relative order.
func TestSearchKindFilter(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	for _, q := range []string{"lock", "walk", "block", "the", "e"} {
		all := ix.Rank(q, "")
		for _, kind := range NodeTypes {
			var want []Ranked
			for _, r := range all {
				if string(ix.entries[r.Index].Type) == kind {
					want = append(want, r)
				}
			}
			if got := ix.Rank(q, kind); !slices.Equal(got, want) {
				t.Errorf("Rank(%q, %s) = %v, want the unfiltered ranking's %v", q, kind, got, want)
			}
		}
		// Ties: by type order, then id.
		for i := 1; i < len(all); i++ {
			a, b := ix.entries[all[i-1].Index], ix.entries[all[i].Index]
			if all[i-1].Score == all[i].Score && (typeOrder(a.Type) > typeOrder(b.Type) || a.Type == b.Type && a.ID.Compare(b.ID) >= 0) {
				t.Errorf("Rank(%q): %s before %s at score %d", q, a.ID, b.ID, all[i].Score)
			}
		}
	}
}

func TestSearchJSON(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	out := ix.Search("walker", SearchOptions{Limit: 2, Explain: true})
	if out.Type != SearchType || out.SchemaVersion != 1 || out.Count != 3 || out.Limit != 2 || len(out.Results) != 2 || out.Budget != nil {
		t.Fatalf("Search(walker, limit 2) = %+v", out)
	}
	h := out.Results[0]
	if h.ID != "symbol:walk/names.go@mdWalker" || h.Path != "walk/names.go" || h.Title != "names.go@mdWalker" || !slices.Equal(h.Matched, []string{FieldID, FieldTitle}) {
		t.Errorf("first result %+v", h)
	}
	out = ix.Search("skips", SearchOptions{Explain: true})
	if len(out.Results) != 1 || out.Results[0].Path != "content/walkers.md" || !strings.Contains(out.Results[0].Excerpt, "walker skips a block") ||
		!slices.Equal(out.Results[0].Matched, []string{FieldText}) {
		t.Errorf("Search(skips) = %+v", out.Results)
	}
	if out := ix.Search("lock", SearchOptions{}); out.Results[0].Matched != nil {
		t.Errorf("without explain, matched = %q", out.Results[0].Matched)
	}
}

// TestSearchBudget: a budgeted answer fits, or says it does not with
// everything sheddable shed; with an ample budget it equals the unbudgeted
// one but for the budget.
func TestSearchBudget(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	free := ix.Search("e", SearchOptions{Limit: 50})
	freeJSON, _ := MarshalCompact(free)
	for tokens := 1; tokens < EstimateTokens(freeJSON)+200; tokens += 7 {
		out := ix.Search("e", SearchOptions{Limit: 50, Budget: tokens})
		data, _ := MarshalCompact(out)
		b := out.Budget
		if b == nil || b.Tokens != tokens || b.Estimate != EstimateTokens(data) || b.Estimator != Estimator {
			t.Fatalf("budget %d: report %+v, answer %d bytes", tokens, b, len(data))
		}
		if b.Fits != (b.Estimate <= tokens) {
			t.Errorf("budget %d: fits %t with estimate %d", tokens, b.Fits, b.Estimate)
		}
		if !b.Fits && len(out.Results) > 0 {
			t.Errorf("budget %d: does not fit, yet %d results kept", tokens, len(out.Results))
		}
		if len(b.Shed) == 0 {
			out.Budget = nil
			if got, _ := MarshalCompact(out); string(got) != string(freeJSON) {
				t.Errorf("budget %d: nothing shed, but the answer differs from the unbudgeted one", tokens)
			}
		} else if b.Shed[0] != "excerpts" {
			t.Errorf("budget %d: shed %q; excerpts go first", tokens, b.Shed)
		}
	}
}

// TestFold: folding keeps every character's length in UTF-8 and UTF-16,
// so offsets agree between the folded and the written text.
func TestFold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"REQ-7 Lock", "req-7 lock"}, {"SITUACIÓN", "situación"}, {"İstanbul", "İstanbul"}, {"ΣΑΣ", "σασ"}, {"\u212a", "\u212a"}, {"Ⱥ", "Ⱥ"},
	} {
		if got := fold(c.in); got != c.want {
			t.Errorf("fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range 8 {
			b.WriteRune(rune(rng.IntN(0x3000)))
		}
		s := strings.ToValidUTF8(b.String(), "")
		f := fold(s)
		if len(f) != len(s) || len(utf16.Encode([]rune(f))) != len(utf16.Encode([]rune(s))) || utf8.RuneCountInString(f) != utf8.RuneCountInString(s) {
			t.Fatalf("fold(%q) = %q changes lengths", s, f)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	files := map[string]string{"go.mod": "module example.com/shop\n"}
	for i := range 2000 {
		files[fmt.Sprintf("content/requirements/REQ-%d.md", i)] = fmt.Sprintf("---\ntitle: Requirement %d keeps the lock file whole\n---\nThe build writes file %d atomically and never damages the previous output.\n", i, i)
	}
	ix, _ := searchIndexOf(b, files)
	b.ReportAllocs()
	for b.Loop() {
		ix.Search("lock damages", SearchOptions{})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/query")
}
