package main

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/site"
)

func runRelink(e *env, args []string) int {
	fs := e.flags("relink")
	dry := fs.Bool("dry-run", false, "print the rewrites, write nothing")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("relink: unexpected arguments %q", fs.Args())
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	res, err := p.Relink(*dry, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	verb := "relinked"
	if *dry {
		verb = "would relink"
	}
	for _, rw := range res.Rewrites {
		fmt.Fprintf(e.stdout, "%s %s -> %s (%s) in %s\n", verb, rw.From, rw.To, rw.How, strings.Join(rw.Files, ", "))
	}
	for _, s := range res.Left {
		fmt.Fprintf(e.stdout, "not relinked %s\n", s)
	}
	if len(res.Rewrites) == 0 && len(res.Left) == 0 {
		fmt.Fprintln(e.stdout, "nothing to relink")
	}
	return exitOK
}
