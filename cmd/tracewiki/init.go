package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/site"
)

func runInit(e *env, args []string) int {
	fs := e.flags("init")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("init: unexpected arguments %q", fs.Args())
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
