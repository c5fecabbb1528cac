package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/synth"
)

// The search page's index (SPEC 5, [synth.SearchIndex.Client]):
// api/search.js sets the head (vocabulary with stems, field weights and
// statistics, each node's type and field lengths); the page loads the
// shards a query needs, api/search-KIND-N.js, each of which hands its
// part to window.TRACEWIKI_SEARCH_PART(KIND, N, DATA). They are scripts,
// not JSON, so that the page works from file://, where fetch() of a local
// file is refused. The numbers are those "tracewiki search" ranks with.

// Shard kinds, as their file names and the page name them.
const (
	searchPostings = "p"
	searchPairs    = "a"
	searchExact    = "x"
	searchTexts    = "t"
)

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
	c := synth.NewSearchIndex(entries, lang).Client()
	out := map[string][]byte{}
	data, err := json.Marshal(c.Head)
	if err != nil {
		return nil, err
	}
	out[SearchScriptFile] = fmt.Appendf(nil, "window.TRACEWIKI_SEARCH = %s;\n", data)
	add := func(kind string, n int, part any) error {
		// Scripts loaded by src, not inlined: "<" needs no escape, and
		// texts are smaller without.
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "window.TRACEWIKI_SEARCH_PART(%q, %d, ", kind, n)
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(part); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteString(");\n")
		out[searchShardFile(kind, n)] = buf.Bytes()
		return nil
	}
	for k, part := range c.Postings {
		if err := add(searchPostings, k, part); err != nil {
			return nil, err
		}
	}
	for k, part := range c.Pairs {
		if err := add(searchPairs, k, part); err != nil {
			return nil, err
		}
	}
	for k, part := range c.Exact {
		if err := add(searchExact, k, part); err != nil {
			return nil, err
		}
	}
	for k, part := range c.Texts {
		if err := add(searchTexts, k, part); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// searchShardFile names shard n of a kind.
func searchShardFile(kind string, n int) string { return fmt.Sprintf("api/search-%s-%d.js", kind, n) }

// IsSearchScript reports whether the output file name is one of the search
// page's scripts: the head ([SearchScriptFile]) or a shard.
func IsSearchScript(name string) bool {
	return name == SearchScriptFile || strings.HasPrefix(name, "api/search-") && path.Ext(name) == path.Ext(SearchScriptFile)
}

// putSearchScripts writes the search page's scripts in name order.
func putSearchScripts(put func(name string, data []byte) error, index []byte, lang string) error {
	scripts, err := SearchScripts(index, lang)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(scripts) {
		if err := put(name, scripts[name]); err != nil {
			return err
		}
	}
	return nil
}
