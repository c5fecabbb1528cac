package synth

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// CheckSchemaVersion is the version of the check report's JSON. Version 2
// added the superseded state and superseded_by (SPEC 1.5). The source and
// markers of links declared in code (SPEC 1.6) are optional fields a
// version 2 reader ignores, so they keep the version.
const CheckSchemaVersion = 2

// CheckReport is the JSON of "tracewiki check --format json": one entry per
// link target, in ref order, and the derived fields of every requirement.
type CheckReport struct {
	SchemaVersion int                `json:"schemaVersion"`
	Targets       []CheckTarget      `json:"targets"`
	Requirements  []CheckRequirement `json:"requirements"`
	Totals        map[string]int     `json:"totals"` // per state; encoding/json sorts map keys
	// Policy lists every requirement that does not meet a policy rule
	// (SPEC 1.7): violated, justified or waiver_expired. Nil, and left out
	// of the JSON, when the workspace has no policy (no rules, no needs
	// fields): such a workspace's report is the one it always was.
	Policy []PolicyEntry `json:"policy,omitzero"`
	lang   string        // of the whys, for [CheckReport.Text]
}

// CheckTarget is one link target: a code target (ref PATH@SYMBOL, PATH or
// PATH#Lx-Ly), an evidence entry (ref run:ID, claimed by its requirement)
// or a parent link (ref requirement:PARENT, claimed by the child).
type CheckTarget struct {
	Ref         string   `json:"ref"`
	State       string   `json:"state"`
	Reason      string   `json:"reason"`
	Why         string   `json:"why"`
	Moved       bool     `json:"moved"`
	Reformatted bool     `json:"reformatted"`
	ClaimedBy   []NodeID `json:"claimed_by"`
	// Relocated lists where a missing target's captured code is now, most
	// certain first; Suggestions the nearest existing names (at most 5).
	// Both are empty lists when there is nothing to say.
	Relocated   []codeanchors.Relocation `json:"relocated"`
	Suggestions []string                 `json:"suggestions"`
	// Start and End are the target's current lines (0 when not found);
	// CapturedStart and CapturedEnd the lines recorded in the lock.
	Start         int    `json:"start,omitempty"`
	End           int    `json:"end,omitempty"`
	CapturedStart int    `json:"captured_start,omitempty"`
	CapturedEnd   int    `json:"captured_end,omitempty"`
	Passed        *bool  `json:"passed,omitempty"` // evidence entries only
	Note          string `json:"note,omitempty"`
	// SupersededBy is the run (run:ID) of the requirement's newest evidence
	// entry, for a superseded entry only.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Source is "marker" when a code marker declares the link (SPEC 1.6),
	// and Markers lists each such marker's PATH:LINE; both are omitted for
	// a link only the content declares.
	Source  string   `json:"source,omitempty"`
	Markers []string `json:"markers,omitempty"`
}

// SourceMarker is [CheckTarget.Source] of a link a code marker declares.
const SourceMarker = "marker"

// CheckRequirement holds a requirement's derived fields.
type CheckRequirement struct {
	ID          string `json:"id"`
	Implemented bool   `json:"implemented"`
	Tested      bool   `json:"tested"`
	Verified    bool   `json:"verified"`
}

