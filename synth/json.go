// Package synth turns the content model and its drift state into the
// artifacts tracewiki publishes: the check report, and (later) the graph,
// neighborhoods and canonical pages.
package synth

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON is the one encoder of every JSON artifact: two-space
// indentation, no HTML escaping (the artifacts are data, not markup), and a
// final newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
