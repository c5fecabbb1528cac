package site

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/tracewiki/tracewiki/site/buildcache"
	"github.com/tracewiki/tracewiki/synth"
)

// Built is what [Build] made.
type Built struct {
	Pages int
	// Dir is the output folder: --out as given, else the config's output
	// in the workspace.
	Dir string
	// Counts are its check report's links by state and reason.
	Counts Counts
	// Check is the check report; nil when the last build's records
	// stood in for the stages.
	Check *synth.CheckReport
}

// Build builds the workspace root into the output folder --out flag (as
// given; "" for the config's), as `tracewiki build` does: one build, made
// the cheapest way that gives the same output, the same lock and the same
// report. With a build cache ([BuildOptions.Cache]) that is, in order:
//
//   - up to date ([buildcache.UpToDate]): nothing the last build read
//     changed and the output still holds its site; nothing is done, and
//     the last build's summary and notes stand for this one;
//   - text-only edits ([buildcache.BuildEdited]): only the text of wiki
//     pages changed; their pages and the search index are updated in
//     place, without loading the workspace;
//   - the whole build ([Project.BuildInto]), which still keeps every page
//     whose key did not change.
//
// The lock is written after the site ([Project.WriteCapture]), so that a
// build that fails leaves both as they were; then the cache is trimmed.
// notes gets the build's notes, restored what the cleanup of killed runs
// restored.
func Build(root, flag string, opts BuildOptions, notes io.Writer, restored func(string)) (*Built, error) {
	copts := cacheOptions(opts)
	sum, ok := buildcache.UpToDate(opts.Cache, root, flag, copts)
	if !ok {
		// Perhaps only the text of wiki pages changed.
		var err error
		hl := opts.Highlight.Highlighter(opts.Cache.Fragments())
		if sum, ok, err = buildcache.BuildEdited(opts.Cache, root, flag, copts, hl, restored); err != nil {
			return nil, err
		}
	}
	if ok {
		// The output holds this very build, or does now.
		fmt.Fprint(notes, sum.Notes)
		trimCache(opts.Cache, notes)
		return &Built{Pages: sum.Pages, Dir: outputDir(root, flag, sum.Output), Counts: sum.Counts}, nil
	}
	p, err := Load(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	// The output is checked before anything is built or captured.
	o, err := p.Output(flag)
	if err != nil {
		return nil, err
	}
	s, err := p.BuildInto(o, opts, notes, restored)
	if err != nil {
		return nil, err
	}
	if err := p.WriteCapture(s.Captured, notes); err != nil {
		return nil, err
	}
	trimCache(opts.Cache, notes)
	return &Built{Pages: s.Pages, Dir: outputDir(root, flag, p.Config.Output), Counts: buildcache.CountsOf(s.Check), Check: s.Check}, nil
}

// trimCache trims the build cache ([buildcache.Cache.Trim]); a failure is
// a note, not an error of the build.
func trimCache(c *Cache, notes io.Writer) {
	if err := c.Trim(); err != nil {
		fmt.Fprintf(notes, "tracewiki: %v\n", err)
	}
}

// outputDir is the output folder a build of root wrote: --out flag as
// given, else the config's output (a slash path in the workspace).
func outputDir(root, flag, config string) string {
	if flag != "" {
		return flag
	}
	return filepath.Join(root, filepath.FromSlash(config))
}
