package python

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// pyMaxReexport bounds how many `from m import f` re-exports a call is
// followed through (a package's __init__.py re-exporting its modules).
const pyMaxReexport = 3

// pyLinker resolves Python imports to workspace files and calls to the
// definitions they name, without running or type checking anything.
//
// An absolute import is looked up, in order, under the src-style roots the
// pyproject.toml files declare ([tool.setuptools] package-dir "" and
// other package-dir entries, [tool.setuptools.packages.find] where, Poetry's
// packages from, Hatch's wheel packages), under the folder of each
// pyproject.toml, under the workspace root, and last under the importing
// file's own folder (a script, or a pytest test module outside a package).
// A module m.n is m/n.py or m/n/__init__.py (.pyi when there is no .py);
// folders need no __init__.py (namespace packages). A relative import is
// looked up from the importing file's folder, one folder up per extra dot.
type pyLinker struct {
	byPath map[string]*lang.File
	defs   map[string]*pyDefs // by path
	roots  []string           // "." is the workspace root
	pkgDir map[string]string  // package-dir entries: module prefix → folder
	tops   map[string]bool    // first components of modules under some root
}

// pyDefs indexes the definitions of one file.
type pyDefs struct {
	top     map[string]int      // module-level name → its definitions (symbols and ambiguous)
	methods map[string][]string // method name → the symbols named Class.name
	syms    map[string]int      // every symbol and ambiguous name → definitions
}

func newPythonLinker(files []*lang.File, project map[string][]byte) *pyLinker {
	l := &pyLinker{byPath: map[string]*lang.File{}, defs: map[string]*pyDefs{}, pkgDir: map[string]string{}, tops: map[string]bool{}}
	for _, f := range files {
		l.byPath[f.Path] = f
		l.defs[f.Path] = newPyDefs(f)
	}
	var srcRoots, projRoots []string
	for _, p := range slices.Sorted(maps.Keys(project)) {
		if path.Base(p) != "pyproject.toml" {
			continue
		}
		dir := path.Dir(p)
		projRoots = append(projRoots, dir)
		srcRoots = append(srcRoots, pyprojectRoots(dir, project[p], l.pkgDir)...)
	}
	slices.Sort(srcRoots)
	seen := map[string]bool{}
	for _, r := range append(append(srcRoots, projRoots...), ".") {
		if !seen[r] {
			seen[r] = true
			l.roots = append(l.roots, r)
		}
	}
	for p := range l.byPath {
		for _, r := range l.roots {
			rel, ok := pyUnderRoot(r, p)
			if !ok {
				continue
			}
			first, _, _ := strings.Cut(rel, "/")
			l.tops[strings.TrimSuffix(strings.TrimSuffix(first, ".py"), ".pyi")] = true
		}
	}
	for mod := range l.pkgDir {
		first, _, _ := strings.Cut(mod, ".")
		l.tops[first] = true
	}
	return l
}

// pyUnderRoot returns p relative to the folder root ("." for the workspace).
func pyUnderRoot(root, p string) (string, bool) {
	if root == "." {
		return p, true
	}
	return strings.CutPrefix(p, root+"/")
}

// pyprojectRoots returns the import roots a pyproject.toml in dir
// declares, and records its package-dir entries for named packages. A file
// that is not valid TOML declares nothing.
func pyprojectRoots(dir string, data []byte, pkgDir map[string]string) []string {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil
	}
	var roots []string
	join := func(rel string) (string, bool) {
		p := path.Join(dir, rel)
		return p, p != ".." && !strings.HasPrefix(p, "../") && !path.IsAbs(p)
	}
	st := pyTOMLTable(doc, "tool", "setuptools")
	if pd := pyTOMLTable(st, "package-dir"); pd != nil {
		for _, mod := range slices.Sorted(maps.Keys(pd)) {
			rel, _ := pd[mod].(string)
			p, ok := join(rel)
			switch {
			case !ok:
			case mod == "":
				roots = append(roots, p)
			default:
				pkgDir[mod] = p
			}
		}
	}
	for _, w := range pyTOMLList(pyTOMLTable(st, "packages", "find"), "where") {
		if p, ok := join(w); ok {
			roots = append(roots, p)
		}
	}
	if pkgs, ok := pyTOMLTable(doc, "tool", "poetry")["packages"].([]any); ok {
		for _, pkg := range pkgs {
			if t, ok := pkg.(map[string]any); ok {
				if from, ok := t["from"].(string); ok {
					if p, ok := join(from); ok {
						roots = append(roots, p)
					}
				}
			}
		}
	}
	for _, pkg := range pyTOMLList(pyTOMLTable(doc, "tool", "hatch", "build", "targets", "wheel"), "packages") {
		if p, ok := join(path.Dir(pkg)); ok {
			roots = append(roots, p)
		}
	}
	return roots
}

