package main

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

func runSearch(e *env, args []string) int {
	fs := e.flags("search")
	var o synth.SearchOptions
	fs.StringVar(&o.Kind, "kind", "", "only nodes of this `type`: "+strings.Join(synth.NodeTypes, "|"))
	fs.IntVar(&o.Limit, "limit", synth.DefaultSearchLimit, "return at most `N` results")
	fs.BoolVar(&o.Explain, "explain", false, "list the fields each result matched in")
	fs.IntVar(&o.Budget, "budget-tokens", 0, "fit the answer into `N` tokens (bytes/4), shedding excerpts, then results")
	args, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(args) == 0 {
		return e.usage("search: give a QUERY")
	}
	if o.Kind != "" && !slices.Contains(synth.NodeTypes, o.Kind) {
		return e.usage("search: --kind %q: want one of %s", o.Kind, strings.Join(synth.NodeTypes, ", "))
	}
	if o.Limit < 1 || o.Budget < 0 {
		return e.usage("search: --limit must be at least 1 and --budget-tokens not negative")
	}
	query := strings.Join(args, " ")
	// The index of the last build, when it is up to date, spares the
	// analysis of the whole workspace.
	if c, err := site.CacheFromEnv(); err == nil {
		if ix, ok := site.CachedSearch(e.root, c); ok {
			return e.writeCompact(ix.Search(query, o))
		}
	}
	k, code, ok := e.knowledge()
	if !ok {
		return code
	}
	return e.writeCompact(k.Search(query, o))
}

func runLookup(e *env, args []string) int {
	fs := e.flags("lookup")
	var o synth.LookupOptions
	fs.IntVar(&o.Depth, "depth", synth.DefaultDepth, "hops from the entity, clamped to 1-3")
	fs.IntVar(&o.Budget, "budget-tokens", 0, "fit the answer into `N` tokens (bytes/4), shedding sections in the documented order")
	args, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(args) != 1 {
		return e.usage("lookup: give one ID, PATH or PATH@SYMBOL")
	}
	if o.Budget < 0 {
		return e.usage("lookup: --budget-tokens must not be negative")
	}
	k, code, ok := e.knowledge()
	if !ok {
		return code
	}
	return e.writeCompact(k.Lookup(args[0], o))
}

// knowledge loads the workspace for search and lookup; it never writes.
func (e *env) knowledge() (*synth.Knowledge, int, bool) {
	p, err := site.Load(e.root)
	if err != nil {
		return nil, e.fail(err), false
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		return nil, e.fail(err), false
	}
	return k, exitOK, true
}

// writeCompact prints v as one line of compact JSON, the bytes budgets
// are estimated on.
func (e *env) writeCompact(v any) int {
	data, err := synth.MarshalCompact(v)
	if err != nil {
		return e.fail(err)
	}
	e.stdout.Write(data)
	return exitOK
}
