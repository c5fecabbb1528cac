package synth

import (
	"bytes"
	"cmp"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// MaxFragmentLines bounds the code a code resource returns.
const MaxFragmentLines = 240

// CodeResourceJSON is what a code:// resource returns: the target's
// fragment with its captured and current lines and its state.
type CodeResourceJSON struct {
	Type          string `json:"type"` // "code-resource"
	SchemaVersion int    `json:"schemaVersion"`
	URI           string `json:"uri"`
	Ref           string `json:"ref"`
	Path          string `json:"path"`
	Symbol        string `json:"symbol,omitempty"`
	State         string `json:"state"`
	Reason        string `json:"reason"`
	Why           string `json:"why"`
	Moved         bool   `json:"moved"`
	Reformatted   bool   `json:"reformatted"`
	// Captured and Current are [start, end] lines: as captured (null when
	// never captured) and where the target is now (null when not found).
	Captured []int `json:"captured"`
	Current  []int `json:"current"`
	// Text is the fragment: the current lines, else the captured text;
	// From says which ("current", "captured" or "" for none).
	Text string `json:"text"`
	From string `json:"from"`
	// Truncated counts the lines past MaxFragmentLines left out.
	Truncated int      `json:"truncated"`
	ClaimedBy []string `json:"claimed_by"`
}

// CodeResource is a code target by its resource URI (SPEC 1.3, with the
// graph's project id): a URI naming no target of the content gives false.
func (k *Knowledge) CodeResource(uri string) (CodeResourceJSON, bool) {
	i, ok := k.uris[uri]
	if !ok {
		return CodeResourceJSON{}, false
	}
	ts := &k.in.Report.Targets[i]
	v := ts.Verdict
	r := CodeResourceJSON{
		Type: "code-resource", SchemaVersion: KnowledgeSchemaVersion, URI: uri, Ref: ts.Target.String(), Path: ts.Target.Path,
		Symbol: ts.Target.Symbol, State: string(v.State), Reason: string(v.Reason), Why: cmp.Or(v.Reason.Why(k.in.Lang), v.Note),
		Moved: v.Moved, Reformatted: v.Reformatted, ClaimedBy: []string{},
	}
	for _, u := range ts.Uses {
		if id := u.Node.String(); len(r.ClaimedBy) == 0 || r.ClaimedBy[len(r.ClaimedBy)-1] != id {
			r.ClaimedBy = append(r.ClaimedBy, id)
		}
	}
	var lines [][]byte
	if ts.Anchor != nil {
		r.Captured = []int{ts.Anchor.Start, ts.Anchor.End}
	}
	if src := k.in.Sources[ts.Target.Path]; src != nil && v.Start > 0 && v.End <= len(src.Lines) {
		r.Current, r.From = []int{v.Start, v.End}, "current"
		lines = src.Lines[v.Start-1 : v.End]
	} else if ts.Anchor != nil {
		r.From = "captured"
		lines = bytes.Split([]byte(ts.Anchor.CapturedText), []byte("\n"))
	}
	if len(lines) > MaxFragmentLines {
		r.Truncated = len(lines) - MaxFragmentLines
		lines = lines[:MaxFragmentLines]
	}
	r.Text = string(bytes.Join(lines, []byte("\n")))
	return r, true
}

// CodeURIs lists the resource URI of every code target of the content,
// in ref order, with the target's ref.
func (k *Knowledge) CodeURIs() [][2]string {
	out := make([][2]string, 0, len(k.in.Report.Targets))
	for _, ts := range k.in.Report.Targets {
		out = append(out, [2]string{ts.Target.URI(k.in.Graph.ProjectID), ts.Target.String()})
	}
	return out
}

// codeURIs maps each code target's resource URI to its report entry.
func codeURIs(rep *codeanchors.Report, project string) map[string]int {
	m := make(map[string]int, len(rep.Targets))
	for i, ts := range rep.Targets {
		m[ts.Target.URI(project)] = i
	}
	return m
}
