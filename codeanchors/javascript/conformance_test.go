//go:build conformance

package javascript

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// tsrefResult is one line of testdata/extract/tsref.js output.
type tsrefResult struct {
	File       string   `json:"file"`
	Path       string   `json:"path"`
	Symbols    []string `json:"symbols"`
	Ambiguous  []string `json:"ambiguous"`
	Comments   []string `json:"comments"` // "start-end" lines
	Diagnostic string   `json:"diagnostic"`
	Error      string   `json:"error"`
}

// runTSRef runs testdata/extract/tsref.js on files with the typescript package
// at ts.
func runTSRef(t *testing.T, ts string, files []string) []tsrefResult {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "extract", "tsref.js"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "TSREF_TS="+ts)
	return langtest.RunReference[tsrefResult](t, cmd, files)
}

// refFile converts tsref.js's result: symbols "name kind start-end". A
// file Extract refuses where TypeScript reports a diagnostic too is
// skipped, as one TypeScript rejects.
func refFile(r tsrefResult, err error) langtest.RefFile {
	ref := langtest.RefFile{Ambiguous: r.Ambiguous, Error: r.Error}
	if err != nil && r.Diagnostic != "" && ref.Error == "" {
		ref.Error = r.Diagnostic
	}
	for _, s := range r.Symbols {
		var rs langtest.RefSymbol
		fmt.Sscanf(s, "%s %s %d-%d", &rs.Name, &rs.Kind, &rs.Start, &rs.End)
		ref.Symbols = append(ref.Symbols, rs)
	}
	return ref
}

// TestJSConformance compares Extract with the TypeScript
// compiler's view (testdata/extract/tsref.js). It needs node and the typescript
// package: TSREF_TS names the package's folder; when it is not set, the
// test installs typescript@5.9.3 with npm into the user cache folder (once).
// The testdata corpus must agree exactly. TSREF_PACKAGES lists folders of
// real code (npm packages, separated by the OS path list separator) whose
// agreement is measured and logged per language, and must reach 99.5% for
// names and 99% for each range end. In both, every comment Extract hands
// out must be on the lines TypeScript's scanner gives (in every file both
// read).
func TestJSConformance(t *testing.T) {
	ts := os.Getenv("TSREF_TS")
	if ts == "" {
		ts = langtest.NPMPackage(t, "typescript@5.9.3")
	}
	cases := readJSCases(t)
	var files []string
	for _, c := range cases {
		files = append(files, c.File)
	}
	refs := runTSRef(t, ts, files)
	golden := langtest.Agreement{Reference: "TypeScript"}
	comments := 0
	for i, c := range cases {
		f, err := Extract(c.Path, c.Src)
		if err != nil && refs[i].Diagnostic == "" {
			t.Errorf("%s: Extract: %v; TypeScript parses it", c.File, err)
		}
		golden.Add(c.File, f, err, refFile(refs[i], err))
		if !sameComments(f, err, refs[i]) {
			t.Errorf("%s: comments %v, TypeScript's %v", c.File, commentLines(f), refs[i].Comments)
		} else if f != nil {
			comments += len(f.Comments)
		}
	}
	golden.Report(t, "testdata/extract", langtest.Golden)
	t.Logf("testdata/extract: %d comments on TypeScript's lines", comments)

	for _, dir := range filepath.SplitList(os.Getenv("TSREF_PACKAGES")) {
		var paths []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" && p != dir {
				return filepath.SkipDir
			}
			if !d.IsDir() && isJSExt(strings.ToLower(filepath.Ext(p))) {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		refs := runTSRef(t, ts, paths)
		byLang := map[string]*langtest.Agreement{"JavaScript": {Reference: "TypeScript"}, "TypeScript": {Reference: "TypeScript"}}
		var differ, comments int
		for i, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if f, err := Extract(p, src); !sameComments(f, err, refs[i]) {
				if differ++; differ <= 10 {
					t.Errorf("%s: comments %v, TypeScript's %v", p, commentLines(f), refs[i].Comments)
				}
			} else if f != nil {
				comments += len(f.Comments)
			}
			lang := "JavaScript"
			switch strings.ToLower(filepath.Ext(p)) {
			case ".ts", ".tsx", ".mts", ".cts":
				lang = "TypeScript"
			}
			rel, _ := filepath.Rel(dir, p)
			f, err := Extract(filepath.ToSlash(filepath.Join(filepath.Base(dir), rel)), src)
			refs[i].Path = filepath.ToSlash(rel)
			byLang[lang].Add(filepath.ToSlash(filepath.Join(filepath.Base(dir), rel)), f, err, refFile(refs[i], err))
		}
		t.Logf("%s: %d files, %d comments on TypeScript's lines; comments differ in %d files", dir, len(paths), comments, differ)
		for _, lang := range []string{"JavaScript", "TypeScript"} {
			if a := byLang[lang]; a.Files > 0 {
				// Real code of any size; Extract may refuse a file
				// TypeScript parses, as long as the figures hold.
				a.Report(t, dir+" "+lang, langtest.Thresholds{Names: 99.5, Ranges: 99, AllowErrors: true})
			}
		}
	}
}

