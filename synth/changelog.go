package synth

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// ChangelogSchemaVersion is the version of the changelog JSON (SPEC 5).
const ChangelogSchemaVersion = 1

// ChangelogFile is the artifact of the baselines' changelogs (SPEC 4).
const ChangelogFile = "api/changelog.json"

// The verification states a changelog compares: a requirement verified
// by its newest evidence entry, one that is not (no evidence, or evidence
// that does not hold), and one the revision does not have.
const (
	VerifiedState   = "verified"
	UnverifiedState = "unverified"
	AbsentState     = "absent"
)

// The names of what can change in a requirement, as [ChangedReq.Fields]
// lists them, in this order. A re-wrapped body is not a change: the body
// is compared by its revision, which ignores paragraph wrapping (SPEC 1.2).
var changeFields = []string{"title", "body", "status", "level", "document", "tags", "fields", "normative", "derived", "issues", "parents", "implements", "tests", "waivers"}

// ChangelogSide is one revision's side of a comparison: its model and
// what was judged of it. Report, Policy and Coverage may be nil (nothing
// judged, no rules, no code).
type ChangelogSide struct {
	Rev      string // the revision as named (a tag, a commit)
	Model    *claims.Model
	Report   *codeanchors.Report
	Policy   *Policy
	Coverage *CoverageJSON
}

// ChangelogInput is what [NewChangelog] compares. Diff, when set, is the
// unified diff of a requirement's two texts (the site's text diff); nil
// lists the changed fields without a diff.
type ChangelogInput struct {
	Base, Head ChangelogSide
	Diff       func(id, old, new string) string
	Lang       string // of the why texts; "" is English
}

// Changelog is what changed in the requirements between two revisions
// (SPEC 5): the changelog command's JSON and each baseline's entry in
// api/changelog.json.
type Changelog struct {
	Type          string         `json:"type"`
	SchemaVersion int            `json:"schemaVersion"`
	Base          string         `json:"base"`
	Head          string         `json:"head"`
	Added         []ChangelogReq `json:"added"`
	Removed       []ChangelogReq `json:"removed"`
	Changed       []ChangedReq   `json:"changed"`
	Parents       []ChangedLinks `json:"parents"`
	Links         []ChangedLinks `json:"links"`
	Verification  []Verification `json:"verification"`
	Policy        *PolicyDelta   `json:"policy"`   // nil when neither side has a rule
	Coverage      *CoverageDelta `json:"coverage"` // nil when neither side has code
}

// ChangelogReq is a requirement added or removed.
type ChangelogReq struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// ChangedReq is a requirement on both sides whose content changed.
type ChangedReq struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`  // at head
	Fields []string `json:"fields"` // of changeFields, in its order
	Diff   string   `json:"diff"`   // of title and body; "" when neither changed
}

// ChangedLinks is the links of one requirement added and removed: parent
// ids, or implements and tests targets ("implements PATH@SYMBOL").
type ChangedLinks struct {
	ID      string   `json:"id"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// Verification is a requirement newly verified or no longer verified
// (one never verified that was added or removed is not listed).
type Verification struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	// Why says what decided the head's state: the run that verifies it,
	// or why the newest evidence does not (SPEC 1.5), or that there is
	// none.
	Why string `json:"why"`
}

// PolicyDelta is the policy findings that appeared and went away.
type PolicyDelta struct {
	Base     int           `json:"base"` // problems (violated or waiver expired) at base
	Head     int           `json:"head"`
	New      []PolicyDrift `json:"new"`
	Resolved []PolicyDrift `json:"resolved"`
}

// PolicyDrift is one rule's finding on one requirement.
type PolicyDrift struct {
	ID    string `json:"id"`
	Rule  string `json:"rule"`
	State string `json:"state"`
	Why   string `json:"why"`
}

// CoverageDelta is the code coverage totals at both revisions.
type CoverageDelta struct {
	Base CoverageCount `json:"base"`
	Head CoverageCount `json:"head"`
}

