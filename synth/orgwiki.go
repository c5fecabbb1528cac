package synth

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// An organisation's wiki (SPEC 1.8): one site over the bundles of many
// repositories, built from the bundles alone (no checkout, no git, no
// code parse). Every node keeps its repository's name as a prefix
// (requirement:svcgo:SW-1, symbol:svcgo:src/charge.go@Charge), the ids
// that one repository gives the others' nodes, so each repository is
// an external of the organisation's wiki by the name its bundle carries.
// A repository's links into the others are judged again here, each by
// the hashes or revision its bundle says it captured, against the other
// bundle as it is now: a repository built before the other changed
// still shows the drift.

// OrgFile is the organisation's wiki's own artifact: its repositories,
// requirements and cross-repository links with their states.
const OrgFile = "api/org.json"

// OrgRepo is one repository of the organisation, as its [[externals]]
// entry names it, with its bundle as read now (nil when it could not
// be read: Err says why).
type OrgRepo struct {
	Name, URL string
	Bundle    *BundleJSON
	Err       string
}

// OrgInput is what [NewOrg] computes from.
type OrgInput struct {
	Repos []OrgRepo // by name
	// Externals are the same bundles indexed for judging
	// ([codeanchors.Externals.Resolve]), by name.
	Externals codeanchors.Externals
	Lang      string
}

// OrgJSON is api/org.json.
type OrgJSON struct {
	SchemaVersion int              `json:"schemaVersion"`
	Repositories  []OrgRepository  `json:"repositories"` // by name
	Total         OrgCounts        `json:"total"`
	Requirements  []OrgRequirement `json:"requirements"` // by repository, then id
	Links         []OrgLink        `json:"links"`        // by repository, from, to, kind
}

// OrgCounts counts a repository's (or every repository's) normative
// requirements by their derived states, its code coverage as its bundle
// gives it, and its links into the others by state now.
type OrgCounts struct {
	Requirements int            `json:"requirements"`
	Implemented  int            `json:"implemented"`
	Tested       int            `json:"tested"`
	Verified     int            `json:"verified"`
	Stale        int            `json:"stale"`
	Coverage     BundleCoverage `json:"coverage"`
	Links        int            `json:"links"`
	StaleLinks   int            `json:"stale_links"` // stale or unknown now
}

// OrgRepository is one repository's line: its wiki, the revision its
// bundle was built from, and its counts.
type OrgRepository struct {
	Name     string    `json:"name"`
	URL      string    `json:"url"`
	Revision string    `json:"revision"`
	Error    string    `json:"error"` // why its bundle could not be read
	Counts   OrgCounts `json:"counts"`
}

// OrgRequirement is one requirement of one repository, as its bundle
// gives it; ids are prefixed with their repository's name.
type OrgRequirement struct {
	Repository  string   `json:"repository"`
	ID          NodeID   `json:"id"`
	Title       string   `json:"title"`
	Document    string   `json:"document"`
	Status      string   `json:"status"`
	Normative   bool     `json:"normative"`
	Implemented bool     `json:"implemented"`
	Tested      bool     `json:"tested"`
	Verified    bool     `json:"verified"`
	Stale       bool     `json:"stale"`
	Parents     []string `json:"parents"` // NAME:ID
	Implements  []string `json:"implements"`
	Tests       []string `json:"tests"`
}

// OrgLink is one repository's link into another: its state now, judged
// here against the other bundle as it is, and the state its repository
// gave it when it built its bundle.
type OrgLink struct {
	Repository string `json:"repository"`
	From       NodeID `json:"from"` // prefixed with the repository's name
	To         NodeID `json:"to"`
	Kind       string `json:"kind"`
	State      string `json:"state"`
	Reason     string `json:"reason"`
	Why        string `json:"why"`
	// BuiltState and BuiltReason are the state its repository's build
	// gave it (against the bundle it had then).
	BuiltState  string `json:"built_state"`
	BuiltReason string `json:"built_reason"`
}

// Org is an organisation's wiki: its artifact and its graph.
type Org struct {
	JSON  OrgJSON
	Graph *Graph
}

