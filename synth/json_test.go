package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// indentSamples are values whose encodings exercise every rule of indent:
// nesting, empty objects and arrays, strings holding JSON punctuation and
// escaped quotes, numbers and literals.
var indentSamples = []any{
	nil,
	true,
	-12.5e-7,
	"plain",
	`quote " backslash \ both \" and \\" end`,
	map[string]any{},
	[]any{},
	[]any{[]any{}, map[string]any{}, []any{[]any{nil}}},
	map[string]any{"a": map[string]any{"b": []any{1, "x,y:z", map[string]any{"{": "}"}}}, "": []int{}},
	struct {
		Nodes []Node `json:"nodes"`
		Edges []Edge `json:"edges"`
	}{Nodes: []Node{{ID: claims.FileNode(`a "T".go`), Type: "symbol", Why: "[a] {b}"}}, Edges: []Edge{{Src: claims.RunNode(`r\\"`), Dst: claims.RequirementNode("REQ-1")}}},
	"<tag> & \u2028 \x00 \\\\",
}

// reference encodes v as encoding/json's indenting encoder does.
func reference(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestMarshalJSONAsEncodingJSON(t *testing.T) {
	var buf bytes.Buffer
	enc := NewJSONEncoder(&buf)
	for _, v := range indentSamples {
		want := reference(t, v)
		got, err := MarshalJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("MarshalJSON(%#v):\n%s\nwant\n%s", v, got, want)
		}
		buf.Reset()
		if err := enc.Encode(v); err != nil { // one encoder, reused
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("reused encoder, %#v:\n%s\nwant\n%s", v, buf.Bytes(), want)
		}
	}
}

// FuzzIndent checks indent against json.Indent on every valid document,
// compacted as encoding/json writes it.
func FuzzIndent(f *testing.F) {
	for _, v := range indentSamples {
		data, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"a":"\\\"","b":["\\\\",{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		compact.WriteByte('\n')
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indent(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indent(%q) = %q, want %q", compact.Bytes(), got, want.Bytes())
		}
		if n := indentedLen(compact.Bytes()); n != want.Len() {
			t.Errorf("indentedLen(%q) = %d, want %d", compact.Bytes(), n, want.Len())
		}
	})
}

func BenchmarkMarshalJSON(b *testing.B) {
	g := benchGraph(b)
	data, err := MarshalJSON(g.JSON())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := MarshalJSON(g.JSON()); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIndentedLen(t *testing.T) {
	for _, v := range indentSamples {
		src, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := indentedLen(src), len(indent(nil, src)); got != want {
			t.Errorf("indentedLen(%s) = %d, want %d", src, got, want)
		}
	}
}

// TestGraphWriteJSON checks that the streamed graph is MarshalJSON's, on
// graphs with nodes of every kind, stale edges and whys, and on empty ones.
func TestGraphWriteJSON(t *testing.T) {
	full := Build(manyCallers(10))
	full.Nodes[0].Why = `a "quoted" why, {braces} and [brackets]`
	full.Edges[0].Stale, full.Edges[0].Why = true, "stale: <it changed>"
	graphs := map[string]*Graph{
		"callers":     full,
		"no nodes":    {ProjectID: "empty"},
		"empty lists": {ProjectID: `p"q`, Nodes: []Node{}, Edges: []Edge{}},
	}
	for name, g := range graphs {
		want, err := MarshalJSON(g.JSON())
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := g.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: WriteJSON differs from MarshalJSON:\n%s\nwant\n%s", name, got.Bytes(), want)
		}
	}
}

// TestSetSearchBodies checks that setting entries' bodies in an encoded
// search index gives the bytes of the index encoded with the text and
// headings of those bodies, for texts and neighbors that hold what could
// mislead a search for the entry: quotes, backslashes, escapes, keys
// inside strings.
func TestSetSearchBodies(t *testing.T) {
	entries := []SearchEntry{
		{ID: claims.PageNode("a"), Type: claims.NodePage, Title: `"id": "page:b",` + "\n", Text: `"text": "x"`, Headings: []string{"Old"}},
		{ID: claims.PageNode("b"), Type: claims.NodePage, Title: `B \"text\": "`, Path: "content/b.md", Text: `ends with a backslash \`, Headings: []string{}},
		{ID: claims.RequirementNode("REQ-1"), Type: claims.NodeRequirement, Text: "plain", Headings: []string{}, Code: []string{"a.go@F"}},
		{ID: claims.PageNode("c"), Type: claims.NodePage, Text: "", Headings: []string{}},
	}
	bodies := []string{"", "new \"quoted\" text", "# A heading\n\nback\\slash \\n\n## Another ##\n", "tab\tand <html> & é \u2028", "\xff invalid"}
	for i := range entries {
		for _, body := range bodies {
			s := SearchJSON{SchemaVersion: SchemaVersion, Entries: slices.Clone(entries)}
			data, err := MarshalJSON(s)
			if err != nil {
				t.Fatal(err)
			}
			s.Entries[i].Text, s.Entries[i].Headings = SearchText([]byte(body)), orEmpty(MarkdownHeadings([]byte(body)))
			want, err := MarshalJSON(s)
			if err != nil {
				t.Fatal(err)
			}
			ed, ok := SetSearchBodies(data, map[NodeID][]byte{entries[i].ID: []byte(body)})
			if !ok || !bytes.Equal(ed.Index, want) {
				t.Fatalf("entry %s, body %q: got %v\n%s\nwant\n%s", entries[i].ID, body, ok, ed.Index, want)
			}
			for j := range entries {
				if after, ok := ed.entry(j); !ok || !reflect.DeepEqual(after, s.Entries[j]) {
					t.Errorf("entry %s, body %q: entry %d is %+v", entries[i].ID, body, j, after)
				}
			}
			if before := ed.before[i]; len(ed.before) != 1 || !reflect.DeepEqual(before, entries[i]) {
				t.Errorf("entry %s, body %q: the edited entries were %+v", entries[i].ID, body, ed.before)
			}
		}
	}
	// Several at once.
	s := SearchJSON{SchemaVersion: SchemaVersion, Entries: slices.Clone(entries)}
	data, _ := MarshalJSON(s)
	set := map[NodeID][]byte{}
	for i := range s.Entries {
		if i != 2 {
			body := fmt.Sprintf("# Part %d\n\ntext %d \"%d\"", i, i, i)
			set[entries[i].ID] = []byte(body)
			s.Entries[i].Text, s.Entries[i].Headings = SearchText([]byte(body)), []string{fmt.Sprintf("Part %d", i)}
		}
	}
	want, _ := MarshalJSON(s)
	ed, ok := SetSearchBodies(data, set)
	if !ok || !bytes.Equal(ed.Index, want) {
		t.Fatalf("three bodies at once: got %v\n%s\nwant\n%s", ok, ed.Index, want)
	}
	if all, ok := ed.Entries(); !ok || !reflect.DeepEqual(all, s.Entries) || !slices.Equal(ed.edited(), []int{0, 1, 3}) {
		t.Errorf("three bodies at once: entries %+v, edited %v", all, ed.edited())
	}
	if _, ok := SetSearchBodies(data, map[NodeID][]byte{claims.PageNode("missing"): []byte("x")}); ok {
		t.Error("set the body of an entry the index does not have")
	}
}
