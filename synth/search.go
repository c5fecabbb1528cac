package synth

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Search ranks the nodes of the search index for a query (SPEC 5). It is
// the reference implementation: assets/search.js runs the same algorithm
// on the numbers the build writes from the same [SearchIndex], and a test
// checks that both give the same top results for a corpus of queries.
//
// A query is folded and split into words (runs of letters and digits).
// Each word is looked up in the vocabulary of the index, which gives its
// stem; stop words are dropped. A word the vocabulary lacks is replaced by
// the most frequent vocabulary word at edit distance 1 (2 for words of 8
// or more letters), and the answer says so in "corrected". The query
// word's stem is never computed at query time, so the page, which has no
// stemmer, and this code stem alike.
//
// Every node holding at least one query term in a field is a candidate.
// Candidates are ordered by tier (an exact id, then an exact title, then
// the rest), then by score: BM25F over the fields of [searchFields], plus
// a bonus for two consecutive query terms that stand next to each other in
// a field (BM25F of the pair, saturated, times [SearchAdjacency] of their
// idfs); ties by node type in the order of SPEC 3, then by id.

// Bounds of search and lookup answers.
const (
	// DefaultSearchLimit is how many results search returns unless told.
	DefaultSearchLimit = 10
	// MaxExcerpt is the length, in characters, of every excerpt of search
	// and lookup.
	MaxExcerpt = 240
	// ExcerptWords is the width, in words, of the passages an excerpt is
	// chosen among.
	ExcerptWords = 24
	// KeptResults is how many results a budget never sheds.
	KeptResults = 5
	// HintWords is how many near vocabulary words the hint names per word.
	HintWords = 3
	// LongWord is the length, in letters, from which a typo may be two
	// edits away.
	LongWord = 8
	// ShortestTypo is the length, in letters, below which a word is not
	// corrected: a short word is a few edits from too many others, and a
	// stop word the wiki lacks ("how") is one.
	ShortestTypo = 4
)

// Tiers of the ranking, best first.
const (
	TierExactID    = 2
	TierExactTitle = 1
	TierWords      = 0
)

// SearchType and LookupType name the two knowledge answers in their JSON.
const (
	SearchType = "knowledge-search"
	LookupType = "knowledge-lookup"
)

// KnowledgeSchemaVersion versions the lookup JSON, SearchSchemaVersion
// the search JSON (SearchClientSchemaVersion the search page's index).
const (
	KnowledgeSchemaVersion = 1
	SearchSchemaVersion    = 2
)

// NodeTypes lists every node type in the order of SPEC 3: the values
// search's --kind accepts.
var NodeTypes = func() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, string(k.Type))
	}
	return out
}()

// SearchOptions says what [SearchIndex.Search] returns.
type SearchOptions struct {
	Kind    string // a node type; "" for all
	Limit   int    // results returned; 0 means DefaultSearchLimit
	Explain bool   // give each field's contribution to each score
	Budget  int    // tokens; 0 means no budget
}

// SearchResults is the JSON of "tracewiki search" and of the MCP search tool.
type SearchResults struct {
	Type          string `json:"type"`
	SchemaVersion int    `json:"schemaVersion"`
	Query         string `json:"query"`
	Kind          string `json:"kind,omitempty"`
	// Terms are the query's words that were searched: stop words dropped
	// (unless nothing else is left), typos corrected.
	Terms     []string          `json:"terms"`
	Corrected map[string]string `json:"corrected,omitempty"` // query word → vocabulary word
	Count     int               `json:"count"`               // every candidate, of which Results are the best Limit
	Limit     int               `json:"limit"`
	Results   []SearchHit       `json:"results"`
	Hint      string            `json:"hint,omitempty"` // only when nothing matched: why, and near words
	Budget    *Budget           `json:"budget,omitempty"`
}

// SearchHit is one search result.
type SearchHit struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Title    string   `json:"title"`
	Path     string   `json:"path"`
	Score    float64  `json:"score"`
	Coverage float64  `json:"coverage"` // the share of Terms it matched, to 2 decimals
	Matched  []string `json:"matched"`  // the Terms it matched
	Stale    bool     `json:"stale"`
	Lines    []int    `json:"lines,omitempty"` // a symbol's or test's [start, end]
	Excerpt  string   `json:"excerpt"`
	// Explain, with --explain, splits the score.
	Explain *SearchExplain `json:"explain,omitempty"`
}

