package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// checkFormats are the output formats of check.
var checkFormats = []string{"text", "json", "sarif", "github"}

// writeCheck prints the check report in the format. sarif and github need
// the model to say where each link is written.
func writeCheck(e *env, p *site.Project, out *synth.CheckReport, format string, all bool) int {
	switch format {
	case "json":
		return e.writeJSON(out)
	case "sarif":
		return e.writeJSON(synth.NewSARIF(out, p.Model, p.Config.Lock))
	case "github":
		// Only the workflow commands go to stdout; the counts go to stderr,
		// where the runner shows them as plain log lines.
		fmt.Fprint(e.stdout, synth.GitHubAnnotations(out, p.Model, p.Config.Lock))
		fmt.Fprintf(e.stderr, "tracewiki: %d links: %d linked, %d stale, %d unknown\n", len(out.Targets),
			out.Count(codeanchors.Linked), out.Count(codeanchors.Stale), out.Count(codeanchors.Unknown))
		return exitOK
	default:
		fmt.Fprint(e.stdout, out.Text(all))
		return exitOK
	}
}
