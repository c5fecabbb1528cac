package synth

import (
	"sync"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Knowledge answers the two calls of coding agents and bots, search and
// lookup (SPEC 5), from one analysis of a workspace. It is read-only and
// safe for concurrent use.
type Knowledge struct {
	in     KnowledgeInput
	search *SearchIndex
	check  *CheckReport
	docOf  map[string]NodeID // content file → its document's node id
	fileOf map[NodeID]string // document node id → its content file
	uris   map[string]int    // code resource URI → its report entry

	// Indexes that only lookups need, made by the first one.
	textsOnce   sync.Once
	texts       map[claimAt]string // claim text by node and position
	driftOnce   sync.Once
	driftBy     map[NodeID][]int // check entries by the node ids they concern
	targetsOnce sync.Once
	targetsBy   map[NodeID][]int // report targets by the node ids they concern
}

// KnowledgeInput is what [NewKnowledge] answers from.
type KnowledgeInput struct {
	Graph  *Graph
	Model  *claims.Model
	Report *codeanchors.Report
	// Sources are the files the analysis read, by path: lookup's code
	// excerpts come from them. A path missing from it has no excerpt.
	Sources map[string]*codeanchors.Source
	Lang    string     // language of the whys
	Search  SearchJSON // the search index, as the site publishes it
}

// NewKnowledge prepares in for queries.
func NewKnowledge(in KnowledgeInput) *Knowledge {
	k := &Knowledge{in: in, search: NewSearchIndex(in.Search.Entries, in.Lang), check: NewCheckReport(NewFindings(in.Report, in.Model, in.Lang, "")), docOf: map[string]NodeID{}, fileOf: map[NodeID]string{},
		uris: codeURIs(in.Report, in.Graph.ProjectID)}
	each(in.Model, func(id NodeID, d *claims.Doc) {
		if d.File != "" {
			k.docOf[d.File], k.fileOf[id] = id, d.File
		}
	})
	return k
}

// Graph is the graph the answers come from.
func (k *Knowledge) Graph() *Graph { return k.in.Graph }

// Check is the check report of the analysis with whys in lang, as
// "tracewiki check --format json" prints it.
func (k *Knowledge) Check(lang string) *CheckReport {
	if lang == k.in.Lang {
		return k.check
	}
	return NewCheckReport(NewFindings(k.in.Report, k.in.Model, lang, ""))
}

// Search ranks the nodes for query (see [SearchIndex.Search]).
func (k *Knowledge) Search(query string, o SearchOptions) SearchResults {
	return k.search.Search(query, o)
}
