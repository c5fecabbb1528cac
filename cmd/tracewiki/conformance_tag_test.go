package main

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// conformanceTag is the build tag of the tests that need more than Go:
// test.sh (and so CI) always sets it; a plain "go test ./..." leaves them
// out and needs nothing but Go.
const conformanceTag = "conformance"

// goOnlyPrograms are the programs a test without the tag may run: the Go
// toolchain (only as "go env": "go mod download" fetches from the
// network), the tracewiki binary testscript installs from this package,
// and true, which every system has.
var goOnlyPrograms = map[string]bool{"go": true, "tracewiki": true, "true": true}

// systemRoots are the folders whose files Debian's packages install: the
// corpora of the conformance tests (PHP and Ruby libraries, C headers,
// GoogleTest and Rust sources, the JDK's).
var systemRoots = []string{"/usr/share", "/usr/lib", "/usr/src", "/usr/include"}

// toolHelpers are the langtest functions that install or run a reference
// from outside Go; they build only with the tag.
var toolHelpers = map[string]bool{"NPM": true, "NPMPackage": true, "NPMCache": true, "RunReference": true}

// TestToolsNeedTheConformanceTag checks that every test file that runs a
// program beside Go (an exec of a named program other than those of
// goOnlyPrograms, a langtest reference or npm helper), drives a browser
// (imports chromedp) or reads what the system's packages install (a path
// under /usr/) builds only with the conformance tag. It reads the source,
// so a program named through a variable or a function's result is not
// seen; the langtest helpers and the browser helpers exist only in tagged
// files, so a test that calls them without the tag does not build.
func TestToolsNeedTheConformanceTag(t *testing.T) {
	root := filepath.Join("..", "..")
	self := filepath.Join(root, "cmd", "tracewiki", "conformance_tag_test.go")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files++
		if tagged(f) || p == self { // this file lists the paths it looks for
			return nil
		}
		for _, use := range outsideGo(fset, f) {
			t.Errorf("%s; the file needs //go:build %s (test.sh sets the tag)", use, conformanceTag)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d test files under %s", files, root)
	}
}

// tagged reports whether f builds only with the conformance tag: its
// //go:build line is false without the tag, whatever the other tags.
func tagged(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			return err == nil && !expr.Eval(func(tag string) bool { return tag != conformanceTag })
		}
	}
	return false
}

// outsideGo returns what f uses beyond Go, each as "file:line: what".
func outsideGo(fset *token.FileSet, f *ast.File) []string {
	var uses []string
	add := func(n ast.Node, format string, args ...any) {
		uses = append(uses, fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"github.com/chromedp/chromedp"` {
			add(imp, "imports chromedp (drives a browser)")
		}
	}
	consts := stringConsts(f)
	str := func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil && e.Kind == token.STRING
		case *ast.Ident:
			s, ok := consts[e.Name]
			return s, ok
		}
		return "", false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if s, ok := str(n); ok && systemPath(s) {
				add(n, "reads %s", s)
			}
		case *ast.CallExpr:
			pkg, name := callee(n)
			switch {
			case pkg == "langtest" && toolHelpers[name]:
				add(n, "calls langtest.%s", name)
			case pkg == "exec" && (name == "Command" || name == "LookPath" || name == "CommandContext"):
				args := n.Args
				if name == "CommandContext" && len(args) > 0 {
					args = args[1:]
				}
				if len(args) == 0 {
					break
				}
				prog, ok := str(args[0])
				if !ok {
					break // a program named at run time: not seen
				}
				if !goOnlyPrograms[path.Base(prog)] {
					add(n, "runs %s", prog)
				} else if prog == "go" && len(args) > 1 {
					if sub, ok := str(args[1]); !ok || sub != "env" {
						add(n, "runs go %s", sub)
					}
				}
			}
		}
		return true
	})
	return uses
}

// systemPath reports whether s is a path in one of systemRoots (a text
// that only mentions one, a command line say, is not).
func systemPath(s string) bool {
	for _, r := range systemRoots {
		if (s == r || strings.HasPrefix(s, r+"/")) && !strings.ContainsAny(s, " \t\n") {
			return true
		}
	}
	return false
}

// callee returns the package and function name of a call pkg.Name(...) or
// pkg.Name[T](...), or "" and "".
func callee(c *ast.CallExpr) (pkg, name string) {
	fun := c.Fun
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return id.Name, sel.Sel.Name
}

// stringConsts returns the string constants f declares, at any level,
// and the variables it sets once from a string literal (p := "..."): the
// names a program or a path is usually given by.
func stringConsts(f *ast.File) map[string]string {
	consts := map[string]string{}
	set := func(id *ast.Ident, e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				consts[id.Name] = s
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					set(id, n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						set(id, n.Rhs[i])
					}
				}
			}
		}
		return true
	})
	return consts
}
