package synth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// The states of a policy entry (SPEC 1.7). A requirement that meets a
// rule has no entry.
const (
	PolicyViolated      = "violated"
	PolicyJustified     = "justified"
	PolicyWaiverExpired = "waiver_expired"
)

// PolicyInput is what the policy is judged from: the model, the rules of
// the config, the derived fields of every requirement (from the drift
// report: nothing here re-derives a link's state) and the lock's waiver
// stamps.
type PolicyInput struct {
	Model  *claims.Model
	Rules  []claims.Rule
	Status []codeanchors.RequirementStatus
	// Waivers are the lock's stamps, keyed by [codeanchors.WaiverKey].
	Waivers map[string]codeanchors.WaiverStamp
}

// Policy is the policy judged: each rule with the requirements it applies
// to, and one entry per rule and requirement that does not meet it.
type Policy struct {
	// Rules are the config's rules in the order written, then the
	// built-in [claims.NeedsRule] when some requirement has a needs field.
	Rules []PolicyRule
	// Entries are ordered by rule (as Rules), then requirement (model
	// order, ids sorted naturally).
	Entries []PolicyEntry
}

// PolicyRule is one rule with its counts.
type PolicyRule struct {
	Rule claims.Rule
	// Nodes are the requirements the rule applies to, in model order.
	Nodes []NodeID
	// Met counts the nodes that meet the rule; the others have an entry.
	Met, Violated, Justified, Expired int
}

// PolicyEntry is one requirement that does not meet one rule: violated,
// justified by a waiver, or with a waiver that expired.
type PolicyEntry struct {
	Rule  string `json:"rule"`
	Node  NodeID `json:"node"`
	State string `json:"state"`
	// Why says what the requirement lacks, and for a waiver what became
	// of it.
	Why string `json:"why"`
	// Waiver is the waiver of the rule in the requirement's front matter;
	// nil when there is none.
	Waiver *PolicyWaiver `json:"waiver"`
	// At is the requirement's file (line 1), or the waiver's line: where
	// SARIF and GitHub annotations show the entry.
	At Place `json:"-"`
}

// PolicyWaiver is a waiver as check reports it: as written, and when
// the lock stamped it ("" when no build or capture has yet).
type PolicyWaiver struct {
	Reason    string `json:"reason"`
	By        string `json:"by"`
	Date      string `json:"date"`
	StampedAt string `json:"stamped_at"`
	StampedBy string `json:"stamped_by"`
}

// Problem reports whether the entry counts against the policy: violated,
// or justified by a waiver that expired. --fail-on policy fails on these.
func (e PolicyEntry) Problem() bool { return e.State != PolicyJustified }

// Problems counts the entries that count against the policy.
func (p *Policy) Problems() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, e := range p.Entries {
		if e.Problem() {
			n++
		}
	}
	return n
}

// EvaluatePolicy judges every rule against every requirement it applies
// to: normative requirements that are not rejected or deprecated (a
// heading, a note or a withdrawn requirement owes nothing). This is the
// only place a policy entry's state is decided.
func EvaluatePolicy(in PolicyInput) *Policy {
	p := &Policy{Entries: []PolicyEntry{}}
	if in.Model == nil {
		return p
	}
	j := newPolicyJudge(in)
	for _, rule := range in.Rules {
		sel, err := claims.ParseSelector(rule.Applies)
		if err != nil {
			continue // the config's check refused it already
		}
		p.judge(j, rule, func(r *claims.Requirement) (claims.Rule, bool) { return rule, sel.Matches(r) })
	}
	needs := claims.Rule{Name: claims.NeedsRule, Applies: "needs field"}
	if slices.ContainsFunc(in.Model.Requirements, func(r *claims.Requirement) bool { return len(claims.NeedsOf(r)) > 0 }) {
		p.judge(j, needs, func(r *claims.Requirement) (claims.Rule, bool) {
			rule := needs
			rule.Needs = claims.NeedsOf(r)
			return rule, len(rule.Needs) > 0
		})
	}
	return p
}

// judge adds the rule's summary and entries; of gives, per requirement,
// the rule as it applies to it and whether it applies.
func (p *Policy) judge(j *policyJudge, rule claims.Rule, of func(*claims.Requirement) (claims.Rule, bool)) {
	sum := PolicyRule{Rule: rule}
	for _, r := range j.in.Model.Requirements {
		if !r.Normative || r.Status == "rejected" || r.Status == "deprecated" {
			continue
		}
		own, ok := of(r)
		if !ok {
			continue
		}
		sum.Nodes = append(sum.Nodes, claims.RequirementNode(r.ID))
		lacks := j.lacks(r, own)
		if len(lacks) == 0 {
			sum.Met++
			continue
		}
		e := j.entry(r, rule.Name, lacks)
		switch e.State {
		case PolicyViolated:
			sum.Violated++
		case PolicyJustified:
			sum.Justified++
		default:
			sum.Expired++
		}
		p.Entries = append(p.Entries, e)
	}
	p.Rules = append(p.Rules, sum)
}

// policyJudge holds the lookups every rule shares.
type policyJudge struct {
	in       PolicyInput
	status   map[string]codeanchors.RequirementStatus
	byID     map[string]*claims.Requirement
	children map[string][]*claims.Requirement
}

