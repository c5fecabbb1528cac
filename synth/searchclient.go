package synth

import (
	"hash/fnv"
	"slices"
	"strconv"
)

// The search page's index (SPEC 5) is [SearchIndex.Client]: the numbers
// "tracewiki search" ranks with, cut so that the page loads only what a
// query needs. The head (the vocabulary with each word's stem and
// frequency, the field weights and statistics, and each node's type and
// field lengths) comes with the page; the rest is in shards the page
// loads on demand:
//
//   - postings, by stem: for each node holding the stem, its term
//     frequency in each field, and the stem's idf;
//   - pairs, by the pair of stems: the nodes where stem a is followed by
//     stem b in a field, for the adjacency bonus;
//   - exact, by a hash of the folded string: the nodes whose id, key or
//     title words are that string, for the exact tiers;
//   - texts, by node: what a result shows (id, title, link, state, lines)
//     and the text its excerpt is cut from, loaded for the results shown.
//
// Nodes are numbered in node order, which is the ranking's tie order
// (type, then id), so the page breaks ties by number.

// SearchClientSchemaVersion versions the search page's index: api/search.js
// and its shards.
const SearchClientSchemaVersion = 3

// Shard sizes: a query loads one postings shard per term, one pairs shard
// per two adjacent terms, up to two exact shards and the text shards of
// the results it shows.
const (
	// SearchShardPostings is about how many (stem, node) postings a
	// postings shard holds.
	SearchShardPostings = 4096
	// SearchShardPairs is about how many (stem, stem, node) pairs a pairs
	// shard holds.
	SearchShardPairs = 4096
	// SearchShardKeys is about how many exact strings an exact shard holds.
	SearchShardKeys = 512
	// SearchShardText is about how many bytes of node texts a text shard
	// holds; a shard holds at least one node.
	SearchShardText = 16 << 10
)

// ClientSearchHead is api/search.js: what every query needs.
type ClientSearchHead struct {
	SchemaVersion int       `json:"schemaVersion"`
	Language      string    `json:"language"`
	Fields        []string  `json:"fields"`
	Weights       []float64 `json:"weights"`
	B             []float64 `json:"b"`
	K1            float64   `json:"k1"`
	Adjacency     float64   `json:"adjacency"`
	AvgLen        []float64 `json:"avglen"`
	// Words maps each folded word to [stem index, frequency]; a stop
	// word's stem index is -1.
	Words map[string][2]int `json:"words"`
	// Stop are the language's stop words, sorted.
	Stop []string `json:"stop"`
	Docs int      `json:"docs"`
	// TypeNames are the node types in SPEC 3's order; Types each node's
	// type as its index there; Lens each node's field lengths, numFields
	// per node.
	TypeNames []string `json:"typeNames"`
	Types     []int    `json:"types"`
	Lens      []int    `json:"lens"`
	// Shard counts: stem s's postings are in postings shard s mod
	// Postings, the pair (a, b) in pairs shard [SearchPairShard]; a string's exact
	// nodes in exact shard [SearchExactShard]; node i's text in the text
	// shard k with Texts[k] <= i < Texts[k+1].
	Postings int   `json:"postings"`
	Pairs    int   `json:"pairs"`
	Exact    int   `json:"exact"`
	Texts    []int `json:"texts"`
}

// ClientSearch is the search page's index: the head and the shards, each
// shard's entries by key (JSON orders them).
type ClientSearch struct {
	Head ClientSearchHead
	// Postings[k][stem] = [idf, nodes (each the difference from the one
	// before), field frequencies]: per node a bit mask of the fields the
	// stem is in, then its frequency in each of them.
	Postings []map[string][3]any
	// Pairs[k][a][b] = [nodes (differences) where stem a is followed by
	// stem b in a field, per node a field mask and how often in each].
	Pairs []map[string]map[string][2]any
	// Exact[k][string] = [nodes whose folded id or key is the string,
	// nodes whose title words are].
	Exact []map[string][2][]int32
	// Texts[k] are the nodes of text shard k, each [id, type, title,
	// path, url, stale, lines, text].
	Texts [][][]any
}

// SearchExactShard is the exact shard of string s among n: FNV-1a (32
// bits) of its UTF-8 bytes, mod n. assets/search.js hashes the same way.
func SearchExactShard(s string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int(h.Sum32() % uint32(n))
}

// shardsFor is how many shards hold n things at per a shard: at least one.
func shardsFor(n, per int) int { return max(1, (n+per-1)/per) }

