package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// notSource lists string literals outside the language packages that name
// an extension of a registered language for another reason than source
// code: the site's own JavaScript, served and written as a web asset.
var notSource = map[string]bool{
	"site/render:api/search.js":       true, // the search index, a script the pages load
	"site/render:api/search-%s-%d.js": true, // and its shards, by kind
	"site/serve:.js":                  true, // the Content-Type of served scripts
}

// TestLanguageKnowledgeStaysInItsPackage checks that a language package is
// the only place its file extensions and project files appear: no string
// literal of the other non-test code names a registered extension (".go",
// "*_test.go", "**/*.tsx") or is the name of a project file ("go.mod").
// Test files, the standalone bench generator and texts of several lines
// (init's starter files) are not checked: fixtures, sample workspaces and
// examples for people name files of every language.
func TestLanguageKnowledgeStaysInItsPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	owner := map[string]string{} // extension → its language's package
	var exts []string
	for _, l := range codeanchors.Default.Languages() {
		for _, ext := range l.Extensions() {
			owner[ext] = l.Name()
			exts = append(exts, regexp.QuoteMeta(ext))
		}
	}
	extRE := regexp.MustCompile(`(` + strings.Join(exts, "|") + `)($|[^A-Za-z0-9])`)
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "bench" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if languagePackage(pkg) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || notSource[pkg+":"+s] || strings.Contains(s, "\n") {
				// A text of several lines is prose for people, such as
				// the examples in init's starter files.
				return true
			}
			pos := fset.Position(lit.Pos())
			if m := extRE.FindStringSubmatch(s); m != nil {
				t.Errorf("%s:%d: %q names %s, an extension of the %s language: only its package may know it", pos.Filename, pos.Line, s, m[1], owner[m[1]])
			}
			if base := s[strings.LastIndexByte(s, '/')+1:]; base != "" && codeanchors.Default.ProjectFile(base) {
				t.Errorf("%s:%d: %q is a language's project file: only its package may know it", pos.Filename, pos.Line, s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked %d files; the walk is broken", checked)
	}
}

// TestEveryLanguageHasThePropertyTests checks that the package of every
// registered language runs the shared property tests: a fuzz target and
// the context-free hash property, directly or through a langtest.Suite
// (codeanchors/lang/doc.go, step 11).
func TestEveryLanguageHasThePropertyTests(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, l := range codeanchors.Default.Languages() {
		pkg := strings.TrimPrefix(reflect.TypeOf(l).PkgPath(), module+"/")
		tests, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pkg), "*_test.go"))
		if err != nil || len(tests) == 0 {
			t.Errorf("%s (%s): no tests", l.Name(), pkg)
			continue
		}
		var all []byte
		for _, name := range tests {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, data...)
		}
		// A langtest.Suite runs the context-free property in its Run.
		for _, want := range [][]string{{"langtest.ExpectContextFree(", "langtest.Suite{"}, {"func Fuzz"}} {
			if !slices.ContainsFunc(want, func(w string) bool { return strings.Contains(string(all), w) }) {
				t.Errorf("%s (%s): no test calls %s", l.Name(), pkg, strings.Join(want, " or "))
			}
		}
	}
}