// SearchExplain splits a result's score: its tier, each field's share of
// the BM25F score and the adjacency bonus (they add up to the score, but
// for rounding).
type SearchExplain struct {
	Tier      string             `json:"tier"` // "exact id", "exact title" or "words"
	Fields    map[string]float64 `json:"fields"`
	Adjacency float64            `json:"adjacency"`
}

// tierNames are the tiers as --explain names them.
var tierNames = map[int]string{TierExactID: "exact id", TierExactTitle: "exact title", TierWords: "words"}

// queryTerm is a term of a query: the word searched for and its stem's
// index (stopStem for a stop word, noStem for a word found nowhere).
type queryTerm struct {
	word string
	stem int32
}

const noStem = -2

// parsedQuery is a query as the index understands it.
type parsedQuery struct {
	whole     string // the folded query, white space collapsed: for the exact id
	words     string // the folded query's words joined by one space: for the exact title
	terms     []queryTerm
	corrected map[string]string
	unknown   []string // words neither in the vocabulary nor near one
}

// parse looks query's words up in the vocabulary.
func (ix *SearchIndex) parse(query string) parsedQuery {
	q := parsedQuery{whole: strings.Join(whiteFields(fold(query)), " ")}
	words := queryWords(query)
	q.words = strings.Join(words, " ")
	var content, stops []queryTerm
	seen := map[int32]bool{}
	for _, w := range words {
		v, ok := ix.words[w]
		if !ok && !ix.stop(w) && utf8.RuneCountInString(w) >= ShortestTypo {
			if c, found := ix.correct(w); found {
				if q.corrected == nil {
					q.corrected = map[string]string{}
				}
				q.corrected[w] = c
				w, v, ok = c, ix.words[c], true
			}
		}
		switch {
		case !ok && ix.stop(w):
			stops = append(stops, queryTerm{w, stopStem})
		case !ok:
			if !slices.Contains(q.unknown, w) {
				q.unknown = append(q.unknown, w)
				content = append(content, queryTerm{w, noStem})
			}
		case v.Stem == stopStem:
			stops = append(stops, queryTerm{w, stopStem})
		case !seen[v.Stem]:
			seen[v.Stem] = true
			content = append(content, queryTerm{w, v.Stem})
		}
	}
	q.terms = content
	if len(content) == 0 {
		q.terms = stops // nothing else is left: they match by exact id or title only
	}
	return q
}

// whiteFields splits s at ASCII white space, as assets/search.js does.
func whiteFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
	})
}

// correct returns the vocabulary word that replaces w, a word the
// vocabulary lacks: the nearest within the typo distance, the most
// frequent of those, the first in code point order of those. Stop words
// are no corrections.
func (ix *SearchIndex) correct(w string) (string, bool) {
	limit := typoDistance(w)
	best, bestD, bestF := "", limit+1, 0
	for v, info := range ix.words {
		if info.Stem == stopStem {
			continue
		}
		d := editDistance(w, v, limit)
		if d > limit {
			continue
		}
		if d < bestD || d == bestD && (info.Freq > bestF || info.Freq == bestF && v < best) {
			best, bestD, bestF = v, d, info.Freq
		}
	}
	return best, best != ""
}

// typoDistance is how many edits away a correction of w may be.
func typoDistance(w string) int {
	if utf8.RuneCountInString(w) >= LongWord {
		return 2
	}
	return 1
}

// editDistance is the optimal string alignment distance of a and b in
// characters (insertions, deletions, substitutions and transpositions of
// neighbors), or limit+1 when it is more than limit.
func editDistance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	if abs(len(x)-len(y)) > limit {
		return limit + 1
	}
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(y); j++ {
			c := 1
			if x[i-1] == y[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(y)], limit+1)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Ranked is one candidate: its index entry, tier and score.
type Ranked struct {
	Index int
	Tier  int
	Score float64
	// matched marks the query terms it holds, by index; fields and
	// adjacency split the score.
	matched   []bool
	fields    [numFields]float64
	adjacency float64
}

