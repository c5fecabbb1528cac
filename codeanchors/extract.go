package codeanchors

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/cfamily"
	"github.com/tracewiki/tracewiki/codeanchors/csharp"
	"github.com/tracewiki/tracewiki/codeanchors/golang"
	"github.com/tracewiki/tracewiki/codeanchors/java"
	"github.com/tracewiki/tracewiki/codeanchors/javascript"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/php"
	"github.com/tracewiki/tracewiki/codeanchors/python"
	"github.com/tracewiki/tracewiki/codeanchors/ruby"
	"github.com/tracewiki/tracewiki/codeanchors/rust"
)

// The extracted shapes live in package lang, which the language packages
// share; these aliases keep the engine's API in one place.
type (
	Symbol     = lang.Symbol
	Token      = lang.Token
	File       = lang.File
	Call       = lang.Call
	Ref        = lang.Ref
	TestResult = lang.TestResult
	Language   = lang.Language
)

// HashPrefix starts every hash tracewiki writes, naming the algorithm.
const HashPrefix = lang.HashPrefix

// Symbol kinds.
const (
	KindFunc   = lang.KindFunc
	KindMethod = lang.KindMethod
	KindType   = lang.KindType
	KindTest   = lang.KindTest // a test, benchmark, fuzz or example function; see [IsTest]
)

// Outcomes of a test in a report.
const (
	OutcomePass = lang.OutcomePass
	OutcomeFail = lang.OutcomeFail
	OutcomeSkip = lang.OutcomeSkip
)

// Extractor finds the symbols of one language. Extract never opens files:
// it is given the path (for messages and test detection) and the source.
// A source that does not parse is an error naming path:line.
type Extractor interface {
	Extract(path string, src []byte) (*File, error)
}

// Registry maps file extensions (".go") to the languages that claim them.
type Registry struct {
	langs []Language // in registration order
	byExt map[string]Language
}

// NewRegistry returns a registry of langs. It panics when two languages
// claim one extension: that is a programming error, caught by every test.
func NewRegistry(langs ...Language) *Registry {
	r := &Registry{byExt: map[string]Language{}}
	for _, l := range langs {
		for _, ext := range l.Extensions() {
			if o, dup := r.byExt[ext]; dup {
				panic("codeanchors: " + l.Name() + " and " + o.Name() + " both claim " + ext)
			}
			r.byExt[ext] = l
		}
		r.langs = append(r.langs, l)
	}
	return r
}

// Language returns the language that claims path, or nil.
func (r *Registry) Language(p string) Language {
	return r.byExt[strings.ToLower(path.Ext(p))]
}

// For returns the extractor for path, or nil when no language claims it.
func (r *Registry) For(p string) Extractor {
	if l := r.Language(p); l != nil {
		return l
	}
	return nil
}

// Languages returns the registered languages, in registration order.
func (r *Registry) Languages() []Language { return slices.Clone(r.langs) }

// Names returns the registered extensions, sorted.
func (r *Registry) Names() []string {
	var names []string
	for ext := range r.byExt {
		names = append(names, ext)
	}
	slices.Sort(names)
	return names
}

// Globs returns one doublestar include glob per registered extension,
// "**/*.go", in the order of [Registry.Names]: the default code include.
func (r *Registry) Globs() []string {
	var globs []string
	for _, ext := range r.Names() {
		globs = append(globs, "**/*"+ext)
	}
	return globs
}

// Excludes returns the default code exclude globs the registered languages
// ask for ([lang.Excluder]), in registration order, once each: the build
// folders of their tools, whose sources are generated, not written.
func (r *Registry) Excludes() []string {
	var globs []string
	for _, l := range r.langs {
		if x, ok := l.(lang.Excluder); ok {
			for _, g := range x.Excludes() {
				if !slices.Contains(globs, g) {
					globs = append(globs, g)
				}
			}
		}
	}
	return globs
}

// ProjectFile reports whether a base file name is a project file of some
// registered language (go.mod, pyproject.toml, tsconfig.json).
func (r *Registry) ProjectFile(name string) bool {
	for _, l := range r.langs {
		if l.ProjectFile(name) {
			return true
		}
	}
	return false
}

// Default is the registry of every built-in language. Adding a language is
// one line here (see codeanchors/lang/doc.go).
var Default = NewRegistry(
	golang.Language,
	python.Language,
	javascript.Language,
	rust.Language,
	java.Language,
	csharp.Language,
	php.Language,
	kotlin.Language,
	ruby.Language,
	cfamily.Language,
)

// init adds the built-in languages' symbol syntax ([lang.Syntaxer]) to
// claims' target grammar: claims validates symbols and must not know the
// languages, so they reach it through its registry.
func init() {
	for _, l := range Default.langs {
		if s, ok := l.(lang.Syntaxer); ok {
			claims.RegisterSymbolSyntax(s.SymbolSyntax())
		}
	}
}