// NewChangelog compares two revisions' requirements. Every list is sorted
// by id (naturally, as ids sort everywhere); it depends only on its input.
func NewChangelog(in ChangelogInput) *Changelog {
	c := &Changelog{
		Type: "changelog", SchemaVersion: ChangelogSchemaVersion, Base: in.Base.Rev, Head: in.Head.Rev,
		Added: []ChangelogReq{}, Removed: []ChangelogReq{}, Changed: []ChangedReq{},
		Parents: []ChangedLinks{}, Links: []ChangedLinks{}, Verification: []Verification{},
	}
	base, head := reqsByID(in.Base.Model), reqsByID(in.Head.Model)
	baseStates, headStates := verificationStates(in.Base, in.Lang), verificationStates(in.Head, in.Lang)
	ids := slices.Collect(maps.Keys(base))
	for id := range head {
		if base[id] == nil {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, claims.CompareIDs)
	for _, id := range ids {
		old, cur := base[id], head[id]
		switch {
		case old == nil:
			c.Added = append(c.Added, ChangelogReq{ID: id, Title: cur.Title})
		case cur == nil:
			c.Removed = append(c.Removed, ChangelogReq{ID: id, Title: old.Title})
		default:
			if fields := changedFields(old, cur); len(fields) > 0 {
				ch := ChangedReq{ID: id, Title: cur.Title, Fields: fields}
				if in.Diff != nil && (slices.Contains(fields, "title") || slices.Contains(fields, "body")) {
					ch.Diff = in.Diff(id, reqText(old), reqText(cur))
				}
				c.Changed = append(c.Changed, ch)
			}
		}
		if l := linksDelta(id, parentIDs(old), parentIDs(cur)); l != nil {
			c.Parents = append(c.Parents, *l)
		}
		if l := linksDelta(id, targetLinks(old), targetLinks(cur)); l != nil {
			c.Links = append(c.Links, *l)
		}
		from, to := stateOf(baseStates, old), stateOf(headStates, cur)
		if from.state != to.state && (from.state == VerifiedState || to.state == VerifiedState) {
			why := to.why
			if cur == nil {
				why = "removed"
			}
			c.Verification = append(c.Verification, Verification{ID: id, From: from.state, To: to.state, Why: why})
		}
	}
	c.Policy = policyDelta(in.Base.Policy, in.Head.Policy)
	c.Coverage = coverageDelta(in.Base.Coverage, in.Head.Coverage)
	return c
}

// Empty reports whether nothing changed in the requirements.
func (c *Changelog) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Changed)+len(c.Parents)+len(c.Links)+len(c.Verification) == 0 &&
		(c.Policy == nil || len(c.Policy.New)+len(c.Policy.Resolved) == 0) &&
		(c.Coverage == nil || c.Coverage.Base == c.Coverage.Head)
}

// reqsByID indexes a model's requirements.
func reqsByID(m *claims.Model) map[string]*claims.Requirement {
	out := map[string]*claims.Requirement{}
	if m == nil {
		return out
	}
	for _, r := range m.Requirements {
		out[r.ID] = r
	}
	return out
}

// changedFields lists what differs between two versions of a requirement,
// in changeFields' order. The body counts as changed only when its
// revision does (a re-wrapped paragraph is the same body, SPEC 1.2).
func changedFields(old, cur *claims.Requirement) []string {
	differs := map[string]bool{
		"title":      strings.TrimSpace(old.Title) != strings.TrimSpace(cur.Title),
		"body":       claims.Revision("", old.Doc.Body) != claims.Revision("", cur.Doc.Body),
		"status":     old.Status != cur.Status,
		"level":      old.Level != cur.Level,
		"document":   old.Document != cur.Document,
		"tags":       !slices.Equal(old.Tags, cur.Tags),
		"fields":     !maps.EqualFunc(old.Fields, cur.Fields, sameText),
		"normative":  old.Normative != cur.Normative,
		"derived":    old.Derived != cur.Derived,
		"issues":     !slices.Equal(idsOf(old.Issues), idsOf(cur.Issues)),
		"parents":    !slices.Equal(parentIDs(old), parentIDs(cur)),
		"implements": !slices.Equal(targetsOf(old.Implements), targetsOf(cur.Implements)),
		"tests":      !slices.Equal(targetsOf(old.Tests), targetsOf(cur.Tests)),
		"waivers":    !slices.Equal(waiversOf(old), waiversOf(cur)),
	}
	var out []string
	for _, f := range changeFields {
		if differs[f] {
			out = append(out, f)
		}
	}
	return out
}

