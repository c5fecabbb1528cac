package ruby

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the Ruby plug-in: [Extract] for symbols and tokens, require
// and require_relative resolved through gemspec require_paths ([Link]),
// RSpec and minitest JUnit reports matched by file, class and method
// ([MatchTests]).
var Language lang.Language = language{}

type language struct{}

func (language) Name() string { return "ruby" }

// Extensions: Ruby sources, Rake files and gemspecs (the ones chroma's Ruby
// lexer knows). Files without an extension (Rakefile, Gemfile) and Rack's
// config.ru are not claimed.
func (language) Extensions() []string { return []string{".rb", ".rake", ".gemspec"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is a Gemfile or a *.gemspec, whose
// folder is a project root and whose require_paths are the load path.
func (language) ProjectFile(name string) bool { return isProjectFile(name) }

func isProjectFile(name string) bool {
	return name == "Gemfile" || strings.HasSuffix(name, ".gemspec") && len(name) > len(".gemspec")
}

// IsTest reports whether the symbol of the file at p is a test by name: an
// RSpec file (*_spec.rb) itself, whose describe and it blocks are no
// symbols; a minitest file (test_*.rb or *_test.rb) itself and its methods
// test_* of a class.
func (language) IsTest(p, symbol string) bool { return IsTest(p, symbol) }

// IsTest is [Language]'s IsTest.
func IsTest(p, symbol string) bool {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_spec.rb"):
		return symbol == ""
	case strings.HasSuffix(base, "_test.rb") || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".rb"):
		if symbol == "" {
			return true
		}
		i := strings.LastIndexByte(symbol, '.')
		return i > 0 && strings.HasPrefix(symbol[i+1:], "test_")
	}
	return false
}

var (
	requirePathsRE = regexp.MustCompile(`\.require_paths\s*=\s*(\[[^\]]*\]|%[wW]\s*[\[(]([^\])]*)[\])]|["'][^"']*["'])`)
	quotedRE       = regexp.MustCompile(`["']([^"']*)["']`)
	gemNameRE      = regexp.MustCompile(`\.name\s*=\s*["']([^"']+)["']`)
)

// loadPath reads a gemspec's require_paths (["lib"] when it has none or
// computes them) and its gem name, declaratively: the gemspec is never run.
func loadPath(spec []byte) (dirs []string, name string) {
	if m := gemNameRE.FindSubmatch(spec); m != nil {
		name = string(m[1])
	}
	m := requirePathsRE.FindSubmatch(spec)
	switch {
	case m == nil:
	case m[2] != nil:
		dirs = strings.Fields(string(m[2]))
	default:
		for _, q := range quotedRE.FindAllSubmatch(m[1], -1) {
			dirs = append(dirs, string(q[1]))
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"lib"}
	}
	return dirs, name
}

type linker struct {
	roots []string // load path folders, root-relative
	gems  map[string]bool
	tops  map[string]bool // the first parts of the files on the load path: "a" for lib/a.rb, lib/a/b.rb
	files map[string]*lang.File
	funcs map[string][]string // top-level def name -> paths
	// singles maps "Class.self.m" by the class's last name ("Foo.self.m"
	// for A::Foo) to the files defining it.
	singles map[string][]lang.Ref
}

// Link resolves requires through the project files: each *.gemspec's
// require_paths (default lib) below its folder, and a Gemfile's folder's
// lib; spec and test beside them, which RSpec and rake's test task put on
// the load path.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	l := &linker{gems: map[string]bool{}, files: map[string]*lang.File{}, funcs: map[string][]string{}, singles: map[string][]lang.Ref{}}
	for p, data := range project {
		dir := path.Dir(p)
		dirs := []string{"lib"}
		if strings.HasSuffix(p, ".gemspec") {
			var name string
			dirs, name = loadPath(data)
			if name != "" {
				l.gems[name] = true
			}
		}
		for _, d := range append(dirs, "spec", "test") {
			l.roots = append(l.roots, path.Join(dir, d))
		}
	}
	slices.Sort(l.roots)
	l.roots = slices.Compact(l.roots)
	l.tops = map[string]bool{}
	for _, f := range files {
		l.files[f.Path] = f
		for _, r := range l.roots {
			if rest, ok := strings.CutPrefix(f.Path, r+"/"); ok {
				first, _, _ := strings.Cut(rest, "/")
				l.tops[strings.TrimSuffix(first, ".rb")] = true
			}
		}
		for _, s := range f.Symbols {
			switch {
			case !strings.Contains(s.Name, "."):
				if s.Kind != lang.KindType {
					l.funcs[s.Name] = append(l.funcs[s.Name], f.Path)
				}
			case strings.Contains(s.Name, ".self."):
				cls, m, _ := strings.Cut(s.Name, ".self.")
				if i := strings.LastIndexByte(cls, '.'); i >= 0 {
					cls = cls[i+1:]
				}
				k := cls + ".self." + m
				l.singles[k] = append(l.singles[k], lang.Ref{Path: f.Path, Symbol: s.Name})
			}
		}
	}
	return l
}

