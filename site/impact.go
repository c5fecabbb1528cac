package site

import (
	"errors"
	"fmt"

	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// Impact answers "tracewiki impact": what relies on the changed paths
// args (PATH or PATH#Lx-Ly), or with o.Base on those of "git diff BASE" in
// the workspace (restricted to args when given), within o.Budget tokens
// when given.
func Impact(ws *workspace.Workspace, k *synth.Knowledge, args []string, o synth.ImpactOptions) (synth.ImpactJSON, error) {
	base := o.Base
	if base == "" && len(args) == 0 {
		return synth.ImpactJSON{}, errors.New("give the changed PATHs, or --base REV")
	}
	var changes []synth.Change
	var paths []string
	for _, arg := range args {
		c, err := synth.ParseChange(arg)
		if err != nil {
			return synth.ImpactJSON{}, err
		}
		if base != "" && len(c.Lines) > 0 {
			return synth.ImpactJSON{}, fmt.Errorf("%q: with --base, give paths without lines", arg)
		}
		changes = append(changes, c)
		paths = append(paths, c.Path)
	}
	if base != "" {
		var err error
		if changes, err = gitChanges(ws, base, paths); err != nil {
			return synth.ImpactJSON{}, err
		}
	}
	return k.Impact(changes, o), nil
}

// gitChanges is [workspace.Workspace.GitChanges] as synth's changes.
func gitChanges(ws *workspace.Workspace, base string, paths []string) ([]synth.Change, error) {
	changes, err := ws.GitChanges(base, paths)
	if err != nil {
		return nil, err
	}
	out := make([]synth.Change, len(changes))
	for i, c := range changes {
		out[i].Path = c.Path
		for _, r := range c.Lines {
			out[i].Lines = append(out[i].Lines, synth.LineRange{Start: r.Start, End: r.End, Deleted: r.Deleted})
		}
	}
	return out, nil
}
