package site

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNodeURLs checks the URL function against the output: the URL of
// every node of a built fixture's graph, relative and absolute, is a page
// the build wrote, and a URL with an anchor (a symbol on its file's page)
// names an element of that page.
func TestNodeURLs(t *testing.T) {
	for _, name := range []string{"shop", "reasons"} {
		s := buildSite(t, fixture(t, name), BuildOptions{BaseURL: "/preview/"}, 0)
		b := &builder{graph: s.Graph, baseURL: "/preview/"}
		if len(s.Graph.Nodes) == 0 {
			t.Fatalf("%s: empty graph", name)
		}
		anchors := 0
		for _, n := range s.Graph.Nodes {
			u := nodeURL(n)
			if b.relURL(n.ID) != u || b.absURL(n.ID) != "/preview/"+u {
				t.Errorf("%s: %s: relURL %q, absURL %q, nodeURL %q", name, n.ID, b.relURL(n.ID), b.absURL(n.ID), u)
			}
			page, anchor, hasAnchor := strings.Cut(u, "#")
			html, ok := s.Files[page]
			if !ok {
				t.Errorf("%s: %s: URL %s names no page of the output", name, n.ID, u)
				continue
			}
			if hasAnchor {
				anchors++
				if !strings.Contains(string(html), `id="`+anchor+`"`) {
					t.Errorf("%s: %s: page %s has no element with id %q", name, n.ID, page, anchor)
				}
			}
		}
		if anchors == 0 {
			t.Errorf("%s: no symbol URL with an anchor was checked", name)
		}
	}
}

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
