package golang

import (
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// goLinker resolves Go imports through go.mod module paths to the files of
// the imported package, and calls by name within a package.
type goLinker struct {
	pkgs     map[string]*goPkg // folder + "\x00" + package name
	byImport map[string]*goPkg // import path → its package (not an external _test one)
}

// goPkg is one Go package of the workspace: the files of one folder that
// share a package name.
type goPkg struct {
	files   []*lang.File
	funcs   map[string][]lang.Ref // func name → its definitions
	methods map[string][]lang.Ref // method name (after the dot) → its definitions
}

func newGoLinker(files []*lang.File, goPackage func(dir string) (string, bool)) *goLinker {
	l := &goLinker{pkgs: map[string]*goPkg{}, byImport: map[string]*goPkg{}}
	for _, f := range files {
		dir := path.Dir(f.Path)
		key := dir + "\x00" + f.Package
		p := l.pkgs[key]
		if p == nil {
			p = &goPkg{funcs: map[string][]lang.Ref{}, methods: map[string][]lang.Ref{}}
			l.pkgs[key] = p
			if goPackage != nil && !strings.HasSuffix(f.Package, "_test") {
				if imp, ok := goPackage(dir); ok {
					l.byImport[imp] = p
				}
			}
		}
		p.files = append(p.files, f)
		for _, s := range f.Symbols {
			switch s.Kind {
			case lang.KindFunc, lang.KindTest:
				p.funcs[s.Name] = append(p.funcs[s.Name], lang.Ref{Path: f.Path, Symbol: s.Name})
			case lang.KindMethod:
				_, m, _ := strings.Cut(s.Name, ".")
				p.methods[m] = append(p.methods[m], lang.Ref{Path: f.Path, Symbol: s.Name})
			}
		}
	}
	return l
}

// Imports returns the non-test files of every imported workspace package.
// Standard-library imports are not unresolved; other imports outside the
// workspace are.
func (l *goLinker) Imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		p, ok := l.byImport[imp]
		if !ok {
			if !isStdlib(imp) {
				unresolved = append(unresolved, imp)
			}
			continue
		}
		for _, g := range p.files {
			if !strings.HasSuffix(g.Path, "_test.go") {
				files = append(files, g.Path)
			}
		}
	}
	return files, unresolved
}

// ResolveCall matches an unqualified call to a func of f's package, Q.Name
// to a func of the imported package f calls Q, and x.Name to the one method
// called Name in f's package.
func (l *goLinker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	var cands []lang.Ref
	switch imported := l.importNamed(f, c.Qual); {
	case c.Qual == "":
		cands = l.pkgs[path.Dir(f.Path)+"\x00"+f.Package].funcs[c.Name]
	case imported != nil:
		cands = imported.funcs[c.Name]
	default:
		cands = l.pkgs[path.Dir(f.Path)+"\x00"+f.Package].methods[c.Name]
	}
	if len(cands) != 1 {
		return lang.Ref{}, false
	}
	return cands[0], true
}

// importNamed returns the workspace package f imports under the local name,
// or nil.
func (l *goLinker) importNamed(f *lang.File, name string) *goPkg {
	if name == "" || name == "." {
		return nil
	}
	for i, imp := range f.Imports {
		p, ok := l.byImport[imp]
		if !ok {
			continue
		}
		local := f.ImportNames[i]
		if local == "" {
			local = p.files[0].Package
		}
		if local == name {
			return p
		}
	}
	return nil
}

// isStdlib reports whether a Go import path names the standard library: its
// first element has no dot.
func isStdlib(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}
