package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// The SARIF rules of the policy, after the reasons' rules (so the
// reasons' indexes do not move), present only when a policy is judged:
// a workspace without one gets the SARIF it always got.
var policySARIFRules = []sarifRule{
	{
		ID:                   "policy_" + PolicyViolated,
		ShortDescription:     sarifText{Text: "a requirement does not meet a policy rule"},
		FullDescription:      sarifText{Text: "A requirement lacks what a [[policy.rules]] rule of tracewiki.toml requires (SPEC 1.7); a waiver in its front matter justifies it (a suppressed result)."},
		Help:                 sarifText{Text: "Give the requirement what the rule requires (a parent of the kind, an implements or tests link, evidence, a field, children), or justify the gap with `waivers: [{rule, reason, by, date}]` in its front matter."},
		HelpURI:              toolURI + "/blob/main/docs/policy.md",
		DefaultConfiguration: sarifConfig{Level: "warning"},
		Properties:           sarifRuleTags{Tags: []string{"traceability", "policy"}},
	},
	{
		ID:                   "policy_" + PolicyWaiverExpired,
		ShortDescription:     sarifText{Text: "a policy waiver expired: the requirement changed since it was granted"},
		FullDescription:      sarifText{Text: "A waiver justified a policy violation of the requirement's text as it was when the lock stamped it; the text changed since, so the violation counts again (SPEC 1.7)."},
		Help:                 sarifText{Text: "Review the waiver against the requirement's new text; if it still holds, re-arm it with `tracewiki capture --waivers ID`, else meet the rule."},
		HelpURI:              toolURI + "/blob/main/docs/policy.md",
		DefaultConfiguration: sarifConfig{Level: "warning"},
		Properties:           sarifRuleTags{Tags: []string{"traceability", "policy"}},
	},
}

// addPolicy adds the policy's rules and one result per entry to run: a
// justified entry is a suppressed result, as SARIF marks an accepted one.
func addPolicy(run *sarifRun, p *Policy) {
	if p == nil || len(p.Rules) == 0 {
		return
	}
	base := len(run.Tool.Driver.Rules)
	run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, policySARIFRules...)
	for _, e := range p.Entries {
		idx := base
		if e.State == PolicyWaiverExpired {
			idx++
		}
		sum := sha256.Sum256([]byte("policy\n" + e.Rule + "\n" + e.Node.String()))
		r := sarifResult{
			RuleID: policySARIFRules[idx-base].ID, RuleIndex: idx, Level: "warning",
			Message:             sarifText{Text: e.message()},
			Locations:           []sarifLocation{{PhysicalLocation: e.At.physical()}},
			PartialFingerprints: map[string]string{fingerprintKey: hex.EncodeToString(sum[:16])},
		}
		if e.State == PolicyJustified {
			r.Suppressions = []sarifSuppression{{Kind: "external", Justification: e.Waiver.Reason}}
		}
		run.Results = append(run.Results, r)
	}
}

// message is a policy entry for people, on one line.
func (e PolicyEntry) message() string {
	return fmt.Sprintf("%s is %s under policy rule %s: %s.", e.Node, e.State, e.Rule, e.Why)
}