// Client returns the index as the search page reads it.
func (ix *SearchIndex) Client() ClientSearch {
	h := newClientHead(ix.language, ix.entries)
	h.AvgLen = ix.avgLen[:]
	h.Words = make(map[string][2]int, len(ix.words))
	for w, v := range ix.words {
		h.Words[w] = [2]int{int(v.Stem), v.Freq}
	}
	h.Lens = make([]int, 0, numFields*len(ix.docs))
	for i := range ix.docs {
		for _, seq := range ix.docs[i].fields {
			h.Lens = append(h.Lens, len(seq))
		}
	}
	c := ClientSearch{}
	c.Postings = ix.clientPostings(&h)
	c.Pairs = ix.clientPairs(&h)
	c.Exact = ix.clientExact(&h)
	c.Texts = ix.clientTexts(&h)
	c.Head = h
	return c
}

// newClientHead is the head of the client index of entries in language,
// but for what their words make: the vocabulary, the lengths and the
// shard counts.
func newClientHead(language string, entries []SearchEntry) ClientSearchHead {
	h := ClientSearchHead{SchemaVersion: SearchClientSchemaVersion, Language: language, K1: SearchK1, Adjacency: SearchAdjacency,
		Docs: len(entries), Types: make([]int, len(entries)), Texts: []int{}}
	for _, f := range searchFields {
		h.Fields, h.Weights, h.B = append(h.Fields, f.Name), append(h.Weights, f.Weight), append(h.B, f.B)
	}
	h.Stop = slices.Sorted(slices.Values(stopWordLists[language]))
	h.TypeNames = NodeTypes
	for i := range entries {
		h.Types[i] = KindRank(entries[i].Type)
	}
	return h
}

// clientPostings cuts the postings into shards by stem.
func (ix *SearchIndex) clientPostings(h *ClientSearchHead) []map[string][3]any {
	total := 0
	for _, p := range ix.postings {
		total += len(p)
	}
	h.Postings = shardsFor(total, SearchShardPostings)
	// Each stem's nodes and frequencies, node after node (so ascending),
	// each node's fields counted in one pass.
	nodes := make([][]int32, len(ix.stems))
	freqs := make([][]int, len(ix.stems))
	prev := make([]int32, len(ix.stems))
	counts := map[int32][numFields]int{}
	for d := range ix.docs {
		clear(counts)
		for f, seq := range ix.docs[d].fields {
			for _, s := range seq {
				c := counts[s]
				c[f]++
				counts[s] = c
			}
		}
		// Each stem gets one entry per node: the map's order is no matter.
		for s, c := range counts {
			nodes[s] = append(nodes[s], int32(d)-prev[s])
			prev[s] = int32(d)
			freqs[s] = appendFreqs(freqs[s], c)
		}
	}
	out := make([]map[string][3]any, h.Postings)
	for k := range out {
		out[k] = map[string][3]any{}
	}
	for s := range ix.stems {
		out[s%h.Postings][strconv.Itoa(s)] = [3]any{ix.idf[s], nodes[s], freqs[s]}
	}
	return out
}

// SearchPairShard is the pairs shard of stems a and b among n: (31a + b)
// mod n, so that a frequent stem's pairs spread over the shards.
func SearchPairShard(a, b int32, n int) int { return (31*int(a) + int(b)) % n }

// clientPairs cuts the adjacent stem pairs of every field into shards by
// [SearchPairShard]: per pair, the nodes that hold it and how often in
// each field, encoded as postings are.
func (ix *SearchIndex) clientPairs(h *ClientSearchHead) []map[string]map[string][2]any {
	type list struct {
		docs  []int32
		freqs []int
	}
	lists := map[[2]int32]*list{}
	total := 0
	counts := map[[2]int32][numFields]int{}
	for i := range ix.docs {
		clear(counts)
		for f, seq := range ix.docs[i].fields {
			for j := 1; j < len(seq); j++ {
				k := [2]int32{seq[j-1], seq[j]}
				c := counts[k]
				c[f]++
				counts[k] = c
			}
		}
		// Nodes come in order, so each pair's nodes ascend.
		for k, c := range counts {
			l := lists[k]
			if l == nil {
				l = &list{}
				lists[k] = l
			}
			l.docs = append(l.docs, int32(i))
			l.freqs = appendFreqs(l.freqs, c)
		}
		total += len(counts)
	}
	h.Pairs = shardsFor(total, SearchShardPairs)
	out := make([]map[string]map[string][2]any, h.Pairs)
	for k := range out {
		out[k] = map[string]map[string][2]any{}
	}
	for ab, l := range lists {
		shard := out[SearchPairShard(ab[0], ab[1], h.Pairs)]
		a, b := strconv.Itoa(int(ab[0])), strconv.Itoa(int(ab[1]))
		if shard[a] == nil {
			shard[a] = map[string][2]any{}
		}
		deltas(l.docs)
		shard[a][b] = [2]any{l.docs, l.freqs}
	}
	return out
}

