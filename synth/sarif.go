package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// SARIF 2.1.0 constants. The schema URI is the OASIS standard's; rule help
// points at the CI guide, which lists every reason.
const (
	sarifVersion   = "2.1.0"
	sarifSchema    = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	toolURI        = "https://github.com/tracewiki/tracewiki"
	reasonsHelpURI = toolURI + "/blob/main/docs/ci.md#reasons"
	// srcRoot is the uriBaseId of every location: the workspace root, which
	// code scanning takes to be the repository root.
	srcRoot = "%SRCROOT%"
	// fingerprintKey names tracewiki's partial fingerprint. Code scanning
	// matches alerts across runs by it, so it changes only with the hash.
	fingerprintKey = "tracewikiLink/v1"
)

// SARIF is a SARIF 2.1.0 log of one run of "tracewiki check": one result
// per stale or unknown link, one rule per drift reason. It is built by
// [NewSARIF] and encoded with [MarshalJSON].
type SARIF struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds"` // one key
	Results            []sarifResult                    `json:"results"`            // [] when all is linked: that closes old alerts
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

// sarifDriver carries no version: the output is a function of the inputs,
// and the tool's version is not one of them.
type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	ShortDescription     sarifText     `json:"shortDescription"`
	FullDescription      sarifText     `json:"fullDescription"`
	Help                 sarifText     `json:"help"`
	HelpURI              string        `json:"helpUri"`
	DefaultConfiguration sarifConfig   `json:"defaultConfiguration"`
	Properties           sarifRuleTags `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleTags struct {
	Tags []string `json:"tags"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"` // one key
	// Suppressions mark a policy violation that a waiver justifies.
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"` // "external": the waiver is in the content
	Justification string `json:"justification"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"` // related locations only
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI         string     `json:"uri,omitempty"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine,omitempty"`
}

// reasonHelp says what to do about each reason, for the rules' help text.
// The why of each reason lives in the one reasons table of codeanchors.
var reasonHelp = map[codeanchors.Reason]string{
	codeanchors.ContentChanged:       "Review the changed code. If the claims that rely on it still hold, run `tracewiki capture REF` to anchor the link again; otherwise correct the claims.",
	codeanchors.SymbolNotFound:       "The symbol was renamed or removed. Point the link at the symbol's new name, or remove the claim.",
	codeanchors.PathOutsideWorkspace: "Point the link at a file inside the workspace: nothing outside it is read.",
	codeanchors.RequirementChanged:   "The requirement's text changed after its tests last ran. Run its tests again and record them with `tracewiki evidence --run ID --report FILE`.",
	codeanchors.CodeChanged:          "An implementing or test symbol of the requirement changed after its tests last ran: the run vouches for the code it ran against, not its successor. Run the tests again and record them with `tracewiki evidence --run ID --report FILE`.",
	codeanchors.TestsFailed:          "Some linked test failed (or was skipped) in the run. Fix the code or the test, run the tests again and record them with `tracewiki evidence --run ID --report FILE`.",
	codeanchors.ParentChanged:        "A parent requirement changed after this requirement was last reviewed against it. Read the parent's new text, update the child if needed, then record the review with `tracewiki review` and the child's id.",
	codeanchors.TargetMissing:        "The file (or, for evidence, the requirement) was deleted. Point the link at what replaced it, or remove the link.",
	codeanchors.Ambiguous:            "The name is defined more than once in the file. Link the file or a line range instead, or make the name unique.",
	codeanchors.Uncaptured:           "Run `tracewiki capture` to anchor the new link to the code it names.",
	codeanchors.NotIncluded:          "The file lies outside the code that tracewiki.toml's [code] include names (or inside its exclude), so its symbols are not read. Add it to include, or link the whole file or a line range, which are checked by hash.",
	codeanchors.ExternalChanged:      "Another repository's bundle ([[externals]]) differs from the one `tracewiki capture` pinned. Review the links into it (each is judged by its own captured hashes), then run `tracewiki capture` to pin the new bundle.",
}

