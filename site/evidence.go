package site

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// EvidenceResult lists what [Project.RecordEvidence] did.
type EvidenceResult struct {
	Recorded []codeanchors.Evidence
	// Skipped explains, per requirement with tests, why no evidence was
	// recorded: some linked test is not in the report.
	Skipped []string
}

// MaxRunID bounds the bytes of a run id.
const MaxRunID = 200

// CheckRunID refuses a run id that cannot be valid: empty or blank, longer
// than [MaxRunID] bytes, not UTF-8, or holding control characters. Every
// other id is shown as-is, and its page folder is bounded by the site.
func CheckRunID(run string) error {
	switch {
	case strings.TrimSpace(run) == "":
		return fmt.Errorf("evidence: empty run id")
	case len(run) > MaxRunID:
		return fmt.Errorf("evidence: run id %.40q...: %d bytes, more than the %d a run id may have", run, len(run), MaxRunID)
	case !utf8.ValidString(run):
		return fmt.Errorf("evidence: run id %q is not UTF-8", run)
	case strings.ContainsFunc(run, unicode.IsControl):
		return fmt.Errorf("evidence: run id %q holds control characters", run)
	}
	return nil
}

// RecordEvidence reads a test report and records, for each requirement
// whose linked tests all appear in it, an evidence entry for run against the
// requirement's current revision, with each test's outcome. A failed test is
// recorded as failed; it never makes a requirement verified.
func (p *Project) RecordEvidence(run, reportName string, report []byte, by string, notes io.Writer) (*EvidenceResult, error) {
	if err := CheckRunID(run); err != nil {
		return nil, err
	}
	results, err := codeanchors.ParseReport(reportName, report)
	if err != nil {
		return nil, err
	}
	if by == "" {
		by = p.gitEmail()
	}
	if err := p.readMarkers(); err != nil {
		return nil, err
	}
	var paths []string
	for _, r := range p.Model.Requirements {
		for _, t := range slices.Concat(r.Implements, r.Tests) {
			paths = append(paths, t.Target.Path)
		}
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	m := codeanchors.TestMatcher{Project: p.projectFiles(paths), Source: func(p string) *codeanchors.Source { return sources[p] }}
	res := &EvidenceResult{}
	var recorded []*claims.Requirement // the requirement of each res.Recorded
	at := Now().Format(time.RFC3339)
	for _, r := range p.Model.Requirements {
		if len(r.Tests) == 0 {
			continue
		}
		e := codeanchors.Evidence{Req: r.ID, Run: run, Revision: r.Revision, RecordedAt: at, RecordedBy: by}
		var missing []string
		for _, t := range r.Tests {
			found := m.Match(t.Target, results)
			if len(found) == 0 {
				missing = append(missing, t.Target.String())
			}
			for _, f := range found {
				e.Tests = append(e.Tests, codeanchors.EvidenceTest{Target: t.Target.String(), Name: f.Suite + "." + f.Name, Outcome: f.Outcome})
			}
		}
		if len(missing) > 0 {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s: not in the report: %s", r.ID, strings.Join(missing, ", ")))
			continue
		}
		res.Recorded = append(res.Recorded, e)
		recorded = append(recorded, r)
	}
	err = p.RenewLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		for i := range res.Recorded {
			res.Recorded[i].TokenHashes = p.codeHashes(recorded[i], l, sources)
			l.RecordEvidence(res.Recorded[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// codeHashes returns the current token hash of every implements and tests
// target of the requirement, keyed by ref: what a run vouches for. A target
// not found now has no entry (its link is not linked, and says why).
func (p *Project) codeHashes(r *claims.Requirement, l *codeanchors.Lock, sources map[string]*codeanchors.Source) map[string]string {
	out := map[string]string{}
	for _, t := range slices.Concat(r.Implements, r.Tests) {
		var a *codeanchors.Anchor
		if la, ok := l.Anchors[t.Target.String()]; ok {
			a = &la
		}
		if res := codeanchors.ResolveIn(t.Target, a, sources[t.Target.Path]); res.Reason == "" {
			out[t.Target.String()] = res.TokenHash
		}
	}
	return out
}