// NewOrg makes the organisation's wiki of the repositories in in. It is
// deterministic: repositories by name, every list sorted.
func NewOrg(in OrgInput) *Org {
	o := OrgJSON{SchemaVersion: SchemaVersion, Repositories: []OrgRepository{}, Requirements: []OrgRequirement{}, Links: []OrgLink{}}
	b := &builder{in: Input{ProjectID: "organisation", Lang: in.Lang}, nodes: map[NodeID]*Node{}, targets: map[NodeID][]string{}}
	repos := slices.Clone(in.Repos)
	slices.SortFunc(repos, func(x, y OrgRepo) int { return cmp.Compare(x.Name, y.Name) })
	for _, r := range repos {
		line := OrgRepository{Name: r.Name, URL: r.URL, Error: r.Err}
		if r.Bundle != nil {
			line.Revision = r.Bundle.Revision
			line.Counts.Coverage = r.Bundle.Coverage
			for _, req := range r.Bundle.Requirements {
				or := orgRequirement(r.Name, req)
				o.Requirements = append(o.Requirements, or)
				line.Counts.count(or)
				b.orgRequirement(or)
			}
			b.orgAnchors(r.Name, r.Bundle.Anchors)
			for _, l := range r.Bundle.Links {
				ol := judgeOrgLink(r.Name, l, in.Externals, in.Lang)
				o.Links = append(o.Links, ol)
				line.Counts.Links++
				if ol.State != string(codeanchors.Linked) {
					line.Counts.StaleLinks++
				}
				b.orgLink(ol, in.Externals)
			}
		}
		o.Repositories = append(o.Repositories, line)
		o.Total.add(line.Counts)
	}
	b.markStale()
	return &Org{JSON: o, Graph: b.finish()}
}

// orgRequirement is a bundle's requirement with its ids prefixed by its
// repository's name (a parent that names another repository already is).
func orgRequirement(repo string, r BundleRequirement) OrgRequirement {
	out := OrgRequirement{
		Repository: repo, ID: claims.RequirementNode(repo + ":" + r.ID), Title: r.Title, Document: r.Document,
		Status: r.Status, Normative: r.Normative, Implemented: r.Implemented, Tested: r.Tested, Verified: r.Verified,
		Stale: r.Stale, Parents: []string{}, Implements: []string{}, Tests: []string{},
	}
	for _, p := range r.Parents {
		out.Parents = append(out.Parents, orgName(repo, p))
	}
	for _, t := range r.Implements {
		out.Implements = append(out.Implements, orgName(repo, t))
	}
	for _, t := range r.Tests {
		out.Tests = append(out.Tests, orgName(repo, t))
	}
	return out
}

// orgName prefixes a repository's id or target ref with the repository's
// name, unless it names an external already.
func orgName(repo, ref string) string {
	if _, _, ok := claims.CutExternal(ref); ok {
		return ref
	}
	return repo + ":" + ref
}

// orgNode is the id of a repository's node in the organisation: its id
// in the repository, with its key prefixed by the repository's name.
func orgNode(repo string, id NodeID) NodeID {
	if _, _, ok := claims.CutExternal(id.Key); ok && (id.Type == claims.NodeRequirement || KindOf(id.Type).Code) {
		return id
	}
	return NodeID{Type: id.Type, Key: repo + ":" + id.Key}
}

// orgTargetNode is the node of a target ref written in repository repo.
func orgTargetNode(repo, ref string) (NodeID, bool) {
	t, err := claims.ParseTarget(orgName(repo, ref))
	if err != nil {
		return NodeID{}, false
	}
	return targetNodeID(nil, t), true
}

// count adds one requirement to c (normative ones only: headings and
// notes are not counted, as in every coverage figure).
func (c *OrgCounts) count(r OrgRequirement) {
	if !r.Normative {
		return
	}
	c.Requirements++
	c.Implemented += b2i(r.Implemented)
	c.Tested += b2i(r.Tested)
	c.Verified += b2i(r.Verified)
	c.Stale += b2i(r.Stale)
}

// add adds a repository's counts to the total.
func (c *OrgCounts) add(o OrgCounts) {
	c.Requirements += o.Requirements
	c.Implemented += o.Implemented
	c.Tested += o.Tested
	c.Verified += o.Verified
	c.Stale += o.Stale
	c.Coverage.Covered += o.Coverage.Covered
	c.Coverage.Total += o.Coverage.Total
	c.Links += o.Links
	c.StaleLinks += o.StaleLinks
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// judgeOrgLink judges repository repo's link l into another repository
// against that repository's bundle as it is now, by what l captured:
// a code link by its hashes ([codeanchors.Judge], as in the repository
// itself), a parent link by its reviewed revision.
func judgeOrgLink(repo string, l BundleLink, x codeanchors.Externals, lang string) OrgLink {
	out := OrgLink{Repository: repo, From: orgNode(repo, l.From), Kind: l.Kind, BuiltState: l.State, BuiltReason: l.Reason}
	var v codeanchors.Verdict
	if l.Kind == KindParent {
		out.To = claims.RequirementNode(l.To)
		v = judgeOrgParent(l, x)
	} else {
		t, err := claims.ParseTarget(l.To)
		if err != nil {
			v = codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.TargetMissing}
		} else {
			out.To = targetNodeID(nil, t)
			var a *codeanchors.Anchor
			if l.Hash != "" {
				a = &codeanchors.Anchor{Start: l.Start, End: l.End, Hash: l.Hash, TokenHash: l.TokenHash, Parser: l.Parser}
			}
			v = codeanchors.Judge(a, x.Resolve(t))
		}
	}
	out.State, out.Reason = string(v.State), string(v.Reason)
	out.Why = v.Why(lang)
	return out
}

