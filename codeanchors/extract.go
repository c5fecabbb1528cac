package codeanchors

import (
	"path"
	"slices"
	"strings"
)

// Symbol kinds.
const (
	KindFunc   = "func"
	KindMethod = "method"
	KindType   = "type"
	KindTest   = "test" // a test, benchmark, fuzz or example function; see [IsTest]
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
}

// File is what an [Extractor] found in one source file.
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

// sortSymbols puts f's symbols in their documented order, by start line
// then name, and its ambiguous names in sorted order, once each.
func (f *File) sortSymbols() {
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

// Extractor finds the symbols of one language. Extract never opens files:
// it is given the path (for messages and test detection) and the source.
// A source that does not parse is an error naming path:line.
type Extractor interface {
	Extract(path string, src []byte) (*File, error)
}

// ExtractorFunc adapts a function to [Extractor].
type ExtractorFunc func(path string, src []byte) (*File, error)

// Extract calls f(path, src).
func (f ExtractorFunc) Extract(path string, src []byte) (*File, error) { return f(path, src) }

// Registry maps file extensions (".go") to extractors.
type Registry struct {
	byExt map[string]Extractor
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byExt: map[string]Extractor{}} }

// Register makes e the extractor for each extension (with its dot).
func (r *Registry) Register(e Extractor, exts ...string) {
	for _, ext := range exts {
		r.byExt[ext] = e
	}
}

// For returns the extractor for path, or nil when no language claims it.
func (r *Registry) For(p string) Extractor {
	return r.byExt[strings.ToLower(path.Ext(p))]
}

// Names returns the registered extensions, sorted.
func (r *Registry) Names() []string {
	var names []string
	for ext := range r.byExt {
		names = append(names, ext)
	}
	slices.Sort(names)
	return names
}

// Default is the registry of every built-in language.
var Default = func() *Registry {
	r := NewRegistry()
	r.Register(ExtractorFunc(ExtractGo), ".go")
	r.Register(ExtractorFunc(ExtractPython), ".py", ".pyi")
	r.Register(ExtractorFunc(ExtractJavaScript), ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")
	return r
}()
