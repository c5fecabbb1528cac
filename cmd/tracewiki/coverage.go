package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// failOnCoverage is the --fail-on name of check's coverage gate (SPEC
// 1.7): not a link state or reason, so only check accepts it.
const failOnCoverage = "coverage"

// maxBaseCoverage bounds the --base-coverage file read: a coverage.json of
// the 11k bench workspace is about a megabyte.
const maxBaseCoverage = 64 << 20

// coverageGate is check's coverage gate: asked for by --fail-on coverage,
// against the config's [coverage] min and/or --base-coverage FILE.
type coverageGate struct {
	fail bool                // --fail-on coverage
	base string              // --base-coverage FILE; "" for none
	read *synth.CoverageJSON // the base, read by prepare
}

// coverageFlags declares --base-coverage.
func coverageFlags(fs *flag.FlagSet) *coverageGate {
	g := &coverageGate{}
	fs.StringVar(&g.base, "base-coverage", "", "an earlier build's api/coverage.json `FILE`: with --fail-on coverage, exit 1 when the covered share drops below its share")
	return g
}

// asked reports whether the gate is asked for, taking "coverage" out of
// the --fail-on names, which the link gate judges.
func (g *coverageGate) asked(names *[]string) bool {
	g.fail = slices.Contains(*names, failOnCoverage)
	*names = slices.DeleteFunc(*names, func(s string) bool { return s == failOnCoverage })
	return g.fail || g.base != ""
}

// prepare checks the gate's usage and reads the base, before any work:
// exit 2 on bad usage or input.
func (g *coverageGate) prepare(e *env, p *site.Project) int {
	if g.fail && p.Config.Coverage.Min == 0 && g.base == "" {
		return e.usage("check: --fail-on coverage: nothing to compare with; set [coverage] min in tracewiki.toml or give --base-coverage FILE")
	}
	if g.base == "" {
		return exitOK
	}
	data, err := site.ReadFileLimit(g.base, maxBaseCoverage)
	if err != nil {
		return e.fail(err)
	}
	b, err := synth.ParseCoverage(data)
	if err != nil {
		return e.fail(fmt.Errorf("%s: %v", g.base, err))
	}
	g.read = &b
	return exitOK
}

// run says the figures of the workspace's coverage c (on stdout when text
// is true, else on stderr, so JSON and SARIF stay whole) and returns exit
// 1 when the gate fails.
func (g *coverageGate) run(e *env, p *site.Project, c synth.CoverageJSON, text bool) int {
	min, base := p.Config.Coverage.Min, g.read
	out := e.stderr
	if text {
		out = e.stdout
	}
	t := c.Totals
	line := "coverage: " + t.String()
	if min > 0 {
		line += ", min " + synth.Percent(min)
	}
	if base != nil {
		line += fmt.Sprintf(", base %s (%s)", synth.Percent(base.Totals.Share), g.base)
	}
	fmt.Fprintln(out, line)
	if !g.fail {
		return exitOK
	}
	code := exitOK
	if min > 0 && t.BelowMin(min) {
		fmt.Fprintf(e.stderr, "tracewiki: coverage %s is below the minimum %s\n", synth.Percent(t.Share), synth.Percent(min))
		code = exitFindings
	}
	if base != nil && t.Below(base.Totals) {
		fmt.Fprintf(e.stderr, "tracewiki: coverage dropped from %s to %s (%d of %d symbols covered, was %d of %d)\n",
			synth.Percent(base.Totals.Share), synth.Percent(t.Share), t.Covered, t.Symbols-t.Justified, base.Totals.Covered, base.Totals.Symbols-base.Totals.Justified)
		code = exitFindings
	}
	return code
}
