package site

import (
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// Code coverage by requirements (SPEC 1.7): api/coverage.json and the
// coverage page, computed by [synth.NewCoverage] from the graph.

// coverageWaived is the code paths whose [[coverage.waivers]] still hold:
// never stamped yet, or stamped with the file as it is now; a waiver whose
// file changed has expired until capture --waivers re-arms it (SPEC 1.7).
func (p *Project) coverageWaived(l *codeanchors.Lock) (map[string]bool, error) {
	if len(p.Config.Coverage.Waivers) == 0 {
		return nil, nil
	}
	subjects, err := p.waiverSubjects()
	if err != nil {
		return nil, err
	}
	waived := map[string]bool{}
	for _, w := range subjects {
		if w.revisions.Current != "" {
			continue // a requirement's
		}
		stamp, stamped := codeanchors.WaiverStamp{}, false
		if l != nil {
			stamp, stamped = l.Waivers[w.key]
		}
		if !stamped || w.matches(stamp.Hash) {
			waived[w.subject] = true
		}
	}
	return waived, nil
}

// codeCoverage is the coverage of the graph's code index under the
// config's [coverage] table and the waivers that hold by the lock l.
func (p *Project) codeCoverage(g *synth.Graph, l *codeanchors.Lock) (synth.CoverageJSON, error) {
	waived, err := p.coverageWaived(l)
	if err != nil {
		return synth.CoverageJSON{}, err
	}
	return synth.NewCoverage(synth.CoverageInput{Graph: g, Exclude: p.Config.Coverage.Exclude, Waived: waived}), nil
}

// Coverage analyzes the workspace (every code file, as a build does) and
// computes its code coverage by requirements: check --fail-on coverage.
func (p *Project) Coverage() (synth.CoverageJSON, error) {
	g, a, err := p.Graph()
	if err != nil {
		return synth.CoverageJSON{}, err
	}
	return p.codeCoverage(g, a.Lock)
}