// judgeOrgParent judges a parent link into another repository by the
// revision it reviewed, as [codeanchors.CheckParentsWith] does.
func judgeOrgParent(l BundleLink, x codeanchors.Externals) codeanchors.Verdict {
	var v codeanchors.Verdict
	rev, ok := x.Revision(l.To)
	switch {
	case !ok:
		v.Reason = codeanchors.TargetMissing
	case l.Revision == "":
		v.Reason = codeanchors.Uncaptured
	case !(claims.Revisions{Current: rev, Legacy: rev}).Matches(l.Revision):
		v.Reason = codeanchors.ParentChanged
	}
	v.State = v.Reason.State()
	return v
}

// orgRequirement adds a requirement's node and its edges inside its
// repository: parents, and implements and tests targets.
func (b *builder) orgRequirement(r OrgRequirement) {
	n := b.node(r.ID)
	n.Title, n.Status, n.Document = r.Title, r.Status, r.Document
	impl, tested, verified := r.Implemented, r.Tested, r.Verified
	n.Implemented, n.Tested, n.Verified = &impl, &tested, &verified
	n.Stale = r.Stale
	for _, p := range r.Parents {
		if strings.HasPrefix(p, r.Repository+":") {
			b.node(claims.RequirementNode(p)) // inside the repository: a node of the same bundle
			b.edge(r.ID, claims.RequirementNode(p), Declared, KindParent, nil)
		}
	}
	for kind, refs := range map[string][]string{KindImplements: r.Implements, KindTests: r.Tests} {
		for _, ref := range refs {
			if t, err := claims.ParseTarget(ref); err == nil && t.External == r.Repository {
				id := targetNodeID(nil, t)
				b.codeNode(id, t)
				b.edge(r.ID, id, Declared, kind, nil)
			}
		}
	}
}

// codeNode adds the node of an external's code target.
func (b *builder) codeNode(id NodeID, t claims.Target) *Node {
	n := b.node(id)
	n.Path, n.Symbol = t.String(), t.Symbol
	if t.IsSymbol() {
		n.Path = claims.Target{External: t.External, Path: t.Path}.String()
	}
	return n
}

// orgAnchors gives the code nodes of a repository's anchors their state
// there.
func (b *builder) orgAnchors(repo string, anchors []BundleAnchor) {
	for _, a := range anchors {
		if _, _, ok := claims.CutExternal(a.Ref); ok {
			continue // a link into another repository: judged as a link here
		}
		id, ok := orgTargetNode(repo, a.Ref)
		if !ok {
			continue
		}
		t, _ := claims.ParseTarget(repo + ":" + a.Ref)
		n := b.codeNode(id, t)
		n.State, n.Reason, n.Start, n.End = a.State, a.Reason, a.Start, a.End
		n.Stale = a.State == string(codeanchors.Stale)
	}
}

// orgLink adds a cross-repository link's edge, judged now.
func (b *builder) orgLink(l OrgLink, x codeanchors.Externals) {
	if l.To.Key == "" {
		return
	}
	b.node(l.From)
	if l.Kind == KindParent {
		n := b.node(l.To)
		if r, ok := x.Requirement(l.To.Key); ok && n.Title == "" {
			n.Title = r.Title
		}
	} else if t, err := claims.ParseTarget(l.To.Key); err == nil {
		b.codeNode(l.To, t)
	}
	v := codeanchors.Verdict{State: codeanchors.State(l.State), Reason: codeanchors.Reason(l.Reason)}
	b.edge(l.From, l.To, Declared, l.Kind, &v)
}

// Check is the organisation's check report: its cross-repository links
// counted by their state now (build prints them, and --fail-on stops on
// them). It lists no targets: each repository's own check does.
func (o *Org) Check() *CheckReport {
	c := &CheckReport{SchemaVersion: SchemaVersion, Targets: []CheckTarget{}, Requirements: []CheckRequirement{}, Totals: map[string]int{}}
	for _, st := range checkStates {
		c.Totals[string(st)] = 0
	}
	for _, l := range o.JSON.Links {
		c.Totals[l.State]++
	}
	return c
}
