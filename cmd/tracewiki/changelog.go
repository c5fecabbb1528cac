package main

import (
	"fmt"
	"slices"

	"github.com/tracewiki/tracewiki/site"
)

var changelogFormats = []string{"text", "markdown", "json"}

func runChangelog(e *env, args []string) int {
	fs := e.flags("changelog")
	base := fs.String("base", "", "the git `REV` (tag, branch, commit) to compare from (required)")
	head := fs.String("head", "HEAD", "the git `REV` to compare to")
	format := fs.String("format", "text", "output `format`: text, markdown or json")
	args, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if !slices.Contains(changelogFormats, *format) {
		return e.usage("changelog: --format %q: want text, markdown or json", *format)
	}
	if *base == "" {
		return e.usage("changelog: --base REV is required")
	}
	if len(args) > 0 {
		return e.usage("changelog: unexpected argument %q", args[0])
	}
	c, err := site.Changelog(e.root, *base, *head)
	if err != nil {
		return e.fail(err)
	}
	switch *format {
	case "json":
		return e.writeJSON(c)
	case "markdown":
		fmt.Fprint(e.stdout, c.Markdown())
	default:
		fmt.Fprint(e.stdout, c.Text())
	}
	return exitOK
}
