package kotlin

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// ProjectFile reports whether name is a Gradle build or settings script,
// which declare source roots and modules.
func (language) ProjectFile(name string) bool {
	switch name {
	case "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts":
		return true
	}
	return false
}

// Link resolves imports and calls; see linker.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newLinker(files, project)
}

// linker resolves Kotlin imports to workspace files and calls to the
// definitions they name, without running Gradle or type checking.
//
// Kotlin names a declaration by its file's package header, whatever the
// file's path (a package spans files and folders), so a workspace file's
// top-level declarations are known by package + name: types, functions
// and extension functions (by their simple name, as an import writes
// them). The source roots are what the Gradle files declare, as far as
// they are declarative: each build.gradle(.kts) folder, and each module a
// settings.gradle(.kts) include(":a:b") names (folder a/b), gives
// src/main/kotlin, src/main/java, src/test/kotlin and src/test/java and
// the string literals of its srcDir and srcDirs settings. Nothing is
// evaluated: a property or a computed path is not a root. When the
// project declares roots, only the files below them are importable
// (scripts and samples elsewhere are not), else every file is.
//
// An import of a workspace package resolves to the file that declares the
// name, or, when no file declares it as a symbol (a top-level property or
// constant), to the package's non-test files; a star import to the
// package's non-test files. An import is unresolved (listed) when it looks
// like workspace code but resolves to nothing: its first two components
// are those of a package the workspace declares. Java files are another
// language's: an import of a Java class of the workspace is unresolved
// here.
type linker struct {
	byPath   map[string]*lang.File
	decls    map[string][]string // package.Name → files declaring it at top level, sorted
	packages map[string][]string // package → its importable files, sorted
	prefixes map[string]bool     // first two components of workspace packages
}

func newLinker(files []*lang.File, project map[string][]byte) *linker {
	l := &linker{byPath: map[string]*lang.File{}, decls: map[string][]string{},
		packages: map[string][]string{}, prefixes: map[string]bool{}}
	roots := sourceRoots(project)
	for _, f := range slices.SortedFunc(slices.Values(files), func(a, b *lang.File) int { return strings.Compare(a.Path, b.Path) }) {
		l.byPath[f.Path] = f
		if len(roots) > 0 && !slices.ContainsFunc(roots, func(r string) bool { return r == "." || strings.HasPrefix(f.Path, r+"/") }) {
			continue
		}
		l.packages[f.Package] = append(l.packages[f.Package], f.Path)
		if f.Package != "" {
			l.prefixes[firstTwo(f.Package)] = true
		}
		names := map[string]bool{}
		for _, s := range f.Symbols {
			names[topName(s.Name, f)] = true
		}
		for _, a := range f.Ambiguous {
			names[topName(a, f)] = true
		}
		for n := range names {
			if n != "" {
				q := qualify(f.Package, n)
				l.decls[q] = append(l.decls[q], f.Path)
			}
		}
	}
	return l
}

// topName returns the name an import uses for a symbol of f: a top-level
// type or function as it is, an extension function Receiver.f by f; ""
// for a member.
func topName(name string, f *lang.File) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return name
	}
	for _, s := range f.Symbols {
		if s.Name == name {
			if s.Kind == lang.KindFunc {
				return name[i+1:] // an extension function
			}
			break
		}
	}
	return ""
}

func qualify(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), ".")
}

func firstTwo(pkg string) string {
	parts := strings.SplitN(pkg, ".", 3)
	return strings.Join(parts[:min(len(parts), 2)], ".")
}

// Patterns of the declarative parts of Gradle files.
var (
	gradleSrcRe     = regexp.MustCompile(`\bsrcDirs?\b[^\n]*`)
	gradleQuoted    = regexp.MustCompile(`["']([^"'$]+)["']`)
	gradleIncludeRe = regexp.MustCompile(`\binclude\b\s*\(?([^\n)]*)`)
)

// defaultRoots are the source roots every Gradle module has.
var defaultRoots = []string{"src/main/kotlin", "src/main/java", "src/test/kotlin", "src/test/java"}

// sourceRoots returns the source roots the Gradle files of project
// declare, root-relative and sorted; a path that leaves the workspace is
// no root.
func sourceRoots(project map[string][]byte) []string {
	var roots []string
	add := func(dir, rel string) {
		j := path.Join(dir, rel)
		if path.IsAbs(rel) || j == ".." || strings.HasPrefix(j, "../") {
			return
		}
		roots = append(roots, j)
	}
	for _, p := range slices.Sorted(maps.Keys(project)) {
		dir, data := path.Dir(p), string(project[p])
		switch path.Base(p) {
		case "build.gradle", "build.gradle.kts":
			for _, r := range defaultRoots {
				add(dir, r)
			}
			for _, line := range gradleSrcRe.FindAllString(data, -1) {
				for _, m := range gradleQuoted.FindAllStringSubmatch(line, -1) {
					add(dir, m[1])
				}
			}
		case "settings.gradle", "settings.gradle.kts":
			for _, line := range gradleIncludeRe.FindAllStringSubmatch(data, -1) {
				for _, m := range gradleQuoted.FindAllStringSubmatch(line[1], -1) {
					mod := strings.ReplaceAll(strings.TrimPrefix(m[1], ":"), ":", "/")
					for _, r := range defaultRoots {
						add(path.Join(dir, mod), r)
					}
				}
			}
		}
	}
	slices.Sort(roots)
	return slices.Compact(roots)
}

