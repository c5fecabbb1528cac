package site

import (
	"github.com/tracewiki/tracewiki/synth"
)

// Code coverage by requirements (SPEC 1.7): api/coverage.json and the
// coverage page, computed by [synth.NewCoverage] from the graph.

// coverageWaived is the hook for [[coverage.waivers]]: the paths whose
// uncovered symbols a waiver that still holds justifies (the policy code
// stamps waivers and tells an expired one). Nil until waivers exist:
// nothing is justified.
var coverageWaived = func(p *Project) map[string]bool { return nil }

// codeCoverage is the coverage of the graph's code index under the
// config's [coverage] table and the waivers that hold.
func (p *Project) codeCoverage(g *synth.Graph) synth.CoverageJSON {
	return synth.NewCoverage(synth.CoverageInput{Graph: g, Exclude: p.Config.Coverage.Exclude, Waived: coverageWaived(p)})
}

// Coverage analyzes the workspace (every code file, as a build does) and
// computes its code coverage by requirements: check --fail-on coverage.
func (p *Project) Coverage() (synth.CoverageJSON, error) {
	g, _, err := p.Graph()
	if err != nil {
		return synth.CoverageJSON{}, err
	}
	return p.codeCoverage(g), nil
}
