package golang

import (
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Go's golden suite: testdata/extract, Go sources (input.go
// unless a test needs another name), with a symbols section only.
var suite = langtest.Suite{
	Dir: "extract",
	Ext: []string{".go"},
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, nil)[:1] // symbols (or the error): no calls
	},
	Language: Language,
	Insert:   insertions,
	Comments: comments,
}

// readGoCases reads the golden cases.
func readGoCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments.
func TestSuite(t *testing.T) { suite.Run(t) }

func FuzzExtractGo(f *testing.F) {
	for _, c := range readGoCases(f) {
		f.Add(c.Src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Extract("fuzz.go", src)
		if err != nil {
			if file != nil {
				t.Fatalf("Extract returned a File and error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.go:") {
				t.Fatalf("error %q does not start with the path", err)
			}
			return
		}
		langtest.CheckFile(t, src, file)

		// A gofmt run keeps the tokens (but for the import declarations,
		// which it sorts).
		formatted, err := format.Source(src)
		if err != nil {
			return
		}
		ff, err := Extract("fuzz.go", formatted)
		if err != nil {
			return
		}
		if a, b := withoutImports(langtest.TokenTexts(file.Tokens)), withoutImports(langtest.TokenTexts(ff.Tokens)); !slices.Equal(a, b) {
			t.Fatalf("gofmt changed the tokens:\n%q\n%q\nformatted:\n%s", a, b, formatted)
		}
	})
}

// withoutImports drops the import declarations from the token texts of a
// file: after "package name ;", each "import ... ;" or "import ( ... ) ;".
func withoutImports(texts []string) []string {
	i := min(3, len(texts))
	for i < len(texts) && texts[i] == "import" {
		end := ";"
		if i+1 < len(texts) && texts[i+1] == "(" {
			end = ")"
		}
		for i < len(texts) && texts[i] != end {
			i++
		}
		i++
		if end == ")" && i < len(texts) && texts[i] == ";" {
			i++
		}
	}
	return append(texts[:min(3, len(texts))], texts[i:]...)
}

func TestExtractGoError(t *testing.T) {
	for _, tt := range []struct {
		path, src, want string
	}{
		{"a.go", "", "a.go:1:1: expected 'package', found 'EOF'"},
		{"dir/b.go", "package p\nfunc f() {\n\tx := \n}\n", "dir/b.go:4:1: expected operand, found '}'"},
		// A //line directive must not move the position.
		{"c.go", "package p\n//line other.go:100\nfunc f( {}\n", "c.go:3:9: expected ')', found '{'"},
		{"d.go", "package p\r\nfunc f() {\r\n\t)\r\n}\r\n", "d.go:3:2: expected statement, found ')'"},
	} {
		langtest.ExpectExtractError(t, "Extract", Extract, tt.path, tt.src, tt.want)
	}
}

func TestExtractGoFile(t *testing.T) {
	src := "package p\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n\t_ `embed`\n)\n\n//line other.go:1\nfunc F() {\n\tfmt.Println(str.ToUpper(\"x\"))\n}\n"
	f, err := Extract("dir/p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "dir/p.go" || f.Parser != Parser || Parser != "go/ast@1" {
		t.Errorf("Path, Parser = %q, %q", f.Path, f.Parser)
	}
	if want := []string{"fmt", "strings", "embed"}; !slices.Equal(f.Imports, want) {
		t.Errorf("Imports = %q, want %q", f.Imports, want)
	}
	want := lang.Symbol{Name: "F", Kind: lang.KindFunc, Start: 10, End: 12, StartOff: strings.Index(src, "func"), EndOff: len(src) - 1}
	if s, ok, amb := f.Lookup("F"); !ok || amb || s != want {
		t.Errorf("Lookup(F) = %+v, %v, %v; want %+v (//line must not move lines)", s, ok, amb, want)
	}
	if got := lang.HashTokens(f.Tokens, 10, 12); got != lang.HashTokens([]lang.Token{
		{Line: 10, Text: "func"}, {Line: 10, Text: "F"}, {Line: 10, Text: "("}, {Line: 10, Text: ")"}, {Line: 10, Text: "{"},
		{Line: 11, Text: "fmt"}, {Line: 11, Text: "."}, {Line: 11, Text: "Println"}, {Line: 11, Text: "("}, {Line: 11, Text: "str"}, {Line: 11, Text: "."}, {Line: 11, Text: "ToUpper"},
		{Line: 11, Text: "("}, {Line: 11, Text: `"x"`}, {Line: 11, Text: ")"}, {Line: 11, Text: ")"}, {Line: 12, Text: "}"}, {Line: 12, Text: ";"},
	}, 10, 12) {
		t.Errorf("tokens of F = %q", langtest.TokenTexts(f.Tokens))
	}
}

// expectTokens checks whether the Go sources a and b, each a package
// clause away from a file, have the same tokens, and that gofmt keeps the
// tokens of each.
func expectTokens(t *testing.T, a, b string, same bool) {
	t.Helper()
	var texts [2][]string
	for i, src := range []string{"package p\n" + a, "package p\n" + b} {
		texts[i] = langtest.TokenTexts(mustExtract(t, src).Tokens)
		formatted, err := format.Source([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := langtest.TokenTexts(mustExtract(t, string(formatted)).Tokens); !slices.Equal(got, texts[i]) {
			t.Errorf("gofmt changed the tokens of\n%s\nto\n%s", src, formatted)
		}
	}
	if slices.Equal(texts[0], texts[1]) != same {
		t.Errorf("tokens of\n%s\nand\n%s\nequal = %v, want %v:\n%q\n%q", a, b, !same, same, texts[0], texts[1])
	}
}

// TestGoTokensGofmt checks each normalization of goTokens against a gofmt
// rewrite it must absorb, and each against a real change it must not.
func TestGoTokensGofmt(t *testing.T) {
	// Layout, comments, and semicolons written or inserted.
	expectTokens(t, "func f() {\n\ta()\n\tb()\n}\n", "func f() { a(); b() }", true)
	expectTokens(t, "func f() {\n\tif x {\n\t\ta()\n\t\tb()\n\t}\n}\n", "func f() { if x { a(); b(); } }", true)
	expectTokens(t, "func f() {\n\ta() // c\n}\n", "func f() {\n\t/* x */ a() /* y\n z */\n}\n", true)
	expectTokens(t, "var (\n\tx = 1\n)\n", "var ( x = 1 )", true)
	expectTokens(t, "type T struct {\n\ta int\n\tb int\n}\n", "type T struct{ a int; b int; }", true)
	expectTokens(t, "func f() { a() }", "func f() { a();; ; }", true)
	expectTokens(t, "func f() { a()\n(g)() }", "func f() { a()(g)() }", false)
	expectTokens(t, "func f() { return\nx() }", "func f() { return x() }", false)
	// Control clauses.
	expectTokens(t, "func f() { for {} }", "func f() { for ;; {} }", true)
	expectTokens(t, "func f() { for x {} }", "func f() { for ; x ; {} }", true)
	expectTokens(t, "func f() { for x {} }", "func f() { for ((x)) {} }", true)
	expectTokens(t, "func f() { for i := 0; ; i++ {} }", "func f() { for i := 0;; i++ {} }", true)
	expectTokens(t, "func f() { if x {} }", "func f() { if ; (x) {} }", true)
	expectTokens(t, "func f() { switch x {} }", "func f() { switch ; (x) {} }", true)
	expectTokens(t, "func f() { switch x.(type) {} }", "func f() { switch ; x.(type) {} }", true)
	expectTokens(t, "func f() { for range x {} }", "func f() { for range (x) {} }", true)
	expectTokens(t, "func f() { switch g() {} }", "func f() { switch g(); {} }", false)
	expectTokens(t, "func f() { if x {} }", "func f() { if !x {} }", false)
	// Parentheses.
	expectTokens(t, "var x = (y)", "var x = ((y))", true)
	expectTokens(t, "var x = (y)", "var x = y", false)
	expectTokens(t, "func f() int", "func f() (int)", true)
	expectTokens(t, "func f() int", "func f() ((int))", true)
	expectTokens(t, "var f func(int) int", "var f func((int)) (int)", true)
	expectTokens(t, "func f[T any]()", "func f[T (any)]()", true)
	expectTokens(t, "func f() (x int)", "func f() (int)", false)
	// Trailing commas.
	expectTokens(t, "var x = f(a, b)", "var x = f(a, b,)", true)
	expectTokens(t, "var x = []int{1, 2}", "var x = []int{1, 2,}", true)
	expectTokens(t, "var x = []int{\n\t1,\n\t2,\n}", "var x = []int{1, 2}", true)
	expectTokens(t, "func f[T any]()", "func f[T any,]()", true)
	expectTokens(t, "var x M[int, string]", "var x M[int, string,]", true)
	expectTokens(t, "type T[P *C,] struct{}", "type T[P *C] struct{}", false) // generic vs array
	expectTokens(t, "type T[P *C,] struct{}", "type T[P *C,] struct{}", true)
	// Numbers.
	expectTokens(t, "const x = 0x1F", "const x = 0X1F", true)
	expectTokens(t, "const x = 0x1p-2", "const x = 0X1P-2", true)
	expectTokens(t, "const x = 1e5", "const x = 1E5", true)
	expectTokens(t, "const x = 0o17 + 0b1", "const x = 0O17 + 0B1", true)
	expectTokens(t, "const x = 17i", "const x = 017i", true)
	expectTokens(t, "const x = 0x1f", "const x = 0x1F", false)
	expectTokens(t, "const x = 017", "const x = 17", false)
	// Identifiers, literals and operators.
	expectTokens(t, "var x = a + b", "var x = a - b", false)
	expectTokens(t, `var x = "a"`, "var x = `a`", false)
	expectTokens(t, "var x = y", "var x = z", false)
}

// messy is a Go file as no one should write it; gofmt fixes its layout.
const messy = `// Package p is formatted badly.
package p
import "fmt"
// Stack is a stack.
type Stack[T any] struct { items []T; n int }
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v); s.n++ }
func (s *Stack[T]) Pop() (T) {
  if (s.n == 0) { var zero T; return zero }
      s.n--
  v := s.items[s.n]
    s.items = s.items[:s.n]; return v
}
// Sum adds.
func Sum(xs ...int) (int) { t := 0; for _, x := range (xs) { t += x }; return t }
func Print(x int,) { fmt.Println(x,); for ;; { break } }
const Big = 0X1F
type (
A int
   B = string;
)
`

func TestTokenHashSurvivesGofmt(t *testing.T) {
	formatted, err := format.Source([]byte(messy))
	if err != nil {
		t.Fatal(err)
	}
	commented := strings.NewReplacer(
		"t := 0;", "t := 0 /* start */;",
		"s.n--", "s.n-- // one less",
		"// Stack is a stack.", "// Stack holds items.",
	).Replace(messy)
	renamed := strings.Replace(messy, "t += x", "t += x + 0", 1)

	orig := mustExtract(t, messy)
	for _, tc := range []struct {
		name, src string
		changed   []string // the symbols whose token hash must change
	}{
		{"gofmt", string(formatted), nil},
		{"comments", commented, nil},
		{"code", renamed, []string{"Sum"}},
	} {
		got := mustExtract(t, tc.src)
		if len(got.Symbols) != len(orig.Symbols) {
			t.Fatalf("%s: %d symbols, want %d", tc.name, len(got.Symbols), len(orig.Symbols))
		}
		for _, s := range orig.Symbols {
			g, ok, _ := got.Lookup(s.Name)
			if !ok {
				t.Fatalf("%s: %s is gone", tc.name, s.Name)
			}
			h0, h1 := lang.HashTokens(orig.Tokens, s.Start, s.End), lang.HashTokens(got.Tokens, g.Start, g.End)
			if want := slices.Contains(tc.changed, s.Name); (h0 != h1) != want {
				t.Errorf("%s: token hash of %s changed = %v, want %v", tc.name, s.Name, h0 != h1, want)
			}
		}
	}
	if orig.Symbols[0].Name != "Stack" {
		t.Fatalf("first symbol %q", orig.Symbols[0].Name)
	}
}

func mustExtract(t *testing.T, src string) *lang.File {
	t.Helper()
	f, err := Extract("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// goroot returns $(go env GOROOT); its src is the real-code corpus of the
// conformance test and the benchmark.
var goroot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(dir, "src", "net", "http")); err != nil {
		return "", fmt.Errorf("GOROOT %s has no src/net/http: install the Go source tree: %w", dir, err)
	}
	return dir, nil
})

func gorootSrc(tb testing.TB, dir string) string {
	tb.Helper()
	root, err := goroot()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(root, "src", filepath.FromSlash(dir))
}

// A goSource is one .go file read from disk for a test or benchmark.
type goSource struct {
	path string // slash-separated, relative to GOROOT/src
	src  []byte
}

// readGoTree reads every .go file below GOROOT/src/dir, skipping testdata
// and the directories go build ignores.
func readGoTree(tb testing.TB, dir string) []goSource {
	tb.Helper()
	root := gorootSrc(tb, "")
	var files []goSource
	err := filepath.WalkDir(gorootSrc(tb, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "testdata" || (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) && p != gorootSrc(tb, dir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, goSource{filepath.ToSlash(rel), src})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

func BenchmarkExtractGo(b *testing.B) {
	langtest.BenchExtract(b, readGoTree(b, "net/http"), func(f goSource) (string, []byte) { return f.path, f.src }, Extract)
}

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
//
// Go declarations are all top-level: a place next to a method (nested to
// the harness) takes them too.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "func twInserted(x int) int {\n\treturn x\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}, Nested: true},
	{Text: "type twT struct {\n\tA int\n}\n\nfunc (t *twT) M() {}\n", Symbols: []lang.Symbol{langtest.Sym("twT", 1, 3), langtest.Sym("twT.M", 5, 5)}, Nested: true},
}}}

// comments check that Extract hands out every comment once, as
// written (a block comment keeps its carriage returns), with its lines,
// and nothing that only looks like one (in a string or raw string).
var comments = []langtest.CommentCase{{Path: "p.go",
	Src: "// Package p.\n" +
		"package p\n" +
		"\n" +
		"/* Block\n   comment. */\n" +
		"// F does it. @implements REQ-1\n" +
		"func F() { // trailing\n" +
		"\ts := \"// not a comment\"\n" +
		"\tr := `/* nor\n this */`\n" +
		"\t_, _ = s, r\n" +
		"}\n",
	Want: []lang.Comment{
		{Line: 1, EndLine: 1, Text: "// Package p."},
		{Line: 4, EndLine: 5, Text: "/* Block\n   comment. */"},
		{Line: 6, EndLine: 6, Text: "// F does it. @implements REQ-1"},
		{Line: 7, EndLine: 7, Text: "// trailing"},
	}}}
