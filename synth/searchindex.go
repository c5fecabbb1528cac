package synth

import (
	"math"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/spanish"
)

// The ranking index of search (SPEC 5). [NewSearchIndex] turns the
// entries of api/search.json into, per node, the stemmed words of each
// field in order, and a vocabulary: every word as written (folded) with
// its stem and how often it occurs. "tracewiki search" ranks from it, and
// the build writes the same numbers for the site's search page
// ([SearchIndex.Client]), so that the page ranks with the Go code's data
// and needs no stemmer of its own: it stems a query word through the
// vocabulary.

// Search fields, in the order of every per-field list of the index.
const (
	FieldID       = iota // the node's key: "REQ-4", "site/build.go@writeSearch"
	FieldTitle           // the title (a symbol's label)
	FieldHeadings        // the Markdown headings of a document
	FieldBody            // the document's text, its claims included
	FieldCode            // code names and paths: a symbol's own, or those a document links
	numFields
)

// searchField is one field's part in BM25F: its name (as --explain says
// it), its weight, and how much its length normalizes (BM25's b).
type searchField struct {
	Name   string
	Weight float64
	B      float64
}

// searchFields is the one table of field weights. The title says most of
// what a node is about; the body is long and says many things once.
var searchFields = [numFields]searchField{
	FieldID:       {"id", 3, 0},
	FieldTitle:    {"title", 5, 0.5},
	FieldHeadings: {"headings", 3, 0.5},
	FieldBody:     {"body", 1, 0.75},
	FieldCode:     {"code", 2, 0.5},
}

// BM25 constants: SearchK1 saturates a term's frequency; SearchAdjacency
// weighs the bonus of two query terms that stand next to each other in a
// field, as a share of their idfs, at most (the pair's BM25F weight
// saturates as a term's does).
const (
	SearchK1        = 1.2
	SearchAdjacency = 0.25
)

// Bounds of the index, so that it stays small at 11,000 pages.
const (
	// MaxFieldTerms caps the words of one field of one node.
	MaxFieldTerms = 1000
	// MaxLinkedCode caps the code targets whose names a document's code
	// field holds.
	MaxLinkedCode = 32
)

// stopStem marks a stop word in the vocabulary: it has no stem and is in
// no field.
const stopStem = -1

// SearchIndex is the ranking index of a search index's entries. It is
// read-only and safe for concurrent use.
type SearchIndex struct {
	entries  []SearchEntry
	language string
	stop     func(string) bool
	stems    []string
	idf      []float64
	avgLen   [numFields]float64
	words    map[string]vocabWord // folded word → stem and frequency
	docs     []searchDoc
	postings [][]int32 // by stem: the docs that hold it, ascending
	// titles are each entry's folded title words joined by one space,
	// for the exact-title tier.
	titles []string
}

// vocabWord is a word of the vocabulary: its stem's index (stopStem for a
// stop word) and how often the word occurs in all fields of all nodes.
type vocabWord struct {
	Stem int32
	Freq int
}

// searchDoc is one node's fields as stem indexes in the order they occur,
// stop words left out.
type searchDoc struct {
	fields [numFields][]int32
}

// Stemmer languages: Spanish when the workspace's language is, else
// English.
func stemmer(language string) (stem func(string) string, stop func(string) bool) {
	if language == "es" {
		return func(w string) string { return spanish.Stem(w, false) }, spanish.IsStopWord
	}
	return func(w string) string { return english.Stem(w, false) }, english.IsStopWord
}

