package render

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// searchCorpus is the search index of pages enough for several shards of
// each kind, encoded as api/search.json.
func searchCorpus(t *testing.T) []byte {
	t.Helper()
	var entries []synth.SearchEntry
	for i := range 600 {
		entries = append(entries, synth.SearchEntry{ID: claims.PageNode(fmt.Sprintf("area/page%04d", i)), Type: claims.NodePage,
			Title: fmt.Sprintf("Page %d", i), Path: fmt.Sprintf("content/area/page%04d.md", i), URL: fmt.Sprintf("area/page%04d/", i),
			Text: corpusText(i), Headings: []string{}, Code: []string{}})
	}
	data, err := synth.MarshalJSON(synth.SearchJSON{SchemaVersion: synth.SchemaVersion, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// corpusText is the text of page i of searchCorpus: words of many pages,
// of some and of the page only.
func corpusText(i int) string {
	var text strings.Builder
	for j := range 40 {
		fmt.Fprintf(&text, "word%d shared%d page%dword%d ", (i*7+j)%300, j%20, i, j)
	}
	return strings.TrimSpace(text.String())
}

// TestEditedSearchScripts checks that the scripts EditedSearchScripts
// returns, written over the last build's, are the scripts of the edited
// index made from every entry, that it returns only those that change,
// and that it cannot tell when a script it reads is not what the build
// writes.
func TestEditedSearchScripts(t *testing.T) {
	index := searchCorpus(t)
	old, err := SearchScripts(index, "en")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := old[searchShardFile(searchPostings, 2)]; !ok {
		t.Fatalf("the corpus has too few postings shards: %d scripts", len(old))
	}
	read := func(name string) ([]byte, bool) { data, ok := old[name]; return data, ok }
	bodies := map[synth.NodeID][]byte{
		// New words, and a heading.
		claims.PageNode("area/page0300"): []byte("# A new heading\n\nWords new, 1765018000123456789. " + corpusText(300)[60:]),
		// Words gone from the wiki.
		claims.PageNode("area/page0002"): []byte(strings.ReplaceAll(corpusText(2), "page2word1 ", "")),
	}
	ed, ok := synth.SetSearchBodies(index, bodies)
	if !ok {
		t.Fatal("SetSearchBodies failed")
	}
	want, err := SearchScripts(ed.Index, "en")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(old) {
		t.Fatalf("the edit makes %d scripts of %d", len(want), len(old))
	}
	got, ok := EditedSearchScripts(read, ed)
	if !ok {
		t.Fatal("EditedSearchScripts could not tell")
	}
	merged := maps.Clone(old)
	maps.Copy(merged, got)
	for name := range want {
		if !bytes.Equal(merged[name], want[name]) {
			t.Errorf("%s differs from the whole build's", name)
		}
	}
	for name := range got {
		if bytes.Equal(got[name], old[name]) {
			t.Errorf("%s is returned as it was", name)
		}
	}
	if _, ok := got[searchShardFile(searchExact, 0)]; ok || len(got) == len(want) {
		t.Errorf("%d of %d scripts returned, the exact shards among them", len(got), len(want))
	}

	for name, broken := range map[string][]byte{
		searchShardFile(searchPairs, 1):    nil,
		searchShardFile(searchPostings, 0): []byte("window.TRACEWIKI_SEARCH_PART(\"p\", 0, {\"0\":[1,[0],[1,1]]);\n"),
		SearchScriptFile:                   []byte("window.TRACEWIKI_SEARCH = {};\n"),
	} {
		read := func(n string) ([]byte, bool) {
			if n == name {
				return broken, broken != nil
			}
			return old[n], true
		}
		if _, ok := EditedSearchScripts(read, ed); ok {
			t.Errorf("EditedSearchScripts made scripts with %s missing or broken", name)
		}
	}
}
