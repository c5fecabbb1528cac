package synth

import (
	"github.com/tracewiki/tracewiki/claims"

	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Search ranks the nodes of the search index (api/search.json) for a query.
// It is the reference implementation: assets/search.js runs the same
// algorithm on the same index in the browser, and a test checks that both
// rank a corpus of queries identically.
//
// The query is folded (see [fold]) and split at ASCII white space into
// terms. A node's score is the first of these tiers it reaches:
//
//	5 exact id      the whole query is the node's id ("requirement:REQ-3")
//	                or its id without the type ("REQ-3", "src/a.go@F")
//	4 exact title   the whole query, white space collapsed, is the title
//	3 title words   every term is a whole word of the title
//	2 words         every term is a whole word of the title, the id, the
//	                path or the text
//	1 substrings    every term occurs in one of those fields
//
// A term is a whole word of a field where it occurs with a word boundary
// on both sides: the field's start or end, a character that is not a
// letter or number on either side, or a lower-case letter or digit followed
// by an upper-case letter (camelCase: "Walker" is a word of "mdWalker",
// "lock" is not a word of "unlockAll", "Blocklist" or "clock"). Nodes that
// reach no tier do not match. Ties are broken by node type, in the order of
// SPEC 3, then by id, so the order is total and filtering by kind never
// changes the relative order of what remains.

// Search scores, one per tier, best first.
const (
	ScoreExactID    = 5
	ScoreExactTitle = 4
	ScoreTitleWords = 3
	ScoreWords      = 2
	ScoreSubstring  = 1
)

// Bounds of search and lookup answers.
const (
	// DefaultSearchLimit is how many results search returns unless told.
	DefaultSearchLimit = 10
	// MaxExcerpt is the length, in characters, of every excerpt of search
	// and lookup.
	MaxExcerpt = 240
)

// SearchType and LookupType name the two knowledge answers in their JSON.
const (
	SearchType = "knowledge-search"
	LookupType = "knowledge-lookup"
)

// KnowledgeSchemaVersion versions the search and lookup JSON.
const KnowledgeSchemaVersion = 1

// NodeTypes lists every node type in the order of SPEC 3: the values
// search's --kind accepts.
var NodeTypes = func() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, string(k.Type))
	}
	return out
}()

// Search fields, as --explain names them.
const (
	FieldID    = "id"
	FieldTitle = "title"
	FieldPath  = "path"
	FieldText  = "text"
)

// SearchOptions says what [SearchIndex.Search] returns.
type SearchOptions struct {
	Kind    string // a node type; "" for all
	Limit   int    // results returned; 0 means DefaultSearchLimit
	Explain bool   // list the fields each result matched in
	Budget  int    // tokens; 0 means no budget
}

// SearchResults is the JSON of "tracewiki search" and of the MCP search tool.
type SearchResults struct {
	Type          string      `json:"type"`
	SchemaVersion int         `json:"schemaVersion"`
	Query         string      `json:"query"`
	Kind          string      `json:"kind,omitempty"`
	Count         int         `json:"count"` // every match, of which Results are the best Limit
	Limit         int         `json:"limit"`
	Results       []SearchHit `json:"results"`
	Budget        *Budget     `json:"budget,omitempty"`
}

// SearchHit is one search result.
type SearchHit struct {
	ID      string   `json:"id"`
	Type    string   `json:"type"`
	Title   string   `json:"title"`
	Path    string   `json:"path"`
	Score   int      `json:"score"`
	Excerpt string   `json:"excerpt"`
	Matched []string `json:"matched,omitempty"` // with Explain: the fields a term or the query matched
}

// SearchIndex is the search index with every field folded once, ready for
// queries. It is read-only and safe for concurrent use.
type SearchIndex struct {
	entries []SearchEntry
	folded  []searchFields
}

type searchFields struct {
	id, local, title, path, text string // folded
	titleTerms                   string // the folded title's words joined by one space
	local0, title0, path0, text0 string // as written: case decides camelCase boundaries
}

// NewSearchIndex prepares entries (in node order, as [NewSearch] makes
// them) for queries.
func NewSearchIndex(entries []SearchEntry) *SearchIndex {
	ix := &SearchIndex{entries: entries, folded: make([]searchFields, len(entries))}
	for i, e := range entries {
		local := e.ID.Key
		ix.folded[i] = searchFields{
			id: fold(e.ID.String()), local: fold(local), title: fold(e.Title), path: fold(e.Path), text: fold(e.Text),
			titleTerms: strings.Join(searchTerms(fold(e.Title)), " "),
			local0:     local, title0: e.Title, path0: e.Path, text0: e.Text,
		}
	}
	return ix
}

