// Package synth turns the content model and its drift state into the
// artifacts tracewiki publishes: the check report, and (later) the graph,
// neighborhoods and canonical pages.
package synth

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"maps"
	"slices"
)

// MarshalJSON is the one encoder of every JSON artifact: two-space
// indentation, no HTML escaping (the artifacts are data, not markup), and a
// final newline.
func MarshalJSON(v any) ([]byte, error) {
	var compact bytes.Buffer
	if err := compactEncoder(&compact).Encode(v); err != nil {
		return nil, err
	}
	src := compact.Bytes()
	return indent(make([]byte, 0, indentedLen(src)), src), nil
}

// compactEncoder returns the encoder whose output indent indents.
func compactEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// A JSONEncoder writes values as [MarshalJSON] encodes them. It reuses its
// buffers from value to value.
type JSONEncoder struct {
	w       io.Writer
	compact bytes.Buffer
	enc     *json.Encoder // into compact
	out     []byte
}

// NewJSONEncoder returns an encoder that writes what [MarshalJSON] returns.
func NewJSONEncoder(w io.Writer) *JSONEncoder {
	e := &JSONEncoder{w: w}
	e.enc = compactEncoder(&e.compact)
	return e
}

// Encode writes v, indented, and a newline.
//
// encoding/json indents with its validating scanner, a state machine per
// byte: that was two thirds of the encoding of an 11,000-page graph. Its
// own compact output needs no validation, so indent does it directly.
func (e *JSONEncoder) Encode(v any) error {
	if _, err := e.Compact(v); err != nil {
		return err
	}
	return e.WriteIndented()
}

// Compact encodes v without indentation and returns it, valid until the
// next value: what [JSONEncoder.WriteIndented] writes. A caller that may
// not write v at all (a page kept from the last build, whose key is the
// hash of its values) needs no more.
func (e *JSONEncoder) Compact(v any) ([]byte, error) {
	e.compact.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return e.compact.Bytes(), nil
}

// WriteIndented writes the value [JSONEncoder.Compact] last encoded as
// Encode writes it.
func (e *JSONEncoder) WriteIndented() error {
	src := e.compact.Bytes()
	e.out = slices.Grow(e.out[:0], indentedLen(src))
	e.out = indent(e.out, src)
	_, err := e.w.Write(e.out)
	return err
}

// indent appends src, compact JSON as encoding/json writes it, to dst
// indented by two spaces, as [json.Indent] with no prefix would: empty
// objects and arrays stay {} and [], a colon is followed by one space, and
// whatever follows the value (the encoder's newline) is copied.
func indent(dst, src []byte) []byte { return indentAt(dst, src, 0) }

// indentAt is indent for a value nested depth levels deep: its lines
// after the first are indented depth levels more.
func indentAt(dst, src []byte, depth int) []byte {
	open := false // after { or [: the line break waits for the next byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			end := stringEnd(src, i+1)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			open = true
			dst = append(dst, c)
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// indentedLen returns the length of indent's output for src, so that a
// graph of tens of megabytes is written into one allocation instead of
// growing through a dozen.
func indentedLen(src []byte) int {
	n, depth := len(src), 0
	open := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			n += 1 + 2*depth
		}
		switch c {
		case '"':
			i = stringEnd(src, i+1) - 1
		case '{', '[':
			open = true
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				n += 1 + 2*depth
			}
		case ',':
			n += 1 + 2*depth
		case ':':
			n++
		}
	}
	return n
}

