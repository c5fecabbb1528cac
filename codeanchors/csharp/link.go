package csharp

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// linker resolves using directives to workspace files and calls to the
// definitions they name, without running MSBuild or type checking.
//
// A file's namespace is the first one it declares ([lang.File.Package]).
// The .csproj files say which project a file belongs to (the one in its
// folder or the nearest above) and, through their <ProjectReference>
// items, which projects it may use: a using directive resolves to files of
// its own project and of the projects it references, directly or not.
// Without any .csproj, every file may use every other. Their
// <RootNamespace> counts as a workspace namespace. Nothing is evaluated: a
// property in a path is not followed.
//
// A using directive is unresolved (listed) when it looks like workspace
// code but resolves to no file the importing file may use: its first
// component is that of a namespace the workspace declares (or a
// <RootNamespace>), and no file of it is in the project or a referenced one.
type linker struct {
	byPath   map[string]*lang.File
	byNS     map[string][]string // namespace → its files, sorted
	project  map[string]string   // file → its .csproj ("" for none)
	refs     map[string][]string // .csproj → the .csproj files it references, transitively, itself included
	prefixes map[string]bool
}

var (
	csprojRefRe  = regexp.MustCompile(`<ProjectReference\s+Include\s*=\s*"([^"$]+)"`)
	csprojRootRe = regexp.MustCompile(`<RootNamespace>\s*([^<$]+?)\s*</RootNamespace>`)
)

