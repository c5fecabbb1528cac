package javascript

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is the JavaScript and TypeScript golden suite: testdata/extract,
// rendered by jsGoldenSections, with CRLF checked by jsCRLF.
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"},
	Extra:    []string{"tsref.js", "prettier.js"},
	Sections: jsGoldenSections,
	CRLF:     jsCRLF,
	Language: Language,
	Insert:   insertions,
	Comments: comments,
}

// readJSCases reads the golden cases.
func readJSCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// jsGoldenSections renders what Extract returns as txtar
// sections: symbols (name kind start-end, then one ambiguous: line per
// name), imports (specifier, then the binding after a tab), calls (from:
// qual.name line), or the error.
func jsGoldenSections(_ langtest.Case, f *lang.File, err error) []txtar.File {
	if err != nil {
		return []txtar.File{{Name: "error", Data: []byte(err.Error() + "\n")}}
	}
	var syms, imps, calls bytes.Buffer
	for _, s := range f.Symbols {
		fmt.Fprintf(&syms, "%s %s %d-%d\n", s.Name, s.Kind, s.Start, s.End)
	}
	for _, name := range f.Ambiguous {
		fmt.Fprintf(&syms, "ambiguous: %s\n", name)
	}
	out := []txtar.File{{Name: "symbols", Data: syms.Bytes()}}
	for i, imp := range f.Imports {
		fmt.Fprintf(&imps, "%s\t%s\n", imp, f.ImportNames[i])
	}
	if imps.Len() > 0 {
		out = append(out, txtar.File{Name: "imports", Data: imps.Bytes()})
	}
	for _, c := range f.Calls {
		name := c.Name
		if c.Qual != "" {
			name = c.Qual + "." + c.Name
		}
		fmt.Fprintf(&calls, "%s: %s %d\n", c.From, name, c.Line)
	}
	if calls.Len() > 0 {
		out = append(out, txtar.File{Name: "calls", Data: calls.Bytes()})
	}
	return out
}

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF line endings,
// context-free hashes, a case for every extension, the insertion
// property (JavaScript and TypeScript apart) and comments.
func TestSuite(t *testing.T) { suite.Run(t) }

// jsCRLF checks that CRLF line endings change nothing but offsets, and
// the text of template literals, which keep their \r\n.
func jsCRLF(t *testing.T, c langtest.Case) {
	t.Helper()
	crlf := bytes.ReplaceAll(c.Src, []byte("\n"), []byte("\r\n"))
	a, errA := Extract(c.Path, c.Src)
	b, errB := Extract(c.Path, crlf)
	if errA != nil || errB != nil {
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: errors %v (LF) and %v (CRLF)", c.File, errA, errB)
		}
		return
	}
	langtest.CheckFile(t, crlf, b)
	for i := range a.Symbols {
		a.Symbols[i].StartOff, a.Symbols[i].EndOff = b.Symbols[i].StartOff, b.Symbols[i].EndOff
	}
	if !slices.Equal(a.Symbols, b.Symbols) || !slices.Equal(a.Ambiguous, b.Ambiguous) ||
		!slices.Equal(a.Calls, b.Calls) || !slices.Equal(a.Imports, b.Imports) {
		t.Errorf("%s: CRLF changed the result", c.File)
	}
	// Template literals keep their \r\n; every other token is the same.
	ta, tb := langtest.TokenTexts(a.Tokens), langtest.TokenTexts(b.Tokens)
	for i := range tb {
		tb[i] = strings.ReplaceAll(tb[i], "\r\n", "\n")
	}
	if !slices.Equal(ta, tb) {
		t.Errorf("%s: CRLF changed the tokens", c.File)
	}
}

func FuzzExtractJavaScript(f *testing.F) {
	for _, c := range readJSCases(f) {
		f.Add(c.Path, c.Src)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		exts := []string{".js", ".jsx", ".ts", ".tsx"}
		p := "fuzz" + exts[len(name)%len(exts)]
		start := time.Now()
		file, err := Extract(p, src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Extract took %v on %d bytes", d, len(src))
		}
		if err != nil {
			if file != nil {
				t.Fatalf("Extract returned a File and error %v", err)
			}
			if !strings.HasPrefix(err.Error(), p+":") {
				t.Fatalf("error %q does not start with the path", err)
			}
			var se scanner.Error
			if !errors.As(err, &se) || se.Pos.Line < 1 || se.Pos.Offset > len(src) {
				t.Fatalf("error %v: not a scanner.Error inside the source", err)
			}
			return
		}
		langtest.CheckFile(t, src, file)
		if len(file.Imports) != len(file.ImportNames) {
			t.Fatalf("%d imports, %d import names", len(file.Imports), len(file.ImportNames))
		}
		for _, c := range file.Calls {
			if c.Line < 1 || c.Line > max(len(lang.Lines(src)), 1) {
				t.Fatalf("call %+v: line outside the file", c)
			}
		}
	})
}

