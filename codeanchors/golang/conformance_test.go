//go:build conformance

package golang

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// conformanceTrees are the GOROOT/src trees TestGoConformance reads with
// -short: generics, build tags, platform files, grouped types, external test
// packages. Without -short it reads all of GOROOT/src (about 10 s).
var conformanceTrees = []string{
	"net/http", "go", "encoding", "sort", "strings", "bytes", "fmt", "slices",
	"maps", "sync", "reflect", "text/template", "os", "iter", "unique",
}

// TestGoConformance checks Extract against an independent derivation of
// the same facts: go/doc, reading each package of real Go code with all
// declarations and methods. Every func, method and type go/doc reports must
// be a symbol of the file that declares it, with the line range of its
// declaration, unless that file defines the name twice.
func TestGoConformance(t *testing.T) {
	start := time.Now()
	trees := []string{""}
	if testing.Short() {
		trees = conformanceTrees
	}
	var files []goSource
	for _, dir := range trees {
		files = append(files, readGoTree(t, dir)...)
	}

	// Group the files into packages: one per directory and package name, so
	// in-package tests join their package and external tests stand alone.
	type pkgKey struct{ dir, name string }
	var keys []pkgKey
	pkgs := map[pkgKey][]goSource{}
	extracted := map[string]*lang.File{}
	var nfiles, nsyms int
	for _, f := range files {
		x, err := Extract(f.path, f.src)
		hdr, perr := parser.ParseFile(token.NewFileSet(), f.path, f.src, parser.PackageClauseOnly)
		if (err == nil) != (perr == nil) {
			t.Errorf("%s: Extract error %v, go/parser error %v", f.path, err, perr)
			continue
		}
		if err != nil {
			continue // GOROOT keeps a few files that are not Go on purpose
		}
		nfiles++
		nsyms += len(x.Symbols) + len(x.Ambiguous)
		extracted[f.path] = x
		k := pkgKey{path.Dir(f.path), hdr.Name.Name}
		if _, ok := pkgs[k]; !ok {
			keys = append(keys, k)
		}
		pkgs[k] = append(pkgs[k], f)
	}

	var agreed, total, ambiguous int
	var fails []string
	fail := func(format string, args ...any) {
		fails = append(fails, fmt.Sprintf(format, args...))
	}
	for _, k := range keys {
		fset := token.NewFileSet()
		var asts []*ast.File
		for _, f := range pkgs[k] {
			// go/doc reads only the examples of a _test.go file; under a
			// name ending in .go.go every declaration counts.
			af, err := parser.ParseFile(fset, f.path+".go", f.src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("go/parser: %v", err)
			}
			asts = append(asts, af)
		}
		p, err := doc.NewFromFiles(fset, asts, k.dir, doc.AllDecls|doc.AllMethods|doc.PreserveAST)
		if err != nil {
			t.Fatalf("go/doc %s: %v", k.dir, err)
		}

		// check compares one go/doc declaration with Extract's symbol.
		docNames := map[string]bool{}
		check := func(name, kind string, decl ast.Node) {
			docNames[name] = true
			if strings.HasPrefix(name, "_.") || strings.HasSuffix(name, "._") || name == "_" {
				return // blank names are not symbols
			}
			total++
			startPos := fset.PositionFor(decl.Pos(), false)
			file := strings.TrimSuffix(startPos.Filename, ".go")
			start, end := startPos.Line, fset.PositionFor(decl.End()-1, false).Line
			x := extracted[file]
			s, ok, amb := x.Lookup(name)
			switch {
			case amb:
				ambiguous++
			case !ok:
				fail("%s: go/doc %s %s at %d-%d: no such symbol", file, kind, name, start, end)
			case s.Start != start || s.End != end:
				fail("%s: %s: lines %d-%d, go/doc says %d-%d", file, name, s.Start, s.End, start, end)
			case (s.Kind == lang.KindTest) != lang.IsTest(Language, file, name) || s.Kind != lang.KindTest && s.Kind != kind:
				fail("%s: %s: kind %s, want %s", file, name, s.Kind, kind)
			default:
				agreed++
			}
		}
		for _, f := range p.Funcs {
			check(f.Name, lang.KindFunc, f.Decl)
		}
		for _, typ := range p.Types {
			if typ.Decl == nil {
				continue
			}
			check(typ.Name, lang.KindType, typ.Decl)
			for _, f := range typ.Funcs {
				check(f.Name, lang.KindFunc, f.Decl)
			}
			for _, m := range typ.Methods {
				if m.Level == 0 { // promoted methods belong to the embedded type
					check(typ.Name+"."+m.Name, lang.KindMethod, m.Decl)
				}
			}
		}
		// The other way round: go/doc merges a name declared in several
		// files (one per build tag) into one, so compare names only.
		for _, f := range pkgs[k] {
			for _, s := range extracted[f.path].Symbols {
				if !docNames[s.Name] {
					fail("%s: %s %s at %d-%d: unknown to go/doc", f.path, s.Kind, s.Name, s.Start, s.End)
				}
			}
		}
	}

	t.Logf("%d files, %d packages, %d symbols extracted; go/doc: %d/%d agreed, %d ambiguous in their file, in %v",
		nfiles, len(keys), nsyms, agreed, total, ambiguous, time.Since(start).Round(time.Millisecond))
	if total < 10000 {
		t.Errorf("go/doc found only %d declarations; the corpus is missing", total)
	}
	for _, f := range fails[:min(len(fails), 50)] {
		t.Error(f)
	}
	if len(fails) > 50 {
		t.Errorf("... and %d more disagreements", len(fails)-50)
	}
}
