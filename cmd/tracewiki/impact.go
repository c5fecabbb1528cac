package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

var impactFormats = []string{"text", "json"}

func runImpact(e *env, args []string) int {
	fs := e.flags("impact")
	base := fs.String("base", "", "the git `REV` to compare the workspace with (git diff REV)")
	format := fs.String("format", "text", "output `format`: text or json")
	budget := fs.Int("budget-tokens", 0, "fit the answer into `N` tokens (bytes/4), shedding sections in the documented order")
	args, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if !slices.Contains(impactFormats, *format) {
		return e.usage("impact: --format %q: want text or json", *format)
	}
	if *budget < 0 {
		return e.usage("impact: --budget-tokens must not be negative")
	}
	if *base == "" && len(args) == 0 {
		return e.usage("impact: give the changed PATHs, or --base REV")
	}
	for _, arg := range args {
		c, err := synth.ParseChange(filepath.ToSlash(arg))
		if err != nil {
			return e.usage("impact: %v", err)
		}
		if *base != "" && len(c.Lines) > 0 {
			return e.usage("impact: %q: with --base, give paths without lines", arg)
		}
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		return e.fail(err)
	}
	for i, arg := range args {
		args[i] = filepath.ToSlash(arg)
	}
	out, err := site.Impact(p.WS, k, args, synth.ImpactOptions{Base: *base, Budget: *budget})
	if err != nil {
		return e.fail(err)
	}
	if *format == "json" {
		return e.writeCompact(out)
	}
	fmt.Fprint(e.stdout, out.Text())
	return exitOK
}
