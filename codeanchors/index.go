package codeanchors

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Located edge kinds: structure found mechanically in the code.
const (
	EdgeDefines = "defines" // file → symbol
	EdgeImports = "imports" // file → file of an imported package
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
	// here (a module not in the workspace). UnresolvedTotal counts them all.
	// Standard-library imports are not listed.
	Unresolved      []string
	UnresolvedTotal int
}

// Whys of located edges. A lexical match is a hint, and says so.
const (
	whyCalls = "lexical hint: a call matched by name, without type checking"
	whyTests = "lexical hint: the test calls it, matched by name, without type checking"
)

// goPkg is one Go package of the workspace: the files of one folder that
// share a package name.
type goPkg struct {
	files   []*File
	funcs   map[string][]Ref // func name → its definitions
	methods map[string][]Ref // method name (after the dot) → its definitions
}

// BuildIndex builds the code index of files. goPackage gives the import path
// of a folder's Go package (from its go.mod), false outside any module. The
// work is linear in the files' symbols, imports and call sites.
func BuildIndex(files []*File, goPackage func(dir string) (string, bool)) *Index {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b *File) int { return cmp.Compare(a.Path, b.Path) })
	ix := &Index{Files: files}
	pkgs := map[string]*goPkg{}     // dir + "\x00" + package name
	byImport := map[string]*goPkg{} // import path → its non-test package
	for _, f := range files {
		for _, s := range f.Symbols {
			ix.Edges = append(ix.Edges, Located{From: Ref{Path: f.Path}, To: Ref{f.Path, s.Name}, Kind: EdgeDefines})
		}
		if f.Parser != GoParser {
			continue
		}
		dir := path.Dir(f.Path)
		key := dir + "\x00" + f.Package
		p := pkgs[key]
		if p == nil {
			p = &goPkg{funcs: map[string][]Ref{}, methods: map[string][]Ref{}}
			pkgs[key] = p
			if imp, ok := goPackage(dir); ok && !strings.HasSuffix(f.Package, "_test") {
				byImport[imp] = p
			}
		}
		p.files = append(p.files, f)
		for _, s := range f.Symbols {
			switch s.Kind {
			case KindFunc, KindTest:
				p.funcs[s.Name] = append(p.funcs[s.Name], Ref{f.Path, s.Name})
			case KindMethod:
				_, m, _ := strings.Cut(s.Name, ".")
				p.methods[m] = append(p.methods[m], Ref{f.Path, s.Name})
			}
		}
	}

	var unresolved []string
	for _, f := range files {
		if f.Parser != GoParser {
			continue
		}
		own := pkgs[path.Dir(f.Path)+"\x00"+f.Package]
		names := map[string]*goPkg{} // local import name → package
		for i, imp := range f.Imports {
			target, ok := byImport[imp]
			if !ok {
				if !isStdlib(imp) {
					unresolved = append(unresolved, f.Path+": "+imp)
				}
				continue
			}
			for _, g := range target.files {
				if !strings.HasSuffix(g.Path, "_test.go") {
					ix.Edges = append(ix.Edges, Located{From: Ref{Path: f.Path}, To: Ref{Path: g.Path}, Kind: EdgeImports})
				}
			}
			name := f.ImportNames[i]
			if name == "" {
				name = target.files[0].Package
			}
			names[name] = target
		}
		ix.Edges = appendCalls(ix.Edges, f, own, names)
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

// appendCalls adds the calls and tests edges of f's call sites: an
// unqualified call to a func of its own package, Qual.Name to a func of the
// imported package named Qual, and x.Name to the one method called Name in
// its own package. A name with several definitions matches nothing.
func appendCalls(edges []Located, f *File, own *goPkg, imports map[string]*goPkg) []Located {
	defined := map[string]Symbol{}
	for _, s := range f.Symbols {
		defined[s.Name] = s
	}
	for _, c := range f.Calls {
		caller, ok := defined[c.From]
		if !ok {
			continue // an ambiguous caller
		}
		var cands []Ref
		switch pkg, imported := imports[c.Qual]; {
		case c.Qual == "":
			cands = own.funcs[c.Name]
		case imported:
			cands = pkg.funcs[c.Name]
		default:
			cands = own.methods[c.Name]
		}
		if len(cands) != 1 || cands[0] == (Ref{f.Path, c.From}) {
			continue
		}
		e := Located{From: Ref{f.Path, c.From}, To: cands[0], Kind: EdgeCalls, Why: whyCalls}
		if caller.Kind == KindTest && !IsTest(cands[0].Path, cands[0].Symbol) {
			e.Kind, e.Why = EdgeTests, whyTests
		}
		edges = append(edges, e)
	}
	return edges
}

// isStdlib reports whether a Go import path names the standard library: its
// first element has no dot.
func isStdlib(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
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
