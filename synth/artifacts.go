package synth

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// SchemaVersion is the version of every JSON artifact of a built site. The
// schemas are in the repository's schemas/ folder.
const SchemaVersion = 1

// NodeJSON is the index.json twin of a node's page: the node and its depth-1
// neighborhood.
type NodeJSON struct {
	SchemaVersion int          `json:"schemaVersion"`
	Node          Node         `json:"node"`
	Neighborhood  Neighborhood `json:"neighborhood"`
}

// DriftJSON is api/drift.json: every link that is not linked.
type DriftJSON struct {
	SchemaVersion int         `json:"schemaVersion"`
	Links         []DriftLink `json:"links"` // in ref order
}

// DriftLink is one stale or unknown link and where it is claimed.
type DriftLink struct {
	Ref       string   `json:"ref"`
	State     string   `json:"state"`
	Reason    string   `json:"reason"`
	Why       string   `json:"why"`
	ClaimedBy []NodeID `json:"claimed_by"`
	// Relocated and Suggestions are as in [CheckTarget].
	Relocated   []codeanchors.Relocation `json:"relocated"`
	Suggestions []string                 `json:"suggestions"`
	// ClaimedAt lists the places the link is written, file:line.
	ClaimedAt     []string `json:"claimed_at"`
	Start         int      `json:"start,omitempty"` // current lines, when found
	End           int      `json:"end,omitempty"`
	CapturedStart int      `json:"captured_start,omitempty"`
	CapturedEnd   int      `json:"captured_end,omitempty"`
	Note          string   `json:"note,omitempty"`
	URL           string   `json:"url,omitempty"` // the target's page, under the base URL
	// Source and Markers are as in [CheckTarget]: a link code markers
	// declare, and where they are (SPEC 1.6).
	Source  string   `json:"source,omitempty"`
	Markers []string `json:"markers,omitempty"`
}

// NewDrift is the api/drift.json view of the findings: every link that is
// not linked, in their order. url gives a node's page URL ("" for none): a
// code target's, else its claimer's (the requirement of an evidence entry,
// the child of a parent link). g names a code target's node (nil: tests
// told by name only).
func NewDrift(f *Findings, g *Graph, url func(NodeID) string) DriftJSON {
	d := DriftJSON{SchemaVersion: SchemaVersion, Links: []DriftLink{}}
	for _, l := range f.Problems() {
		v := l.Verdict
		dl := DriftLink{
			Ref: l.Ref, State: string(v.State), Reason: string(v.Reason), Why: l.Why, ClaimedBy: l.ClaimedBy, ClaimedAt: []string{},
			Relocated: orEmpty(l.Relocated), Suggestions: orEmpty(l.Suggestions),
		}
		if l.Kind != LinkEvidence { // evidence is written in the lock, not the content
			for _, w := range l.Written {
				dl.ClaimedAt = append(dl.ClaimedAt, w.Pos.String())
			}
		}
		switch l.Kind {
		case LinkTarget:
			dl.Start, dl.End, dl.Note, dl.URL = v.Start, v.End, v.Note, url(g.TargetNodeID(l.Target))
			dl.CapturedStart, dl.CapturedEnd = l.CapturedLines()
		case LinkEvidence:
			dl.Note, dl.URL = v.Note, url(l.ClaimedBy[0])
		case LinkParent, LinkMarker:
			dl.URL = url(l.ClaimedBy[0])
		}
		if dl.Markers = l.Markers(); len(dl.Markers) > 0 {
			dl.Source = SourceMarker
		}
		d.Links = append(d.Links, dl)
	}
	return d
}

// SearchJSON is api/search.json, the client search index.
type SearchJSON struct {
	SchemaVersion int           `json:"schemaVersion"`
	Entries       []SearchEntry `json:"entries"` // in node order
}

// SearchEntry is one searchable node: the fields search ranks by (SPEC 5)
// and what a result shows.
type SearchEntry struct {
	ID    NodeID          `json:"id"`
	Type  claims.NodeType `json:"type"`
	Title string          `json:"title"`
	// Path is the node's file: a content file for a requirement, decision
	// or page, the source file for code; "" for a run.
	Path string `json:"path"`
	Text string `json:"text"` // plain text, capped at MaxSearchText bytes
	// Headings are a document's Markdown headings, Code the code names
	// and paths a document links (a code node's own are its id).
	Headings []string `json:"headings"`
	Code     []string `json:"code"`
	// URL is the node's page relative to the site root ("requirements/REQ-1/").
	URL   string `json:"url"`
	Stale bool   `json:"stale"`
	Lines []int  `json:"lines,omitempty"` // a symbol's or test's [start, end]
}

// MaxSearchText caps the text of a search entry, so the index stays small.
const MaxSearchText = 6000