func newLinker(files []*lang.File, projectFiles map[string][]byte) *linker {
	l := &linker{byPath: map[string]*lang.File{}, byNS: map[string][]string{},
		project: map[string]string{}, refs: map[string][]string{}, prefixes: map[string]bool{}}
	direct := map[string][]string{}
	var projects []string
	for _, p := range slices.Sorted(maps.Keys(projectFiles)) {
		if !strings.HasSuffix(p, ".csproj") {
			continue
		}
		projects = append(projects, p)
		for _, m := range csprojRefRe.FindAllStringSubmatch(string(projectFiles[p]), -1) {
			ref := path.Join(path.Dir(p), strings.ReplaceAll(m[1], `\`, "/"))
			if ref != ".." && !strings.HasPrefix(ref, "../") {
				direct[p] = append(direct[p], ref)
			}
		}
		for _, m := range csprojRootRe.FindAllStringSubmatch(string(projectFiles[p]), -1) {
			l.prefixes[root(m[1])] = true
		}
	}
	for _, p := range projects {
		seen := map[string]bool{p: true}
		queue := []string{p}
		for len(queue) > 0 {
			q := queue[0]
			queue = queue[1:]
			for _, r := range direct[q] {
				if !seen[r] {
					seen[r] = true
					queue = append(queue, r)
				}
			}
		}
		l.refs[p] = slices.Sorted(maps.Keys(seen))
	}
	for _, f := range slices.SortedFunc(slices.Values(files), func(a, b *lang.File) int { return strings.Compare(a.Path, b.Path) }) {
		l.byPath[f.Path] = f
		l.byNS[f.Package] = append(l.byNS[f.Package], f.Path)
		if f.Package != "" {
			l.prefixes[root(f.Package)] = true
		}
		best := ""
		for _, p := range projects {
			if d := path.Dir(p); (d == "." || strings.HasPrefix(f.Path, d+"/")) && len(p) > len(best) {
				best = p
			}
		}
		l.project[f.Path] = best
	}
	return l
}

// root returns a namespace's first component, the company or product
// name by .NET's naming guidelines.
func root(ns string) string {
	first, _, _ := strings.Cut(ns, ".")
	return first
}

// visible reports whether file from may use file to: same project, a
// referenced one, or no projects at all.
func (l *linker) visible(from, to string) bool {
	pf, pt := l.project[from], l.project[to]
	if pf == "" || pt == "" {
		return true
	}
	_, ok := slices.BinarySearch(l.refs[pf], pt)
	return ok
}

// Imports returns the workspace files a file's using directives name:
// using N is every non-test file of namespace N; using static N.T and
// using A = N.T are T's file. It also returns the unresolved directives.
func (l *linker) Imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		name := strings.TrimPrefix(imp, "static ")
		if _, target, ok := strings.Cut(name, "="); ok {
			name = target
		}
		name = strings.TrimPrefix(name, "global::")
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = name[:i]
		}
		found := false
		for _, p := range l.byNS[name] {
			if p != f.Path && l.visible(f.Path, p) && !lang.IsTest(Language, p, "") {
				files = append(files, p)
				found = true
			}
		}
		if i := strings.LastIndexByte(name, '.'); !found && i > 0 {
			if p, ok := l.typeFile(f, name[:i], name[i+1:]); ok {
				files = append(files, p)
				found = true
			}
		}
		if !found && l.prefixes[root(name)] {
			unresolved = append(unresolved, imp)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), unresolved
}

// typeFile returns the file, visible from f, that declares the top-level
// type simple in namespace ns; false when none or several do.
func (l *linker) typeFile(f *lang.File, ns, simple string) (string, bool) {
	found := ""
	for _, p := range l.byNS[ns] {
		if !l.visible(f.Path, p) {
			continue
		}
		if _, ok, amb := l.byPath[p].Lookup(simple); ok || amb {
			if found != "" || amb {
				return "", false
			}
			found = p
		}
	}
	return found, found != ""
}

// ResolveCall resolves a call to exactly one definition: a method of the caller's
// class or an enclosing one; a constructor or static member of a type of
// the file, of its namespace, or of a namespace it uses; a member of a type
// it uses statically. Calls on variables and longer expressions are not
// resolved: without types, the class is unknown.
func (l *linker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	switch c.Qual {
	case "":
		for scope := c.From; strings.Contains(scope, "."); {
			scope = scope[:strings.LastIndexByte(scope, '.')]
			if _, ok, amb := f.Lookup(scope + "." + c.Name); ok || amb {
				return symbolRef(f, scope+"."+c.Name)
			}
		}
		for _, imp := range f.Imports {
			if name, ok := strings.CutPrefix(imp, "static "); ok {
				if i := strings.LastIndexByte(name, '.'); i > 0 {
					if p, ok := l.typeFile(f, name[:i], name[i+1:]); ok {
						if r, ok := symbolRef(l.byPath[p], name[i+1:]+"."+c.Name); ok {
							return r, true
						}
					}
				}
			}
		}
	case "new":
		return l.member(f, c.Name, c.Name, true)
	case ".", "this", "base":
	default:
		return l.member(f, c.Qual, c.Name, false)
	}
	return lang.Ref{}, false
}

// member resolves member of the type written simple in f: a type of f
// itself (nested ones too), else a top-level type of f's namespace or of
// one it uses. A constructor call (ctor) resolves to the type when it
// declares no constructor.
func (l *linker) member(f *lang.File, simple, member string, ctor bool) (lang.Ref, bool) {
	var owner *lang.File
	typeName := ""
	for _, s := range f.Symbols {
		if (s.Name == simple || strings.HasSuffix(s.Name, "."+simple)) && isType(f, s) {
			if typeName != "" {
				return lang.Ref{}, false
			}
			owner, typeName = f, s.Name
		}
	}
	if owner == nil {
		namespaces := []string{f.Package}
		for _, imp := range f.Imports {
			if !strings.HasPrefix(imp, "static ") && !strings.Contains(imp, "=") {
				namespaces = append(namespaces, imp)
			}
		}
		for _, ns := range namespaces {
			if p, ok := l.typeFile(f, ns, simple); ok {
				if owner != nil && owner.Path != p {
					return lang.Ref{}, false
				}
				owner, typeName = l.byPath[p], simple
			}
		}
	}
	if owner == nil {
		return lang.Ref{}, false
	}
	if r, ok := symbolRef(owner, typeName+"."+member); ok {
		return r, true
	}
	if ctor {
		return symbolRef(owner, typeName)
	}
	return lang.Ref{}, false
}

// symbolRef returns the ref of the symbol name of f, if f defines it once.
func symbolRef(f *lang.File, name string) (lang.Ref, bool) {
	if f == nil {
		return lang.Ref{}, false
	}
	if _, ok, _ := f.Lookup(name); ok {
		return lang.Ref{Path: f.Path, Symbol: name}, true
	}
	return lang.Ref{}, false
}

// isType reports whether s is a type of f: a top-level symbol, one of kind
// type, or one with members (a test class).
func isType(f *lang.File, s lang.Symbol) bool {
	if !strings.Contains(s.Name, ".") || s.Kind == lang.KindType {
		return true
	}
	return slices.ContainsFunc(f.Symbols, func(m lang.Symbol) bool { return strings.HasPrefix(m.Name, s.Name+".") })
}