// sameText reports whether two field values are the same text as a
// requirement's revision sees a body: a multi-line field re-wrapped (as
// StrictDoc 0.26 re-wrapped its RATIONALE and COMMENT fields) is not a
// change.
func sameText(a, b string) bool {
	return a == b || claims.Revision("", []byte(a)) == claims.Revision("", []byte(b))
}

// reqText is what the diff of a changed requirement compares: its title,
// a blank line, its body.
func reqText(r *claims.Requirement) string {
	return strings.TrimSpace(r.Title) + "\n\n" + string(r.Doc.Body)
}

// idsOf lists the ids of refs, sorted.
func idsOf(refs []claims.IDRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.ID
	}
	slices.SortFunc(out, claims.CompareIDs)
	return slices.Compact(out)
}

// parentIDs lists a requirement's parents, sorted; none for nil.
func parentIDs(r *claims.Requirement) []string {
	if r == nil {
		return nil
	}
	return idsOf(r.Parents)
}

// targetsOf lists the targets of refs, sorted.
func targetsOf(refs []claims.TargetRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Target.String()
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// targetLinks lists a requirement's code links as "implements TARGET" and
// "tests TARGET", sorted; none for nil.
func targetLinks(r *claims.Requirement) []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, t := range targetsOf(r.Implements) {
		out = append(out, "implements "+t)
	}
	for _, t := range targetsOf(r.Tests) {
		out = append(out, "tests "+t)
	}
	slices.Sort(out)
	return out
}

// waiversOf lists a requirement's waivers as written.
func waiversOf(r *claims.Requirement) []string {
	out := make([]string, len(r.Waivers))
	for i, w := range r.Waivers {
		out[i] = fmt.Sprintf("%s\x00%s\x00%s\x00%s", w.Rule, w.Reason, w.By, w.Date)
	}
	return out
}

// linksDelta is what was added to and removed from a sorted list; nil
// when nothing was.
func linksDelta(id string, old, cur []string) *ChangedLinks {
	l := &ChangedLinks{ID: id, Added: []string{}, Removed: []string{}}
	for _, s := range cur {
		if _, found := slices.BinarySearch(old, s); !found {
			l.Added = append(l.Added, s)
		}
	}
	for _, s := range old {
		if _, found := slices.BinarySearch(cur, s); !found {
			l.Removed = append(l.Removed, s)
		}
	}
	if len(l.Added)+len(l.Removed) == 0 {
		return nil
	}
	return l
}

// verdict is a requirement's verification state at one revision and
// why.
type verdict struct{ state, why string }

// stateOf is r's verdict in states, absent for nil.
func stateOf(states map[string]verdict, r *claims.Requirement) verdict {
	if r == nil {
		return verdict{state: AbsentState, why: "not in this revision"}
	}
	if v, ok := states[r.ID]; ok {
		return v
	}
	return verdict{state: UnverifiedState, why: "no evidence"}
}

// verificationStates judges each requirement of a side from its drift
// report, as SPEC 1.5 says: verified when its newest evidence entry (the
// one not superseded) is linked; else the reason of that entry, or no
// evidence.
func verificationStates(s ChangelogSide, lang string) map[string]verdict {
	out := map[string]verdict{}
	if s.Report == nil {
		return out
	}
	live := map[string]codeanchors.EvidenceStatus{}
	for _, es := range s.Report.Evidence {
		if es.Verdict.State != codeanchors.Superseded {
			live[es.Evidence.Req] = es
		}
	}
	for _, rs := range s.Report.Requirements {
		es, ok := live[rs.ID]
		switch {
		case rs.Verified:
			out[rs.ID] = verdict{state: VerifiedState, why: "verified by " + claims.RunNode(es.Evidence.Run).String()}
		case ok:
			out[rs.ID] = verdict{state: UnverifiedState, why: fmt.Sprintf("%s: %s (%s)", es.Verdict.Reason, es.Verdict.Why(lang), claims.RunNode(es.Evidence.Run))}
		default:
			out[rs.ID] = verdict{state: UnverifiedState, why: "no evidence"}
		}
	}
	return out
}

