package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// policyDir is the folder of the policy page (SPEC 1.7).
const policyDir = "policy"

// MaxPolicyRows bounds the entries the policy page lists per rule; a last
// row says how many more there are (check --format json lists them all).
const MaxPolicyRows = 200

// hasPolicy reports whether the build judged a policy with rules: only
// then has the site a policy page and the home page a card for it, so a
// workspace without a policy gets the site it always got.
func (b *Renderer) hasPolicy() bool {
	return b.findings != nil && b.findings.Policy != nil && len(b.findings.Policy.Rules) > 0
}

// policyPages is the policy page when there is a policy: [Renderer.pages]
// appends it.
func (b *Renderer) policyPages() []Page {
	if !b.hasPolicy() {
		return nil
	}
	return []Page{{dir: policyDir, tmpl: "list", data: (*Renderer).policyPage}}
}

// policyCards are the home page's cards of the policy: the findings that
// count against it, linked to the policy page; none without a policy.
func (b *Renderer) policyCards(root string) []card {
	if !b.hasPolicy() {
		return nil
	}
	n := b.findings.Policy.Problems()
	return []card{{Text: "policy findings", URL: root + indexURL(policyDir), Value: n, Stale: n > 0}}
}

// policyPage lists each rule with what it requires, the requirements it
// applies to and their counts, then per rule every requirement that does
// not meet it, with its state, why and waiver. Its JSON twin lists the
// requirements that have an entry, in a list's shape.
func (b *Renderer) policyPage(root string) (*pageData, any, error) {
	pol := b.findings.Policy
	d := &pageData{Title: "Policy", Heading: "Policy"}
	d.Body = template.HTML(`<p>The rules of <code>tracewiki.toml</code>'s <code>[[policy.rules]]</code> ` +
		`(and the built-in rule <code>needs</code>, read from an OpenFastTrace item's needs field). ` +
		`A waiver in a requirement's front matter justifies a violation until the requirement's text changes; ` +
		`<code>tracewiki capture --waivers ID</code> re-arms it. <code>tracewiki check --fail-on policy</code> gates CI on violated rules and expired waivers.</p>`)
	sum := table{Title: "Rules", Head: []string{"rule", "applies to", "requires", "requirements", "met", "violated", "waiver expired", "justified"}, Empty: "No rules."}
	for _, r := range pol.Rules {
		applies := r.Rule.Applies
		if applies == "" {
			applies = "every normative requirement"
		}
		bad := r.Violated + r.Expired
		name := cell{Text: r.Rule.Name}
		if bad+r.Justified > 0 {
			name.URL = "#rule-" + r.Rule.Name // its first entry's row
		}
		sum.Rows = append(sum.Rows, row{Stale: bad > 0, Cells: []cell{
			name,
			{Text: applies, Code: r.Rule.Applies != ""},
			{Text: r.Rule.Requires()},
			{Text: fmt.Sprint(len(r.Nodes))},
			{Text: fmt.Sprint(r.Met)},
			countCell(r.Violated, "stale"),
			countCell(r.Expired, "stale"),
			countCell(r.Justified, "unknown"),
		}})
	}
	d.Tables = append(d.Tables, sum)
	byRule := map[string][]synth.PolicyEntry{}
	for _, e := range pol.Entries {
		byRule[e.Rule] = append(byRule[e.Rule], e)
	}
	var nodes []synth.Node
	seen := map[synth.NodeID]bool{}
	for _, r := range pol.Rules {
		t := table{Title: "Rule " + r.Rule.Name, Head: []string{"requirement", "state", "why", "waiver"},
			Empty: fmt.Sprintf("Every one of its %d requirements meets it.", len(r.Nodes))}
		for i, e := range byRule[r.Rule.Name] {
			if i == MaxPolicyRows {
				more := len(byRule[r.Rule.Name]) - i
				t.Rows = append(t.Rows, row{Cells: []cell{{Text: fmt.Sprintf("… and %d more (tracewiki check --format json lists them all)", more)}, {}, {}, {}}})
				break
			}
			id := ""
			if i == 0 {
				id = "rule-" + r.Rule.Name
			}
			t.Rows = append(t.Rows, row{ID: id, Stale: e.Problem(), Cells: []cell{
				{Text: e.Node.Key, URL: root + b.relURL(e.Node)},
				{Text: strings.ReplaceAll(e.State, "_", " "), Badge: policyBadge(e.State), Title: e.Why},
				{Text: e.Why},
				{Text: waiverText(e.Waiver)},
			}})
			if n, ok := b.graph.Node(e.Node); ok && !seen[e.Node] {
				seen[e.Node] = true
				nodes = append(nodes, n)
			}
		}
		d.Tables = append(d.Tables, t)
	}
	return d, ListJSON{SchemaVersion: synth.SchemaVersion, Kind: claims.NodeRequirement, Title: d.Heading, Nodes: orEmpty(nodes)}, nil
}

// countCell is a count, as a badge of kind when it is not zero.
func countCell(n int, kind string) cell {
	if n == 0 {
		return cell{Text: "0"}
	}
	return cell{Text: fmt.Sprint(n), Badge: kind}
}

// policyBadge is the badge class of a policy entry's state: violated and
// expired count against the policy (stale's colour), justified does not.
func policyBadge(state string) string {
	if state == synth.PolicyJustified {
		return "unknown"
	}
	return "stale"
}

// waiverText says who waived what and when, and when the lock stamped it.
func waiverText(w *synth.PolicyWaiver) string {
	if w == nil {
		return ""
	}
	s := w.Reason
	if w.By != "" {
		s += " (by " + w.By
		if w.Date != "" {
			s += ", " + w.Date
		}
		s += ")"
	}
	if w.StampedAt != "" {
		s += "; stamped " + w.StampedAt
	} else {
		s += "; not stamped yet"
	}
	return s
}
