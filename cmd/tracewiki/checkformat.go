package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// checkFormats are the output formats of check.
var checkFormats = []string{"text", "json"}

// writeCheck prints the check report in the format.
func writeCheck(e *env, p *site.Project, out *synth.CheckReport, format string) int {
	switch format {
	case "json":
		return e.writeJSON(out)
	default:
		fmt.Fprint(e.stdout, out.Text())
		return exitOK
	}
}