func TestExtractJavaScriptError(t *testing.T) {
	for _, tt := range []struct {
		path, src, want string
	}{
		{"a.js", "let s = 'open\n", "a.js:1:9: unterminated string literal"},
		{"a.js", "let s = `a ${b} c", "a.js:1:9: unterminated template literal"},
		{"a.js", "let s = `a ${ {b: 1 }", "a.js:1:9: unterminated template literal"},
		{"a.js", "x = 1; /* never", "a.js:1:8: unterminated comment"},
		{"a.js", "x = /abc\n/", "a.js:1:5: unterminated regular expression literal"},
		{"a.ts", "function f() {\n  return [1, 2;\n}\n", "a.ts:3:1: unexpected }: [ at 2:10 is not closed"},
		{"a.ts", "function f() {\n", "a.ts:1:14: unclosed {"},
		{"a.ts", "}\n", "a.ts:1:1: unexpected }"},
		{"a.jsx", "const a = <div><span></div>;", "a.jsx:1:22: expected corresponding JSX closing tag for <span>"},
		{"a.jsx", "const a = <div>", "a.jsx:1:11: unterminated JSX element"},
		{"a.js", "a # b", "a.js:1:3: invalid character '#'"},
		{"a.js", "a \x01 b", "a.js:1:3: invalid character U+0001"},
		{"a\\b.js", "\r\n\r\n  'x", "a\\b.js:3:3: unterminated string literal"},
	} {
		langtest.ExpectExtractError(t, "Extract", Extract, tt.path, tt.src, tt.want)
	}
}

// garbageJS returns large inputs that stress the extractor's recursion and
// lookahead, by name.
func garbageJS() map[string]string {
	return map[string]string{
		"angles":    strings.Repeat("a<b,", 200_000),
		"nested":    strings.Repeat("`${", 100_000),
		"jsx":       "x = " + strings.Repeat("<a>", 100_000),
		"parens":    strings.Repeat("(", 500_000) + strings.Repeat(")", 500_000),
		"braces":    strings.Repeat("{", 300_000),
		"regexes":   strings.Repeat("x = /a/g;\n", 100_000),
		"generic":   strings.Repeat("f<A<B<C<D>>>>(x);\n", 50_000),
		"classes":   strings.Repeat("class A { m() {} get x() { return 1 } }\n", 30_000),
		"statement": strings.Repeat("a\n", 500_000),
	}
}

// TestExtractJavaScriptGarbage feeds the extractor [garbageJS]: each input
// must end with a File whose ranges are valid or an error. It asserts no
// wall time (a loaded machine made that flaky): a hang fails through go
// test's timeout, and BenchmarkExtractJavaScriptGarbage reports throughput.
//
// Each input and extension is a parallel subtest: Extract is a pure
// function of its bytes, and the inputs stay full size, since their size is
// what would show a superlinear extractor.
func TestExtractJavaScriptGarbage(t *testing.T) {
	for name, src := range garbageJS() {
		for _, ext := range []string{".ts", ".tsx", ".js"} {
			t.Run(name+ext, func(t *testing.T) {
				t.Parallel()
				f, err := Extract("g"+ext, []byte(src))
				if err == nil {
					langtest.CheckFile(t, []byte(src), f)
				}
				t.Logf("%s%s: error %v", name, ext, err)
			})
		}
	}
}