// NewSearch indexes every node by id, title, path, headings, text (the
// Markdown body of a document, as plain text) and code names. url gives
// each node's page, relative to the site root.
func NewSearch(g *Graph, m *claims.Model, url func(NodeID) string) SearchJSON {
	type doc struct {
		text, file string
		headings   []string
	}
	docs := map[NodeID]doc{}
	each(m, func(id NodeID, d *claims.Doc) {
		text, headings := searchBody(d.Body)
		docs[id] = doc{text, d.File, headings}
	})
	linked := map[NodeID][]string{}
	for _, e := range g.Edges {
		if e.Relation == Located || !KindOf(e.Dst.Type).Code || KindOf(e.Src.Type).Code || len(linked[e.Src]) >= MaxLinkedCode {
			continue
		}
		linked[e.Src] = append(linked[e.Src], e.Dst.Key)
	}
	s := SearchJSON{SchemaVersion: SchemaVersion, Entries: make([]SearchEntry, 0, len(g.Nodes))}
	for _, n := range g.Nodes {
		title := n.Title
		if title == "" {
			title = n.Label
		}
		d := docs[n.ID]
		p := n.Path
		if d.file != "" {
			p = d.file
		}
		e := SearchEntry{ID: n.ID, Type: n.Type, Title: title, Path: p, Text: d.text, Headings: orEmpty(d.headings), Code: orEmpty(linked[n.ID]), URL: url(n.ID), Stale: n.Stale}
		if KindOf(n.Type).Code && n.Start > 0 {
			e.Lines = []int{n.Start, n.End}
		}
		s.Entries = append(s.Entries, e)
	}
	return s
}

// searchBody is what a search entry holds of a document's Markdown body:
// its text and its headings.
func searchBody(body []byte) (text string, headings []string) {
	return SearchText(body), orEmpty(MarkdownHeadings(body))
}

// MarkdownHeadings are the ATX headings ("# Title") of a Markdown body,
// outside fenced code, without their marks.
func MarkdownHeadings(body []byte) []string {
	var out []string
	fence := ""
	for line := range strings.SplitSeq(string(body), "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		rest := strings.TrimLeft(t, "#")
		if n := len(t) - len(rest); n >= 1 && n <= 6 && (rest == "" || rest[0] == ' ') {
			if h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "#")); h != "" {
				out = append(out, h)
			}
		}
	}
	return out
}

// SearchText is a document body's search entry text: its Markdown with
// whitespace collapsed, capped at MaxSearchText bytes on a rune boundary.
func SearchText(body []byte) string {
	t := strings.Join(strings.Fields(string(body)), " ")
	if len(t) <= MaxSearchText {
		return t
	}
	cut := MaxSearchText
	for cut > 0 && t[cut]&0xC0 == 0x80 {
		cut--
	}
	return t[:cut]
}

// ManifestJSON is api/manifest.json: what the build holds.
type ManifestJSON struct {
	SchemaVersion int    `json:"schemaVersion"`
	ProjectID     string `json:"project_id"`
	Title         string `json:"title"`
	BaseURL       string `json:"baseURL"`
	// Nodes counts nodes per type; every type is present.
	Nodes map[string]int `json:"nodes"`
	Edges int            `json:"edges"`
	// Links counts link states, Reasons the non-linked links per reason;
	// every state and reason is present.
	Links   map[string]int `json:"links"`
	Reasons map[string]int `json:"reasons"`
	// Superseded counts the evidence entries a newer run of their
	// requirement superseded: history, apart from the links (SPEC 1.5).
	Superseded int      `json:"superseded"`
	Pages      int      `json:"pages"` // HTML pages written
	Artifacts  []string `json:"artifacts"`
	// Truncated lists what a cap cut: "code index: 12 unresolved imports
	// not listed", and the like.
	Truncated []string `json:"truncated"`
}

// NewManifest counts a build.
func NewManifest(g *Graph, rep *codeanchors.Report, title, baseURL string, pages int, artifacts, truncated []string) ManifestJSON {
	m := ManifestJSON{
		SchemaVersion: SchemaVersion, ProjectID: g.ProjectID, Title: title, BaseURL: baseURL,
		Nodes: map[string]int{}, Edges: len(g.Edges), Links: map[string]int{}, Reasons: map[string]int{},
		Pages: pages, Artifacts: artifacts, Truncated: truncated,
	}
	if m.Truncated == nil {
		m.Truncated = []string{}
	}
	if m.Artifacts == nil {
		m.Artifacts = []string{}
	}
	for _, t := range claims.NodeTypes {
		m.Nodes[string(t)] = 0
	}
	for _, n := range g.Nodes {
		m.Nodes[string(n.Type)]++
	}
	for _, s := range []codeanchors.State{codeanchors.Linked, codeanchors.Stale, codeanchors.Unknown} {
		m.Links[string(s)] = 0
	}
	for _, r := range codeanchors.Reasons {
		m.Reasons[string(r)] = 0
	}
	count := func(v codeanchors.Verdict) {
		m.Links[string(v.State)]++
		if v.Reason != "" {
			m.Reasons[string(v.Reason)]++
		}
	}
	for _, ts := range rep.Targets {
		count(ts.Verdict)
	}
	for _, es := range rep.Evidence {
		if es.Verdict.State == codeanchors.Superseded {
			m.Superseded++
			continue
		}
		count(es.Verdict)
	}
	for _, ps := range rep.Parents {
		count(ps.Verdict)
	}
	return m
}

// Ref returns the SPEC 1.3 reference of a code node ("path@Symbol"), or its
// id for other nodes.
func (n Node) Ref() string {
	if KindOf(n.Type).Code {
		return n.ID.Key
	}
	return n.ID.String()
}

// Neighbors returns the depth-1 neighborhood of a node.
func (g *Graph) Neighbors(id NodeID) Neighborhood {
	n, ok := g.Node(id)
	if !ok {
		return g.Neighborhood(Query{}).Neighborhood
	}
	return g.NeighborhoodOf([]NodeID{n.ID}, 1)
}

// String describes a neighborhood for messages.
func (nb Neighborhood) String() string {
	return fmt.Sprintf("%d nodes, %d edges", len(nb.Nodes), len(nb.Edges))
}
