package cfamily

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the C and C++ plug-in: [Extract] for symbols and tokens,
// includes resolved through compile_commands.json, compile_flags.txt and
// CMakeLists.txt ([newLinker]), GoogleTest, ctest, Catch2, doctest and
// Unity (Ceedling) JUnit reports matched by [matchTests].
var Language lang.Language = language{}

// extensions are the file extensions of C and C++ sources and headers
// (.ipp, .inl and .tpp hold template definitions included by headers).
var extensions = []string{".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl", ".tpp"}

type language struct{}

func (language) Name() string         { return "c/c++" }
func (language) Extensions() []string { return extensions }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

func (language) ProjectFile(name string) bool { return projectFile(name) }

func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return linkerAdapter{newLinker(files, project)}
}

// IsTest reports whether the C or C++ file at path is a test file by its
// name ([isTest]); a file of another language (test_x.pyc, whose language
// the engine asks every language about) is not. The test macros (TEST,
// TEST_CASE, ...) are seen by [Extract], which types their symbols
// [lang.KindTest].
func (language) IsTest(path, symbol string) bool { return isSource(path) && isTest(path, symbol) }

func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	return matchTests(t, results, in)
}

// SymbolSyntax: a C++ destructor is a member named '~' and its class
// (Vec.~Vec).
func (language) SymbolSyntax() lang.SymbolSyntax { return lang.SymbolSyntax{MemberPrefixes: "~"} }
