package site

import (
	"maps"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// Check reads the lock and every referenced source file once, and judges
// every link of the model, once. It reads only the files the links
// reference, unless a target is missing: then every other code file too,
// to relocate it.
func (p *Project) Check() (*codeanchors.Report, error) {
	rep, _, err := p.check()
	return rep, err
}

// check is [Project.Check], also returning the lock it judged against.
func (p *Project) check() (*codeanchors.Report, *codeanchors.Lock, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, nil, err
	}
	if err := p.readMarkers(); err != nil {
		return nil, nil, err
	}
	sources, err := p.Sources(append(p.targetPaths(), evidencePaths(l)...))
	if err != nil {
		return nil, nil, err
	}
	rep := p.judge(l, sources)
	if err := p.locate(rep, l, sources); err != nil {
		return nil, nil, err
	}
	return rep, l, nil
}

// evidencePaths lists the files of the code a live evidence entry of l
// vouched for, which check judges; a superseded entry is not judged.
func evidencePaths(l *codeanchors.Lock) []string {
	var paths []string
	newest := codeanchors.NewestEvidence(l.Evidence)
	for _, e := range l.Evidence {
		if newest[e.Req].Run != e.Run {
			continue
		}
		for ref := range e.TokenHashes {
			if t, err := claims.ParseTarget(ref); err == nil {
				paths = append(paths, t.Path)
			}
		}
	}
	return paths
}

// locate fills the relocation candidates and suggestions of rep's missing
// targets ([codeanchors.Locate]) when it has some, against l, looking
// through every code file: those of sources and the others, read now. It
// is the one way check, capture and build find them, so all three say the
// same. The verdicts stand, so drift is judged once.
func (p *Project) locate(rep *codeanchors.Report, l *codeanchors.Lock, sources map[string]*codeanchors.Source) error {
	if !rep.NeedsLocate() {
		return nil
	}
	code, _, err := p.CodeFiles()
	if err != nil {
		return err
	}
	code = slices.DeleteFunc(code, func(name string) bool { return sources[name] != nil })
	more, err := p.Sources(code)
	if err != nil {
		return err
	}
	maps.Copy(more, sources)
	codeanchors.Locate(rep, l, more)
	return nil
}

// Findings judges every link, as [Project.Check] does, and lists them once
// for every view of check (text, JSON, SARIF, GitHub annotations), with
// whys in lang ("" means the config's language).
func (p *Project) Findings(lang string) (*synth.Findings, error) {
	rep, l, err := p.check()
	if err != nil {
		return nil, err
	}
	return p.findingsOf(rep, l, lang), nil
}

// FindingsAndCoverage is [Project.Findings] and [Project.Coverage] from
// one load (check --fail-on coverage): the coverage reads and parses every
// code file, so the links are judged against those sources, once, instead
// of reading the referenced files (and the code, for markers) again. With
// every code file loaded, the judgement relocates a missing target among
// all of them, as a build's does: no second look ([Project.locate]).
func (p *Project) FindingsAndCoverage(lang string) (*synth.Findings, synth.CoverageJSON, error) {
	l, err := p.ReadLock()
	if err != nil {
		return nil, synth.CoverageJSON{}, err
	}
	ld, err := p.load(evidencePaths(l)...)
	if err != nil {
		return nil, synth.CoverageJSON{}, err
	}
	a := p.analyzeLoaded(ld, l)
	cov, err := p.codeCoverage(p.draw(a), l)
	if err != nil {
		return nil, synth.CoverageJSON{}, err
	}
	return p.findingsOf(a.Report, l, lang), cov, nil
}

// findingsOf lists the findings of a check report judged against l, with
// whys in lang ("" means the config's language).
func (p *Project) findingsOf(rep *codeanchors.Report, l *codeanchors.Lock, lang string) *synth.Findings {
	if lang == "" {
		lang = p.Config.Language
	}
	f := synth.NewFindings(rep, p.Model, lang, p.Config.Lock)
	f.Policy = p.policyOf(rep, l)
	return f
}

// targetPaths lists the file of every code target the content references.
func (p *Project) targetPaths() []string {
	var paths []string
	for _, r := range p.targets() {
		paths = append(paths, r.Target.Path)
	}
	return paths
}
