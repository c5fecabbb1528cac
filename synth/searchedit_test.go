package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// editCorpus is entries enough for several shards of each kind, with
// words shared among nodes, words of one node only, and stop words.
func editCorpus() []SearchEntry {
	common := strings.Fields("lock file build walker markdown claim requirement code page site search index shard node " +
		"edit text heading field runs cats happy the a of and is")
	rnd := rand.New(rand.NewPCG(28, 3))
	text := func(i, n int) string {
		var ws []string
		for j := range n {
			switch rnd.IntN(5) {
			case 0:
				ws = append(ws, fmt.Sprintf("only%dx%d", i, j)) // a word of this node only
			case 1:
				ws = append(ws, fmt.Sprintf("w%d", rnd.IntN(400))) // a word of a few nodes
			default:
				ws = append(ws, common[rnd.IntN(len(common))])
			}
		}
		return strings.Join(ws, " ")
	}
	var out []SearchEntry
	for i := range 400 {
		e := SearchEntry{ID: claims.PageNode(fmt.Sprintf("area/page%04d", i)), Type: claims.NodePage,
			Title: "Page " + text(i, 2), Path: fmt.Sprintf("content/area/page%04d.md", i), URL: fmt.Sprintf("area/page%04d/", i),
			Text: text(i, 10+rnd.IntN(50)), Headings: []string{text(i, 3)}, Code: []string{fmt.Sprintf("pkg/f%d.go@runThing%d", i%7, i%11)}}
		out = append(out, e)
	}
	return out
}

// encodedShards are c's shards encoded as the build writes them.
func encodedShards(c ClientSearch) ClientShards {
	var s ClientShards
	for _, p := range c.Postings {
		s.Postings = append(s.Postings, encodePart(p))
	}
	for _, p := range c.Pairs {
		s.Pairs = append(s.Pairs, encodePart(p))
	}
	for _, p := range c.Exact {
		s.Exact = append(s.Exact, encodePart(p))
	}
	for _, p := range c.Texts {
		s.Texts = append(s.Texts, encodePart(p))
	}
	return s
}