// stringEnd returns the index just past the closing quote of the string
// whose text starts at src[i], or len(src) if it is not closed.
func stringEnd(src []byte, i int) int {
	for {
		q := bytes.IndexByte(src[i:], '"')
		if q < 0 {
			return len(src)
		}
		i += q
		backslashes := 0
		for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
}

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// WriteJSON writes the whole graph as [MarshalJSON] encodes [Graph.JSON],
// byte for byte, one node and one edge at a time, through a small buffer:
// the encoded graph of an 11,000-page site is 24 MB, which a build never
// needs to hold.
func (g *Graph) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	e := &elementWriter{w: bw}
	e.enc = compactEncoder(&e.compact)
	bw.WriteString("{\n  \"schemaVersion\": ")
	e.value(GraphSchemaVersion, 1)
	bw.WriteString(",\n  \"project_id\": ")
	e.value(g.ProjectID, 1)
	bw.WriteString(",\n  \"nodes\": ")
	writeElements(e, g.Nodes)
	bw.WriteString(",\n  \"edges\": ")
	writeElements(e, g.Edges)
	bw.WriteString("\n}\n")
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

// elementWriter writes values nested in a document, indented as
// [MarshalJSON] indents them; the first error sticks.
type elementWriter struct {
	w       *bufio.Writer
	compact bytes.Buffer
	enc     *json.Encoder // into compact
	out     []byte
	err     error
}

func (e *elementWriter) value(v any, depth int) {
	if e.err != nil {
		return
	}
	e.compact.Reset()
	if e.err = e.enc.Encode(v); e.err != nil {
		return
	}
	src := bytes.TrimSuffix(e.compact.Bytes(), []byte("\n"))
	e.out = indentAt(e.out[:0], src, depth)
	_, e.err = e.w.Write(e.out)
}

// writeElements writes the array of vs at depth 1. Each element is encoded
// through its address, as encoding/json encodes a slice's elements, so
// that methods on pointers (a NodeID's MarshalText) apply.
func writeElements[T any](e *elementWriter, vs []T) {
	switch {
	case vs == nil:
		e.w.WriteString("null")
		return
	case len(vs) == 0:
		e.w.WriteString("[]")
		return
	}
	e.w.WriteByte('[')
	for i := range vs {
		if i > 0 {
			e.w.WriteByte(',')
		}
		e.w.WriteString("\n    ")
		e.value(&vs[i], 2)
	}
	e.w.WriteString("\n  ]")
}

// SetSearchBodies returns the edit of data, a search index as
// [MarshalJSON] encodes [SearchJSON], that makes the entries of bodies (by
// id) again from their documents' new Markdown bodies: their text and
// headings, as [NewSearch] makes them. False when data is no index or
// lacks one of the entries. An edit of a page's text changes its entry
// only: the others are neither decoded nor encoded again (at 11,000 pages
// the index is 15 MB).
func SetSearchBodies(data []byte, bodies map[NodeID][]byte) (*SearchEdit, bool) {
	spans, ok := entrySpans(data)
	if !ok {
		return nil, false
	}
	type change struct {
		i     int
		entry []byte
	}
	var changes []change
	ed := &SearchEdit{before: map[int]SearchEntry{}, after: map[int]SearchEntry{}}
	for id, body := range bodies {
		key := append(append([]byte("\n      \"id\": "), jsonString(id.String())...), ",\n"...)
		at := bytes.Index(data, key)
		if at < 0 {
			return nil, false
		}
		i, _ := slices.BinarySearchFunc(spans, at, func(s [2]int, at int) int { return cmp.Compare(s[1], at) })
		var e SearchEntry
		if i == len(spans) || spans[i][0] > at || json.Unmarshal(data[spans[i][0]:spans[i][1]], &e) != nil || e.ID != id {
			return nil, false
		}
		ed.before[i] = e
		e.Text, e.Headings = searchBody(body)
		ed.after[i] = e
		var compact bytes.Buffer
		if compactEncoder(&compact).Encode(&e) != nil {
			return nil, false
		}
		changes = append(changes, change{i, indentAt(nil, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), entryDepth)})
	}
	slices.SortFunc(changes, func(a, b change) int { return a.i - b.i })
	out := make([]byte, 0, len(data)+len(data)/8)
	last := 0
	for _, c := range changes {
		out = append(append(out, data[last:spans[c.i][0]]...), c.entry...)
		last = spans[c.i][1]
	}
	ed.Index = append(out, data[last:]...)
	if ed.spans, ok = entrySpans(ed.Index); !ok || len(ed.spans) != len(spans) {
		return nil, false
	}
	return ed, true
}

// SearchEdit is an edit of some entries of an encoded search index
// ([SetSearchBodies]): the index it makes, the edited entries before and
// after, and the others, decoded when asked for.
type SearchEdit struct {
	Index         []byte // the edited index, encoded
	spans         [][2]int
	before, after map[int]SearchEntry // the edited entries, by index
}

// entryDepth is the depth of the entries in an encoded search index.
const entryDepth = 2

// entryStart and entryEnd start and end an entry of an encoded search
// index: no other line is indented so, and no string holds a line break.
const (
	entryStart = "\n    {"
	entryEnd   = "\n    }"
)

// entrySpans are the byte ranges of the entries of an encoded search
// index, in order.
func entrySpans(data []byte) ([][2]int, bool) {
	at := bytes.Index(data, []byte("\n  \"entries\": "))
	if at < 0 {
		return nil, false
	}
	var spans [][2]int
	for {
		start := bytes.Index(data[at:], []byte(entryStart))
		if start < 0 {
			return spans, true
		}
		start += at
		end := bytes.Index(data[start:], []byte(entryEnd))
		if end < 0 {
			return nil, false
		}
		at = start + end + len(entryEnd)
		spans = append(spans, [2]int{start + len(entryStart) - 1, at})
	}
}

// size is how many entries the index has.
func (ed *SearchEdit) size() int { return len(ed.spans) }

// edited are the indexes of the edited entries, ascending.
func (ed *SearchEdit) edited() []int { return slices.Sorted(maps.Keys(ed.after)) }

// entry is entry i of the edited index.
func (ed *SearchEdit) entry(i int) (SearchEntry, bool) {
	if e, ok := ed.after[i]; ok {
		return e, true
	}
	var e SearchEntry
	err := json.Unmarshal(ed.Index[ed.spans[i][0]:ed.spans[i][1]], &e)
	return e, err == nil
}

// Entries are the entries of the edited index, every one decoded.
func (ed *SearchEdit) Entries() ([]SearchEntry, bool) {
	var s SearchJSON
	err := json.Unmarshal(ed.Index, &s)
	return s.Entries, err == nil
}

// jsonString is s encoded as a JSON string, as [MarshalJSON] writes it.
func jsonString(s string) []byte {
	var b bytes.Buffer
	compactEncoder(&b).Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
