package rust

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the Rust plug-in: [Extract] for symbols and tokens, imports
// resolved through Cargo.toml files ([linker]), cargo nextest reports
// matched by test path ([MatchTests]).
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "rust" }
func (language) Extensions() []string { return []string{".rs"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is Cargo.toml, which names a package,
// its library and its path dependencies.
func (language) ProjectFile(name string) bool { return name == "Cargo.toml" }

// Excludes leaves Cargo's build folder out of the default code globs:
// target/ holds build-script output and vendored copies, generated .rs
// files no one anchors claims to (a workspace that has a source folder
// named target sets its own [code] exclude).
func (language) Excludes() []string { return []string{"**/target/**"} }

// Link resolves imports through the Cargo.toml files of project.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return linkerAdapter{newLinker(files, project)}
}

// IsTest reports false: a Rust test is known by its attributes or its
// #[cfg(test)] module, which [Extract] reads and types as
// [lang.KindTest], never by its name; the tests/ folder rule is the
// engine's.
func (language) IsTest(path, symbol string) bool { return false }

func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	return MatchTests(t, results, in.Project, in.File)
}

type linkerAdapter struct{ l *linker }

func (a linkerAdapter) Imports(f *lang.File) (files, unresolved []string) { return a.l.imports(f) }
func (a linkerAdapter) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	return a.l.resolveCall(f, c)
}
