// Package synth turns the content model and its drift state into the
// artifacts tracewiki publishes: the check report, and (later) the graph,
// neighborhoods and canonical pages.
package synth

import (
	"bytes"
	"encoding/json"
	"io"
)

// MarshalJSON is the one encoder of every JSON artifact: two-space
// indentation, no HTML escaping (the artifacts are data, not markup), and a
// final newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := NewJSONEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// NewJSONEncoder returns an encoder that writes what [MarshalJSON] returns.
// An encoder used for many values reuses its buffers.
func NewJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc
}