// Imports resolves require_relative "x" against the file's folder and
// require "x" against the load path, each as x.rb. A require_relative
// that names no workspace file is unresolved, and so is a require whose
// first part is a gem of the workspace or a folder or file on its load
// path; any other require (the standard library, a gem) is third-party.
func (l *linker) Imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		feature := imp
		if !strings.HasSuffix(feature, ".rb") {
			feature += ".rb"
		}
		found := ""
		relative := strings.HasPrefix(imp, "./") || strings.HasPrefix(imp, "../")
		if relative {
			if p := path.Join(path.Dir(f.Path), feature); l.files[p] != nil {
				found = p
			}
		} else {
			for _, r := range l.roots {
				if p := path.Join(r, feature); l.files[p] != nil {
					found = p
					break
				}
			}
		}
		switch {
		case found != "":
			if !slices.Contains(files, found) {
				files = append(files, found)
			}
		case relative || l.own(imp):
			unresolved = append(unresolved, imp)
		}
	}
	slices.Sort(files)
	return files, unresolved
}

// own reports whether a require names the workspace's code: a gem it
// declares, or a file or folder on its load path.
func (l *linker) own(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	if l.gems[first] {
		return true
	}
	return l.tops[first]
}

// ResolveCall resolves name(...) to the method of the caller's class in
// the same file, else to the one top-level def of that name in the
// workspace; self.name to the caller's class's method; Const.name to the
// one singleton method Const.self.name (by the class's last name) in the
// workspace. A call on any other receiver is never resolved (no types).
func (l *linker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	cls := c.From
	if i := strings.LastIndexByte(cls, '.'); i >= 0 {
		cls = cls[:i]
	} else {
		cls = ""
	}
	cls = strings.TrimSuffix(cls, ".self")
	switch {
	case c.Qual == "" || c.Qual == "self":
		if cls != "" {
			for _, n := range []string{cls + "." + c.Name, cls + ".self." + c.Name} {
				if s, ok, _ := f.Lookup(n); ok {
					return lang.Ref{Path: f.Path, Symbol: s.Name}, true
				}
			}
		}
		if ps := l.funcs[c.Name]; c.Qual == "" && len(ps) == 1 {
			return lang.Ref{Path: ps[0], Symbol: c.Name}, true
		}
	case isUpper(c.Qual[0]):
		if rs := l.singles[c.Qual+".self."+c.Name]; len(rs) == 1 {
			return rs[0], true
		}
	}
	return lang.Ref{}, false
}

// MatchTests matches RSpec's and minitest's JUnit XML. rspec_junit_formatter
// gives each example its file ("./spec/a_spec.rb") and a classname made of
// that path ("spec.a_spec"): a whole-file target of a spec file stands for
// every example of the file (describe and it are no symbols). minitest's
// JUnit reporter gives the test class as classname (A::TestFoo) and the
// method as name: a target Class.test_x stands for that test, Class for
// the test methods of the class and a whole file for every test method in
// it; none unless the report has them all.
func MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	inFile := func(r lang.TestResult) bool {
		f := strings.TrimPrefix(strings.ReplaceAll(r.File, `\`, "/"), "./")
		if f == "" {
			module := strings.ReplaceAll(strings.TrimSuffix(t.Path, path.Ext(t.Path)), "/", ".")
			return r.Suite == module || strings.HasSuffix(module, "."+r.Suite)
		}
		return f == t.Path || strings.HasSuffix(t.Path, "/"+f) || strings.HasSuffix(f, "/"+t.Path)
	}
	var want []string
	if IsTest(t.Path, t.Symbol) && t.Symbol != "" {
		want = []string{t.Symbol}
	} else if in.File != nil {
		if f := in.File(t.Path); f != nil {
			for _, s := range f.Symbols {
				if s.Kind == lang.KindTest && (t.Symbol == "" || strings.HasPrefix(s.Name, t.Symbol+".")) {
					want = append(want, s.Name)
				}
			}
		}
	}
	var out []lang.TestResult
	if len(want) == 0 {
		if t.Symbol != "" {
			return nil
		}
		for _, r := range results {
			if inFile(r) {
				out = append(out, r)
			}
		}
		return out
	}
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = false
	}
	for _, r := range results {
		if r.File != "" && !inFile(r) {
			continue
		}
		k := strings.ReplaceAll(r.Suite, "::", ".") + "." + r.Name
		if _, ok := wanted[k]; ok {
			wanted[k] = true
			out = append(out, r)
		}
	}
	for _, seen := range wanted {
		if !seen {
			return nil
		}
	}
	return out
}

func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	return MatchTests(t, results, in)
}

// SymbolSyntax: a Ruby method name may end in '?', '!' or '='
// (Class.valid?, Class.save!, Class.name=).
func (language) SymbolSyntax() lang.SymbolSyntax { return lang.SymbolSyntax{Suffixes: "?!="} }
