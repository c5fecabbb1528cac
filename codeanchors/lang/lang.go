// Package lang is what a language plug-in and the anchor engine share: the
// extracted [File] with its [Symbol]s, [Token]s and [Call]s, the [Ref] a
// [Linker] resolves to, the [TestResult] a test report holds, and the
// [Language] interface each language package implements. See doc.go for how
// to add a language.
package lang

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/claims"
)

// Symbol kinds.
const (
	KindFunc   = "func"
	KindMethod = "method"
	KindType   = "type"
	KindTest   = "test" // a test, benchmark, fuzz or example function; see [Language.IsTest]
)

// Symbol is a named declaration and the lines it spans.
type Symbol struct {
	Name  string // "Name", or "Recv.Name" for a method
	Kind  string
	Start int // first line, 1-based
	End   int // last line, inclusive
	// StartOff and EndOff are the byte offsets of the range in the source:
	// the start of line Start and the end of line End (before its newline).
	StartOff, EndOff int
}

// Token is one lexical token of a source file, comments and whitespace
// excluded, with the line it starts on.
type Token struct {
	Line int
	Text string
	// Lead marks a token that stands for the lines before its own: Python's
	// INDENT and DEDENT at the start of a statement open or close blocks of
	// the code above. It counts in a range's token hash unless it is on the
	// range's first line ([HashTokens]), so that a symbol's hash depends
	// only on its own text, not on what precedes it.
	Lead bool
}

// File is what a [Language] found in one source file.
type File struct {
	Path string
	// Parser names the adapter and its version, "go/ast@1". Bump the version
	// whenever the ranges it gives change, so old captures are re-resolved.
	Parser string
	// Symbols are sorted by Start, then Name. A name defined more than once
	// (two Go init funcs) is listed in Ambiguous and not in Symbols.
	Symbols   []Symbol
	Ambiguous []string // sorted
	// Tokens are the file's code tokens in source order, for token hashes.
	Tokens []Token
	// Imports are the import paths as written, in source order.
	Imports []string
	// ImportNames[i] is the local name the source binds Imports[i] to (a Go
	// import alias, "." or "_"), "" when it gives none.
	ImportNames []string
	// Package is the file's package name; "" where the language has none.
	Package string
	// Calls are the call sites inside the file's symbols, in source order:
	// the raw material of located "calls" edges, matched by name only.
	Calls []Call
	// Comments are the file's comments (and Python's docstrings, Doc) in
	// source order, each once, as the extractor's lexer met them; every
	// built-in language hands them out. They take no part in hashes.
	Comments []Comment
}

// Call is a call site found without type checking: From calls Name,
// qualified by Qual when the callee is written Qual.Name (an import name or
// a variable: the index tells them apart) or by "." when the receiver is a
// longer expression (a.b.Name()).
type Call struct {
	From string // the calling symbol
	Qual string
	Name string
	Line int
}

