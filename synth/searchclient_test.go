package synth

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The search page breaks ties by node number: the index's entries must be
// in the ranking's tie order (type, then id).
func TestSearchClientTieOrder(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	if len(ix.entries) < 5 {
		t.Fatalf("the fixture has %d nodes", len(ix.entries))
	}
	sorted := slices.IsSortedFunc(ix.entries, func(a, b SearchEntry) int {
		return cmp.Or(cmp.Compare(KindRank(a.Type), KindRank(b.Type)), a.ID.Compare(b.ID))
	})
	if !sorted {
		t.Errorf("search entries are not in tie order: %v", rankedIDs(ix, "lock", ""))
	}
}

// clientRank ranks query from the search page's shards the way
// assets/search.js does, with nothing but the client index: the test that
// the shards hold every number the Go ranking uses.
func clientRank(c ClientSearch, ix *SearchIndex, query, kind string) []Ranked {
	q := ix.parse(query) // the page parses through the same vocabulary (TestSearchAgreement)
	h := c.Head
	nf := len(h.Fields)
	// weights decodes nodes and their field frequencies into each
	// node's BM25F weight, summed in field order.
	weights := func(deltas []int32, freqs []int) map[int32]float64 {
		out := map[int32]float64{}
		at, d := 0, int32(0)
		for _, delta := range deltas {
			d += delta
			mask := freqs[at]
			at++
			w := 0.0
			for f := range nf {
				if mask&(1<<f) == 0 {
					continue
				}
				norm := 1.0
				if h.AvgLen[f] > 0 {
					norm = 1 - h.B[f] + h.B[f]*float64(h.Lens[int(d)*nf+f])/h.AvgLen[f]
				}
				w += h.Weights[f] * float64(freqs[at]) / norm
				at++
			}
			out[d] = w
		}
		return out
	}
	type posting struct {
		idf     float64
		weights map[int32]float64
	}
	postingsOf := func(s int32) *posting {
		raw, ok := c.Postings[int(s)%h.Postings][strconv.Itoa(int(s))]
		if !ok {
			return nil
		}
		return &posting{idf: raw[0].(float64), weights: weights(raw[1].([]int32), raw[2].([]int))}
	}
	pairWeight := func(i, a, b int32) float64 {
		raw, ok := c.Pairs[SearchPairShard(a, b, h.Pairs)][strconv.Itoa(int(a))][strconv.Itoa(int(b))]
		if !ok {
			return 0
		}
		return weights(raw[0].([]int32), raw[1].([]int))[i]
	}
	exact := func(s string, tier int) []int32 {
		if s == "" {
			return nil
		}
		return c.Exact[SearchExactShard(s, h.Exact)][s][tier]
	}
	ps := make([]*posting, len(q.terms))
	nodes := map[int32]bool{}
	for k, t := range q.terms {
		if t.stem >= 0 {
			if ps[k] = postingsOf(t.stem); ps[k] != nil {
				for d := range ps[k].weights {
					nodes[d] = true
				}
			}
		}
	}
	tiers := map[int32]int{}
	for _, d := range exact(q.words, 1) {
		tiers[d], nodes[d] = TierExactTitle, true
	}
	for _, d := range exact(q.whole, 0) {
		tiers[d], nodes[d] = TierExactID, true
	}
	var out []Ranked
	for d := range nodes {
		if kind != "" && (h.Types[d] >= len(h.TypeNames) || h.TypeNames[h.Types[d]] != kind) {
			continue
		}
		r := Ranked{Index: int(d), Tier: tiers[d], matched: make([]bool, len(q.terms))}
		total, adj := 0.0, 0.0
		for k, p := range ps {
			if p == nil {
				continue
			}
			w, ok := p.weights[d]
			if !ok {
				continue
			}
			r.matched[k] = true
			total += p.idf * w / (h.K1 + w)
		}
		for k := 1; k < len(q.terms); k++ {
			a, b := q.terms[k-1].stem, q.terms[k].stem
			if !r.matched[k-1] || !r.matched[k] {
				continue
			}
			if w := pairWeight(d, a, b); w > 0 {
				adj += h.Adjacency * (ps[k-1].idf + ps[k].idf) * w / (h.K1 + w)
			}
		}
		r.Score = math.Round((total+adj)*1e6) / 1e6
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		return cmp.Or(cmp.Compare(b.Tier, a.Tier), cmp.Compare(b.Score, a.Score), cmp.Compare(a.Index, b.Index))
	})
	return out
}