// pyTOMLTable returns the table at the key path in t, nil when absent.
func pyTOMLTable(t map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := t[k].(map[string]any)
		if !ok {
			return nil
		}
		t = next
	}
	return t
}

// pyTOMLList returns the strings of the array t[key].
func pyTOMLList(t map[string]any, key string) []string {
	var out []string
	switch v := t[key].(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	case string:
		out = append(out, v)
	}
	return out
}

func newPyDefs(f *lang.File) *pyDefs {
	d := &pyDefs{top: map[string]int{}, methods: map[string][]string{}, syms: map[string]int{}}
	parents := map[string]bool{}
	add := func(name string, n int) {
		d.syms[name] += n
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			parents[name[:i]] = true
		} else {
			d.top[name] += n
		}
	}
	for _, s := range f.Symbols {
		add(s.Name, 1)
	}
	for _, name := range f.Ambiguous {
		add(name, 2)
	}
	// A method is a function in a class: a dotted name that is neither a
	// class (nothing is defined inside it) nor typed as one.
	for _, s := range f.Symbols {
		if i := strings.LastIndexByte(s.Name, '.'); i >= 0 && s.Kind != lang.KindType && !parents[s.Name] {
			d.methods[s.Name[i+1:]] = append(d.methods[s.Name[i+1:]], s.Name)
		}
	}
	for _, name := range f.Ambiguous {
		if i := strings.LastIndexByte(name, '.'); i >= 0 && !parents[name] {
			d.methods[name[i+1:]] = append(d.methods[name[i+1:]], name, name)
		}
	}
	return d
}

// Imports returns the workspace files f imports. An import that resolves
// to nothing is unresolved when it is relative or its first component
// names a module of the workspace; others are the standard library's or
// third-party packages'.
func (l *pyLinker) Imports(f *lang.File) (files, unresolved []string) {
	for i, imp := range f.Imports {
		if p, _, ok := l.resolveImport(f, imp, f.ImportNames[i]); ok {
			files = append(files, p)
			continue
		}
		first, _, _ := strings.Cut(imp, ".")
		if first == "" || l.tops[first] {
			unresolved = append(unresolved, imp)
		}
	}
	return files, unresolved
}

// resolveImport returns the file an import entry of f names: the module
// imp, or, when imp is not a module and the entry binds a name (from m
// import f; import m.f as f), the module before imp's last dot, and member
// is then that last component.
func (l *pyLinker) resolveImport(f *lang.File, imp, name string) (file, member string, ok bool) {
	if p, ok := l.module(f, imp); ok {
		return p, "", true
	}
	i := strings.LastIndexByte(imp, '.')
	if name == "" || name == "*" || i < 0 || i == len(imp)-1 {
		return "", "", false
	}
	parent := imp[:i]
	if strings.Trim(parent, ".") == "" {
		parent = imp[:i+1] // from . import x: the package "."
	}
	if p, ok := l.module(f, parent); ok {
		return p, imp[i+1:], true
	}
	return "", "", false
}

// module returns the file of the module mod, as imported by f.
func (l *pyLinker) module(f *lang.File, mod string) (string, bool) {
	rel := strings.TrimLeft(mod, ".")
	var comps []string
	if rel != "" {
		comps = strings.Split(rel, ".")
	}
	if dots := len(mod) - len(rel); dots > 0 {
		dir := path.Dir(f.Path)
		for range dots - 1 {
			if dir == "." {
				return "", false
			}
			dir = path.Dir(dir)
		}
		return l.moduleIn(dir, comps)
	}
	if len(comps) == 0 {
		return "", false
	}
	for _, r := range l.roots {
		if p, ok := l.moduleIn(r, comps); ok {
			return p, true
		}
	}
	for i := len(comps); i > 0; i-- {
		if dir, ok := l.pkgDir[strings.Join(comps[:i], ".")]; ok {
			if p, ok := l.moduleIn(dir, comps[i:]); ok {
				return p, true
			}
		}
	}
	return l.moduleIn(path.Dir(f.Path), comps)
}

