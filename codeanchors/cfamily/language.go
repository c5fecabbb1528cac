package cfamily

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the C and C++ plug-in: [Extract] for symbols and tokens.
var Language lang.Language = language{}

// extensions are the file extensions of C and C++ sources and headers
// (.ipp, .inl and .tpp hold template definitions included by headers).
var extensions = []string{".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl", ".tpp"}

type language struct{}

func (language) Name() string         { return "c/c++" }
func (language) Extensions() []string { return extensions }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports false until include resolution lands.
func (language) ProjectFile(name string) bool { return false }

// Link resolves nothing until include resolution lands.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker { return noLinker{} }

// IsTest reports false until the test naming rules land; the test macros
// (TEST, TEST_CASE, ...) are seen by [Extract].
func (language) IsTest(path, symbol string) bool { return false }

// MatchTests matches nothing until report matching lands.
func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	return nil
}

type noLinker struct{}

func (noLinker) Imports(f *lang.File) (files, unresolved []string)      { return nil, nil }
func (noLinker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) { return lang.Ref{}, false }