func newPolicyJudge(in PolicyInput) *policyJudge {
	j := &policyJudge{in: in, status: map[string]codeanchors.RequirementStatus{}, byID: map[string]*claims.Requirement{}, children: map[string][]*claims.Requirement{}}
	for _, s := range in.Status {
		j.status[s.ID] = s
	}
	for _, r := range in.Model.Requirements {
		j.byID[r.ID] = r
		for _, par := range r.Parents {
			j.children[par.ID] = append(j.children[par.ID], r)
		}
	}
	return j
}

// lacks lists what r lacks of what the rule requires, in the rule's
// order; none when r meets it.
func (j *policyJudge) lacks(r *claims.Requirement, rule claims.Rule) []string {
	st := j.status[r.ID]
	var out []string
	if t := rule.ParentType; t != "" && !r.Derived && !slices.ContainsFunc(r.Parents, func(p claims.IDRef) bool {
		return j.byID[p.ID] != nil && j.byID[p.ID].Fields["type"] == t
	}) {
		out = append(out, fmt.Sprintf("no parent of type %s", t))
	}
	if rule.Implements && !st.Implemented {
		out = append(out, linkLack("implements", len(r.Implements)))
	}
	if rule.Tests && !st.Tested {
		out = append(out, linkLack("tests", len(r.Tests)))
	}
	if rule.Verified && !st.Verified {
		out = append(out, "not verified: no live evidence that its tests passed")
	}
	for _, f := range rule.Fields {
		if strings.TrimSpace(r.Fields[f]) == "" {
			out = append(out, fmt.Sprintf("no value for field %s", f))
		}
	}
	if n := len(j.children[r.ID]); n < rule.MinChildren {
		out = append(out, fmt.Sprintf("%d child requirement%s, want at least %d", n, pluralS(n), rule.MinChildren))
	}
	for _, need := range rule.Needs {
		switch need {
		case "impl":
			if !st.Implemented {
				out = append(out, "needs impl: "+linkLack("implements", len(r.Implements)))
			}
		case "utest", "itest":
			// OpenFastTrace's utest and itest are two types: an item that
			// needs both is not met by unit tests alone.
			switch {
			case !st.Tested:
				out = append(out, "needs "+need+": "+linkLack("tests", len(r.Tests)))
			case !st.TestedAs(need):
				out = append(out, fmt.Sprintf("needs %s: its linked tests links are %s tags only", need, strings.Join(st.TestArtifacts, ", ")))
			}
		default:
			if !slices.ContainsFunc(j.children[r.ID], func(c *claims.Requirement) bool { return c.Fields["type"] == need }) {
				out = append(out, fmt.Sprintf("needs %s: no child requirement of type %s", need, need))
			}
		}
	}
	return out
}

// linkLack says why a requirement is not implemented or tested: it has no
// such link, or none of them is linked.
func linkLack(kind string, declared int) string {
	if declared == 0 {
		return "no " + kind + " link"
	}
	return "no linked " + kind + " link (none of its " + kind + " targets is linked)"
}

// entry is the entry of r, which lacks what lacks says of the rule:
// violated, unless a waiver of the rule justifies it, which holds while
// the requirement's revision is the one the lock stamped.
func (j *policyJudge) entry(r *claims.Requirement, rule string, lacks []string) PolicyEntry {
	e := PolicyEntry{Rule: rule, Node: claims.RequirementNode(r.ID), State: PolicyViolated, Why: strings.Join(lacks, "; "),
		At: Place{Path: r.Doc.File, Start: 1}}
	i := slices.IndexFunc(r.Waivers, func(w claims.Waiver) bool { return w.Rule == rule })
	if i < 0 {
		return e
	}
	w := r.Waivers[i]
	e.At = Place{Path: w.Pos.File, Start: w.Pos.Line}
	e.Waiver = &PolicyWaiver{Reason: w.Reason, By: w.By, Date: w.Date}
	stamp, stamped := j.in.Waivers[codeanchors.WaiverKey(r.ID, rule)]
	switch {
	case !stamped:
		e.State = PolicyJustified
		e.Why += "; justified by a waiver not stamped yet (the next build or capture stamps it): " + w.Reason
	case r.Revisions().Matches(stamp.Hash):
		e.State = PolicyJustified
		e.Waiver.StampedAt, e.Waiver.StampedBy = stamp.At, stamp.By
		e.Why += "; justified: " + w.Reason
	default:
		e.State = PolicyWaiverExpired
		e.Waiver.StampedAt, e.Waiver.StampedBy = stamp.At, stamp.By
		e.Why = "waiver expired: the requirement changed since the waiver was stamped (" + stamp.At + "); " + e.Why
	}
	return e
}

// WaiverToDo is what to do about a policy entry, for people.
func WaiverToDo(e PolicyEntry) string {
	switch e.State {
	case PolicyWaiverExpired:
		return fmt.Sprintf("review the waiver against the changed text, then tracewiki capture --waivers %s", e.Node.Key)
	case PolicyViolated:
		return fmt.Sprintf("give %s what it lacks, or justify it with a waiver of rule %s in its front matter", e.Node.Key, e.Rule)
	}
	return ""
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