// The search page's shards rank every query as the Go reference does:
// the same candidates, tiers, scores and order.
func TestSearchClientRanks(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	c := ix.Client()
	for _, q := range []string{"lock", "lock file", "the lock file", "walker block", "block", "REQ-7", "requirement:REQ-7",
		"clock skew is tolerated", "Block lists", "mdWalker", "lockfile", "names.go", "unlockAll clears", "zzz", "the", ""} {
		for _, kind := range []string{"", "requirement", "symbol"} {
			want, got := ix.Rank(q, kind), clientRank(c, ix, q, kind)
			if len(want) != len(got) {
				t.Errorf("%q kind %q: the shards give %d candidates, Go %d", q, kind, len(got), len(want))
				continue
			}
			for i := range want {
				if want[i].Index != got[i].Index || want[i].Tier != got[i].Tier || want[i].Score != got[i].Score {
					t.Errorf("%q kind %q #%d: the shards give node %d tier %d score %v, Go node %d tier %d score %v",
						q, kind, i, got[i].Index, got[i].Tier, got[i].Score, want[i].Index, want[i].Tier, want[i].Score)
				}
			}
		}
	}
}

// Text shards hold every node once, in order, starting where the head
// says; every stem's postings are in the shard its number names.
func TestSearchClientShards(t *testing.T) {
	ix, _ := searchIndexOf(t, searchFixture)
	c := ix.Client()
	n := 0
	for k, shard := range c.Texts {
		if c.Head.Texts[k] != n || len(shard) == 0 {
			t.Errorf("text shard %d starts at node %d with %d nodes; want node %d", k, c.Head.Texts[k], len(shard), n)
		}
		for _, e := range shard {
			if e[0] != ix.entries[n].ID.String() {
				t.Errorf("text shard %d: node %d is %v, want %s", k, n, e[0], ix.entries[n].ID)
			}
			n++
		}
	}
	if n != len(ix.entries) || c.Head.Docs != n || len(c.Head.Types) != n || len(c.Head.Lens) != n*int(numFields) {
		t.Errorf("the shards hold %d nodes, the head %d (%d types, %d lengths); the index %d", n, c.Head.Docs, len(c.Head.Types), len(c.Head.Lens), len(ix.entries))
	}
	stems := 0
	for k, shard := range c.Postings {
		for s := range shard {
			stem, _ := strconv.Atoi(s)
			if stem%c.Head.Postings != k {
				t.Errorf("stem %d is in postings shard %d of %d", stem, k, c.Head.Postings)
			}
			stems++
		}
	}
	if stems != len(ix.stems) {
		t.Errorf("the postings shards hold %d stems, the index %d", stems, len(ix.stems))
	}
}

// Nodes without text, first or all, are in text shards too; text beyond
// a shard's size starts the next.
func TestSearchClientTexts(t *testing.T) {
	entries := []SearchEntry{
		{ID: NodeID{Type: "symbol", Key: "a.go@A"}, Type: "symbol", Title: "A"},
		{ID: NodeID{Type: "symbol", Key: "a.go@B"}, Type: "symbol", Title: "B"},
		{ID: NodeID{Type: "page", Key: "one"}, Type: "page", Title: "One", Text: strings.Repeat("word ", SearchShardText/5)},
		{ID: NodeID{Type: "page", Key: "two"}, Type: "page", Title: "Two", Text: "short"},
	}
	c := NewSearchIndex(entries, "en").Client()
	if want := []int{0, 3}; !slices.Equal(c.Head.Texts, want) {
		t.Errorf("text shards start at %v, want %v", c.Head.Texts, want)
	}
	if c = NewSearchIndex(entries[:2], "en").Client(); !slices.Equal(c.Head.Texts, []int{0}) || len(c.Texts) != 1 || len(c.Texts[0]) != 2 {
		t.Errorf("nodes without text: shards %v, %d", c.Head.Texts, len(c.Texts))
	}
	if c = NewSearchIndex(nil, "en").Client(); len(c.Head.Texts) != 0 || len(c.Texts) != 0 {
		t.Errorf("no nodes: shards %v, %d", c.Head.Texts, len(c.Texts))
	}
}

// SearchExactShard is FNV-1a: assets/search.js computes the same numbers.
func TestSearchExactShard(t *testing.T) {
	for s, want := range map[string]uint32{"": 0x811c9dc5, "a": 0xe40c292c, "foobar": 0xbf9cf968} {
		if got := SearchExactShard(s, math.MaxInt32); uint32(got) != want%math.MaxInt32 {
			t.Errorf("SearchExactShard(%q) = %d, want %d", s, got, want%math.MaxInt32)
		}
	}
}