// Search ranks the index for query. An empty query matches nothing.
func (ix *SearchIndex) Search(query string, o SearchOptions) SearchResults {
	if o.Limit <= 0 {
		o.Limit = DefaultSearchLimit
	}
	out := SearchResults{Type: SearchType, SchemaVersion: KnowledgeSchemaVersion, Query: query, Kind: o.Kind, Limit: o.Limit, Results: []SearchHit{}}
	ranked := ix.Rank(query, o.Kind)
	out.Count = len(ranked)
	terms := searchTerms(fold(query))
	for _, r := range ranked[:min(len(ranked), o.Limit)] {
		e, f := ix.entries[r.Index], &ix.folded[r.Index]
		h := SearchHit{ID: e.ID.String(), Type: string(e.Type), Title: e.Title, Path: e.Path, Score: r.Score, Excerpt: excerpt(e.Text, f.text, terms)}
		if o.Explain {
			h.Matched = f.matched(terms, r.Score)
		}
		out.Results = append(out.Results, h)
	}
	if o.Budget > 0 {
		fitSearch(&out, o.Budget)
	}
	return out
}

// Ranked is one match: its index entry and score.
type Ranked struct {
	Index int
	Score int
}

// Rank returns every entry that matches query, of the given type ("" for
// all), best first.
func (ix *SearchIndex) Rank(query, kind string) []Ranked {
	q := fold(query)
	terms := searchTerms(q)
	if len(terms) == 0 {
		return nil
	}
	whole := strings.Join(terms, " ")
	var out []Ranked
	for i := range ix.entries {
		if kind != "" && string(ix.entries[i].Type) != kind {
			continue
		}
		if s := ix.folded[i].score(whole, terms); s > 0 {
			out = append(out, Ranked{i, s})
		}
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		ea, eb := &ix.entries[a.Index], &ix.entries[b.Index]
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(typeOrder(ea.Type), typeOrder(eb.Type)), ea.ID.Compare(eb.ID))
	})
	return out
}

// typeOrder is a node type's place in SPEC 3's order; unknown types last.
func typeOrder(t claims.NodeType) int {
	if i := t.Rank(); i >= 0 {
		return i
	}
	return len(claims.NodeTypes)
}

// score is the tier an entry reaches for the folded query (its terms
// joined by one space) and its terms; 0 when it does not match.
func (f *searchFields) score(whole string, terms []string) int {
	switch {
	case whole == f.id || whole == f.local:
		return ScoreExactID
	case whole == f.titleTerms:
		return ScoreExactTitle
	}
	titleWords, words := true, true
	for _, t := range terms {
		// A field can hold the term as a word only if it holds it at all.
		inTitle, inLocal, inPath, inText := strings.Contains(f.title, t), strings.Contains(f.local, t), strings.Contains(f.path, t), strings.Contains(f.text, t)
		if !inTitle && !inLocal && !inPath && !inText {
			return 0
		}
		titleWord := inTitle && hasWord(f.title0, f.title, t)
		titleWords = titleWords && titleWord
		if words && !titleWord && !(inLocal && hasWord(f.local0, f.local, t)) && !(inPath && hasWord(f.path0, f.path, t)) && !(inText && hasWord(f.text0, f.text, t)) {
			words = false
		}
	}
	switch {
	case titleWords:
		return ScoreTitleWords
	case words:
		return ScoreWords
	}
	return ScoreSubstring
}

// matched lists the fields in which the query or one of its terms matched.
func (f *searchFields) matched(terms []string, score int) []string {
	var out []string
	whole := strings.Join(terms, " ")
	add := func(field string, hit bool) {
		if hit {
			out = append(out, field)
		}
	}
	some := func(s string) bool {
		for _, t := range terms {
			if strings.Contains(s, t) {
				return true
			}
		}
		return false
	}
	add(FieldID, score == ScoreExactID || some(f.local))
	add(FieldTitle, whole == f.titleTerms || some(f.title))
	add(FieldPath, some(f.path))
	add(FieldText, some(f.text))
	return out
}

// hasWord reports whether the folded term t occurs in folded (the fold of
// orig) with a word boundary on both sides.
func hasWord(orig, folded, t string) bool {
	for off := 0; ; {
		i := strings.Index(folded[off:], t)
		if i < 0 {
			return false
		}
		i += off
		if boundary(orig, i) && boundary(orig, i+len(t)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(folded[i:])
		off = i + size
	}
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

// boundary reports whether byte offset i of s (a rune boundary) is a word
// boundary.
func boundary(s string, i int) bool {
	if i == 0 || i >= len(s) {
		return true
	}
	a, _ := utf8.DecodeLastRuneInString(s[:i])
	b, _ := utf8.DecodeRuneInString(s[i:])
	if !isWordRune(a) || !isWordRune(b) {
		return true
	}
	return (unicode.IsLower(a) || unicode.IsNumber(a)) && unicode.IsUpper(b)
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

// excerpt is at most MaxExcerpt characters of text around the first place
// a term occurs in it (its start when none does).
func excerpt(text, folded string, terms []string) string {
	at := -1
	for _, t := range terms {
		if i := strings.Index(folded, t); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	start := 0
	if at > 0 {
		// Start a few words before the match, at a word's start.
		start = max(0, at-60)
		for start > 0 && start < at && text[start-1] != ' ' {
			start++
		}
		if start >= at {
			start = at
		}
	}
	return clip(text[start:], MaxExcerpt, start > 0)
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

// fitSearch sheds excerpts, then results from the end, until out fits.
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
			return keepFirst(out, b, len(all), 0, func(k int) { out.Results = all[:k] },
				func(k int) string { return fmt.Sprintf("results beyond the first %d", k) })
		},
	})
}
