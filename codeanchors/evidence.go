package codeanchors

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// TestMatcher finds the report results that stand for a requirement's tests
// targets.
type TestMatcher struct {
	// Registry holds the languages whose test conventions apply; nil means
	// [Default].
	Registry *Registry
	// Project holds the project files (go.mod, pyproject.toml, ...) by
	// root-relative path, as [IndexInput.Project].
	Project map[string][]byte
	// Source returns the parsed source of a path, nil when unreadable; it is
	// used to list the tests of a whole-file target.
	Source func(path string) *Source
}

// Match returns the results that a tests target stands for, or none when
// the report does not have them all. The language that claims the target's
// path decides ([lang.Language.MatchTests]); for a path no language claims,
// [lang.MatchByModule] does.
func (m TestMatcher) Match(t claims.Target, results []TestResult) []TestResult {
	reg := m.Registry
	if reg == nil {
		reg = Default
	}
	l := reg.Language(t.Path)
	if l == nil {
		return lang.MatchByModule(t, results)
	}
	in := lang.TestInput{Project: m.Project, File: func(p string) *File {
		if m.Source == nil {
			return nil
		}
		if s := m.Source(p); s != nil {
			return s.File
		}
		return nil
	}}
	return l.MatchTests(t, results, in)
}