// BenchmarkExtractJavaScriptGarbage extracts every input of [garbageJS] as
// TypeScript once per iteration and reports MB/s, so an input that turns
// the extractor superlinear shows in the numbers.
func BenchmarkExtractJavaScriptGarbage(b *testing.B) {
	inputs := garbageJS()
	var size int64
	for _, src := range inputs {
		size += int64(len(src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range inputs {
			Extract("g.ts", []byte(src))
		}
	}
}

// expectJSTokens checks whether the sources a and b, as path, have the
// same tokens.
func expectJSTokens(t *testing.T, path, a, b string, same bool) {
	t.Helper()
	fa, err := Extract(path, []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Extract(path, []byte(b))
	if err != nil {
		t.Fatal(err)
	}
	ta, tb := langtest.TokenTexts(fa.Tokens), langtest.TokenTexts(fb.Tokens)
	if slices.Equal(ta, tb) != same {
		t.Errorf("tokens of\n%s\nand\n%s\nequal = %v, want %v:\n%q\n%q", a, b, !same, same, ta, tb)
	}
}

// TestJSTokensPrettier checks each normalization of jsHashTokens against a
// prettier rewrite it must absorb, and against a real change it must not.
func TestJSTokensPrettier(t *testing.T) {
	// Semicolons: written, inserted at a line break, or neither.
	expectJSTokens(t, "a.js", "a()\nb()\n", "a();\nb();\n", true)
	expectJSTokens(t, "a.js", "const f = () => {\n}\ng()\n", "const f = () => {\n};\ng();\n", true)
	expectJSTokens(t, "a.js", "function f() {\n  return 1\n}\n", "function f() {\n  return 1;\n};\n", true)
	expectJSTokens(t, "a.js", "let a = b\n;[1].map(f)\n", "let a = b;\n[1].map(f);\n", true)
	expectJSTokens(t, "a.js", "let a = b\n(c)\n", "let a = b;\n(c);\n", false) // a call, not two statements
	expectJSTokens(t, "a.js", "for (;;) {}\n", "for (;;) {};\n", true)
	expectJSTokens(t, "a.js", "for (;;) {}\n", "for (; ;) {}\n", true)
	expectJSTokens(t, "a.js", "if (a) b()\nelse c()\n", "if (a) b();\nelse c();\n", true)
	expectJSTokens(t, "a.ts", "interface I {\n  a: string\n  b(): void\n}\n", "interface I {\n  a: string;\n  b(): void;\n}\n", true)
	expectJSTokens(t, "a.ts", "interface I {\n  a(): void\n  [k: string]: any\n}\n", "interface I {\n  a(): void;\n  [k: string]: any;\n}\n", true)
	expectJSTokens(t, "a.ts", "class C {\n  @Input() a\n  b = 1\n}\n", "class C {\n  @Input() a;\n  b = 1;\n}\n", true)
	expectJSTokens(t, "a.js", "f(a,\n  b)\n", "f(\n  a,\n  b,\n)\n", true)
	expectJSTokens(t, "a.js", "const x = <div>\n  a\n</div>\nfoo()\n", "const x = <div>a</div>;\nfoo();\n", true)
	// Trailing commas.
	expectJSTokens(t, "a.js", "f(a, b)\n", "f(a, b,)\n", true)
	expectJSTokens(t, "a.js", "x = [1, 2]\n", "x = [1, 2,]\n", true)
	expectJSTokens(t, "a.js", "x = {a, b}\n", "x = {\n  a,\n  b,\n}\n", true)
	expectJSTokens(t, "a.ts", "function f<T>() {}\n", "function f<T,>() {}\n", true)
	expectJSTokens(t, "a.js", "f(a, b)\n", "f(a, c)\n", false)
	// Quotes and numbers.
	expectJSTokens(t, "a.js", "x = 'a'\n", "x = \"a\"\n", true)
	expectJSTokens(t, "a.js", "x = 'it\\'s'\n", "x = \"it's\"\n", true)
	expectJSTokens(t, "a.js", "x = 'say \"hi\"'\n", "x = \"say \\\"hi\\\"\"\n", true)
	expectJSTokens(t, "a.js", "x = {'a': 1, 'b-c': 2}\n", "x = {a: 1, 'b-c': 2}\n", true)
	expectJSTokens(t, "a.js", "x = 'a'\n", "x = 'b'\n", false)
	expectJSTokens(t, "a.js", "x = [0XAB, 1E5, .5, 1.50, 2., 1e+05, 5e0]\n", "x = [0xab, 1e5, 0.5, 1.5, 2, 1e5, 5]\n", true)
	expectJSTokens(t, "a.js", "x = 1.5\n", "x = 1.05\n", false)
	// Parentheses.
	expectJSTokens(t, "a.js", "f(x => x)\n", "f((x) => x)\n", true)
	expectJSTokens(t, "a.js", "x = new Foo\n", "x = new Foo()\n", true)
	expectJSTokens(t, "a.js", "x = new Foo\n", "x = new Foo(1)\n", false)
	expectJSTokens(t, "a.jsx", "function A() {\n  return <div/>\n}\n", "function A() {\n  return (\n    <div/>\n  )\n}\n", true)
	expectJSTokens(t, "a.jsx", "x = c ? <A/> : <B/>\n", "x = c ? (\n  <A/>\n) : (\n  <B/>\n)\n", true)
	expectJSTokens(t, "a.js", "function f() {\n  return a && b\n}\n", "function f() {\n  return (\n    a && b\n  )\n}\n", true)
	expectJSTokens(t, "a.js", "const f = () => a ? b : c\n", "const f = () => (a ? b : c)\n", true)
	expectJSTokens(t, "a.js", "const f = () => ({a})\n", "const f = () => {a}\n", false) // an object, not a block
	expectJSTokens(t, "a.js", "x = (a, b)\n", "x = a, b\n", false)                       // a sequence
	expectJSTokens(t, "a.js", "x = (a + b) * c\n", "x = a + b * c\n", false)
	expectJSTokens(t, "a.js", "x = (a) / 2\n", "x = a / 2\n", true)
	expectJSTokens(t, "a.js", "x = 0.5 * a / b\n", "x = (0.5 * a) / b\n", true)
	expectJSTokens(t, "a.js", "x = a && b || c\n", "x = (a && b) || c\n", true)
	expectJSTokens(t, "a.js", "x = 1 << n | 0\n", "x = (1 << n) | 0\n", true)
	expectJSTokens(t, "a.js", "x = c ? a : b\n", "x = (c) ? (a) : (b)\n", true)
	expectJSTokens(t, "a.js", "x = a.b.c\n", "x = (a.b).c\n", true)
	expectJSTokens(t, "a.js", "x = new a.B(y)\n", "x = new (a.B)(y)\n", true)
	expectJSTokens(t, "a.js", "x = a - b - c\n", "x = a - (b - c)\n", false)
	expectJSTokens(t, "a.js", "x = a ** b ** c\n", "x = (a ** b) ** c\n", false)
	expectJSTokens(t, "a.js", "x = a?.b.c\n", "x = (a?.b).c\n", false)
	expectJSTokens(t, "a.js", "x = a ? b : c ? d : e\n", "x = (a ? b : c) ? d : e\n", false)
	expectJSTokens(t, "a.js", "x = !a && b\n", "x = !(a && b)\n", false)
	expectJSTokens(t, "a.js", "x = await y.z\n", "x = (await y).z\n", false)
	expectJSTokens(t, "a.js", "x = new Foo.bar\n", "x = new Foo().bar\n", false)
	expectJSTokens(t, "a.js", "f((a, b))\n", "f(a, b)\n", false)
	// Types.
	expectJSTokens(t, "a.ts", "type A = 'a' | 'b'\n", "type A =\n  | 'a'\n  | 'b';\n", true)
	expectJSTokens(t, "a.ts", "type A = B & C\n", "type A =\n  & B\n  & C\n", true)
	expectJSTokens(t, "a.ts", "type A = B | C\n", "type A = B & C\n", false)
	// JSX text and spaces.
	expectJSTokens(t, "a.jsx", "x = <p>a b <b>c</b> d</p>\n", "x = (\n  <p>\n    a b <b>c</b>{\" \"}\n    d\n  </p>\n)\n", true)
	expectJSTokens(t, "a.jsx", "x = <p>a b</p>\n", "x = <p>a c</p>\n", false)
	expectJSTokens(t, "a.jsx", "x = <p className='a'/>\n", "x = <p className=\"a\"/>\n", true)
	// Tagged templates may be reformatted; plain ones may not.
	expectJSTokens(t, "a.js", "x = html`<p class=\"a\">${b}</p>`\n", "x = html`\n  <p class=\"a\">\n    ${b}\n  </p>\n`\n", true)
	expectJSTokens(t, "a.js", "x = `<p>${b}</p>`\n", "x = `\n  <p>${b}</p>\n`\n", false)
	// Comments never count.
	expectJSTokens(t, "a.js", "f() // one\n/* two */ g()\n", "f()\ng() /* three */\n", true)
}

// BenchmarkExtractJavaScript extracts the testdata corpus, or the
// JavaScript and TypeScript files below $JSBENCH_DIR (real code, such as an
// npm package's sources).
func BenchmarkExtractJavaScript(b *testing.B) {
	var cases []langtest.Case
	all := readJSCases(b)
	if dir := os.Getenv("JSBENCH_DIR"); dir != "" {
		all = nil
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isJSExt(strings.ToLower(filepath.Ext(p))) {
				all = append(all, langtest.Case{Path: filepath.ToSlash(p), Src: langtest.MustRead(b, p)})
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range all {
		if _, err := Extract(c.Path, c.Src); err == nil {
			cases = append(cases, c)
		}
	}
	langtest.BenchExtract(b, cases, func(c langtest.Case) (string, []byte) { return c.Path, c.Src }, Extract)
}

// jsInsertions are the declarations the insertion property inserts in
// both languages' cases.
var jsInsertions = []langtest.Insertion{
	{Text: "function twInserted(a, b) {\n  return a + b;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}},
	{Text: "class TwInserted {\n  m() {\n    return 1;\n  }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 5), langtest.Sym("TwInserted.m", 2, 4)}},
}

// insertions are the insertion property's declarations
// (langtest.CheckInsertions), JavaScript and TypeScript apart: a
// declaration inserted between two others keeps every symbol, shifted,
// and adds its own, or Extract fails with a path:line error.
var insertions = []langtest.InsertSet{
	{Name: "javascript", Ext: []string{".js", ".jsx", ".mjs", ".cjs"}, Decls: jsInsertions},
	{Name: "typescript", Ext: []string{".ts", ".tsx", ".mts", ".cts"}, Decls: append(slices.Clip(jsInsertions),
		langtest.Insertion{Text: "interface TwOptions {\n  a: number;\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwOptions", 1, 3)}},
		langtest.Insertion{Text: "function twTyped<T>(x: T): T {\n  return x;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twTyped", 1, 3)}},
	)},
}

// comments check that Extract hands out every comment once (a
// hashbang line, //, /* */ and JSDoc blocks, those inside a template's
// substitution or a JSX tag too), with its lines, and nothing that only
// looks like one: in a string, a template's text, a regular expression
// literal or JSX text.
var comments = []langtest.CommentCase{
	{Path: "a.js",
		Src: "#!/usr/bin/env node\n" +
			"/** Doc of f.\n * @implements REQ-1 */\n" +
			"function f(a) { // trailing\n" +
			"  const s = '// not a comment', d = \"/* nor */\";\n" +
			"  const t = `// text ${ /* in a substitution */ a } /* text\n   */`;\n" +
			"  const r = /\\/\\/ nor a regex/g, q = /[/*]/.test(s) /* after a regex */;\n" +
			"  return a / 2 // a division\n" +
			"}\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "#!/usr/bin/env node"},
			{Line: 2, EndLine: 3, Text: "/** Doc of f.\n * @implements REQ-1 */"},
			{Line: 4, EndLine: 4, Text: "// trailing"},
			{Line: 6, EndLine: 6, Text: "/* in a substitution */"},
			{Line: 8, EndLine: 8, Text: "/* after a regex */"},
			{Line: 9, EndLine: 9, Text: "// a division"},
		}},
	{Path: "a.jsx",
		Src: "const App = () => <div /* in a tag */ id=\"x\">// text, not a comment {/* a child comment */}</div>;\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "/* in a tag */"},
			{Line: 1, EndLine: 1, Text: "/* a child comment */"},
		}},
	{Path: "a.ts",
		Src: "// @implements REQ-2\n" +
			"export function g<T>(x: Array<T> /* the input */): T[] {\n" +
			"  return x.filter((y: T) => y !== '//') as T[]; /* done\n  */\n" +
			"}\n",
		Want: []lang.Comment{
			{Line: 1, EndLine: 1, Text: "// @implements REQ-2"},
			{Line: 2, EndLine: 2, Text: "/* the input */"},
			{Line: 3, EndLine: 4, Text: "/* done\n  */"},
		}},
}
