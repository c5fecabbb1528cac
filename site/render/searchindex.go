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
	head, err := searchHeadScript(c.Head)
	if err != nil {
		return nil, err
	}
	out[SearchScriptFile] = head
	// Scripts loaded by src, not inlined: "<" needs no escape, and texts
	// are smaller without.
	shards, err := c.Encoded()
	if err != nil {
		return nil, err
	}
	putSearchParts(out, shards, nil)
	return out, nil
}

// The wrappers of the search page's scripts.
const (
	searchHeadPrefix = "window.TRACEWIKI_SEARCH = "
	searchHeadSuffix = ";\n"
	searchPartSuffix = ");\n"
)

// searchHeadScript is api/search.js: the head.
func searchHeadScript(h synth.ClientSearchHead) ([]byte, error) {
	data, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(searchHeadPrefix), data...), searchHeadSuffix...), nil
}

// searchPartPrefix starts shard n of a kind, its JSON following.
func searchPartPrefix(kind string, n int) string {
	return fmt.Sprintf("window.TRACEWIKI_SEARCH_PART(%q, %d, ", kind, n)
}

// EditedSearchScripts returns the search page's scripts of the edited
// search index ed from the last build's scripts, which old reads by output
// name ([synth.EditClient]): those that differ from the last. False when
// it cannot tell (then [SearchScriptsOf] makes them from every entry).
func EditedSearchScripts(old func(name string) ([]byte, bool), ed *synth.SearchEdit) (map[string][]byte, bool) {
	data, ok := old(SearchScriptFile)
	var head synth.ClientSearchHead
	if !ok || !bytes.HasPrefix(data, []byte(searchHeadPrefix)) || !bytes.HasSuffix(data, []byte(searchHeadSuffix)) ||
		json.Unmarshal(data[len(searchHeadPrefix):len(data)-len(searchHeadSuffix)], &head) != nil {
		return nil, false
	}
	// The shards an edit numbers again, and their JSON.
	read := func(kind string, n int) ([][]byte, [][]byte, bool) {
		files, parts := make([][]byte, n), make([][]byte, n)
		for k := range n {
			data, ok := old(searchShardFile(kind, k))
			prefix := searchPartPrefix(kind, k)
			if !ok || !bytes.HasPrefix(data, []byte(prefix)) || !bytes.HasSuffix(data, []byte(searchPartSuffix)) {
				return nil, nil, false
			}
			files[k], parts[k] = data, data[len(prefix):len(data)-len(searchPartSuffix)]
		}
		return files, parts, true
	}
	var shards synth.ClientShards
	postings, parts, ok1 := read(searchPostings, head.Postings)
	shards.Postings = parts
	pairs, parts, ok2 := read(searchPairs, head.Pairs)
	shards.Pairs = parts
	if !ok1 || !ok2 {
		return nil, false
	}
	h, edited, ok := synth.EditClient(head, shards, ed)
	if !ok {
		return nil, false
	}
	script, err := searchHeadScript(h)
	if err != nil {
		return nil, false
	}
	out := map[string][]byte{}
	if !bytes.Equal(script, data) {
		out[SearchScriptFile] = script
	}
	putSearchParts(out, edited, map[string][][]byte{searchPostings: postings, searchPairs: pairs})
	return out, true
}

// putSearchParts puts the scripts of the shards' parts into out by output
// name, but for a nil part (as it was) and a script equal to the one was
// holds for its kind and number.
func putSearchParts(out map[string][]byte, shards synth.ClientShards, was map[string][][]byte) {
	for _, kind := range []struct {
		name  string
		parts [][]byte
	}{{searchPostings, shards.Postings}, {searchPairs, shards.Pairs}, {searchExact, shards.Exact}, {searchTexts, shards.Texts}} {
		old := was[kind.name]
		for k, part := range kind.parts {
			if part == nil {
				continue
			}
			file := append([]byte(searchPartPrefix(kind.name, k)), part...)
			if file = append(file, searchPartSuffix...); old == nil || !bytes.Equal(file, old[k]) {
				out[searchShardFile(kind.name, k)] = file
			}
		}
	}
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
