package render

import (
	"encoding/json"
	"fmt"

	"github.com/tracewiki/tracewiki/synth"
)

// The search page's ranking index (SPEC 5): api/search.js sets the head
// (vocabulary with stems, field weights and statistics) and loads the
// shards api/search-N.js, each holding up to searchShardDocs nodes with
// their fields' stems. They are scripts, not JSON, so that the page works
// from file://, where fetch() of a local file is refused. The numbers are
// those "tracewiki search" ranks with: [synth.SearchIndex.Client].

// searchShardDocs is how many nodes one shard holds.
const searchShardDocs = 2000

// SearchScripts returns the search page's scripts by output name, made
// from the search index (api/search.json) in the workspace's language.
func SearchScripts(index []byte, lang string) (map[string][]byte, error) {
	var s synth.SearchJSON
	if err := json.Unmarshal(index, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", SearchFile, err)
	}
	return SearchScriptsOf(s.Entries, lang)
}

// SearchScriptsOf is [SearchScripts] of the index's entries, for a caller
// that has them still (an organisation's wiki).
func SearchScriptsOf(entries []synth.SearchEntry, lang string) (map[string][]byte, error) {
	head, docs := synth.NewSearchIndex(entries, lang).Client()
	head.Shards = (len(docs) + searchShardDocs - 1) / searchShardDocs
	out := map[string][]byte{}
	data, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	out[SearchScriptFile] = fmt.Appendf(nil, "window.TRACEWIKI_SEARCH = %s;\n", data)
	for i := 0; i < head.Shards; i++ {
		data, err := json.Marshal(docs[i*searchShardDocs : min(len(docs), (i+1)*searchShardDocs)])
		if err != nil {
			return nil, err
		}
		out[searchShardFile(i)] = fmt.Appendf(nil, "window.TRACEWIKI_SEARCH_SHARD(%d, %s);\n", i, data)
	}
	return out, nil
}

// searchShardFile names shard i.
func searchShardFile(i int) string { return fmt.Sprintf("api/search-%d.js", i) }

// putSearchScripts writes the search page's scripts in name order.
func putSearchScripts(put func(name string, data []byte) error, index []byte, lang string) error {
	scripts, err := SearchScripts(index, lang)
	if err != nil {
		return err
	}
	if err := put(SearchScriptFile, scripts[SearchScriptFile]); err != nil {
		return err
	}
	for i := 0; ; i++ {
		data, ok := scripts[searchShardFile(i)]
		if !ok {
			return nil
		}
		if err := put(searchShardFile(i), data); err != nil {
			return err
		}
	}
}
