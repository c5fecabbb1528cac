package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyURLsBuildPaths checks that urls.go is the only file of the
// package that builds page paths: no other file calls the functions that
// escape and join path segments, or writes a string that starts with a
// page folder.
func TestOnlyURLsBuildPaths(t *testing.T) {
	builders := map[string]bool{"pageURL": true, "segment": true, "pathSegments": true, "escapeSegment": true}
	folders := []string{"requirements/", "decisions/", "pages/", "code/", "tests/", "runs/", "documents/", "drift/", "search/"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if name == "urls.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.Field:
				return x.Tag == nil // a struct tag is no path
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && builders[id.Name] {
					t.Errorf("%s: %s builds a page path; use the URL function of urls.go", fset.Position(x.Pos()), id.Name)
				}
			case *ast.BasicLit:
				if x.Kind != token.STRING {
					break
				}
				s, err := strconv.Unquote(x.Value)
				if err != nil {
					break
				}
				for _, p := range folders {
					if strings.HasPrefix(s, p) {
						t.Errorf("%s: %q builds a page path; use the URL function of urls.go", fset.Position(x.Pos()), s)
					}
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked %d files; is the test running in the site folder?", checked)
	}
}
