package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tracewiki/tracewiki/synth"
)

var diffFormats = []string{"markdown", "json"}

func runDiff(e *env, args []string) int {
	fs := e.flags("diff")
	format := fs.String("format", "markdown", "output `format`: markdown or json")
	preview := fs.String("preview-url", "", "the `URL` the new build is previewed at; links point into it")
	args, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if !slices.Contains(diffFormats, *format) {
		return e.usage("diff: --format %q: want markdown or json", *format)
	}
	if len(args) != 2 {
		return e.usage("diff: want OLD_OUT NEW_OUT, two built sites")
	}
	// The two folders are build outputs, not sources: they may lie outside
	// the workspace, and are only read.
	var snaps [2]*synth.Snapshot
	for i, dir := range args {
		s, err := synth.ReadSnapshot(os.DirFS(dir), filepath.ToSlash(dir))
		if err != nil {
			return e.fail(err)
		}
		snaps[i] = s
	}
	d := synth.Diff(snaps[0], snaps[1], *preview)
	if *format == "json" {
		return e.writeJSON(d)
	}
	fmt.Fprint(e.stdout, d.Markdown())
	return exitOK
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments ("diff old new --format json", as the spec
// writes it), and returns the positional ones. After "--" everything is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var pos []string
	for {
		if code, ok := parse(fs, args); !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}
