package synth

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// A repository's bundle (SPEC 1.8): what another repository, or an
// organisation's wiki built from bundles alone, needs to link into this
// one and judge those links by hash. It holds the requirements with their
// plain text and states, the anchors of every target the content links,
// the code index with the hashes of every symbol (so that any symbol can
// be linked, not only anchored ones), this repository's links into its
// externals, its evidence states and its coverage. No page HTML, and no
// hash of itself: whoever pins a bundle hashes the file.

// BundleFile is the bundle's artifact.
const BundleFile = "api/bundle.json"

// MaxBundleText caps a requirement's text in the bundle, in characters
// (runes); a cut text ends with [bundleEllipsis], within the cap.
const MaxBundleText = 2000

// bundleEllipsis ends a text the cap cut, so a reader can tell.
const bundleEllipsis = "…"

// BundleInput is what [NewBundle] computes from.
type BundleInput struct {
	Name     string // the config's project slug
	Revision string // the commit built ("" outside git)
	URL      string // the published wiki's URL ("" when not known)
	Graph    *Graph
	Model    *claims.Model
	Report   *codeanchors.Report
	// Code is the current hashes of the code index and of the targets
	// ([codeanchors.Publish]).
	Code     *codeanchors.Published
	Coverage CoverageCount // the totals of api/coverage.json
}

// BundleJSON is api/bundle.json.
type BundleJSON struct {
	SchemaVersion int    `json:"schemaVersion"`
	Name          string `json:"name"`
	Revision      string `json:"revision"`
	URL           string `json:"url"`
	// Requirements by id ([claims.CompareIDs]).
	Requirements []BundleRequirement `json:"requirements"`
	// Anchors are the targets the content links, by ref.
	Anchors []BundleAnchor `json:"anchors"`
	// Symbols are the code index: by path, then line.
	Symbols []BundleSymbol `json:"symbols"`
	// Links are this repository's links into its externals, by from,
	// to and kind.
	Links    []BundleLink     `json:"links"`
	Evidence []BundleEvidence `json:"evidence"` // by requirement id, then run
	Coverage BundleCoverage   `json:"coverage"`
}

// BundleRequirement is one requirement: its text and structure, what it
// links, and its derived states.
type BundleRequirement struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Text     string `json:"text"` // plain text, at most MaxBundleText characters
	Revision string `json:"revision"`
	Document string `json:"document"`
	Level    string `json:"level"`
	Status   string `json:"status"`
	// Normative is false for headings and notes, which coverage skips.
	Normative bool              `json:"normative"`
	Fields    map[string]string `json:"fields"`
	// Parents are requirement ids, Implements and Tests target refs, as
	// written (each once); an implements or tests link's state is its
	// anchor's (by ref).
	Parents     []string `json:"parents"`
	Implements  []string `json:"implements"`
	Tests       []string `json:"tests"`
	Implemented bool     `json:"implemented"`
	Tested      bool     `json:"tested"`
	Verified    bool     `json:"verified"`
	// Stale is the requirement node's: one of its declared links (code,
	// parent, evidence) is stale.
	Stale bool `json:"stale"`
}

// BundleAnchor is one target the content links: where it is now and the
// hashes of those lines (empty when not found), its state, and who claims
// it. A repository that links it compares its own captured hashes with
// these.
type BundleAnchor struct {
	Ref       string   `json:"ref"`
	Start     int      `json:"start"` // current lines; 0 when not found
	End       int      `json:"end"`
	Hash      string   `json:"hash"`
	TokenHash string   `json:"token_hash"`
	BodyHash  string   `json:"body_hash"` // a found symbol's only
	Parser    string   `json:"parser"`
	State     string   `json:"state"`
	Reason    string   `json:"reason"`
	ClaimedBy []NodeID `json:"claimed_by"`
}

