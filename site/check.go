package site

import (
	"maps"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Check reads the lock and every referenced source file once, and judges
// every link of the model, once. It reads only the files the links
// reference, unless a target is missing: then every other code file too,
// to relocate it.
func (p *Project) Check() (*codeanchors.Report, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	paths := p.targetPaths()
	for _, e := range l.Evidence {
		for ref := range e.TokenHashes {
			if t, err := claims.ParseTarget(ref); err == nil {
				paths = append(paths, t.Path)
			}
		}
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	rep := p.judge(l, sources)
	if !rep.NeedsLocate() {
		return rep, nil
	}
	// Some target is missing: look for it in every code file. That only
	// relocates; the verdicts stand, so drift is judged once.
	code, _, err := p.CodeFiles()
	if err != nil {
		return nil, err
	}
	code = slices.DeleteFunc(code, func(name string) bool { return sources[name] != nil })
	more, err := p.Sources(code)
	if err != nil {
		return nil, err
	}
	maps.Copy(more, sources)
	codeanchors.Locate(rep, more)
	return rep, nil
}

// targetPaths lists the file of every code target the content references.
func (p *Project) targetPaths() []string {
	var paths []string
	for _, r := range codeanchors.Targets(p.Model) {
		paths = append(paths, r.Target.Path)
	}
	return paths
}
