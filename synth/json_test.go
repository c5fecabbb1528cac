package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// TestSetSearchTexts checks that setting entries' texts in an encoded
// search index gives the bytes of the index encoded with those texts, for
// texts and neighbors that hold what could mislead a search for the
// entry: quotes, backslashes, escapes, keys inside strings.
func TestSetSearchTexts(t *testing.T) {
	entries := []SearchEntry{
		{ID: claims.PageNode("a"), Type: claims.NodePage, Title: `"id": "page:b",` + "\n", Text: `"text": "x"`},
		{ID: claims.PageNode("b"), Type: claims.NodePage, Title: `B \"text\": "`, Path: "content/b.md", Text: `ends with a backslash \`},
		{ID: claims.RequirementNode("REQ-1"), Type: claims.NodeRequirement, Text: "plain"},
		{ID: claims.PageNode("c"), Type: claims.NodePage, Text: ""},
	}
	texts := []string{"", "new \"quoted\" text", `back\slash \n`, "tab\tand <html> & é \u2028", "\xff invalid"}
	for i := range entries {
		for _, text := range texts {
			s := SearchJSON{SchemaVersion: SchemaVersion, Entries: slices.Clone(entries)}
			data, err := MarshalJSON(s)
			if err != nil {
				t.Fatal(err)
			}
			s.Entries[i].Text = text
			want, err := MarshalJSON(s)
			if err != nil {
				t.Fatal(err)
			}
			parts, ok := SetSearchTexts(data, map[NodeID]string{entries[i].ID: text})
			if got := bytes.Join(parts, nil); !ok || !bytes.Equal(got, want) {
				t.Errorf("entry %s, text %q: got %v\n%s\nwant\n%s", entries[i].ID, text, ok, got, want)
			}
		}
	}
	// Several at once.
	s := SearchJSON{SchemaVersion: SchemaVersion, Entries: slices.Clone(entries)}
	data, _ := MarshalJSON(s)
	set := map[NodeID]string{}
	for i := range s.Entries {
		if i != 2 {
			set[entries[i].ID] = fmt.Sprintf("text %d \"%d\"", i, i)
			s.Entries[i].Text = set[entries[i].ID]
		}
	}
	want, _ := MarshalJSON(s)
	if parts, ok := SetSearchTexts(data, set); !ok || !bytes.Equal(bytes.Join(parts, nil), want) {
		t.Errorf("three texts at once: got %v\n%s\nwant\n%s", ok, bytes.Join(parts, nil), want)
	}
	if _, ok := SetSearchTexts(data, map[NodeID]string{claims.PageNode("missing"): "x"}); ok {
		t.Error("set the text of an entry the index does not have")
	}
}
