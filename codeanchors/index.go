package codeanchors

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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

// Ref names a file (Symbol "") or a symbol in it.
type Ref struct {
	Path   string
	Symbol string
}

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
}

// IndexInput is what [BuildIndex] reads.
type IndexInput struct {
	Files []*File
	// GoPackage gives the import path of a folder's Go package (from its
	// go.mod); false outside any module.
	GoPackage func(dir string) (pkg string, ok bool)
	// Project holds the project files that resolve imports, by
	// root-relative path: every pyproject.toml, tsconfig.json and
	// jsconfig.json of the workspace.
	Project map[string][]byte
}

// Whys of located edges. A lexical match is a hint, and says so.
const (
	whyCalls = "lexical hint: a call matched by name, without type checking"
	whyTests = "lexical hint: the test calls it, matched by name, without type checking"
)

// A linker resolves the imports and calls of one language's files.
type linker interface {
	// imports returns the workspace files f imports, and the imports that
	// should be in the workspace but resolve to nothing here.
	imports(f *File) (files, unresolved []string)
	// resolveCall returns the one definition call c of f refers to; false
	// when no definition or several match.
	resolveCall(f *File, c Call) (Ref, bool)
}

// linkers returns the linker of each language present in files, keyed by
// the parser name before its "@version" ("go/ast").
func linkers(in IndexInput, files []*File) map[string]linker {
	byLang := map[string][]*File{}
	for _, f := range files {
		byLang[parserName(f.Parser)] = append(byLang[parserName(f.Parser)], f)
	}
	ls := map[string]linker{}
	if fs := byLang[parserName(GoParser)]; fs != nil {
		ls[parserName(GoParser)] = newGoLinker(fs, in.GoPackage)
	}
	if fs := byLang[parserName(PythonParser)]; fs != nil {
		ls[parserName(PythonParser)] = newPythonLinker(fs, in.Project)
	}
	// JavaScript and TypeScript import each other: one linker for both.
	js, ts := parserName(JavaScriptParser), parserName(TypeScriptParser)
	if fs := append(byLang[js], byLang[ts]...); fs != nil {
		l := newJSLinker(fs, in.Project)
		ls[js], ls[ts] = l, l
	}
	return ls
}

func parserName(p string) string {
	name, _, _ := strings.Cut(p, "@")
	return name
}

// BuildIndex builds the code index. The work is linear in the files'
// symbols, imports and call sites.
func BuildIndex(in IndexInput) *Index {
	files := slices.Clone(in.Files)
	slices.SortFunc(files, func(a, b *File) int { return cmp.Compare(a.Path, b.Path) })
	ix := &Index{Files: files}
	ls := linkers(in, files)
	var unresolved []string
	for _, f := range files {
		defined := make(map[string]Symbol, len(f.Symbols))
		for _, s := range f.Symbols {
			defined[s.Name] = s
			ix.Edges = append(ix.Edges, Located{From: Ref{Path: f.Path}, To: Ref{f.Path, s.Name}, Kind: EdgeDefines})
		}
		l := ls[parserName(f.Parser)]
		if l == nil {
			continue
		}
		imported, missing := l.imports(f)
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
			to, ok := l.resolveCall(f, c)
			if !ok || to == (Ref{f.Path, c.From}) {
				continue
			}
			e := Located{From: Ref{f.Path, c.From}, To: to, Kind: EdgeCalls, Why: whyCalls}
			if caller.Kind == KindTest && !IsTest(to.Path, to.Symbol) {
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

// String formats r in target notation.
func (r Ref) String() string {
	if r.Symbol == "" {
		return r.Path
	}
	return r.Path + "@" + r.Symbol
}
