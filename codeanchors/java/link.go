package java

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// linker resolves Java imports to workspace files and calls to the
// definitions they name, without running a build tool or type checking.
//
// A class's fully qualified name is found two ways: from each file's
// package declaration and top-level types (what javac goes by), and from
// the file's path below a source root (a/b/C.java below a root is a.b.C).
// Source roots are declared by the project files, as far as they are
// declarative: every pom.xml's folder gives src/main/java and src/test/java,
// or its <sourceDirectory> and <testSourceDirectory>, and the <source>
// folders of build-helper-maven-plugin; every build.gradle and
// build.gradle.kts folder gives src/main/java and src/test/java and the
// string literals of its srcDir and srcDirs settings. Nothing is evaluated:
// a property or a computed path is not a root.
//
// An import is unresolved (listed) when it looks like workspace code but
// names no workspace class: its first two components are those of a
// package the workspace declares.
type linker struct {
	byPath   map[string]*lang.File
	classes  map[string]string   // fully qualified top-level class → file
	packages map[string][]string // package → its files, sorted
	prefixes map[string]bool     // first two components of workspace packages
}

func newLinker(files []*lang.File, project map[string][]byte) *linker {
	l := &linker{byPath: map[string]*lang.File{}, classes: map[string]string{},
		packages: map[string][]string{}, prefixes: map[string]bool{}}
	var roots []string
	for _, p := range slices.Sorted(maps.Keys(project)) {
		roots = append(roots, projectRoots(p, project[p])...)
	}
	slices.Sort(roots)
	roots = slices.Compact(roots)
	add := func(class, file string) {
		if _, dup := l.classes[class]; !dup {
			l.classes[class] = file
		}
	}
	for _, f := range slices.SortedFunc(slices.Values(files), func(a, b *lang.File) int { return strings.Compare(a.Path, b.Path) }) {
		l.byPath[f.Path] = f
		pkg := f.Package
		if pkg == "" {
			pkg = rootPackage(roots, f.Path)
		}
		l.packages[pkg] = append(l.packages[pkg], f.Path)
		if pkg != "" {
			l.prefixes[firstTwo(pkg)] = true
		}
		for _, s := range f.Symbols {
			if !strings.Contains(s.Name, ".") { // a top-level symbol is a type
				add(qualify(f.Package, s.Name), f.Path)
			}
		}
		stem := strings.TrimSuffix(path.Base(f.Path), ".java")
		add(qualify(f.Package, stem), f.Path)
		if rp := rootPackage(roots, f.Path); rp != "" {
			add(qualify(rp, stem), f.Path)
		}
	}
	return l
}

// isTypeSymbol reports whether the symbol name of f is a type: a top-level
// one, one of kind type, or one that has members (a test class).
func isTypeSymbol(f *lang.File, name string) bool {
	if !strings.Contains(name, ".") {
		return true
	}
	for _, s := range f.Symbols {
		if s.Name == name && s.Kind == lang.KindType || strings.HasPrefix(s.Name, name+".") {
			return true
		}
	}
	return false
}

// qualify joins the non-empty parts of a dotted name.
func qualify(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), ".")
}

func firstTwo(pkg string) string {
	parts := strings.SplitN(pkg, ".", 3)
	return strings.Join(parts[:min(len(parts), 2)], ".")
}

// rootPackage returns the package that p's folder stands for below the
// longest source root holding it, "" when none does.
func rootPackage(roots []string, p string) string {
	best := ""
	for _, r := range roots {
		if strings.HasPrefix(p, r+"/") && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return ""
	}
	dir := path.Dir(strings.TrimPrefix(p, best+"/"))
	if dir == "." {
		return ""
	}
	return strings.ReplaceAll(dir, "/", ".")
}

// Patterns of the declarative parts of project files.
var (
	mavenDirRe   = regexp.MustCompile(`<(sourceDirectory|testSourceDirectory|source)>\s*([^<]*?)\s*</`)
	gradleSrcRe  = regexp.MustCompile(`\bsrcDirs?\b[^\n]*`)
	gradleQuoted = regexp.MustCompile(`["']([^"'$]+)["']`)
)

// projectRoots returns the source roots a project file at p declares,
// root-relative; a path that leaves the workspace is no root.
func projectRoots(p string, data []byte) []string {
	dir := path.Dir(p)
	var rels []string
	switch base := path.Base(p); base {
	case "pom.xml":
		main, test := "src/main/java", "src/test/java"
		for _, m := range mavenDirRe.FindAllStringSubmatch(string(data), -1) {
			v := strings.TrimPrefix(strings.TrimPrefix(m[2], "${project.basedir}/"), "${basedir}/")
			if strings.Contains(v, "${") {
				continue
			}
			switch m[1] {
			case "sourceDirectory":
				main = v
			case "testSourceDirectory":
				test = v
			default:
				rels = append(rels, v)
			}
		}
		rels = append(rels, main, test)
	case "build.gradle", "build.gradle.kts":
		rels = append(rels, "src/main/java", "src/test/java")
		for _, line := range gradleSrcRe.FindAllString(string(data), -1) {
			for _, m := range gradleQuoted.FindAllStringSubmatch(line, -1) {
				rels = append(rels, m[1])
			}
		}
	}
	var roots []string
	for _, r := range rels {
		j := path.Join(dir, r)
		if path.IsAbs(r) || j == ".." || strings.HasPrefix(j, "../") {
			continue
		}
		roots = append(roots, j)
	}
	return roots
}

