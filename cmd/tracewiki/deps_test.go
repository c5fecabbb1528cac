package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tracewiki/tracewiki"

// allowed is the dependency policy of STYLE.md: which of our packages each
// package may import. Data flows one way: claims → codeanchors → synth →
// site → cmd. It states policy; do not loosen it to make a build pass.
var allowed = map[string][]string{
	"claims":      {},
	"codeanchors": {"claims", "codeanchors/lang"}, // and every language package: see languagePackage
	// codeanchors/lang holds what the engine and the language packages
	// share; langtest is the test harness every language package reuses.
	"codeanchors/lang": {"claims"},
	// scan is the lexing and parsing kit hand-written front-ends share.
	"codeanchors/lang/scan":     {"claims", "codeanchors/lang"},
	"codeanchors/lang/langtest": {"claims", "codeanchors/lang"},
	// enginetest drives the engine from a language's external tests.
	"codeanchors/lang/langtest/enginetest": {"claims", "codeanchors", "codeanchors/lang"},
	"synth":                                {"claims", "codeanchors"},
	// interchange reads and writes other tools' requirement formats
	// (Doorstop, StrictDoc, ReqIF, CSV): bytes in, items out, like the
	// parsers of claims, whose id order it reuses. It knows nothing of
	// drift; site fills its export rows from the report and writes what
	// an import returns, so only site imports it.
	"interchange": {"claims"},
	"templates":   {},
	"assets":      {},
	"site": {"claims", "codeanchors", "synth", "templates", "assets", "interchange", "site/render",
		"site/render/golex", "site/render/graphsvg", "site/internal/textdiff", "site/output", "site/workspace", "site/buildcache"},
	// render turns the synthesized site (graph, report, page models) into
	// its pages and artifacts: values in, bytes out, no disk.
	"site/render": {"claims", "codeanchors", "synth", "templates", "assets", "site/render/golex",
		"site/render/graphsvg", "site/internal/textdiff"},
	"site/render/golex": {}, // lexes Go as chroma's Go lexer does; only rendering imports it
	// graphsvg lays a node's neighborhood out as SVG: pure layout.
	"site/render/graphsvg": {"claims", "synth"},
	// buildcache is the incremental build: the on-disk cache, the record
	// of each output folder and of each build (up to date? which pages
	// may be edited in place?), the pages' outline, the in-place patch.
	// It keeps pages through render's PageStore and patches the output;
	// site drives it, never the reverse.
	"site/buildcache": {"claims", "codeanchors", "synth", "site/render", "site/workspace", "site/output"},
	// output replaces an output folder with a site safely: the swap, the
	// in-place patch's recovery hook, the folder lock, the process check.
	"site/output": {},
	// workspace is what tracewiki knows of a workspace: its config, the
	// confined reads and the stamps of what they saw, the lock file, and
	// what git says changed. It hides the output's transient folders
	// from its listings, so it knows their names from output.
	"site/workspace": {"claims", "codeanchors", "site/output"},
	// textdiff is Myers' diff of two texts' lines; it knows nothing of sites.
	"site/internal/textdiff": {},
	// serve and mcp are the long-running commands: they load the
	// workspace again and again through a site.Session and answer from
	// its site and analysis.
	"site/serve":       {"site", "synth", "claims", "codeanchors"},
	"site/mcp":         {"site", "synth", "claims", "codeanchors", "assets"},
	"cmd/tracewiki":    {"site", "site/serve", "site/mcp", "synth", "codeanchors", "claims"},
	"bench/gen":        {}, // a standalone generator of benchmark workspaces
	"bench/floor":      {}, // the cold-build yardstick: goldmark and chroma only
	"bench/latency":    {}, // times tracewiki serve over HTTP, as a user would
	"bench/search":     {}, // scores and times tracewiki search through the command, against a plain BM25
	"bench/searchpage": {}, // times the search page in headless Chromium, CPU throttled
}

func TestDependencyPolicy(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		may, known := allowed[pkg]
		if languagePackage(pkg) {
			// A language package sees only what languages share; its
			// external tests also drive the engine and the harness.
			may, known = []string{"claims", "codeanchors/lang", "codeanchors/lang/scan"}, true
			if strings.HasSuffix(path, "_test.go") {
				may = append(may, "codeanchors", "codeanchors/lang/langtest", "codeanchors/lang/langtest/enginetest")
			}
		}
		if pkg == "codeanchors" && strings.HasSuffix(path, "_test.go") {
			may = append(slices.Clone(may), "codeanchors/lang/langtest")
		}
		if !known {
			t.Errorf("%s: package %s is not in the dependency policy", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			dep, ours := strings.CutPrefix(p, module+"/")
			if ours && dep != pkg && !slices.Contains(may, dep) && !(pkg == "codeanchors" && languagePackage(dep)) {
				t.Errorf("%s: %s may not import %s", path, pkg, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// languagePackage reports whether pkg is a language plug-in: a folder of
// codeanchors other than lang. Only codeanchors (which registers it) may
// import it.
func languagePackage(pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, "codeanchors/")
	return ok && rest != "lang" && !strings.HasPrefix(rest, "lang/")
}