// moduleIn returns the file of the module comps under the folder dir.
func (l *pyLinker) moduleIn(dir string, comps []string) (string, bool) {
	p := path.Join(append([]string{dir}, comps...)...)
	cands := []string{p + "/__init__.py", p + "/__init__.pyi"}
	if len(comps) > 0 {
		cands = []string{p + ".py", p + "/__init__.py", p + ".pyi", p + "/__init__.pyi"}
	}
	for _, c := range cands {
		c = strings.TrimPrefix(c, "./")
		if _, ok := l.byPath[c]; ok {
			return c, true
		}
	}
	return "", false
}

// ResolveCall matches a call of f to one definition:
//
//   - f(): a module-level function or class of f, or the definition a
//     from-import binds to f (followed through re-exports);
//   - m.f(): the module-level f of the workspace module m is bound to, or
//     the method f of the class m names;
//   - self.f() and cls.f() in a method of class C: C.f;
//   - any other x.f(): the one method named f in f's file.
//
// A name with several definitions, or both defined and imported, matches
// nothing.
func (l *pyLinker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	d := l.defs[f.Path]
	switch c.Qual {
	case "":
		return l.lookupName(f, c.Name, "", pyMaxReexport)
	case "self", "cls":
		if i := strings.LastIndexByte(c.From, '.'); i >= 0 {
			name := c.From[:i] + "." + c.Name
			switch d.syms[name] {
			case 1:
				return lang.Ref{Path: f.Path, Symbol: name}, true
			case 0:
			default:
				return lang.Ref{}, false
			}
		}
	case ".":
	default:
		if r, ok, known := l.qualified(f, c.Qual, c.Name); known {
			return r, ok
		}
	}
	if ms := d.methods[c.Name]; len(ms) == 1 {
		return lang.Ref{Path: f.Path, Symbol: ms[0]}, true
	}
	return lang.Ref{}, false
}

// lookupName resolves the module-level name (member, when not "", of the
// class it names) in f: its own definition, or the one an import binds.
func (l *pyLinker) lookupName(f *lang.File, name, member string, depth int) (lang.Ref, bool) {
	d := l.defs[f.Path]
	binds := l.bindings(f, name)
	if n := d.top[name]; n > 0 {
		if n > 1 || len(binds) > 0 {
			return lang.Ref{}, false
		}
		if member == "" {
			return lang.Ref{Path: f.Path, Symbol: name}, true
		}
		if d.syms[name+"."+member] == 1 {
			return lang.Ref{Path: f.Path, Symbol: name + "." + member}, true
		}
		return lang.Ref{}, false
	}
	if len(binds) != 1 || depth == 0 {
		return lang.Ref{}, false
	}
	imp := binds[0]
	p, sym, ok := l.resolveImport(f, f.Imports[imp], f.ImportNames[imp])
	if !ok || sym == "" {
		return lang.Ref{}, false
	}
	return l.lookupName(l.byPath[p], sym, member, depth-1)
}

// bindings returns the indexes of the imports of f that bind name.
func (l *pyLinker) bindings(f *lang.File, name string) []int {
	var out []int
	for i, imp := range f.Imports {
		local := f.ImportNames[i]
		if local == "" {
			local, _, _ = strings.Cut(imp, ".")
		}
		if local == name {
			out = append(out, i)
		}
	}
	return out
}

// qualified resolves q.name where q is a module-level name of f: known is
// false when q is neither defined nor imported there (a local variable).
func (l *pyLinker) qualified(f *lang.File, q, name string) (r lang.Ref, ok, known bool) {
	binds := l.bindings(f, q)
	if l.defs[f.Path].top[q] > 0 || len(binds) != 1 {
		if l.defs[f.Path].top[q] == 0 && len(binds) == 0 {
			return lang.Ref{}, false, false
		}
		r, ok := l.lookupName(f, q, name, pyMaxReexport)
		return r, ok, true
	}
	imp, local := f.Imports[binds[0]], f.ImportNames[binds[0]]
	if local == "" { // import a.b binds a
		imp, _, _ = strings.Cut(imp, ".")
	}
	if p, ok := l.module(f, imp); ok { // q is a module
		r, ok := l.lookupName(l.byPath[p], name, "", pyMaxReexport)
		return r, ok, true
	}
	r, ok = l.lookupName(f, q, name, pyMaxReexport) // q is a class
	return r, ok, true
}

// pyClasses splits a pytest classname into a module path, which must be
// module or a dotted suffix of it, and the classes after it. It prefers the
// longest module path.
func pyClasses(module, suite string) (string, bool) {
	for i := len(suite); i > 0; i = strings.LastIndexByte(suite[:i], '.') {
		mod := suite[:i]
		if mod == module || strings.HasSuffix(module, "."+mod) {
			return strings.TrimPrefix(suite[i:], "."), true
		}
	}
	return "", false
}
