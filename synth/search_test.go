package synth

import (
	"fmt"
	"maps"
	"math"
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
	return searchIndexIn(t, files, "en")
}

func searchIndexIn(t testing.TB, files map[string]string, lang string) (*SearchIndex, *Graph) {
	t.Helper()
	g, _, m := buildGraph(t, files, slices.Sorted(maps.Keys(files)), codeanchors.NewLock())
	idx := NewSearch(g, m, func(NodeID) string { return "" })
	return NewSearchIndex(idx.Entries, lang), g
}

// rankedIDs is the ranking's ids, the tier marked "!" (exact id) or "="
// (exact title).
func rankedIDs(ix *SearchIndex, q, kind string) []string {
	var ids []string
	for _, r := range ix.Rank(q, kind) {
		ids = append(ids, ix.entries[r.Index].ID.String()+map[int]string{TierExactID: "!", TierExactTitle: "=", TierWords: ""}[r.Tier])
	}
	return ids
}

func TestSearchRanking(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	for _, c := range []struct {
		q    string
		want []string // the ranking's head
	}{
		// The page lock is an exact id; then what is about the lock file.
		{"lock", []string{"page:lock!", "requirement:REQ-7"}},
		{"REQ-7", []string{"requirement:REQ-7!"}},
		{"requirement:req-7", []string{"requirement:REQ-7!"}},
		{"walk/names.go@mdWalker.block", []string{"symbol:walk/names.go@mdWalker.block!"}},
		{"the lock file is never damaged", []string{"requirement:REQ-7="}},
		// Stemming: "damages" and "damaged" are one term; stop words go.
		{"what damages the lock files", []string{"requirement:REQ-7"}},
		// camelCase: a part of a name finds it, and the whole name too.
		{"walker", []string{"page:walkers", "symbol:walk/names.go@mdWalker", "symbol:walk/names.go@mdWalker.block"}},
		{"mdwalker", []string{"symbol:walk/names.go@mdWalker", "symbol:walk/names.go@mdWalker.block"}},
		{"clock skew", []string{"requirement:REQ-10"}},
		{"blocklist", []string{"symbol:walk/names.go@Blocklist", "decision:ADR-1"}},
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
	// Without the exact-id page, "lock" puts the requirement first; the
	// confusable names that merely contain the letters are no candidates.
	files := maps.Clone(searchFixture)
	delete(files, "content/lock.md")
	ix2, _ := searchIndexOf(t, files)
	got := rankedIDs(ix2, "lock", "")
	if got[0] != "requirement:REQ-7" {
		t.Errorf(`Rank("lock") = %q; want the lock-file requirement first`, got)
	}
	for _, confusable := range []string{"Blocklist", "unlockAll", "mdWalker.block", "clock"} {
		if slices.Contains(got, "symbol:walk/names.go@"+confusable) {
			t.Errorf(`Rank("lock") = %q holds %s, which has no word "lock"`, got, confusable)
		}
	}
}

// TestSearchAdjacency: of two nodes with the same words, the one where
// the query's terms stand next to each other ranks first.
func TestSearchAdjacency(t *testing.T) {
	ix, _ := searchIndexOf(t, map[string]string{
		"content/a.md": "# Notes\n\nThe file is big. The lock is small.\n",
		"content/b.md": "# Notes\n\nThe lock file is small. It is big.\n",
	})
	if got := rankedIDs(ix, "lock file", ""); !slices.Equal(got, []string{"page:b", "page:a"}) {
		t.Errorf(`Rank("lock file") = %q, want page:b (adjacent) first`, got)
	}
	if got := rankedIDs(ix, "file lock", ""); !slices.Equal(got, []string{"page:a", "page:b"}) {
		t.Errorf(`Rank("file lock") = %q, want ties by id: adjacency is in query order`, got)
	}
}

// TestSearchStemming: English and Spanish stemming and stop words.
func TestSearchStemming(t *testing.T) {
	en, _ := searchIndexOf(t, map[string]string{"content/requirements/REQ-1.md": "---\ntitle: Each reason is translated once\n---\nThe reasons are verified.\n"})
	out := en.Search("what verifies the translations of reasons", SearchOptions{})
	// "verifies" is not in the wiki: the page has no stemmer, so it is
	// corrected to the word one edit away, "verified" (the same stem).
	if out.Count != 1 || !slices.Equal(out.Terms, []string{"verified", "translations", "reasons"}) || out.Results[0].Coverage != 0.67 || out.Corrected["verifies"] != "verified" {
		t.Errorf("EN: %+v", out)
	}
	if !slices.Equal(out.Results[0].Matched, []string{"verified", "reasons"}) {
		t.Errorf("EN: matched %q", out.Results[0].Matched)
	}
	if out := en.Search("the", SearchOptions{}); !slices.Equal(out.Terms, []string{"the"}) || out.Count != 0 || !strings.Contains(out.Hint, "stop words") {
		t.Errorf("EN, stop words only: %+v", out)
	}
	es, _ := searchIndexIn(t, map[string]string{"content/requirements/REQ-1.md": "---\ntitle: Las razones se traducen\n---\nCada razón tiene su traducción.\n"}, "es")
	out = es.Search("la razón de las traducción", SearchOptions{Explain: true})
	if out.Count != 1 || !slices.Equal(out.Terms, []string{"razón", "traducción"}) || out.Results[0].Coverage != 1 || out.Results[0].Explain.Fields["title"] == 0 {
		t.Errorf("ES: %+v", out) // "razón" is one stem with the title's "razones"
	}
	if es.words["razón"].Stem != es.words["razones"].Stem {
		t.Errorf("ES stems: %+v", es.words)
	}
	// In English, "las" is no stop word and nothing matches it.
	en2, _ := searchIndexIn(t, map[string]string{"content/requirements/REQ-1.md": "---\ntitle: Las razones\n---\nx\n"}, "en")
	if out := en2.Search("las", SearchOptions{}); out.Count != 1 {
		t.Errorf("EN, las: %+v", out)
	}
}

// TestSearchTypos: a word found nowhere is corrected to the most frequent
// vocabulary word one edit away (two for long words); nothing near gives
// a hint, never a bare empty list.
func TestSearchTypos(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	out := ix.Search("lokc flie", SearchOptions{})
	if out.Corrected["lokc"] != "lock" || out.Corrected["flie"] != "file" || out.Results[0].ID != "requirement:REQ-7" || out.Hint != "" {
		t.Errorf("lokc flie: %+v", out)
	}
	if out := ix.Search("damagedd", SearchOptions{}); out.Corrected["damagedd"] != "damaged" {
		t.Errorf("damagedd: %+v", out)
	}
	// "xlock" is one edit from "lock", "block" and "clock": the most
	// frequent wins.
	if out := ix.Search("xlock", SearchOptions{}); out.Corrected["xlock"] != "lock" {
		t.Errorf("xlock: %+v", out)
	}
	out = ix.Search("walkerzzz", SearchOptions{})
	if out.Count != 0 || len(out.Results) != 0 || !strings.Contains(out.Hint, `"walkerzzz" is in no node; near words: walker`) {
		t.Errorf("walkerzzz: %+v", out)
	}
	if out := ix.Search("skips", SearchOptions{Kind: "requirement"}); out.Count != 0 || !strings.Contains(out.Hint, "no requirement matches; 1 nodes of other types do") {
		t.Errorf("skips, kind requirement: %+v", out)
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"lock", "lock", 0}, {"lokc", "lock", 1}, {"lck", "lock", 1}, {"locks", "lock", 1}, {"kcol", "lock", 3}, {"situación", "situacion", 1}} {
		if got := editDistance(c.a, c.b, 3); got != min(c.d, 4) {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// TestSearchKindFilter: filtering by kind keeps the relative order.
func TestSearchKindFilter(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	for _, q := range []string{"lock", "walk", "block", "the", "e"} {
		all := ix.Rank(q, "")
		for _, kind := range NodeTypes {
			var want []string
			for _, r := range all {
				if e := ix.entries[r.Index]; string(e.Type) == kind {
					want = append(want, fmt.Sprint(e.ID, r.Score))
				}
			}
			var got []string
			for _, r := range ix.Rank(q, kind) {
				got = append(got, fmt.Sprint(ix.entries[r.Index].ID, r.Score))
			}
			if !slices.Equal(got, want) {
				t.Errorf("Rank(%q, %s) = %v, want the unfiltered ranking's %v", q, kind, got, want)
			}
		}
		// Ties: by type order, then id.
		for i := 1; i < len(all); i++ {
			a, b := ix.entries[all[i-1].Index], ix.entries[all[i].Index]
			if all[i-1].Tier == all[i].Tier && all[i-1].Score == all[i].Score && (KindRank(a.Type) > KindRank(b.Type) || a.Type == b.Type && a.ID.Compare(b.ID) >= 0) {
				t.Errorf("Rank(%q): %s before %s at score %v", q, a.ID, b.ID, all[i].Score)
			}
		}
	}
}

// TestStopWordLists: the stop lists the client gets are the library's.
func TestStopWordLists(t *testing.T) {
	for lang, words := range stopWordLists {
		_, stop := stemmer(lang)
		for _, w := range words {
			if !stop(w) {
				t.Errorf("%s: %q is no stop word of the library", lang, w)
			}
		}
	}
	if len(stopWordLists["en"]) != 127 || len(stopWordLists["es"]) != 313 {
		t.Errorf("stop lists of %d and %d words; the library has 127 and 313", len(stopWordLists["en"]), len(stopWordLists["es"]))
	}
}

func TestSearchJSON(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	out := ix.Search("walker", SearchOptions{Limit: 2, Explain: true})
	if out.Type != SearchType || out.SchemaVersion != 2 || out.Count != 3 || out.Limit != 2 || len(out.Results) != 2 || out.Budget != nil {
		t.Fatalf("Search(walker, limit 2) = %+v", out)
	}
	h := out.Results[1]
	if h.ID != "symbol:walk/names.go@mdWalker" || h.Path != "walk/names.go" || h.Title != "names.go@mdWalker" || len(h.Lines) != 2 || h.Lines[0] < 1 ||
		h.Explain == nil || h.Explain.Fields["id"] <= 0 || h.Explain.Fields["title"] <= 0 || h.Explain.Tier != "words" {
		t.Errorf("first result %+v %+v", h, h.Explain)
	}
	sum := h.Explain.Adjacency
	for _, v := range h.Explain.Fields {
		sum += v
	}
	if math.Abs(sum-h.Score) > 1e-5 {
		t.Errorf("explain adds up to %v, score %v", sum, h.Score)
	}
	out = ix.Search("skips", SearchOptions{})
	if len(out.Results) != 1 || out.Results[0].Path != "content/walkers.md" || !strings.Contains(out.Results[0].Excerpt, "walker skips a block") ||
		!slices.Equal(out.Results[0].Matched, []string{"skips"}) || out.Results[0].Explain != nil {
		t.Errorf("Search(skips) = %+v", out.Results)
	}
}

// TestSearchExcerpt: the excerpt is the passage with the most of the
// query's terms, not the text's start.
func TestSearchExcerpt(t *testing.T) {
	long := strings.Repeat("Filler words about other things. ", 30)
	ix, _ := searchIndexOf(t, map[string]string{
		"content/p.md": "# P\n\nThe lock is mentioned here. " + long + "Drift reasons are translated once, in one table. " + long,
	})
	ex := ix.Search("drift reasons", SearchOptions{}).Results[0].Excerpt
	if !strings.HasPrefix(ex, "…") || !strings.Contains(ex, "Drift reasons are translated once") || utf8.RuneCountInString(ex) > MaxExcerpt {
		t.Errorf("excerpt %q", ex)
	}
}

// TestSearchBudget: a budgeted answer fits, or says it does not with
// everything sheddable shed; with an ample budget it equals the unbudgeted
// one but for the budget.
func TestSearchBudget(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	free := ix.Search("walk lock file block", SearchOptions{Limit: 50})
	freeJSON, _ := MarshalCompact(free)
	for tokens := 1; tokens < EstimateTokens(freeJSON)+200; tokens += 7 {
		out := ix.Search("walk lock file block", SearchOptions{Limit: 50, Budget: tokens})
		data, _ := MarshalCompact(out)
		b := out.Budget
		if b == nil || b.Tokens != tokens || b.Estimate != EstimateTokens(data) || b.Estimator != Estimator {
			t.Fatalf("budget %d: report %+v, answer %d bytes", tokens, b, len(data))
		}
		if b.Fits != (b.Estimate <= tokens) {
			t.Errorf("budget %d: fits %t with estimate %d", tokens, b.Fits, b.Estimate)
		}
		if !b.Fits && len(out.Results) != min(KeptResults, len(free.Results)) {
			t.Errorf("budget %d: does not fit, yet %d results kept", tokens, len(out.Results))
		}
		if len(b.Shed) == 0 {
			out.Budget = nil
			if got, _ := MarshalCompact(out); string(got) != string(freeJSON) {
				t.Errorf("budget %d: nothing shed, but the answer differs from the unbudgeted one", tokens)
			}
		} else if b.Shed[0] != "excerpts" {
			t.Errorf("budget %d: shed %q; excerpts go first", tokens, b.Shed)
		} else if len(out.Results) < KeptResults && b.Fits {
			t.Errorf("budget %d: fits with %d results; the first %d are never shed", tokens, len(out.Results), KeptResults)
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
