package buildcache

import (
	"encoding/json"
	"path/filepath"

	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// "tracewiki search" loads and analyzes the whole workspace to answer one
// question: five seconds at 11,000 pages, of which ranking is a small
// part. When the last build of the workspace recorded that it is up to
// date ([UpToDate]) and nothing it looked at changed since, the search
// index that build wrote (api/search.json) is the one the analysis would
// make, and search ranks from it instead.

// searchSourceStage names the cache's records, one per workspace, of the
// last up-to-date build whose search index a search may read.
const searchSourceStage = "searchsource"

// recordSearchSource notes, for [CachedSearch], that the build of the
// workspace recorded under the up-to-date key key wrote its search index
// in the language lang.
func recordSearchSource(c *Cache, root string, key []byte, lang string) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	data, err := json.Marshal(searchSource{Key: key, Language: lang})
	if err != nil {
		return
	}
	c.Put(searchSourceStage, cacheKey([]byte(abs)), data)
}

// searchSource is the record of recordSearchSource.
type searchSource struct {
	Key      []byte `json:"key"` // the up-to-date record's
	Language string `json:"language"`
}

// CachedSearch returns the search index of the last up-to-date build of
// the workspace root recorded in the cache c, when nothing that build
// looked at changed since and its output still holds the search index it
// wrote; false otherwise (then the workspace is analyzed as before).
func CachedSearch(root string, c *Cache) (*synth.SearchIndex, bool) {
	if c == nil {
		return nil, false
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, false
	}
	data, ok := c.Get(searchSourceStage, cacheKey([]byte(abs)))
	var src searchSource
	if !ok || json.Unmarshal(data, &src) != nil {
		return nil, false
	}
	rec := recordAt(c, root, src.Key)
	if rec == nil {
		return nil, false
	}
	// The output's search index is the one that build wrote.
	idx := rec.holds(c, root)
	if idx == nil {
		return nil, false
	}
	want, ok := idx.files[render.SearchFile]
	path := filepath.Join(rec.out, filepath.FromSlash(render.SearchFile))
	if now, found := statOutput(path); !ok || !found || !want.same(now) {
		return nil, false
	}
	index, ok := readOutput(rec.out, idx, render.SearchFile)
	var s synth.SearchJSON
	if !ok || json.Unmarshal(index, &s) != nil {
		return nil, false
	}
	return synth.NewSearchIndex(s.Entries, src.Language), true
}
