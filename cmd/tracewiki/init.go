package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/site"
)

func runInit(e *env, args []string) int {
	fs := e.flags("init")
	agents := fs.Bool("agents", false, "only write tracewiki's section of AGENTS.md, telling coding agents how to query the wiki")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("init: unexpected arguments %q", fs.Args())
	}
	if *agents {
		return initAgents(e)
	}
	written, note, err := site.Init(e.root)
	if err != nil {
		return e.fail(err)
	}
	for _, name := range written {
		fmt.Fprintf(e.stdout, "wrote %s\n", name)
	}
	if note != "" {
		fmt.Fprint(e.stdout, note)
	}
	fmt.Fprintln(e.stdout, `next: edit content/, then run "tracewiki build" and open public/index.html`)
	return exitOK
}

// initAgents writes tracewiki's section of AGENTS.md and says what it did.
func initAgents(e *env) int {
	what, err := site.InitAgents(e.root)
	if err != nil {
		return e.fail(err)
	}
	switch what {
	case "unchanged":
		fmt.Fprintf(e.stdout, "%s: the tracewiki section is up to date\n", site.AgentsFile)
	case "created":
		fmt.Fprintf(e.stdout, "wrote %s\n", site.AgentsFile)
	default:
		fmt.Fprintf(e.stdout, "wrote %s (%s the tracewiki section)\n", site.AgentsFile, what)
	}
	return exitOK
}