// Imports returns the workspace files f imports, and the imports that look
// like workspace code but resolve to no file.
func (l *linker) Imports(f *lang.File) (files, unresolved []string) {
	nonTest := func(paths []string) {
		for _, p := range paths {
			if !lang.IsTest(Language, p, "") {
				files = append(files, p)
			}
		}
	}
	for _, imp := range f.Imports {
		name, star := strings.CutSuffix(imp, ".*")
		if star {
			if pkg, ok := l.packages[name]; ok {
				nonTest(pkg)
				continue
			}
		} else if file, ok := l.declaration(name); ok {
			files = append(files, file...)
			continue
		} else if i := strings.LastIndexByte(name, '.'); i > 0 {
			if pkg, ok := l.packages[name[:i]]; ok {
				nonTest(pkg) // a top-level property or constant
				continue
			}
		}
		if l.prefixes[firstTwo(name)] {
			unresolved = append(unresolved, imp)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), unresolved
}

// declaration returns the files that declare the dotted name at top level,
// trying shorter prefixes for nested names (a.b.Outer.Inner is declared in
// a.b.Outer's file).
func (l *linker) declaration(name string) ([]string, bool) {
	for n := name; strings.Contains(n, "."); n = n[:strings.LastIndexByte(n, '.')] {
		if files, ok := l.decls[n]; ok {
			return files, true
		}
	}
	return nil, false
}

// ResolveCall resolves a call to exactly one definition: a function of
// the caller's own type or an enclosing one, a top-level function or a
// type's constructor of the file, of its package or imported by name, or
// a function of a type named as the qualifier (an object, a companion's
// type) in the file or its package. Calls on variables and longer
// expressions are not resolved: without types, the receiver is unknown.
func (l *linker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	switch c.Qual {
	case "":
		for scope := c.From; strings.Contains(scope, "."); {
			scope = scope[:strings.LastIndexByte(scope, '.')]
			for _, name := range []string{scope + "." + c.Name, scope + ".Companion." + c.Name} {
				if _, ok, amb := f.Lookup(name); ok {
					return lang.Ref{Path: f.Path, Symbol: name}, true
				} else if amb {
					return lang.Ref{}, false
				}
			}
		}
		return l.top(f, c.Name, "")
	case ".", "this", "super":
		return lang.Ref{}, false
	}
	return l.top(f, c.Qual, c.Name)
}

// top resolves the top-level name (and, when member is not "", its member
// or its companion's) as f sees it: declared in f, imported by name, or
// declared in f's package. A constructor call resolves to the class's
// constructor symbol, or to the class.
func (l *linker) top(f *lang.File, name, member string) (lang.Ref, bool) {
	var explicit, star []string
	for i, imp := range f.Imports {
		switch {
		case f.ImportNames[i] == name || f.ImportNames[i] == "" && strings.HasSuffix(imp, "."+name):
			explicit = append(explicit, imp)
		case strings.HasSuffix(imp, ".*"):
			star = append(star, strings.TrimSuffix(imp, "*")+name)
		}
	}
	var files []string
	switch _, ok, amb := f.Lookup(name); {
	case ok || amb:
		files = []string{f.Path}
	case len(explicit) == 1:
		files, name = l.decls[explicit[0]], explicit[0]
	case len(explicit) == 0:
		// The file's package first, then the star imports: one of them
		// must declare the name, once.
		if d, ok := l.decls[qualify(f.Package, name)]; ok {
			files, name = d, qualify(f.Package, name)
			break
		}
		var qs []string
		for _, q := range star {
			if _, ok := l.decls[q]; ok {
				qs = append(qs, q)
			}
		}
		if len(qs) != 1 {
			return lang.Ref{}, false
		}
		files, name = l.decls[qs[0]], qs[0]
	}
	if len(files) != 1 {
		return lang.Ref{}, false
	}
	df := l.byPath[files[0]]
	simple := name[strings.LastIndexByte(name, '.')+1:]
	var tries []string
	if member == "" {
		tries = []string{simple + "." + simple, simple}
	} else {
		tries = []string{simple + "." + member, simple + ".Companion." + member}
	}
	for _, t := range tries {
		if _, ok, _ := df.Lookup(t); ok {
			return lang.Ref{Path: df.Path, Symbol: t}, true
		}
	}
	return lang.Ref{}, false
}
