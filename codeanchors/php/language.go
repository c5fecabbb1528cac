package php

import (
	"encoding/json"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the PHP plug-in: [Extract] for symbols and tokens, imports
// resolved through composer.json's PSR-4 and PSR-0 autoload maps, PHPUnit
// JUnit reports matched by file and method ([MatchTests]).
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "php" }
func (language) Extensions() []string { return []string{".php"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is composer.json, whose autoload maps
// namespaces to folders.
func (language) ProjectFile(name string) bool { return name == "composer.json" }

// IsTest reports whether the symbol of the file at p is a PHPUnit test by
// name: the file itself or a test* method of a *Test.php file. #[Test]
// methods are seen by [Extract].
func (language) IsTest(p, symbol string) bool { return IsTest(p, symbol) }

// IsTest is [Language]'s IsTest.
func IsTest(p, symbol string) bool {
	if !isTestFile(p) {
		return false
	}
	if symbol == "" {
		return true
	}
	_, m, ok := strings.Cut(symbol, ".")
	return ok && strings.HasPrefix(strings.ToLower(m), "test")
}

func isTestFile(p string) bool { return strings.HasSuffix(path.Base(p), "Test.php") }

// autoload is one namespace prefix mapped to a folder by a composer.json.
type autoload struct {
	prefix string // with its trailing backslash, "" for the fallback
	dir    string // root-relative, slash-separated, no trailing slash
	psr0   bool
}

type linker struct {
	maps  []autoload
	files map[string]*lang.File
	funcs map[string][]string // function name (lower case) -> paths
	types map[string][]string // class name (lower case) -> paths
}

// Link resolves imports through the composer.json files of project.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	l := &linker{files: map[string]*lang.File{}, funcs: map[string][]string{}, types: map[string][]string{}}
	for p, data := range project {
		var c struct {
			Autoload, AutoloadDev struct {
				PSR4 map[string]json.RawMessage `json:"psr-4"`
				PSR0 map[string]json.RawMessage `json:"psr-0"`
			}
		}
		var raw map[string]json.RawMessage
		if json.Unmarshal(data, &raw) != nil {
			continue
		}
		_ = json.Unmarshal(raw["autoload"], &c.Autoload)
		_ = json.Unmarshal(raw["autoload-dev"], &c.AutoloadDev)
		base := path.Dir(p)
		for _, a := range []struct {
			m    map[string]json.RawMessage
			psr0 bool
		}{{c.Autoload.PSR4, false}, {c.AutoloadDev.PSR4, false}, {c.Autoload.PSR0, true}, {c.AutoloadDev.PSR0, true}} {
			for prefix, v := range a.m {
				var dirs []string
				var one string
				if json.Unmarshal(v, &one) == nil {
					dirs = []string{one}
				} else {
					_ = json.Unmarshal(v, &dirs)
				}
				for _, d := range dirs {
					l.maps = append(l.maps, autoload{prefix, path.Clean(path.Join(base, d)), a.psr0})
				}
			}
		}
	}
	// Longest prefix first, then by folder, for a deterministic choice.
	sort.Slice(l.maps, func(i, j int) bool {
		a, b := l.maps[i], l.maps[j]
		if len(a.prefix) != len(b.prefix) {
			return len(a.prefix) > len(b.prefix)
		}
		return a.dir < b.dir
	})
	for _, f := range files {
		l.files[f.Path] = f
		for _, s := range f.Symbols {
			if strings.Contains(s.Name, ".") {
				continue
			}
			n := strings.ToLower(s.Name)
			if s.Kind == lang.KindType {
				l.types[n] = append(l.types[n], f.Path)
			} else {
				l.funcs[n] = append(l.funcs[n], f.Path)
			}
		}
	}
	return l
}

// Imports maps each use of a class to the file its autoload rule names. An
// import under a prefix some composer.json maps that names no file is
// unresolved; an import no map covers (PHP's own classes, vendor code) is
// third-party and neither.
func (l *linker) Imports(f *lang.File) (files, unresolved []string) {
	for _, imp := range f.Imports {
		matched, found := false, ""
		for _, m := range l.maps {
			if !strings.HasPrefix(imp, m.prefix) {
				continue
			}
			matched = true
			rest := imp[len(m.prefix):]
			var rel string
			if m.psr0 {
				rel = strings.ReplaceAll(imp, `\`, "/")
				if i := strings.LastIndexByte(rel, '/'); i >= 0 {
					rel = rel[:i+1] + strings.ReplaceAll(rel[i+1:], "_", "/")
				}
			} else {
				rel = strings.ReplaceAll(rest, `\`, "/")
			}
			p := path.Join(m.dir, rel+".php")
			if _, ok := l.files[p]; ok {
				found = p
				break
			}
		}
		switch {
		case found != "":
			if !slices.Contains(files, found) {
				files = append(files, found)
			}
		case matched:
			unresolved = append(unresolved, imp)
		}
	}
	slices.Sort(files)
	return files, unresolved
}

// ResolveCall resolves f(...) to the one function of that name in the
// workspace and Name::m(...) to the method m of the one class Name; a
// receiver call $x->m(...) is never resolved (no types here).
func (l *linker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	switch c.Qual {
	case "":
		if ps := l.funcs[strings.ToLower(c.Name)]; len(ps) == 1 {
			if s, ok, _ := l.files[ps[0]].Lookup(c.Name); ok && s.Kind == lang.KindFunc {
				return lang.Ref{Path: ps[0], Symbol: s.Name}, true
			}
		}
	case ".", "self", "static", "parent":
		if c.Qual == "self" || c.Qual == "static" {
			cls, _, _ := strings.Cut(c.From, ".")
			if _, ok, _ := f.Lookup(cls + "." + c.Name); ok && cls != c.From {
				return lang.Ref{Path: f.Path, Symbol: cls + "." + c.Name}, true
			}
		}
	default:
		if ps := l.types[strings.ToLower(c.Qual)]; len(ps) == 1 {
			if s, ok, _ := l.files[ps[0]].Lookup(c.Qual + "." + c.Name); ok {
				return lang.Ref{Path: ps[0], Symbol: s.Name}, true
			}
		}
	}
	return lang.Ref{}, false
}

// MatchTests matches PHPUnit's JUnit XML: a testcase's file attribute is
// the test file (absolute in PHPUnit's reports, so compared by its end),
// its classname the class with dots for backslashes and its name the
// method, followed by " with data set ..." for a data provider. A target
// Class.method stands for that method's cases, Class for its class's and a
// whole file for every test of the file; none unless the report has every
// test the target names.
func MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	var cls, method string
	if t.Symbol != "" {
		var ok bool
		cls, method, ok = strings.Cut(t.Symbol, ".")
		if !ok {
			method = ""
		}
	}
	inFile := func(r lang.TestResult) bool {
		f := strings.ReplaceAll(r.File, `\`, "/")
		return f == t.Path || strings.HasSuffix(f, "/"+t.Path)
	}
	className := func(r lang.TestResult) string {
		s := strings.ReplaceAll(r.Suite, `\`, ".")
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			s = s[i+1:]
		}
		return s
	}
	methodName := func(r lang.TestResult) string {
		n, _, _ := strings.Cut(r.Name, " with data set")
		return n
	}
	// The tests the target names, to require them all.
	var want []string
	if method != "" {
		want = []string{cls + "." + method}
	} else if in.File != nil {
		if f := in.File(t.Path); f != nil {
			for _, s := range f.Symbols {
				if s.Kind == lang.KindTest && (cls == "" || strings.HasPrefix(s.Name, cls+".")) {
					want = append(want, s.Name)
				}
			}
		}
	}
	var out []lang.TestResult
	seen := map[string]bool{}
	for _, r := range results {
		if r.File != "" && !inFile(r) {
			continue
		}
		if r.File == "" && cls == "" {
			continue
		}
		c, m := className(r), methodName(r)
		if cls != "" && c != cls || method != "" && m != method {
			continue
		}
		out = append(out, r)
		seen[c+"."+m] = true
	}
	for _, w := range want {
		if !seen[w] {
			return nil
		}
	}
	return out
}

func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	return MatchTests(t, results, in)
}
