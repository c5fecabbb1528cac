package site

import (
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Check reads the lock and every referenced source file once, and judges
// every link of the model.
func (p *Project) Check() (*codeanchors.Report, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, err
	}
	return p.check(l)
}

// check judges the links of the model against l, reading only the files
// the links reference.
func (p *Project) check(l *codeanchors.Lock) (*codeanchors.Report, error) {
	var paths []string
	for _, r := range codeanchors.Targets(p.Model) {
		paths = append(paths, r.Target.Path)
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	return codeanchors.Check(p.Model, l, sources), nil
}