// NewCheckReport is the check JSON view of the findings: every link, in
// their order, and the derived fields of every requirement.
func NewCheckReport(f *Findings) *CheckReport {
	out := &CheckReport{SchemaVersion: CheckSchemaVersion, Targets: make([]CheckTarget, 0, len(f.Links)), Requirements: []CheckRequirement{}, Totals: map[string]int{}, lang: f.Lang}
	for _, s := range checkStates {
		out.Totals[string(s)] = 0
	}
	for _, l := range f.Links {
		v := l.Verdict
		t := CheckTarget{
			Ref: l.Ref, State: string(v.State), Reason: string(v.Reason), Why: l.Why, ClaimedBy: l.ClaimedBy,
			Relocated: orEmpty(l.Relocated), Suggestions: orEmpty(l.Suggestions), Passed: l.Passed,
		}
		if l.Kind != LinkParent {
			t.Note = v.Note
		}
		if l.Kind == LinkTarget {
			t.Moved, t.Reformatted, t.Start, t.End = v.Moved, v.Reformatted, v.Start, v.End
			t.CapturedStart, t.CapturedEnd = l.CapturedLines()
		}
		if v.State == codeanchors.Superseded {
			t.SupersededBy = claims.RunNode(v.SupersededBy).String()
		}
		if t.Markers = l.Markers(); len(t.Markers) > 0 {
			t.Source = SourceMarker
		}
		out.Targets = append(out.Targets, t)
		out.Totals[t.State]++
	}
	for _, r := range f.Requirements {
		out.Requirements = append(out.Requirements, CheckRequirement{ID: r.ID, Implemented: r.Implemented, Tested: r.Tested, Verified: r.Verified})
	}
	if f.Policy != nil && len(f.Policy.Rules) > 0 {
		out.Policy = orEmpty(f.Policy.Entries)
	}
	return out
}

// CountPolicy returns how many policy entries count against the policy:
// violated, or with a waiver that expired (--fail-on policy).
func (c *CheckReport) CountPolicy() int {
	n := 0
	for _, e := range c.Policy {
		if e.Problem() {
			n++
		}
	}
	return n
}

// checkStates are the states of check's entries, in the order the text
// report lists them: the live states, then superseded evidence entries.
var checkStates = [...]codeanchors.State{codeanchors.Linked, codeanchors.Stale, codeanchors.Unknown, codeanchors.Superseded}

// Count returns how many targets have the state.
func (c *CheckReport) Count(state codeanchors.State) int { return c.Totals[string(state)] }

// CountReason returns how many targets have the reason.
func (c *CheckReport) CountReason(r codeanchors.Reason) int {
	n := 0
	for _, t := range c.Targets {
		if t.Reason == string(r) {
			n++
		}
	}
	return n
}

// checkWords are the few words of the text report that are not a reason's
// why or what to do (those live in the one reasons table of codeanchors).
var checkWords = map[string][8]string{
	//     moved to, did you mean, claimed by, what to do, summary, nothing to do, superseded, declared in code by
	"en": {"moved to", "did you mean", "claimed by", "to do", "%d links: %d linked, %d stale, %d unknown", "nothing to do: every link is linked",
		"%d older evidence entries superseded (history, not links)", "marker at"},
	"es": {"movido a", "quizá quiso decir", "enlazado por", "qué hacer", "%d enlaces: %d enlazados, %d obsoletos, %d desconocidos", "nada que hacer: todos los enlaces están enlazados",
		"%d entradas de evidencia antiguas sustituidas (historial, no enlaces)", "marcador en"},
}