// SortSymbols puts f's symbols in their documented order, by start line
// then name, and its ambiguous names in sorted order, once each. Every
// extractor calls it last.
func (f *File) SortSymbols() {
	slices.SortStableFunc(f.Symbols, func(a, b Symbol) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.Sort(f.Ambiguous)
	f.Ambiguous = slices.Compact(f.Ambiguous)
}

// Lookup returns the symbol called name. ambiguous is true when the name is
// defined more than once in the file.
func (f *File) Lookup(name string) (sym Symbol, ok, ambiguous bool) {
	if _, found := slices.BinarySearch(f.Ambiguous, name); found {
		return Symbol{}, false, true
	}
	for _, s := range f.Symbols {
		if s.Name == name {
			return s, true, false
		}
	}
	return Symbol{}, false, false
}

// Ref names a file (Symbol "") or a symbol in it.
type Ref struct {
	Path   string
	Symbol string
}

// String formats r in target notation.
func (r Ref) String() string {
	if r.Symbol == "" {
		return r.Path
	}
	return r.Path + "@" + r.Symbol
}

// Outcomes of a test in a report.
const (
	OutcomePass = "pass"
	OutcomeFail = "fail"
	OutcomeSkip = "skip"
)

// TestResult is one test in a report.
type TestResult struct {
	Suite   string // go test -json: the package import path; JUnit: the testcase classname (or, if empty, the enclosing testsuite name)
	Name    string // the test name: "TestLogin"; JUnit: the testcase name
	File    string // the testcase `file` attribute when the report has one (pytest, jest), slash path as written, else ""
	Outcome string // pass, fail or skip
}

// Language is one language plug-in. Its package is the only place that
// knows the language's file extensions, project files (manifests) and test
// conventions; the engine reaches them through these methods. Every method
// is a pure function of its arguments: none opens a file.
type Language interface {
	// Name is the language's short name, "go", used in messages and docs.
	Name() string
	// Extensions are the file extensions the language claims, with their
	// dot and in lower case (".go"). No two languages claim one.
	Extensions() []string
	// Extract finds the symbols, tokens, imports and calls of one file.
	// path is root-relative and slash-separated, for messages and test
	// detection. A source that does not parse is an error naming
	// path:line:col. The token rules (what [File.Tokens] keeps) are the
	// language's: a token hash must not change when a formatter runs, must
	// change on any other edit, and must depend only on the range's own
	// text (the engine hashes the tokens that start on the range's lines, [HashTokens]).
	Extract(path string, src []byte) (*File, error)
	// ProjectFile reports whether a file with this base name is one of the
	// language's project files (go.mod, pyproject.toml, tsconfig*.json): the
	// engine reads every such file in the folders of the code files and
	// their parents and hands them to Link and MatchTests.
	ProjectFile(name string) bool
	// Link returns the linker of the language's files, given the project
	// files by root-relative path.
	Link(files []*File, project map[string][]byte) Linker
	// IsTest reports whether the symbol ("f", "Recv.Name", "Class.method";
	// "" for the file itself) of the file at path is a test, by the
	// language's naming rules. The engine has already checked the rules
	// common to all languages ([InTestDir]).
	IsTest(path, symbol string) bool
	// MatchTests returns the report results that a tests target of one of
	// the language's files stands for, or none when the report does not
	// have them all.
	MatchTests(t claims.Target, results []TestResult, in TestInput) []TestResult
}

// Excluder is implemented by a language whose tools write generated or
// downloaded code into the workspace (Cargo's target/): Excludes are the
// doublestar globs, relative to the root, that the default code exclude
// leaves out ([codeanchors.Registry.Excludes]). It is optional: a language
// without such folders does not implement it.
type Excluder interface {
	Excludes() []string
}

// Fragmenter is implemented by a language whose extractor cannot read one
// symbol's lines on their own (a Go declaration needs its package clause,
// a spec of a grouped declaration its group; an indented Python method, a
// block to sit in). Wraps are texts to put before and after the lines, each
// pair tried in turn after the lines alone. The engine uses them to compute
// the body hash of an anchor captured before body hashes were recorded,
// from its captured text, and trusts the result only when the tokens it
// finds on those lines give the anchor's recorded token hash. It is
// optional.
type Fragmenter interface {
	Wraps() []Wrap
}

// Wrap is what a [Fragmenter] puts before and after a symbol's lines.
type Wrap struct{ Before, After string }

// Linker resolves the imports and calls of one language's files.
type Linker interface {
	// Imports returns the workspace files f imports, and the imports that
	// should be in the workspace but resolve to nothing here.
	Imports(f *File) (files, unresolved []string)
	// ResolveCall returns the one definition call c of f refers to; false
	// when no definition or several match.
	ResolveCall(f *File, c Call) (Ref, bool)
}

// TestInput is what [Language.MatchTests] may read beside the report.
type TestInput struct {
	// Project holds the project files by root-relative path, as for Link.
	Project map[string][]byte
	// File returns the extracted file at a path, nil when it is unreadable
	// or does not parse: a whole-file target stands for the tests in it.
	File func(path string) *File
}

// InTestDir reports whether the slash-separated path p lies below a
// directory named tests or __tests__: every file there is a test file,
// whatever its language.
func InTestDir(p string) bool {
	dir, _ := path.Split(p)
	for c := range strings.SplitSeq(dir, "/") {
		if c == "tests" || c == "__tests__" {
			return true
		}
	}
	return false
}

// HasTestPrefix reports whether name is prefix alone or prefix followed by
// a rune that is not a lower-case letter (cmd/go's isTest).
func HasTestPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// IsTest reports whether the symbol of the file at p is a test in language
// l: the rule common to all languages ([InTestDir]), then l's own
// ([Language.IsTest]). Extractors call it to mark [KindTest] symbols.
func IsTest(l Language, p, symbol string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	return InTestDir(p) || l.IsTest(p, symbol)
}

// SymbolSyntax is what a language's symbol names hold beyond dotted
// identifiers of letters, digits and '_' (claims validates target symbols
// with the union of the built-in languages' syntaxes).
type SymbolSyntax = claims.SymbolSyntax

// Syntaxer is implemented by a language whose symbol names need more than
// dotted identifiers: Ruby's valid?, C++'s ~Vec, JavaScript's #m and $. The
// engine registers the built-in languages' syntax with claims. It is
// optional.
type Syntaxer interface {
	SymbolSyntax() SymbolSyntax
}
