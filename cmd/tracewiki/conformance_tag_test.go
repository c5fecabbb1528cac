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

	"github.com/rogpeppe/go-internal/txtar"
)

// conformanceTag is the build tag of the tests that need more than Go:
// test.sh (and so CI) always sets it; a plain "go test ./..." leaves them
// out and needs nothing but Go.
const conformanceTag = "conformance"

// plainPrograms are the programs a test without the tag may run, each
// with the subcommands it may run them with: the Go toolchain (only as
// "go env": "go mod download" fetches from the network), the tracewiki
// binary testscript installs from this package, git, which tracewiki
// itself runs (relink, impact, forge links, verified texts), on a local
// repository, and the POSIX tools every system has.
var plainPrograms = map[string]func(sub string) bool{
	"go":        func(sub string) bool { return sub == "env" },
	"tracewiki": anySub,
	"git":       func(sub string) bool { return !gitNetwork[sub] },
	"true":      anySub,
	"ls":        anySub,
	"mkfifo":    anySub,
}

// gitNetwork are git's subcommands that reach another repository: a test
// of a real repository needs the tag.
var gitNetwork = map[string]bool{"clone": true, "fetch": true, "pull": true, "ls-remote": true, "submodule": true}

func anySub(string) bool { return true }

// systemRoots are the folders whose files Debian's packages install: the
// corpora of the conformance tests (PHP and Ruby libraries, C headers,
// GoogleTest and Rust sources, the JDK's).
var systemRoots = []string{"/usr/share", "/usr/lib", "/usr/src", "/usr/include"}

// toolHelpers are the langtest functions that install or run a reference
// from outside Go; they build only with the tag.
var toolHelpers = map[string]bool{"NPM": true, "NPMPackage": true, "NPMCache": true, "RunReference": true}

// TestToolsNeedTheConformanceTag checks that every test file that runs a
// program beside Go and git (an exec of a named program other than those
// of plainPrograms, a langtest reference or npm helper), drives a browser
// (imports chromedp) or reads what the system's packages install (a path
// under /usr/) builds only with the conformance tag, and that the CLI
// scripts, which cannot be tagged, run only plain programs. It reads the
// source, so a program named through a variable or a function's result is
// not seen; the langtest helpers and the browser helpers exist only in
// tagged files, so a test that calls them without the tag does not build.
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
	// The CLI scripts cannot be tagged: they may run plain programs only.
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no CLI scripts: %v", err)
	}
	for _, name := range scripts {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(a.Comment), "\n") {
			if use := scriptExec(line); use != "" {
				t.Errorf("%s:%d: %s; a CLI script may run only tracewiki and plain programs (TestScripts runs without the tag)", name, i+1, use)
			}
		}
	}
}

// scriptExec returns what a testscript line runs that a test without the
// tag may not ("runs node"), or "".
func scriptExec(line string) string {
	f := strings.Fields(line)
	for len(f) > 0 && (f[0] == "!" || strings.HasPrefix(f[0], "[")) {
		f = f[1:] // negation and conditions
	}
	if len(f) < 2 || f[0] != "exec" {
		return ""
	}
	sub := ""
	if len(f) > 2 {
		sub = f[2]
	}
	return program(path.Base(f[1]), sub)
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
				sub := ""
				if len(args) > 1 {
					sub, _ = str(args[1]) // "" when not a constant
				}
				if use := program(path.Base(prog), sub); use != "" {
					add(n, "%s", use)
				}
			}
		}
		return true
	})
	return uses
}

// program returns "runs PROG SUB" when a test without the tag may not run
// prog with its first argument sub, or "".
func program(prog, sub string) string {
	if ok := plainPrograms[prog]; ok != nil && ok(sub) {
		return ""
	}
	return strings.TrimSpace("runs " + prog + " " + sub)
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
