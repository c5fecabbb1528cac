package site

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// checkPolicyContent is the content check that needs the config: custom
// fields of the declared types, waivers of rules that exist (SPEC 1.7).
// Load reports its diagnostics with the parser's.
func (p *Project) checkPolicyContent(m *claims.Model) claims.Diagnostics {
	ds := claims.CheckFields(m, p.Config.Fields)
	return append(ds, claims.CheckWaivers(m, p.Config.RuleNames())...)
}

// policyOf judges the policy against a drift report's derived fields and
// the lock's waiver stamps.
func (p *Project) policyOf(rep *codeanchors.Report, l *codeanchors.Lock) *synth.Policy {
	in := synth.PolicyInput{Model: p.Model, Rules: p.Config.Policy.Rules, Status: rep.Requirements}
	if l != nil {
		in.Waivers = l.Waivers
	}
	return synth.EvaluatePolicy(in)
}

// newFindings is the build's findings ([synth.NewFindings]) with the
// policy judged.
func (p *Project) newFindings(a *Analysis) *synth.Findings {
	f := synth.NewFindings(a.Report, p.Model, p.Config.Language, p.Config.Lock)
	f.Policy = p.policyOf(a.Report, a.Lock)
	return f
}

// waiverSubject is one waiver of the content or the config, with the hash
// of what it justifies now: the requirement's revision, or the code
// file's text hash ("" when the file is missing: nothing to stamp).
type waiverSubject struct {
	key, subject, hash string
	revisions          claims.Revisions // a requirement's; zero for a file
}

// matches reports whether a stamp recorded the subject as it is now.
func (w waiverSubject) matches(recorded string) bool {
	if w.revisions.Current != "" {
		return w.revisions.Matches(recorded)
	}
	return recorded != "" && recorded == w.hash
}

// waiverSubjects lists every waiver of the requirements' front matter and
// of [[coverage.waivers]], requirements first, each once.
func (p *Project) waiverSubjects() ([]waiverSubject, error) {
	var out []waiverSubject
	for _, r := range p.Model.Requirements {
		for _, w := range r.Waivers {
			out = append(out, waiverSubject{key: codeanchors.WaiverKey(r.ID, w.Rule), subject: r.ID, hash: r.Revision, revisions: r.Revisions()})
		}
	}
	hashes := map[string]string{}
	for _, path := range p.Config.WaivedPaths() {
		data, err := p.WS.ReadFileLimit(path, workspace.MaxSourceBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("coverage waiver of %s: %w", path, err)
		}
		hashes[path] = codeanchors.FileHash(data)
	}
	seen := map[string]bool{}
	for _, w := range p.Config.Coverage.Waivers {
		key := codeanchors.WaiverKey(w.Path, w.Rule)
		if h, ok := hashes[w.Path]; ok && !seen[key] {
			seen[key] = true
			out = append(out, waiverSubject{key: key, subject: w.Path, hash: h})
		}
	}
	return out, nil
}

// stampWaivers stamps in l every waiver it has never stamped, with the
// current hash of what it justifies, like a parent link never stamped
// (SPEC 1.7), and returns their keys. It changes l only.
func (p *Project) stampWaivers(l *codeanchors.Lock, at, by string) ([]string, error) {
	subjects, err := p.waiverSubjects()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range subjects {
		if _, ok := l.Waivers[w.key]; ok {
			continue
		}
		l.StampWaiver(w.key, codeanchors.WaiverStamp{Hash: w.hash, At: at, By: by})
		out = append(out, w.key)
	}
	return out, nil
}

// RearmWaivers re-arms the waivers of the given requirement ids and code
// paths (all waivers when none is given): each whose stamp no longer
// matches what it justifies, or that was never stamped, is stamped with
// the current hash, as an explicit review (`capture --waivers`). It
// returns the keys it stamped; a subject with no waiver is an error and
// nothing is written.
func (p *Project) RearmWaivers(subjects []string, by string, notes io.Writer) ([]string, error) {
	all, err := p.waiverSubjects()
	if err != nil {
		return nil, err
	}
	for _, s := range subjects {
		if !slices.ContainsFunc(all, func(w waiverSubject) bool { return w.subject == s }) {
			return nil, fmt.Errorf("capture --waivers: %q has no waiver (give a requirement id or a [[coverage.waivers]] path)", s)
		}
	}
	by, at := p.captureStamp(by)
	var out []string
	err = p.RenewLock(notes, func(l *codeanchors.Lock) error {
		out = nil
		for _, w := range all {
			if len(subjects) > 0 && !slices.Contains(subjects, w.subject) {
				continue
			}
			if old, ok := l.Waivers[w.key]; ok && w.matches(old.Hash) {
				continue
			}
			l.StampWaiver(w.key, codeanchors.WaiverStamp{Hash: w.hash, At: at, By: by})
			out = append(out, w.key)
		}
		return nil
	})
	return out, err
}