// policyDelta compares two policies' problems; nil when neither side has
// a rule.
func policyDelta(base, head *Policy) *PolicyDelta {
	if (base == nil || len(base.Rules) == 0) && (head == nil || len(head.Rules) == 0) {
		return nil
	}
	d := &PolicyDelta{Base: base.Problems(), Head: head.Problems()}
	old, cur := policyProblems(base), policyProblems(head)
	d.New, d.Resolved = policyOnly(cur, old), policyOnly(old, cur)
	return d
}

// policyProblems lists a policy's problems by "rule\x00id".
func policyProblems(p *Policy) map[string]PolicyDrift {
	out := map[string]PolicyDrift{}
	if p == nil {
		return out
	}
	for _, e := range p.Entries {
		if e.Problem() {
			id := e.Node.Key
			out[e.Rule+"\x00"+id] = PolicyDrift{ID: id, Rule: e.Rule, State: e.State, Why: e.Why}
		}
	}
	return out
}

// policyOnly lists the problems of a that b lacks, by id then rule.
func policyOnly(a, b map[string]PolicyDrift) []PolicyDrift {
	out := []PolicyDrift{}
	for k, e := range a {
		if _, ok := b[k]; !ok {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y PolicyDrift) int {
		if c := claims.CompareIDs(x.ID, y.ID); c != 0 {
			return c
		}
		return strings.Compare(x.Rule, y.Rule)
	})
	return out
}

// coverageDelta pairs the coverage totals; nil when neither side counts
// a symbol.
func coverageDelta(base, head *CoverageJSON) *CoverageDelta {
	var d CoverageDelta
	if base != nil {
		d.Base = base.Totals
	}
	if head != nil {
		d.Head = head.Totals
	}
	if d.Base.Symbols == 0 && d.Head.Symbols == 0 {
		return nil
	}
	return &d
}

// Baselines is api/changelog.json (SPEC 4): the baselines of [baselines]
// tags, oldest first, each with its changelog to the one before.
type Baselines struct {
	Type          string     `json:"type"`
	SchemaVersion int        `json:"schemaVersion"`
	Baselines     []Baseline `json:"baselines"`
}

// Baseline is one tagged revision.
type Baseline struct {
	Tag       string      `json:"tag"`
	Commit    string      `json:"commit"`
	Date      string      `json:"date"`
	Changelog *Changelog  `json:"changelog"` // from the previous baseline; nil for the first
	Matrix    []MatrixRow `json:"matrix"`
}

// MatrixRow is a requirement's row of the matrix at a baseline.
type MatrixRow struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Status      string `json:"status"`
	Implemented bool   `json:"implemented"`
	Tested      bool   `json:"tested"`
	Verified    bool   `json:"verified"`
}

// NewBaselines makes the artifact of baselines (nil: none).
func NewBaselines(bs []Baseline) *Baselines {
	return &Baselines{Type: "baselines", SchemaVersion: ChangelogSchemaVersion, Baselines: orEmpty(bs)}
}

// MatrixOf is a side's matrix: its requirements in model order with
// their derived fields.
func MatrixOf(s ChangelogSide) []MatrixRow {
	out := []MatrixRow{}
	if s.Model == nil {
		return out
	}
	status := map[string]codeanchors.RequirementStatus{}
	if s.Report != nil {
		for _, rs := range s.Report.Requirements {
			status[rs.ID] = rs
		}
	}
	for _, r := range s.Model.Requirements {
		rs := status[r.ID]
		out = append(out, MatrixRow{ID: r.ID, Title: r.Title, Status: r.Status, Implemented: rs.Implemented, Tested: rs.Tested, Verified: rs.Verified})
	}
	return out
}

// ChangedIn is, for each requirement, the last baseline whose changelog
// lists it as added or changed: a requirement page's "changed in v1.3".
func (b *Baselines) ChangedIn() map[string]string {
	out := map[string]string{}
	if b == nil {
		return out
	}
	for _, bl := range b.Baselines {
		if bl.Changelog == nil {
			continue
		}
		for _, r := range bl.Changelog.Added {
			out[r.ID] = bl.Tag
		}
		for _, r := range bl.Changelog.Changed {
			out[r.ID] = bl.Tag
		}
	}
	return out
}