// sameComments reports whether f's comments are on the lines TypeScript
// gives, in the same order; a file either side does not read counts as the
// same.
func sameComments(f *lang.File, err error, r tsrefResult) bool {
	if err != nil || r.Error != "" || r.Diagnostic != "" {
		return true
	}
	return slices.Equal(commentLines(f), r.Comments)
}

// commentLines returns the "start-end" lines of f's comments.
func commentLines(f *lang.File) []string {
	if f == nil {
		return nil
	}
	lines := []string{}
	for _, c := range f.Comments {
		lines = append(lines, fmt.Sprintf("%d-%d", c.Line, c.EndLine))
	}
	return lines
}

// TestJSPrettier checks that a prettier run keeps the token hash of every
// symbol: it formats the testdata corpus (and the folders in
// JSPRETTIER_DIRS) with prettier's defaults and with the opposite style
// (no semicolons, single quotes, no trailing commas, no arrow parentheses)
// through testdata/extract/prettier.js, and compares each symbol's token hash
// before and after. It needs node and the prettier package: PRETTIER names
// the package's folder; when it is not set, the test installs prettier@3.6.2
// with npm into the user cache folder (once).
func TestJSPrettier(t *testing.T) {
	pkg := os.Getenv("PRETTIER")
	if pkg == "" {
		pkg = langtest.NPMPackage(t, "prettier@3.6.2")
	}
	tmp := t.TempDir()
	corpus := filepath.Join(tmp, "corpus")
	for _, c := range readJSCases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		langtest.WriteFile(t, filepath.Join(corpus, filepath.FromSlash(c.Path)), c.Src)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "extract", "prettier.js"))
	if err != nil {
		t.Fatal(err)
	}
	styles := map[string]string{
		"default":  `{}`,
		"opposite": `{"semi":false,"singleQuote":true,"trailingComma":"none","arrowParens":"avoid","bracketSpacing":false,"printWidth":60}`,
	}
	for n, dir := range append([]string{corpus}, filepath.SplitList(os.Getenv("JSPRETTIER_DIRS"))...) {
		for _, style := range []string{"default", "opposite"} {
			out := filepath.Join(tmp, "out", style, strconv.Itoa(n))
			cmd := exec.Command("node", script, dir, out, styles[style])
			cmd.Env = append(os.Environ(), "PRETTIER="+pkg)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("node prettier.js: %v\n%s", err, stderr.Bytes())
			}
			var st langtest.Stability
			st.AddDir(t, Extract, dir, out, style) // a file Extract refuses is not compared
			st.Log(t, fmt.Sprintf("%s, prettier %s style", dir, style))
			same, total := st.Kept, st.Symbols
			if dir == corpus && same != total {
				t.Errorf("prettier %s style changed the token hash of %d corpus symbols", style, total-same)
			}
		}
	}
}
