package site

import (
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Check reads the lock and every referenced source file once, and judges
// every link of the model. It reads only the files the links reference.
func (p *Project) Check() (*codeanchors.Report, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	paths := p.targetPaths()
	sources, err := p.Sources(paths)
	if err != nil {
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