// BundleSymbol is one symbol of the code index and the hashes of its
// current lines.
type BundleSymbol struct {
	Ref       string `json:"ref"`
	Kind      string `json:"kind"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Hash      string `json:"hash"`
	TokenHash string `json:"token_hash"`
}

// BundleLink is one link of this repository into an external's bundle,
// with what it captured, so that an organisation's wiki, which reads
// bundles only, judges it against the other bundle as it is now: a code
// link's captured lines and hashes, a parent link's reviewed revision
// (all empty when not captured).
type BundleLink struct {
	From      NodeID `json:"from"`
	To        string `json:"to"`
	Kind      string `json:"kind"`
	State     string `json:"state"`
	Reason    string `json:"reason"`
	Start     int    `json:"start,omitempty"`
	End       int    `json:"end,omitempty"`
	Hash      string `json:"hash,omitempty"`
	TokenHash string `json:"token_hash,omitempty"`
	Parser    string `json:"parser,omitempty"`
	Revision  string `json:"revision,omitempty"`
}

// BundleEvidence is a requirement's live evidence entry (its newest;
// superseded entries are history and left out).
type BundleEvidence struct {
	Req   string `json:"req"`
	Run   string `json:"run"`
	State string `json:"state"`
}

// BundleCoverage is the code coverage by requirements: Covered of Total
// symbols (Total leaves out those waivers justify, so Covered/Total is
// the share).
type BundleCoverage struct {
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

// NewBundle makes the bundle. It is deterministic: every list sorted.
func NewBundle(in BundleInput) BundleJSON {
	b := BundleJSON{
		SchemaVersion: SchemaVersion, Name: in.Name, Revision: in.Revision, URL: in.URL,
		Requirements: bundleRequirements(in), Anchors: bundleAnchors(in), Symbols: bundleSymbols(in.Code),
		Links: bundleLinks(in.Report), Evidence: []BundleEvidence{},
		Coverage: BundleCoverage{Covered: in.Coverage.Covered, Total: in.Coverage.counted()},
	}
	for _, es := range in.Report.Evidence {
		if es.Verdict.State != codeanchors.Superseded {
			b.Evidence = append(b.Evidence, BundleEvidence{Req: es.Evidence.Req, Run: es.Evidence.Run, State: string(es.Verdict.State)})
		}
	}
	slices.SortFunc(b.Evidence, func(x, y BundleEvidence) int {
		return cmp.Or(claims.CompareIDs(x.Req, y.Req), cmp.Compare(x.Run, y.Run))
	})
	return b
}

// bundleRequirements lists the model's requirements by id.
func bundleRequirements(in BundleInput) []BundleRequirement {
	status := make(map[string]codeanchors.RequirementStatus, len(in.Report.Requirements))
	for _, s := range in.Report.Requirements {
		status[s.ID] = s
	}
	out := make([]BundleRequirement, 0, len(in.Model.Requirements))
	for _, r := range in.Model.Requirements {
		s := status[r.ID]
		n, _ := in.Graph.Node(claims.RequirementNode(r.ID))
		br := BundleRequirement{
			ID: r.ID, Title: r.Title, Text: BundleText(r.Doc.Body), Revision: r.Revision,
			Document: r.Document, Level: r.Level, Status: r.Status, Normative: r.Normative, Fields: map[string]string{},
			Parents: []string{}, Implements: []string{}, Tests: []string{},
			Implemented: s.Implemented, Tested: s.Tested, Verified: s.Verified, Stale: n.Stale,
		}
		for k, v := range r.Fields {
			br.Fields[k] = v
		}
		for _, p := range r.Parents {
			br.Parents = appendOnce(br.Parents, p.ID)
		}
		for _, t := range r.Implements {
			br.Implements = appendOnce(br.Implements, t.Target.String())
		}
		for _, t := range r.Tests {
			br.Tests = appendOnce(br.Tests, t.Target.String())
		}
		out = append(out, br)
	}
	slices.SortStableFunc(out, func(x, y BundleRequirement) int { return claims.CompareIDs(x.ID, y.ID) })
	return out
}

// appendOnce appends s to list unless it holds it already.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// bundleAnchors lists the report's targets (in ref order) with their
// current hashes.
func bundleAnchors(in BundleInput) []BundleAnchor {
	out := make([]BundleAnchor, 0, len(in.Report.Targets))
	for _, ts := range in.Report.Targets {
		ref := ts.Target.String()
		h := in.Code.Targets[ref]
		a := BundleAnchor{
			Ref: ref, Hash: h.Hash, TokenHash: h.TokenHash, BodyHash: h.BodyHash, Parser: h.Parser,
			State: string(ts.Verdict.State), Reason: string(ts.Verdict.Reason), ClaimedBy: []NodeID{},
		}
		if h.Hash != "" {
			a.Start, a.End = ts.Verdict.Start, ts.Verdict.End
		}
		for _, u := range ts.Uses {
			if !slices.Contains(a.ClaimedBy, u.Node) {
				a.ClaimedBy = append(a.ClaimedBy, u.Node)
			}
		}
		out = append(out, a)
	}
	return out
}

// bundleSymbols is the code index's symbols with their hashes.
func bundleSymbols(p *codeanchors.Published) []BundleSymbol {
	out := make([]BundleSymbol, 0, len(p.Symbols))
	for _, s := range p.Symbols {
		out = append(out, BundleSymbol{Ref: s.Ref, Kind: s.Kind, Start: s.Start, End: s.End, Hash: s.Hash, TokenHash: s.TokenHash})
	}
	return out
}

// BundleText is a requirement body's text in the bundle: the Markdown as
// plain text ([claims.PlainText]), capped at MaxBundleText characters.
func BundleText(body []byte) string {
	t := claims.PlainText(body)
	if len([]rune(t)) <= MaxBundleText {
		return t
	}
	r := []rune(t)[:MaxBundleText-len([]rune(bundleEllipsis))]
	return strings.TrimRight(string(r), " ") + bundleEllipsis
}
