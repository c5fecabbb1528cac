package site

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Check reads the lock and every referenced source file once, and judges
// every link of the model. It reads only the files the links reference,
// unless a target is missing: then every code file, to relocate it.
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
	rep := codeanchors.Check(p.Model, l, sources)
	if !rep.NeedsLocate() {
		return rep, nil
	}
	// Some target is missing: look for it in every code file.
	code, _, err := p.CodeFiles()
	if err != nil {
		return nil, err
	}
	if sources, err = p.Sources(append(paths, code...)); err != nil {
		return nil, err
	}
	return codeanchors.Check(p.Model, l, sources), nil
}

// targetPaths lists the file of every code target the content references.
func (p *Project) targetPaths() []string {
	var paths []string
	for _, r := range codeanchors.Targets(p.Model) {
		paths = append(paths, r.Target.Path)
	}
	return paths
}
