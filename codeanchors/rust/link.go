package rust

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// externCrates are the crates of the Rust distribution: never workspace
// code, never unresolved.
var externCrates = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

// crate is one Cargo package of the workspace, read from its Cargo.toml.
type crate struct {
	dir  string // the manifest's folder, root-relative ("" at the root)
	lib  string // the library crate's root file: [lib] path, else src/lib.rs
	name string // the library crate's name in code: [lib] name, else the package name with '-' as '_'
	// deps maps each dependency's name in code ('-' as '_', a rename's
	// key) to the folder of a path dependency, or "" for any other
	// (registry, git): external code.
	deps map[string]string
}

// manifest is what the linker reads of a Cargo.toml: the declarative
// parts only. Nothing is evaluated or run.
type manifest struct {
	Package struct {
		Name string `toml:"name"`
	} `toml:"package"`
	Lib struct {
		Name string `toml:"name"`
		Path string `toml:"path"`
	} `toml:"lib"`
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
}

// linker resolves Rust imports through the workspace's Cargo.toml files,
// and calls to the definitions they name, without running cargo or type
// checking.
//
// A file belongs to the package whose Cargo.toml is in its folder or the
// nearest one above. Its module path follows Rust's file layout below the
// crate root's folder: src/lib.rs and src/main.rs are the crate root,
// src/a.rs and src/a/mod.rs are module a, src/a/b.rs is a::b; a file
// directly in tests/, examples/, benches/ or src/bin/ (or a main.rs one
// folder below them) is a crate root of its own. A use path starting with
// crate, self or super, the package's own library name, a path
// dependency's name, or a module of the current one, resolves to the
// file of its longest prefix that is a module file. mod m; resolves to
// m.rs or m/mod.rs beside its parent module. The standard crates and
// dependencies that are no path dependency are external; any other first
// segment, and a mod m; with no file, is unresolved, and says why.
type linker struct {
	byPath map[string]*lang.File
	crates []*crate // sorted by folder, deepest first
	byName map[string]*crate
}

func newLinker(files []*lang.File, project map[string][]byte) *linker {
	l := &linker{byPath: map[string]*lang.File{}, byName: map[string]*crate{}}
	for _, f := range files {
		l.byPath[f.Path] = f
	}
	for _, p := range slices.Sorted(maps.Keys(project)) {
		if path.Base(p) != "Cargo.toml" {
			continue
		}
		var m manifest
		if _, err := toml.Decode(string(project[p]), &m); err != nil {
			continue
		}
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		c := &crate{dir: dir, lib: path.Join(dir, "src", "lib.rs"), deps: map[string]string{}}
		if lp, ok := inside(dir, m.Lib.Path); ok && m.Lib.Path != "" {
			c.lib = lp
		}
		c.name = strings.ReplaceAll(m.Package.Name, "-", "_")
		if m.Lib.Name != "" {
			c.name = strings.ReplaceAll(m.Lib.Name, "-", "_")
		}
		for _, deps := range []map[string]any{m.Dependencies, m.DevDependencies, m.BuildDependencies} {
			for _, k := range slices.Sorted(maps.Keys(deps)) {
				dep := ""
				if t, ok := deps[k].(map[string]any); ok {
					if dp, ok := t["path"].(string); ok {
						if d, ok := inside(dir, dp); ok {
							dep = d
						}
					}
				}
				c.deps[strings.ReplaceAll(k, "-", "_")] = dep
			}
		}
		l.crates = append(l.crates, c)
	}
	depth := func(dir string) int {
		if dir == "" {
			return 0
		}
		return strings.Count(dir, "/") + 1
	}
	slices.SortStableFunc(l.crates, func(a, b *crate) int {
		if n := depth(b.dir) - depth(a.dir); n != 0 {
			return n
		}
		return strings.Compare(a.dir, b.dir)
	})
	for _, c := range l.crates {
		if c.name != "" {
			if _, dup := l.byName[c.name]; !dup {
				l.byName[c.name] = c
			}
		}
	}
	return l
}