// Rank returns every candidate for query, of the given type ("" for
// all), best first.
func (ix *SearchIndex) Rank(query, kind string) []Ranked {
	return ix.rank(ix.parse(query), kind)
}

func (ix *SearchIndex) rank(q parsedQuery, kind string) []Ranked {
	candidate := map[int32]bool{}
	for _, t := range q.terms {
		if t.stem >= 0 {
			for _, d := range ix.postings[t.stem] {
				candidate[d] = true
			}
		}
	}
	var out []Ranked
	for i := range ix.entries {
		e := &ix.entries[i]
		if kind != "" && string(e.Type) != kind {
			continue
		}
		tier := TierWords
		switch {
		case q.whole != "" && (q.whole == fold(e.ID.String()) || q.whole == fold(e.ID.Key)):
			tier = TierExactID
		case q.words != "" && q.words == ix.titles[i]:
			tier = TierExactTitle
		case !candidate[int32(i)]:
			continue
		}
		out = append(out, ix.score(i, tier, q.terms))
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		ea, eb := &ix.entries[a.Index], &ix.entries[b.Index]
		return cmp.Or(cmp.Compare(b.Tier, a.Tier), cmp.Compare(b.Score, a.Score),
			cmp.Compare(KindRank(ea.Type), KindRank(eb.Type)), ea.ID.Compare(eb.ID))
	})
	return out
}

