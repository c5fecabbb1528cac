package main

import (
	"fmt"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// checkFormats are the output formats of check.
var checkFormats = []string{"text", "json", "sarif", "github"}

// writeCheck prints the findings in the format: out is their check view.
func writeCheck(e *env, f *synth.Findings, out *synth.CheckReport, format string, all bool) int {
	switch format {
	case "json":
		return e.writeJSON(out)
	case "sarif":
		return e.writeJSON(synth.NewSARIF(f))
	case "github":
		// Only the workflow commands go to stdout; the counts go to stderr,
		// where the runner shows them as plain log lines.
		fmt.Fprint(e.stdout, synth.GitHubAnnotations(f))
		fmt.Fprintf(e.stderr, "tracewiki: %d links: %d linked, %d stale, %d unknown\n", len(out.Targets),
			out.Count(codeanchors.Linked), out.Count(codeanchors.Stale), out.Count(codeanchors.Unknown))
		return exitOK
	default:
		fmt.Fprint(e.stdout, out.Text(all))
		return exitOK
	}
}