// inside joins rel to dir and reports whether the result stays in the
// workspace.
func inside(dir, rel string) (string, bool) {
	if path.IsAbs(rel) {
		return "", false
	}
	p := path.Join(dir, rel)
	return p, p != ".." && !strings.HasPrefix(p, "../")
}

// crateOf returns the package holding the file at p, nil outside any.
func (l *linker) crateOf(p string) *crate {
	for _, c := range l.crates {
		if c.dir == "" || strings.HasPrefix(p, c.dir+"/") {
			return c
		}
	}
	return nil
}

// module is where a file sits in its crate: the crate root's folder and
// the module path below it.
type module struct {
	root string   // the folder module paths are relative to
	file string   // the crate root file
	path []string // module path; nil at the crate root
}

// moduleOf returns the module of the file at p in crate c.
func moduleOf(c *crate, p string) module {
	rel := p
	if c != nil && c.dir != "" {
		rel = strings.TrimPrefix(p, c.dir+"/")
	}
	base := ""
	if c != nil {
		base = c.dir
	}
	parts := strings.Split(rel, "/")
	// A crate root of its own: tests/x.rs, tests/x/main.rs, and likewise
	// for examples, benches and src/bin.
	for _, own := range [][]string{{"tests"}, {"examples"}, {"benches"}, {"src", "bin"}} {
		n := len(own)
		if len(parts) > n && slices.Equal(parts[:n], own) &&
			(len(parts) == n+1 || len(parts) == n+2 && parts[n+1] == "main.rs") {
			return module{root: path.Dir(p), file: p}
		}
	}
	if c != nil {
		libDir := path.Dir(c.lib)
		if p == c.lib || p == path.Join(base, "src", "main.rs") {
			return module{root: path.Dir(p), file: p}
		}
		if strings.HasPrefix(p, libDir+"/") {
			mp := strings.Split(strings.TrimSuffix(strings.TrimPrefix(p, libDir+"/"), ".rs"), "/")
			if mp[len(mp)-1] == "mod" {
				mp = mp[:len(mp)-1]
			}
			return module{root: libDir, file: c.lib, path: mp}
		}
	}
	// Outside any crate layout: the file is a crate root of its own.
	return module{root: path.Dir(p), file: p}
}

// fileOf returns the file of module path mp below m's crate root, "" when
// no workspace file holds it.
func (l *linker) fileOf(m module, mp []string) string {
	if len(mp) == 0 {
		if _, ok := l.byPath[m.file]; ok {
			return m.file
		}
		return ""
	}
	p := path.Join(m.root, path.Join(mp...))
	for _, cand := range []string{p + ".rs", p + "/mod.rs"} {
		if _, ok := l.byPath[cand]; ok {
			return cand
		}
	}
	return ""
}

// imports implements the linker's Imports: the workspace files f imports,
// and those that should be in the workspace but are not, each with why.
func (l *linker) imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		file, why := l.resolve(f, imp)
		switch {
		case why != "":
			unresolved = append(unresolved, imp+" ("+why+")")
		case file != "" && file != f.Path:
			files = append(files, file)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), unresolved
}