// NewSARIF is the SARIF view of the findings: one result per link that
// is not linked, in their order (ref, then claimed_by).
//
// A result is located at [Finding.At]: the target's current lines when the
// target still exists, else where the link is written; evidence at its
// requirement's file. Every place the link is written is a related
// location.
func NewSARIF(f *Findings) *SARIF {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "tracewiki", InformationURI: toolURI, Rules: sarifRules()}},
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{
			srcRoot: {Description: &sarifText{Text: "The workspace root (--root): the repository root in CI."}},
		},
		Results: []sarifResult{},
	}
	for _, l := range f.Problems() {
		r := sarifResult{
			RuleID:              string(l.Verdict.Reason),
			RuleIndex:           l.Rule,
			Level:               levelOf(l.Verdict.State),
			Message:             sarifText{Text: l.message(f.Lang)},
			PartialFingerprints: map[string]string{fingerprintKey: l.fingerprint()},
		}
		if l.At.Path != "" {
			r.Locations = []sarifLocation{{PhysicalLocation: l.At.physical()}}
		}
		for i, w := range l.Written {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID: &id, PhysicalLocation: w.physical(), Message: &sarifText{Text: w.says()},
			})
		}
		if r.Locations == nil {
			r.Locations = []sarifLocation{}
		}
		run.Results = append(run.Results, r)
	}
	addPolicy(&run, f.Policy)
	return &SARIF{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// sarifRules is one rule per reason, in the order of SPEC 2, so that rule
// indexes are stable.
func sarifRules() []sarifRule {
	rules := make([]sarifRule, 0, len(codeanchors.Reasons))
	for _, r := range codeanchors.Reasons {
		state := string(r.State())
		rules = append(rules, sarifRule{
			ID:                   string(r),
			ShortDescription:     sarifText{Text: r.Why("en")},
			FullDescription:      sarifText{Text: fmt.Sprintf("A link is %s (%s): %s.", state, r, r.Why("en"))},
			Help:                 sarifText{Text: reasonHelp[r]},
			HelpURI:              reasonsHelpURI,
			DefaultConfiguration: sarifConfig{Level: levelOf(r.State())},
			Properties:           sarifRuleTags{Tags: []string{"traceability", state}},
		})
	}
	return rules
}

// levelOf maps a link state to a SARIF level: stale links are warnings,
// unknown ones notes (a deleted or never captured target is not a finding
// about code that changed under a claim).
func levelOf(s codeanchors.State) string {
	if s == codeanchors.Stale {
		return "warning"
	}
	return "note"
}

// message names the target, its state and reason, the reason's why in
// lang, where it moved, the suggestions, and what relies on the link (a
// parent link is named as the child's, see [LinkName]).
func (f Finding) message(lang string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s (%s): %s.", LinkName(f.Ref, f.ClaimedBy), f.Verdict.State, f.Verdict.Reason, LinkWhy(f.Ref, f.ClaimedBy, f.Verdict.Reason, f.Why, lang))
	if len(f.Relocated) > 0 {
		var to []string
		for _, r := range f.Relocated {
			to = append(to, r.Ref+" ("+r.How+")")
		}
		fmt.Fprintf(&b, " It moved to %s.", strings.Join(to, ", "))
	}
	if len(f.Suggestions) > 0 {
		fmt.Fprintf(&b, " Did you mean %s?", strings.Join(f.Suggestions, ", "))
	}
	if f.Verdict.Note != "" && f.Kind != LinkParent {
		fmt.Fprintf(&b, " Note: %s.", f.Verdict.Note)
	}
	if len(f.ClaimedBy) > 0 && f.Kind != LinkParent {
		fmt.Fprintf(&b, " Relied on by %s.", joinIDs(f.ClaimedBy, ", "))
	}
	return b.String()
}

// fingerprint is a hash of what identifies the link, never of where it is:
// the ref and the reason, and for evidence the requirement too (one run can
// evidence several requirements).
func (f Finding) fingerprint() string {
	key := f.Ref + "\n" + string(f.Verdict.Reason)
	if f.Kind != LinkTarget {
		key += "\n" + joinIDs(f.ClaimedBy, ",")
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:16])
}

// says describes a place the link is written.
func (u Written) says() string {
	if u.Marker {
		return "a marker in the code declares that " + u.Node.String() + " " + u.Role + " this (" + u.Pos.String() + ")"
	}
	switch u.Role {
	case codeanchors.RoleClaims:
		return u.Node.String() + " claims this"
	case codeanchors.RoleEvidences:
		return u.Node.String() + " is evidenced by this run"
	case KindParent:
		return u.Node.String() + " refines this parent"
	}
	return u.Node.String() + " " + u.Role + " this"
}

func (p Place) physical() sarifPhysicalLocation {
	pl := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: fileURI(p.Path), URIBaseID: srcRoot}}
	if p.Start > 0 {
		pl.Region = &sarifRegion{StartLine: p.Start}
		if p.End > p.Start {
			pl.Region.EndLine = p.End
		}
	}
	return pl
}

// fileURI turns a root-relative slash path into a relative URI reference,
// escaping what a URI may not hold (spaces, %, a colon in the first segment).
func fileURI(p string) string {
	return (&url.URL{Path: p}).String()
}
