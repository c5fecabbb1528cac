package codeanchors

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Located edge kinds: structure found mechanically in the code.
const (
	EdgeDefines = "defines" // file → symbol
	EdgeImports = "imports" // file → file it imports
	EdgeCalls   = "calls"   // symbol → symbol, a lexical match
	EdgeTests   = "tests"   // test → symbol it calls
)

// MaxUnresolved bounds the unresolved imports an [Index] lists; the rest are
// only counted.
const MaxUnresolved = 50

// Located is one edge the code index found.
type Located struct {
	From, To Ref
	Kind     string
	Why      string
}

// Index is the code index: the located structure of a set of source files.
type Index struct {
	Files []*File   // sorted by path
	Edges []Located // sorted by from, to, kind
	// Unresolved lists, sorted, at most MaxUnresolved "path: import" pairs
	// for imports that look like workspace code but resolve to no file
	// here. UnresolvedTotal counts them all. Standard-library and
	// third-party imports a language can tell apart are not listed.
	Unresolved      []string
	UnresolvedTotal int

	reg   *Registry    // the languages of the files; nil means Default
	tests map[Ref]bool // every symbol of Files: whether its extractor marked it a test
}

// IsTest reports whether the symbol of the file at path is a test. It is
// the one decision for the graph and the index: a symbol of an extracted
// file is a test when its language's extractor marked it Kind test (which
// sees annotations and attributes: JUnit's @Test, xUnit's [Fact], Rust's
// #[test]); anything else (a whole file, a symbol no indexed file defines
// once, or no index at all) by the languages' naming rules ([IsTest]).
func (ix *Index) IsTest(path, symbol string) bool {
	if ix != nil && symbol != "" {
		if t, ok := ix.tests[Ref{Path: path, Symbol: symbol}]; ok {
			return t
		}
	}
	reg := Default
	if ix != nil && ix.reg != nil {
		reg = ix.reg
	}
	return reg.IsTest(path, symbol)
}

// IndexInput is what [BuildIndex] reads.
type IndexInput struct {
	Files []*File
	// Project holds the project files that resolve imports, by
	// root-relative path: every file of the workspace a registered language
	// names in [lang.Language.ProjectFile] (go.mod, pyproject.toml,
	// tsconfig.json, ...).
	Project map[string][]byte
	// Registry holds the languages that link the files; nil means
	// [Default].
	Registry *Registry
}

// Whys of located edges. A lexical match is a hint, and says so.
const (
	whyCalls = "lexical hint: a call matched by name, without type checking"
	whyTests = "lexical hint: the test calls it, matched by name, without type checking"
)

// linkers returns the linker of each language present in files, and the
// language of each file.
func linkers(in IndexInput, files []*File) map[Language]lang.Linker {
	reg := in.Registry
	if reg == nil {
		reg = Default
	}
	byLang := map[Language][]*File{}
	var order []Language
	for _, f := range files {
		l := reg.Language(f.Path)
		if l == nil {
			continue
		}
		if byLang[l] == nil {
			order = append(order, l)
		}
		byLang[l] = append(byLang[l], f)
	}
	ls := map[Language]lang.Linker{}
	for _, l := range order {
		ls[l] = l.Link(byLang[l], in.Project)
	}
	return ls
}

// BuildIndex builds the code index. The work is linear in the files'
// symbols, imports and call sites.
func BuildIndex(in IndexInput) *Index {
	files := slices.Clone(in.Files)
	slices.SortFunc(files, func(a, b *File) int { return cmp.Compare(a.Path, b.Path) })
	ix := &Index{Files: files, reg: in.Registry, tests: map[Ref]bool{}}
	for _, f := range files {
		for _, s := range f.Symbols {
			ix.tests[Ref{Path: f.Path, Symbol: s.Name}] = s.Kind == KindTest
		}
	}
	ls := linkers(in, files)
	reg := in.Registry
	if reg == nil {
		reg = Default
	}
	var unresolved []string
	for _, f := range files {
		defined := make(map[string]Symbol, len(f.Symbols))
		for _, s := range f.Symbols {
			defined[s.Name] = s
			ix.Edges = append(ix.Edges, Located{From: Ref{Path: f.Path}, To: Ref{Path: f.Path, Symbol: s.Name}, Kind: EdgeDefines})
		}
		l := ls[reg.Language(f.Path)]
		if l == nil {
			continue
		}
		imported, missing := l.Imports(f)
		for _, p := range imported {
			if p != f.Path {
				ix.Edges = append(ix.Edges, Located{From: Ref{Path: f.Path}, To: Ref{Path: p}, Kind: EdgeImports})
			}
		}
		for _, imp := range missing {
			unresolved = append(unresolved, f.Path+": "+imp)
		}
		for _, c := range f.Calls {
			caller, ok := defined[c.From]
			if !ok {
				continue // an ambiguous caller
			}
			to, ok := l.ResolveCall(f, c)
			if !ok || to == (Ref{Path: f.Path, Symbol: c.From}) {
				continue
			}
			e := Located{From: Ref{Path: f.Path, Symbol: c.From}, To: to, Kind: EdgeCalls, Why: whyCalls}
			if caller.Kind == KindTest && !ix.IsTest(to.Path, to.Symbol) {
				e.Kind, e.Why = EdgeTests, whyTests
			}
			ix.Edges = append(ix.Edges, e)
		}
	}
	slices.SortFunc(ix.Edges, func(a, b Located) int {
		return cmp.Or(cmp.Compare(a.From.Path, b.From.Path), cmp.Compare(a.From.Symbol, b.From.Symbol),
			cmp.Compare(a.To.Path, b.To.Path), cmp.Compare(a.To.Symbol, b.To.Symbol), cmp.Compare(a.Kind, b.Kind))
	})
	ix.Edges = slices.CompactFunc(ix.Edges, func(a, b Located) bool { return a.From == b.From && a.To == b.To && a.Kind == b.Kind })
	slices.Sort(unresolved)
	unresolved = slices.Compact(unresolved)
	ix.UnresolvedTotal = len(unresolved)
	ix.Unresolved = unresolved[:min(len(unresolved), MaxUnresolved)]
	return ix
}

// String describes e for messages.
func (e Located) String() string {
	return fmt.Sprintf("%s -%s-> %s", e.From, e.Kind, e.To)
}
