package site

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// CodeFiles lists the files of the code index: those matching an include
// glob of the config and no exclude glob, never the output folder nor any
// other site folder, sorted. Symlinked folders are not followed; an
// unreadable folder is an error, not a silently smaller index. Files that
// are not regular (a FIFO, a socket, a device) are left out and named in
// the returned notes.
func (p *Project) CodeFiles() ([]string, []string, error) {
	w := p.walks()
	if w != nil && w.haveCode {
		return w.code, w.codeSkipped, nil
	}
	files, notes, err := p.codeFiles(true)
	if w != nil && err == nil {
		w.code, w.codeSkipped, w.haveCode = files, notes, true
	}
	return files, notes, err
}

// codeFiles is [Project.CodeFiles]; with excludeOutput false it also lists
// the files in the config's output folder that the globs include.
//
// The workspace is walked once, whatever the number of include globs (the
// default has one per language extension): each file is matched against
// the globs, and a folder that an exclude glob ending in "/**" covers, or
// that is a site, is not entered at all.
func (p *Project) codeFiles(excludeOutput bool) (files, notes []string, err error) {
	exclude := p.Config.Code.Exclude
	if excludeOutput {
		exclude = append(slices.Clone(exclude), p.Config.Output+"/**")
	}
	include := workspace.NewGlobs(p.Config.Code.Include)
	var prune []string // folders matching one of these hold only excluded files
	for _, x := range exclude {
		if dir, ok := strings.CutSuffix(x, "/**"); ok {
			prune = append(prune, dir)
		}
	}
	fsys := p.WS.FS()
	sites := &siteDirs{fsys: fsys}
	err = fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != "." && (workspace.MatchAny(prune, name) || output.IsSwapFolder(d.Name()) || sites.is(name)) {
				return fs.SkipDir
			}
			return nil
		}
		if !include.Match(name) || workspace.MatchAny(exclude, name) {
			return nil
		}
		if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
			notes = append(notes, fmt.Sprintf("%s: skipped: not a regular file (%v)", name, t))
			return nil
		}
		files = append(files, name)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("code files: %w", err)
	}
	slices.Sort(files)
	slices.Sort(notes)
	return files, notes, nil
}

// Analysis is one run's view of the workspace: every code file and every
// referenced file read, parsed and hashed once, the drift of every link,
// and the code index.
type Analysis struct {
	Lock    *codeanchors.Lock
	Sources map[string]*codeanchors.Source
	Report  *codeanchors.Report
	Index   *codeanchors.Index
	// Unparsed lists the code files that did not parse, with the error.
	Unparsed []error
	// Skipped names the files left out of the content and the code index,
	// and why (not regular files).
	Skipped []string
}

// Analyze reads the lock, the code files and the referenced files, judges
// drift and builds the code index.
func (p *Project) Analyze() (*Analysis, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	return p.analyze(l)
}

func (p *Project) analyze(l *codeanchors.Lock) (*Analysis, error) {
	ld, err := p.load()
	if err != nil {
		return nil, err
	}
	return p.analyzeLoaded(ld, l), nil
}

// Graph analyzes the workspace and draws its graph.
func (p *Project) Graph() (*synth.Graph, *Analysis, error) {
	a, err := p.Analyze()
	if err != nil {
		return nil, nil, err
	}
	return p.draw(a), a, nil
}

// draw draws the graph of an analysis; in a session, only when its
// inputs changed since the last one (see [graphMemo]).
func (p *Project) draw(a *Analysis) *synth.Graph {
	in := synth.Input{
		ProjectID: p.Config.Slug(), Model: p.Model, Report: a.Report, Index: a.Index, Lang: p.Config.Language,
		Externals: p.Externals,
	}
	if p.memo == nil {
		return synth.Build(in)
	}
	return p.memo.graphs.draw(in)
}

// projectFiles reads the files that resolve imports and match tests (those
// a registered language names, such as go.mod or pyproject.toml) in the
// folders of the given files and their parents.
func (p *Project) projectFiles(code []string) map[string][]byte {
	out := map[string][]byte{}
	seen := map[string]bool{}
	for _, f := range code {
		for dir := path.Dir(f); !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			entries, err := fs.ReadDir(p.WS.FS(), dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if !e.Type().IsRegular() || !codeanchors.Default.ProjectFile(e.Name()) {
					continue
				}
				if data, err := p.WS.ReadFile(path.Join(dir, e.Name())); err == nil {
					out[path.Join(dir, e.Name())] = data
				}
			}
			if dir == "." {
				break
			}
		}
	}
	return out
}