// resolve returns the file an import of f names, "" for external code,
// or why it names nothing here.
func (l *linker) resolve(f *lang.File, imp string) (file, why string) {
	c := l.crateOf(f.Path)
	m := moduleOf(c, f.Path)
	if name, ok := strings.CutPrefix(imp, "mod "); ok {
		mp := append(slices.Clone(m.path), strings.Split(name, "::")...)
		if fp := l.fileOf(m, mp); fp != "" {
			return fp, ""
		}
		return "", "no file for module " + name
	}
	segs := strings.Split(imp, "::")
	base := m
	base.path = slices.Clone(m.path)
	switch first := segs[0]; {
	case first == "crate":
		base.path, segs = nil, segs[1:]
	case first == "self":
		segs = segs[1:]
	case first == "super":
		for len(segs) > 0 && segs[0] == "super" {
			if len(base.path) == 0 {
				return "", "super above the crate root"
			}
			base.path, segs = base.path[:len(base.path)-1], segs[1:]
		}
	case externCrates[first]:
		return "", ""
	case l.fileOf(m, append(slices.Clone(m.path), first)) != "":
		// A module of the current one (Rust 2018 paths).
	case c != nil && first == c.name && l.byPath[c.lib] != nil:
		base = moduleOf(c, c.lib)
		segs = segs[1:]
	case c != nil && hasKey(c.deps, first):
		dir := c.deps[first]
		if dir == "" {
			return "", "" // a registry or git dependency
		}
		dc := l.crateAt(dir)
		if dc == nil || l.byPath[dc.lib] == nil {
			return "", "path dependency " + first + " has no library here"
		}
		base = moduleOf(dc, dc.lib)
		segs = segs[1:]
	default:
		if c == nil {
			return "", "no Cargo.toml declares crate " + first
		}
		return "", "no module, workspace crate or dependency named " + first
	}
	// The longest prefix of the rest that is a module file.
	for n := len(segs); n >= 0; n-- {
		if fp := l.fileOf(base, append(slices.Clone(base.path), segs[:n]...)); fp != "" {
			return fp, ""
		}
	}
	return "", "no file for module " + strings.Join(append([]string{"crate"}, base.path...), "::")
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// crateAt returns the package whose manifest is in dir.
func (l *linker) crateAt(dir string) *crate {
	for _, c := range l.crates {
		if c.dir == dir {
			return c
		}
	}
	return nil
}

// resolveCall implements the linker's ResolveCall: the one definition a
// call names, or false. f() is a function of the caller's module or one a
// use brings in by that name; Type::f() and self.f() (Self::f()) are
// methods of Type, or of the caller's own type; m::f() is f in the module
// file a use binds to m.
func (l *linker) resolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	scope := ""
	if i := strings.LastIndexByte(c.From, '.'); i >= 0 {
		scope = c.From[:i+1]
	}
	var name string
	switch c.Qual {
	case "":
		// In the caller's module (an inline module's prefix), then the file.
		modPrefix := scope
		if _, ok, _ := f.Lookup(strings.TrimSuffix(modPrefix, ".")); ok {
			modPrefix = "" // the caller is a method: its scope is a type
		}
		for _, n := range []string{modPrefix + c.Name, c.Name} {
			if s, ok, amb := f.Lookup(n); amb {
				return lang.Ref{}, false
			} else if ok && s.Kind != lang.KindType {
				return lang.Ref{Path: f.Path, Symbol: n}, true
			}
		}
		name = c.Name
	case "self", "Self":
		if scope == "" {
			return lang.Ref{}, false
		}
		if _, ok, _ := f.Lookup(scope + c.Name); ok {
			return lang.Ref{Path: f.Path, Symbol: scope + c.Name}, true
		}
		return lang.Ref{}, false
	case ".":
		return lang.Ref{}, false
	default:
		if _, ok, _ := f.Lookup(c.Qual + "." + c.Name); ok {
			return lang.Ref{Path: f.Path, Symbol: c.Qual + "." + c.Name}, true
		}
		name = c.Qual + "." + c.Name
	}
	// Through the use that binds the name (or the qualifier).
	bound := c.Name
	if c.Qual != "" {
		bound = c.Qual
	}
	var found []lang.Ref
	for i, imp := range f.Imports {
		last := strings.TrimPrefix(imp, "mod ")
		if j := strings.LastIndex(last, "::"); j >= 0 {
			last = last[j+2:]
		}
		if f.ImportNames[i] != bound && (f.ImportNames[i] != "" || last != bound) {
			continue
		}
		file, why := l.resolve(f, imp)
		target := l.byPath[file]
		if why != "" || target == nil || file == f.Path {
			continue
		}
		sym := name
		if c.Qual != "" && c.Qual[0] >= 'a' && c.Qual[0] <= 'z' {
			sym = c.Name // m::f(): f in module m's file
		}
		if s, ok, _ := target.Lookup(sym); ok && (c.Qual != "" || s.Kind != lang.KindType) {
			found = append(found, lang.Ref{Path: file, Symbol: sym})
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return lang.Ref{}, false
}