// appendFreqs appends a node's frequencies in each field to freqs: a bit
// mask of the fields it is in, then its frequency in each of them.
func appendFreqs(freqs []int, counts [numFields]int) []int {
	mask, start := 0, len(freqs)
	freqs = append(freqs, 0)
	for f, n := range counts {
		if n > 0 {
			mask |= 1 << f
			freqs = append(freqs, n)
		}
	}
	freqs[start] = mask
	return freqs
}

// deltas replaces each number of an ascending list by its difference
// from the one before.
func deltas(xs []int32) {
	for j := len(xs) - 1; j > 0; j-- {
		xs[j] -= xs[j-1]
	}
}

// clientExact cuts the strings of the exact tiers into shards by hash:
// each node's folded id and key, and its title words.
func (ix *SearchIndex) clientExact(h *ClientSearchHead) []map[string][2][]int32 {
	type key struct {
		s    string
		tier int // 0 id, 1 title
		doc  int32
	}
	var keys []key
	for i := range ix.entries {
		id := &ix.entries[i].ID
		whole, local := fold(id.String()), fold(id.Key)
		keys = append(keys, key{whole, 0, int32(i)})
		if local != whole {
			keys = append(keys, key{local, 0, int32(i)})
		}
		if ix.titles[i] != "" {
			keys = append(keys, key{ix.titles[i], 1, int32(i)})
		}
	}
	h.Exact = shardsFor(len(keys), SearchShardKeys)
	out := make([]map[string][2][]int32, h.Exact)
	for k := range out {
		out[k] = map[string][2][]int32{}
	}
	for _, k := range keys {
		shard := out[SearchExactShard(k.s, h.Exact)]
		v := shard[k.s]
		for t := range v {
			if v[t] == nil {
				v[t] = []int32{}
			}
		}
		v[k.tier] = append(v[k.tier], k.doc)
		shard[k.s] = v
	}
	return out
}

// clientTexts cuts the nodes, in order, into shards of about
// SearchShardText bytes of text.
func (ix *SearchIndex) clientTexts(h *ClientSearchHead) [][][]any {
	h.Texts = textShardStarts(ix.entries)
	out := make([][][]any, len(h.Texts))
	for k, start := range h.Texts {
		out[k] = textShard(ix.entries, start, shardEnd(h.Texts, k, len(ix.entries)))
	}
	return out
}

// textShardStarts are the first nodes of the text shards of entries.
func textShardStarts(entries []SearchEntry) []int {
	starts := []int{}
	size := 0
	for i := range entries {
		e := &entries[i]
		if len(starts) == 0 || startsTextShard(size, e) {
			starts = append(starts, i)
			size = 0
		}
		size += textSize(e)
	}
	return starts
}

// startsTextShard reports whether e starts a text shard after a node
// whose shard holds size bytes.
func startsTextShard(size int, e *SearchEntry) bool {
	return size > 0 && size+len(e.Text) > SearchShardText
}

// textSize is how many bytes e counts for in its text shard.
func textSize(e *SearchEntry) int { return len(e.Text) + len(e.Title) + len(e.URL) + len(e.Path) }

// shardEnd is where text shard k of n nodes ends, starts being each
// shard's first node.
func shardEnd(starts []int, k, n int) int {
	if k+1 < len(starts) {
		return starts[k+1]
	}
	return n
}

// textShard is the text shard of entries[start:end].
func textShard(entries []SearchEntry, start, end int) [][]any {
	out := make([][]any, 0, end-start)
	for i := start; i < end; i++ {
		e := &entries[i]
		var lines any
		if e.Lines != nil {
			lines = e.Lines
		}
		out = append(out, []any{e.ID.String(), string(e.Type), e.Title, e.Path, e.URL, e.Stale, lines, e.Text})
	}
	return out
}