// Text renders the report for people: the problems first (stale, then
// unknown links, each with its why, where it moved, suggestions, who
// claims it and one line saying what to do), then with all the linked
// links and the superseded evidence entries, then the requirements, then
// a summary. Superseded entries are history: only all lists them.
func (c *CheckReport) Text(all bool) string {
	words, ok := checkWords[c.lang]
	if !ok {
		words = checkWords["en"]
	}
	var b strings.Builder
	entry := func(t CheckTarget) {
		fmt.Fprintf(&b, "%-8s %s", t.State, printable(LinkName(t.Ref, t.ClaimedBy)))
		var flags []string
		if t.Start > 0 && t.Reason == "" {
			flags = append(flags, fmt.Sprintf("lines %d-%d", t.Start, t.End))
		}
		if t.Moved {
			flags = append(flags, fmt.Sprintf("moved from %d-%d", t.CapturedStart, t.CapturedEnd))
		}
		if t.Reformatted {
			flags = append(flags, "reformatted")
		}
		if t.Passed != nil && !*t.Passed {
			flags = append(flags, "tests failed")
		}
		if len(flags) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(flags, ", "))
		}
		if t.Reason != "" {
			fmt.Fprintf(&b, "\n         %s: %s", t.Reason, printable(LinkWhy(t.Ref, t.ClaimedBy, codeanchors.Reason(t.Reason), t.Why, c.lang)))
		}
		if len(t.Relocated) > 0 {
			var to []string
			for _, r := range t.Relocated {
				to = append(to, printable(r.Ref)+" ("+r.How+")")
			}
			fmt.Fprintf(&b, "\n         %s %s", words[0], strings.Join(to, ", "))
		}
		if len(t.Suggestions) > 0 {
			fmt.Fprintf(&b, "\n         %s %s?", words[1], printable(strings.Join(t.Suggestions, ", ")))
		}
		if t.Note != "" {
			fmt.Fprintf(&b, "\n         note: %s", printable(t.Note))
		}
		if t.SupersededBy != "" {
			fmt.Fprintf(&b, "\n         %s", printable(t.Why))
		}
		fmt.Fprintf(&b, "\n         %s %s", words[2], printable(joinIDs(t.ClaimedBy, ", ")))
		if len(t.Markers) > 0 {
			fmt.Fprintf(&b, "\n         %s %s", words[7], printable(strings.Join(t.Markers, ", ")))
		}
		if todo := LinkToDo(t.Ref, t.ClaimedBy, codeanchors.Reason(t.Reason), c.lang); todo != "" {
			fmt.Fprintf(&b, "\n         %s: %s", words[3], printable(todo))
		}
		b.WriteString("\n")
	}
	for _, state := range []string{string(codeanchors.Stale), string(codeanchors.Unknown)} {
		for _, t := range c.Targets {
			if t.State == state {
				entry(t)
			}
		}
	}
	if all {
		for _, state := range []string{string(codeanchors.Linked), string(codeanchors.Superseded)} {
			for _, t := range c.Targets {
				if t.State == state {
					entry(t)
				}
			}
		}
	}
	c.policyText(&b, all)
	for _, r := range c.Requirements {
		fmt.Fprintf(&b, "%s: implemented=%t tested=%t verified=%t\n", r.ID, r.Implemented, r.Tested, r.Verified)
	}
	superseded := c.Totals[string(codeanchors.Superseded)]
	links := len(c.Targets) - superseded
	fmt.Fprintf(&b, words[4]+"\n", links, c.Totals["linked"], c.Totals["stale"], c.Totals["unknown"])
	if superseded > 0 {
		fmt.Fprintf(&b, words[6]+"\n", superseded)
	}
	if c.Totals["stale"]+c.Totals["unknown"] == 0 && links > 0 {
		fmt.Fprintln(&b, words[5])
	}
	return b.String()
}

// policyText lists the policy entries that count against the policy
// (and with all the justified ones too), each with its why, its waiver
// and what to do, then one line of counts when there are entries.
func (c *CheckReport) policyText(b *strings.Builder, all bool) {
	counts := map[string]int{}
	for _, e := range c.Policy {
		counts[e.State]++
		if !e.Problem() && !all {
			continue
		}
		fmt.Fprintf(b, "%-8s %s: policy rule %s\n         %s", e.State, e.Node, printable(e.Rule), printable(e.Why))
		if w := e.Waiver; w != nil {
			fmt.Fprintf(b, "\n         waiver: %s", printable(w.Reason))
			if w.By != "" {
				fmt.Fprintf(b, " (by %s)", printable(w.By))
			}
		}
		if todo := WaiverToDo(e); todo != "" {
			fmt.Fprintf(b, "\n         to do: %s", printable(todo))
		}
		b.WriteString("\n")
	}
	if len(c.Policy) > 0 {
		fmt.Fprintf(b, "policy: %d violated, %d waiver expired, %d justified\n", counts[PolicyViolated], counts[PolicyWaiverExpired], counts[PolicyJustified])
	}
}

// printable escapes what a terminal or a CI log would interpret in text
// from the repository: control characters (escape sequences, newlines),
// C1 controls and invalid UTF-8 become \x.. or \u.... escapes.
func printable(s string) string {
	if !strings.ContainsFunc(s, unprintable) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unprintable(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unprintable(r rune) bool { return r < ' ' || r == 0x7f || 0x80 <= r && r <= 0x9f }

// orEmpty returns s, or an empty non-nil slice for nil, so that JSON says
// [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
