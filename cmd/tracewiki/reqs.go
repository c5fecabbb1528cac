package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/site"
)

func runReview(e *env, args []string) int {
	fs := e.flags("review")
	var opts site.ReviewOptions
	fs.BoolVar(&opts.AllSuspect, "all-suspect", false, "review every requirement with a suspect parent link (needs --yes)")
	yes := fs.Bool("yes", false, "confirm --all-suspect")
	fs.StringVar(&opts.By, "by", "", "who reviewed (default: git's user.email)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	opts.IDs = fs.Args()
	switch {
	case opts.AllSuspect && len(opts.IDs) > 0:
		return e.usage("review: give requirement ids or --all-suspect, not both")
	case opts.AllSuspect && !*yes:
		return e.usage("review: --all-suspect marks every suspect link reviewed without looking; confirm with --yes")
	case !opts.AllSuspect && len(opts.IDs) == 0:
		return e.usage("review: no requirement id given (or --all-suspect --yes)")
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	res, err := p.Review(opts, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprint(e.stdout, res)
	return exitOK
}
