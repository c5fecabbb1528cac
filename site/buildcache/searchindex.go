package buildcache

import (
	"bytes"
	"encoding/json"

	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// editedSearchScripts are the search page's scripts that differ after the
// edit ed of the search index: made from the last build's scripts and the
// edited entries ([render.EditedSearchScripts]), or else from every entry
// ([render.SearchScriptsOf]), in the language the last build's head script
// says; false when the last build's scripts are not all there or the
// shards would be others, more or fewer (a whole build then writes them).
func editedSearchScripts(dir string, idx *outputIndex, ed *synth.SearchEdit) (map[string][]byte, bool) {
	read := func(name string) ([]byte, bool) { return readOutput(dir, idx, name) }
	if scripts, ok := render.EditedSearchScripts(read, ed); ok {
		return scripts, true
	}
	entries, ok := ed.Entries()
	if !ok {
		return nil, false
	}
	old, ok := readOutput(dir, idx, render.SearchScriptFile)
	if !ok {
		return nil, false
	}
	var head struct {
		Language string `json:"language"`
	}
	old = bytes.TrimSuffix(bytes.TrimPrefix(old, []byte("window.TRACEWIKI_SEARCH = ")), []byte(";\n"))
	if json.Unmarshal(old, &head) != nil {
		return nil, false
	}
	scripts, err := render.SearchScriptsOf(entries, head.Language)
	if err != nil {
		return nil, false
	}
	for name := range scripts {
		if _, ok := idx.files[name]; !ok {
			return nil, false
		}
	}
	// The shards are cut by size: an edit may change how many there are.
	kept := 0
	for name := range idx.files {
		if render.IsSearchScript(name) {
			kept++
		}
	}
	return scripts, kept == len(scripts)
}