// score is BM25F for node i and the terms, with the adjacency bonus,
// rounded to 6 decimals (so that JavaScript, which computes the same sums
// in the same order, gets the same number whatever the last bit).
func (ix *SearchIndex) score(i, tier int, terms []queryTerm) Ranked {
	r := Ranked{Index: i, Tier: tier, matched: make([]bool, len(terms))}
	d := &ix.docs[i]
	total := 0.0
	for k, t := range terms {
		if t.stem < 0 {
			continue
		}
		var parts [numFields]float64
		tfw := 0.0
		for f, seq := range d.fields {
			tf := 0
			for _, s := range seq {
				if s == t.stem {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			parts[f] = ix.fieldWeight(f, tf, len(seq))
			tfw += parts[f]
		}
		if tfw == 0 {
			continue
		}
		r.matched[k] = true
		s := ix.idf[t.stem] * tfw / (SearchK1 + tfw)
		total += s
		for f := range parts {
			r.fields[f] += s * parts[f] / tfw
		}
	}
	for k := 1; k < len(terms); k++ {
		a, b := terms[k-1], terms[k]
		if !r.matched[k-1] || !r.matched[k] {
			continue
		}
		if w := ix.pairWeight(d, a.stem, b.stem); w > 0 {
			r.adjacency += SearchAdjacency * (ix.idf[a.stem] + ix.idf[b.stem]) * w / (SearchK1 + w)
		}
	}
	r.Score = round6(total + r.adjacency)
	return r
}

// pairWeight is the BM25F weight in d of stem a followed by stem b: how
// often they stand so in each field, weighted and normalized by length
// as a term's frequency is. The adjacency bonus saturates with it as a
// term's score does, so that two words side by side in a title count
// for more than once somewhere in a long body.
func (ix *SearchIndex) pairWeight(d *searchDoc, a, b int32) float64 {
	w := 0.0
	for f, seq := range d.fields {
		if tf := pairCount(seq, a, b); tf > 0 {
			w += ix.fieldWeight(f, tf, len(seq))
		}
	}
	return w
}

// pairCount is how often stem a is followed by stem b in seq.
func pairCount(seq []int32, a, b int32) int {
	n := 0
	for j := 1; j < len(seq); j++ {
		if seq[j-1] == a && seq[j] == b {
			n++
		}
	}
	return n
}

// fieldWeight is BM25F's weighted, length-normalized frequency of
// something found tf times in field f of length n.
func (ix *SearchIndex) fieldWeight(f, tf, n int) float64 {
	norm := 1.0
	if ix.avgLen[f] > 0 {
		norm = 1 - searchFields[f].B + searchFields[f].B*float64(n)/ix.avgLen[f]
	}
	return searchFields[f].Weight * float64(tf) / norm
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// Search ranks the index for query and answers with its best results.
func (ix *SearchIndex) Search(query string, o SearchOptions) SearchResults {
	if o.Limit <= 0 {
		o.Limit = DefaultSearchLimit
	}
	q := ix.parse(query)
	out := SearchResults{Type: SearchType, SchemaVersion: SearchSchemaVersion, Query: query, Kind: o.Kind, Terms: []string{},
		Corrected: q.corrected, Limit: o.Limit, Results: []SearchHit{}}
	for _, t := range q.terms {
		out.Terms = append(out.Terms, t.word)
	}
	ranked := ix.rank(q, o.Kind)
	out.Count = len(ranked)
	for _, r := range ranked[:min(len(ranked), o.Limit)] {
		out.Results = append(out.Results, ix.hit(r, q.terms, o.Explain))
	}
	if out.Count == 0 {
		out.Hint = ix.hint(q, o.Kind)
	}
	if o.Budget > 0 {
		fitSearch(&out, o.Budget)
	}
	return out
}

// hit is the result for r.
func (ix *SearchIndex) hit(r Ranked, terms []queryTerm, explain bool) SearchHit {
	e := &ix.entries[r.Index]
	h := SearchHit{ID: e.ID.String(), Type: string(e.Type), Title: e.Title, Path: e.Path, Score: r.Score,
		Matched: []string{}, Stale: e.Stale, Lines: e.Lines, Excerpt: ix.excerpt(e.Text, terms)}
	for k, t := range terms {
		if r.matched[k] {
			h.Matched = append(h.Matched, t.word)
		}
	}
	if len(terms) > 0 {
		h.Coverage = math.Round(float64(len(h.Matched))/float64(len(terms))*100) / 100
	}
	if explain {
		h.Explain = &SearchExplain{Tier: tierNames[r.Tier], Fields: map[string]float64{}, Adjacency: round6(r.adjacency)}
		for f, v := range r.fields {
			if v > 0 {
				h.Explain.Fields[searchFields[f].Name] = round6(v)
			}
		}
	}
	return h
}

// hint says why nothing matched: the kind filter, stop words only, or the
// words found nowhere, with the vocabulary words nearest to each.
func (ix *SearchIndex) hint(q parsedQuery, kind string) string {
	if kind != "" {
		if n := len(ix.rank(q, "")); n > 0 {
			return fmt.Sprintf("no %s matches; %d nodes of other types do: search without --kind", kind, n)
		}
	}
	if len(q.terms) == 0 {
		return "the query has no words: search for names, titles or words of the wiki"
	}
	if q.terms[0].stem == stopStem {
		return "the query has only stop words (" + strings.Join(termWords(q.terms), ", ") + "): add a word that names what you look for"
	}
	var parts []string
	for _, w := range q.unknown {
		near := ix.near(w, HintWords)
		if len(near) == 0 {
			parts = append(parts, fmt.Sprintf("%q is in no node and near no word of the wiki", w))
		} else {
			parts = append(parts, fmt.Sprintf("%q is in no node; near words: %s", w, strings.Join(near, ", ")))
		}
	}
	return "nothing matches: " + strings.Join(parts, "; ")
}

func termWords(ts []queryTerm) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.word)
	}
	return out
}

// near returns up to n vocabulary words (no stop words) within 3 edits of
// w, or that start with its first 4 letters, nearest first, then the most
// frequent.
func (ix *SearchIndex) near(w string, n int) []string {
	type cand struct {
		word       string
		dist, freq int
	}
	const limit = 3
	prefix := string([]rune(w)[:min(4, utf8.RuneCountInString(w))])
	var cs []cand
	for v, info := range ix.words {
		if info.Stem == stopStem {
			continue
		}
		d := editDistance(w, v, limit)
		if d > limit && !(utf8.RuneCountInString(prefix) == 4 && strings.HasPrefix(v, prefix)) {
			continue
		}
		cs = append(cs, cand{v, d, info.Freq})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(b.freq, a.freq), strings.Compare(a.word, b.word))
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.word)
	}
	return out
}