// NewSearchIndex prepares entries (in node order, as [NewSearch] makes
// them) for queries, stemming in language ("es" Spanish, else English).
func NewSearchIndex(entries []SearchEntry, language string) *SearchIndex {
	if language != "es" {
		language = "en"
	}
	ix := &SearchIndex{entries: entries, language: language, words: map[string]vocabWord{},
		docs: make([]searchDoc, len(entries)), titles: make([]string, len(entries))}
	stem, stop := stemmer(language)
	ix.stop = stop
	stemOf := map[string]int32{}
	intern := func(w string) int32 {
		v, ok := ix.words[w]
		if !ok {
			v.Stem = stopStem
			if !stop(w) {
				s := stem(w)
				id, seen := stemOf[s]
				if !seen {
					id = int32(len(ix.stems))
					stemOf[s] = id
					ix.stems = append(ix.stems, s)
				}
				v.Stem = id
			}
		}
		v.Freq++
		ix.words[w] = v
		return v.Stem
	}
	var total, have [numFields]int
	for i := range entries {
		d := &ix.docs[i]
		*d = docOf(&entries[i], intern)
		for f, seq := range d.fields {
			total[f] += len(seq)
			if len(seq) > 0 {
				have[f]++
			}
		}
		ix.titles[i] = strings.Join(queryWords(entries[i].Title), " ")
	}
	ix.avgLen = avgLens(total, have)
	ix.postings = make([][]int32, len(ix.stems))
	for i := range ix.docs {
		seen := map[int32]bool{}
		for _, seq := range ix.docs[i].fields {
			for _, s := range seq {
				if !seen[s] {
					seen[s] = true
					ix.postings[s] = append(ix.postings[s], int32(i))
				}
			}
		}
	}
	ix.idf = make([]float64, len(ix.stems))
	for s, p := range ix.postings {
		ix.idf[s] = idfOf(len(p), len(entries))
	}
	return ix
}

// docOf is e's fields as stems in order, intern giving each word's stem
// (stopStem for a stop word) and counting it: a field's words are
// interned until it holds MaxFieldTerms stems, the rest are not.
func docOf(e *SearchEntry, intern func(string) int32) searchDoc {
	var d searchDoc
	for f, words := range entryWords(e) {
		seq := make([]int32, 0, min(len(words), MaxFieldTerms))
		for _, w := range words {
			if len(seq) == MaxFieldTerms {
				break
			}
			if s := intern(w); s != stopStem {
				seq = append(seq, s)
			}
		}
		d.fields[f] = seq
	}
	return d
}

// avgLens are the fields' average lengths from their total lengths and
// how many nodes have each: a field's average is over the nodes that have
// it (most nodes are code, with no body, and would make every document
// look long).
func avgLens(total, have [numFields]int) [numFields]float64 {
	var out [numFields]float64
	for f := range total {
		if have[f] > 0 {
			out[f] = float64(total[f]) / float64(have[f])
		}
	}
	return out
}

// idfOf is the idf of a stem that df of n nodes hold.
func idfOf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// entryWords are the folded words of each field of e, in order.
func entryWords(e *SearchEntry) [numFields][]string {
	var out [numFields][]string
	out[FieldID] = codeWords(e.ID.Key)
	out[FieldTitle] = queryWords(e.Title)
	switch k := KindOf(e.Type); {
	case k.Named:
		// A symbol's label names its file too, which its id says already:
		// its title field is its name.
		_, name, _ := strings.Cut(e.ID.Key, "@")
		out[FieldTitle] = codeWords(name)
	case k.Code:
		out[FieldTitle] = nil // a file's title is its path, its id
	}
	for _, h := range e.Headings {
		out[FieldHeadings] = append(out[FieldHeadings], queryWords(h)...)
	}
	out[FieldBody] = queryWords(e.Text)
	for _, c := range e.Code {
		out[FieldCode] = append(out[FieldCode], codeWords(c)...)
	}
	return out
}

// queryWords splits s into folded words: runs of letters and digits. A
// query is split the same way, here and in assets/search.js.
func queryWords(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool { return !isWordRune(r) })
}

// codeWords splits a code name or path into folded words: runs of letters
// and digits, each also split at camelCase boundaries ("mdWalker" gives
// "mdwalker", "md" and "walker"), the whole run kept too. snake_case splits
// already, "_" being no letter.
func codeWords(s string) []string {
	var out []string
	for _, run := range strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) }) {
		out = append(out, fold(run))
		parts := camelParts(run)
		if len(parts) > 1 {
			for _, p := range parts {
				out = append(out, fold(p))
			}
		}
	}
	return out
}

// camelParts splits a run of letters and digits where a lower-case letter
// or digit is followed by an upper-case letter, and before the last
// upper-case letter of a run followed by a lower-case one ("HTTPServer":
// "HTTP", "Server").
func camelParts(run string) []string {
	rs := []rune(run)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		a, b := rs[i-1], rs[i]
		split := (unicode.IsLower(a) || unicode.IsNumber(a)) && unicode.IsUpper(b) ||
			unicode.IsUpper(a) && unicode.IsUpper(b) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if split {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}