// TestEditClient checks that the client index [EditClient] makes of an
// edit from the last index is byte for byte the one made of every edited
// entry, for edits that bring new words (and new stems, and words of a
// stem known), take words out (stems gone, and stems that now first occur
// in a later node), change only field lengths, edit several nodes, and
// pass a field's cap.
func TestEditClient(t *testing.T) {
	before := editCorpus()
	old := NewSearchIndex(before, "en").Client()
	shards := encodedShards(old)
	if len(shards.Postings) < 3 || len(shards.Pairs) < 3 || len(shards.Texts) < 3 {
		t.Fatalf("the corpus has %d postings, %d pairs and %d text shards: too few", len(shards.Postings), len(shards.Pairs), len(shards.Texts))
	}
	long := strings.Repeat("w7_", MaxFieldTerms)
	cases := []struct {
		name  string
		edit  func(es []SearchEntry)
		moves bool // the edit moves where text shards are cut
	}{
		{"new word", func(es []SearchEntry) { es[300].Text += " edited 1765018000123456789" }, false},
		{"new word at the top", func(es []SearchEntry) { es[0].Text = "brandnew " + es[0].Text }, false},
		{"new word of a known stem", func(es []SearchEntry) { es[300].Text += " running cat happiness" }, false},
		{"stop words", func(es []SearchEntry) { es[300].Text += " the of and whereas" }, false},
		{"words taken out", func(es []SearchEntry) { es[10].Text = "" }, false},
		{"everything taken out", func(es []SearchEntry) { es[1].Text, es[1].Headings, es[1].Code = "", nil, nil }, false},
		{"longer field", func(es []SearchEntry) { es[200].Text += " lock lock lock" }, false},
		{"shorter field", func(es []SearchEntry) { es[200].Text = es[200].Text[:len(es[200].Text)/2] }, false},
		{"heading added", func(es []SearchEntry) { es[250].Headings = append(es[250].Headings, "An added heading 77") }, false},
		{"code names", func(es []SearchEntry) { es[20].Code = []string{"other/names.go@HTTPServer"} }, false},
		{"field cap", func(es []SearchEntry) { es[300].Code = []string{long + "capped_brandnew_words"} }, false},
		{"first node of a text shard shorter", func(es []SearchEntry) { es[old.Head.Texts[2]].Text = "tiny" }, true},
		{"node before a text shard longer", func(es []SearchEntry) { es[old.Head.Texts[2]-1].Text += strings.Repeat(" grown", 40) }, true},
		{"last node", func(es []SearchEntry) { es[len(es)-1].Text = "final brandnew words" }, false},
		{"several nodes", func(es []SearchEntry) {
			es[5].Text = "moved"
			es[6].Text += " brandnew"
			es[350].Text = strings.ReplaceAll(es[350].Text, "walker", "walkers")
			es[399].Headings = nil
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := slices.Clone(before)
			tc.edit(after)
			want := NewSearchIndex(after, "en").Client()
			if tc.moves && slices.Equal(want.Head.Texts, old.Head.Texts) {
				t.Fatal("the edit cuts the text shards where they were")
			}
			wantShards := encodedShards(want)
			h, got, ok := EditClient(old.Head, shards, editOf(t, before, after))
			if !ok {
				t.Fatal("EditClient could not tell")
			}
			wantHead, _ := json.Marshal(want.Head)
			gotHead, _ := json.Marshal(h)
			if !bytes.Equal(gotHead, wantHead) {
				t.Errorf("head differs:\n got %s\nwant %s", firstDifference(gotHead, wantHead), firstDifference(wantHead, gotHead))
			}
			same := func(kind string, got, was, want [][]byte) {
				if len(got) != len(want) {
					t.Fatalf("%s: %d shards, want %d", kind, len(got), len(want))
				}
				for k := range want {
					g := got[k]
					if g == nil {
						g = was[k] // as it was
					}
					if !bytes.Equal(g, want[k]) {
						t.Errorf("%s shard %d differs:\n got %s\nwant %s", kind, k, firstDifference(g, want[k]), firstDifference(want[k], g))
					}
				}
			}
			same("postings", got.Postings, shards.Postings, wantShards.Postings)
			same("pairs", got.Pairs, shards.Pairs, wantShards.Pairs)
			same("exact", got.Exact, shards.Exact, wantShards.Exact)
			same("texts", got.Texts, shards.Texts, wantShards.Texts)
		})
	}
}

// TestEditClientRefuses checks that EditClient says it cannot tell when
// the edit changes what it does not redo (a title, so the exact shards)
// or how many shards there are.
func TestEditClientRefuses(t *testing.T) {
	before := editCorpus()
	old := NewSearchIndex(before, "en").Client()
	shards := encodedShards(old)
	after := slices.Clone(before)
	after[3].Title = "Another title"
	if _, _, ok := EditClient(old.Head, shards, editOf(t, before, after)); ok {
		t.Error("EditClient redid an edited title")
	}
	after = slices.Clone(before)
	after[3].Text = strings.Repeat("many more words ", 4*SearchShardText/16)
	if want := NewSearchIndex(after, "en").Client(); len(want.Texts) == len(old.Texts) {
		t.Fatal("the long text makes as many text shards")
	}
	if _, _, ok := EditClient(old.Head, shards, editOf(t, before, after)); ok {
		t.Error("EditClient made an index with another number of text shards")
	}
}

// editOf is the edit of the encoded index of before into after, as
// SetSearchBodies makes it for edited bodies.
func editOf(t *testing.T, before, after []SearchEntry) *SearchEdit {
	t.Helper()
	data, err := MarshalJSON(SearchJSON{SchemaVersion: SchemaVersion, Entries: after})
	if err != nil {
		t.Fatal(err)
	}
	ed := &SearchEdit{Index: data, before: map[int]SearchEntry{}, after: map[int]SearchEntry{}}
	var ok bool
	if ed.spans, ok = entrySpans(data); !ok || len(ed.spans) != len(after) {
		t.Fatalf("%d entries found in the index of %d", len(ed.spans), len(after))
	}
	for i := range before {
		if !reflect.DeepEqual(before[i], after[i]) {
			ed.before[i], ed.after[i] = before[i], after[i]
		}
	}
	return ed
}

// firstDifference is a's bytes around where a and b first differ.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("at %d: %q", i, a[max(0, i-40):min(len(a), i+80)])
}