// excerpt is at most MaxExcerpt characters of text from the passage of
// ExcerptWords words that holds the most of the terms (weighted by their
// idf; the first such passage), starting a few words before its first
// matched word; the text's start when no term is in it.
func (ix *SearchIndex) excerpt(text string, terms []queryTerm) string {
	type word struct {
		at   int
		stem int32
	}
	var ws []word
	want := map[int32]bool{}
	for _, t := range terms {
		if t.stem >= 0 {
			want[t.stem] = true
		}
	}
	if len(want) == 0 {
		return clip(text, MaxExcerpt, false)
	}
	folded := fold(text)
	for i := 0; i < len(folded); {
		r, size := utf8.DecodeRuneInString(folded[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		j := i
		for j < len(folded) {
			r, size := utf8.DecodeRuneInString(folded[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		ws = append(ws, word{i, ix.words[folded[i:j]].Stem})
		i = j
	}
	best, bestScore := -1, 0.0
	for i := range ws {
		if !want[ws[i].stem] {
			continue // a best passage starts at a matched word
		}
		seen := map[int32]bool{}
		s := 0.0
		for _, w := range ws[i:min(len(ws), i+ExcerptWords)] {
			if want[w.stem] && !seen[w.stem] {
				seen[w.stem] = true
				s += ix.idf[w.stem]
			}
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return clip(text, MaxExcerpt, false)
	}
	start := ws[max(0, best-ExcerptLead)].at
	if ws[best].at < MaxExcerpt/3 {
		start = 0 // the match shows from the text's start
	}
	return clip(text[start:], MaxExcerpt, start > 0)
}

// ExcerptLead is how many words an excerpt shows before the first matched
// word of its passage.
const ExcerptLead = 4

// fitSearch sheds excerpts, then results beyond the first KeptResults,
// until out fits.
func fitSearch(out *SearchResults, tokens int) {
	b := &Budget{Tokens: tokens}
	out.Budget = b
	all := out.Results
	fit(out, b, []shedStep{
		func() string {
			shed := false
			for i := range all {
				shed = shed || all[i].Excerpt != ""
				all[i].Excerpt = ""
			}
			if !shed {
				return ""
			}
			return "excerpts"
		},
		func() string {
			return keepFirst(out, b, len(all), KeptResults, func(k int) { out.Results = all[:k] },
				func(k int) string { return fmt.Sprintf("results beyond the first %d", k) })
		},
	})
}

// hasWordBytes is hasWord for text that is not folded: key occurs in it,
// as written, with a word boundary on both sides.
func hasWordBytes(text, key []byte) bool {
	for off := 0; ; {
		i := bytes.Index(text[off:], key)
		if i < 0 {
			return false
		}
		i += off
		if boundaryBytes(text, i) && boundaryBytes(text, i+len(key)) {
			return true
		}
		_, size := utf8.DecodeRune(text[i:])
		off = i + size
	}
}

func boundaryBytes(s []byte, i int) bool {
	if i == 0 || i >= len(s) {
		return true
	}
	a, _ := utf8.DecodeLastRune(s[:i])
	b, _ := utf8.DecodeRune(s[i:])
	return !isWordRune(a) || !isWordRune(b) || (unicode.IsLower(a) || unicode.IsNumber(a)) && unicode.IsUpper(b)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// searchTerms splits a folded query at ASCII white space.
func searchTerms(q string) []string {
	return strings.FieldsFunc(q, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
	})
}

// fold lower-cases s one character at a time, keeping each character whose
// lower case would change its length in UTF-8 or UTF-16 (so offsets in the
// folded text are offsets in s, in Go and in JavaScript alike) and U+0130,
// whose lower case is two characters in JavaScript. assets/search.js folds
// the same way.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		l := unicode.ToLower(r)
		if r == 0x130 || utf8.RuneLen(l) != utf8.RuneLen(r) || utf16.RuneLen(l) != utf16.RuneLen(r) {
			l = r
		}
		b.WriteRune(l)
	}
	return b.String()
}

// clip cuts s to at most n characters, marking cuts with "…" (counted).
func clip(s string, n int, cutBefore bool) string {
	if cutBefore {
		s = "…" + s
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + "…"
}