// class returns the file of the class named by the dotted name, trying
// shorter prefixes for nested classes (a.b.Outer.Inner is in a.b.Outer's
// file), and the name of the class below its top-level class ("" for a
// top-level class).
func (l *linker) class(name string) (file, nested string, ok bool) {
	for n := name; strings.Contains(n, "."); n = n[:strings.LastIndexByte(n, '.')] {
		if f, ok := l.classes[n]; ok {
			return f, strings.TrimPrefix(name[len(n):], "."), true
		}
	}
	return "", "", false
}

// Imports returns the workspace files f imports: a class's file, every
// non-test file of a package imported on demand; and the imports that look
// like workspace code but resolve to no file.
func (l *linker) Imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		name, static := strings.CutPrefix(imp, "static ")
		name, star := strings.CutSuffix(name, ".*")
		if static && !star {
			name = name[:max(strings.LastIndexByte(name, '.'), 0)] // the member's class
		}
		if file, _, ok := l.class(name); ok {
			files = append(files, file)
			continue
		}
		if star {
			if pkg, ok := l.packages[name]; ok {
				for _, p := range pkg {
					if !lang.IsTest(Language, p, "") {
						files = append(files, p)
					}
				}
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

// ResolveCall resolves a call to exactly one definition: a method of
// the caller's own class or an enclosing one, a constructor or static
// member of a class of the file, of its package or imported by name, or a
// statically imported method. Calls on variables and longer expressions
// are not resolved: without types, the class is unknown.
func (l *linker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	switch c.Qual {
	case "":
		for scope := c.From; strings.Contains(scope, "."); {
			scope = scope[:strings.LastIndexByte(scope, '.')]
			if r, ok := symbolRef(f, scope+"."+c.Name); ok {
				return r, true
			}
			if _, ok, amb := f.Lookup(scope + "." + c.Name); amb || ok {
				return lang.Ref{}, false
			}
		}
		for _, imp := range f.Imports {
			if name, ok := strings.CutPrefix(imp, "static "); ok && strings.HasSuffix(name, "."+c.Name) {
				return l.member(strings.TrimSuffix(name, "."+c.Name), c.Name)
			}
		}
	case "new":
		return l.typeMember(f, c.Name, c.Name, true)
	case ".", "this", "super":
	default:
		return l.typeMember(f, c.Qual, c.Name, false)
	}
	return lang.Ref{}, false
}

// typeMember resolves member of the class written simple in f: a class of
// f itself, one imported by name, or one of f's package. A constructor call
// (ctor) resolves to the class when it declares no constructor.
func (l *linker) typeMember(f *lang.File, simple, member string, ctor bool) (lang.Ref, bool) {
	var qualified string
	for _, s := range f.Symbols {
		if (s.Name == simple || strings.HasSuffix(s.Name, "."+simple)) && isTypeSymbol(f, s.Name) {
			if qualified != "" {
				return lang.Ref{}, false // two classes of that name
			}
			qualified = qualify(f.Package, s.Name)
		}
	}
	if qualified == "" {
		for _, imp := range f.Imports {
			if !strings.HasPrefix(imp, "static ") && strings.HasSuffix(imp, "."+simple) {
				qualified = imp
			}
		}
	}
	if qualified == "" {
		qualified = qualify(f.Package, simple)
	}
	r, ok := l.member(qualified, member)
	if !ok && ctor {
		file, nested, found := l.class(qualified)
		if found {
			return symbolRef(l.byPath[file], qualify(topLevel(qualified, nested), nested))
		}
	}
	return r, ok
}

// member resolves the member of the class with the qualified name.
func (l *linker) member(class, member string) (lang.Ref, bool) {
	file, nested, ok := l.class(class)
	if !ok {
		return lang.Ref{}, false
	}
	return symbolRef(l.byPath[file], qualify(topLevel(class, nested), nested, member))
}

// topLevel returns the simple name of the top-level class of class, whose
// part below that class is nested.
func topLevel(class, nested string) string {
	outer := strings.TrimSuffix(strings.TrimSuffix(class, nested), ".")
	return outer[strings.LastIndexByte(outer, '.')+1:]
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
