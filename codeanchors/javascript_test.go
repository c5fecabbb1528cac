package codeanchors

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
	"github.com/tracewiki/tracewiki/claims"
)

// readJSCases reads testdata/js: JavaScript and TypeScript sources, see
// [readCases].
func readJSCases(tb testing.TB) []extractCase {
	return readCases(tb, "js", func(name string) bool { return isJSExt(filepath.Ext(name)) }, "the JavaScript or TypeScript input")
}

// jsGoldenSections renders what ExtractJavaScript returns as txtar
// sections: symbols (name kind start-end, then one ambiguous: line per
// name), imports (specifier, then the binding after a tab), calls (from:
// qual.name line), or the error.
func jsGoldenSections(path string, src []byte) []txtar.File {
	f, err := ExtractJavaScript(path, src)
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

func TestExtractJavaScriptGolden(t *testing.T) {
	refuseUpdateInCI(t)
	checkGoldenDir(t, "js", "tsref.js", "prettier.js")
	var nfiles, nlines int
	seen := map[string]bool{}
	for _, c := range readJSCases(t) {
		nfiles++
		nlines += len(Lines(c.src))
		seen[strings.ToLower(filepath.Ext(c.path))] = true
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar"), func(t *testing.T) {
			compareGolden(t, c.file, c.comment, txtar.File{Name: c.path, Data: c.src},
				jsGoldenSections(c.path, c.src), c.want, fmt.Sprintf("ExtractJavaScript(%q)", c.path))
			if f, err := ExtractJavaScript(c.path, c.src); err == nil {
				checkFile(t, c.src, f)
			}
		})
	}
	t.Logf("%d files, %d lines", nfiles, nlines)
	for _, ext := range []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"} {
		if !seen[ext] {
			t.Errorf("no %s case in testdata/js", ext)
		}
	}
}

func TestExtractJavaScriptCRLF(t *testing.T) {
	for _, c := range readJSCases(t) {
		crlf := bytes.ReplaceAll(c.src, []byte("\n"), []byte("\r\n"))
		a, errA := ExtractJavaScript(c.path, c.src)
		b, errB := ExtractJavaScript(c.path, crlf)
		if errA != nil || errB != nil {
			if fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Errorf("%s: errors %v (LF) and %v (CRLF)", c.file, errA, errB)
			}
			continue
		}
		checkFile(t, crlf, b)
		for i := range a.Symbols {
			a.Symbols[i].StartOff, a.Symbols[i].EndOff = b.Symbols[i].StartOff, b.Symbols[i].EndOff
		}
		if !slices.Equal(a.Symbols, b.Symbols) || !slices.Equal(a.Ambiguous, b.Ambiguous) ||
			!slices.Equal(a.Calls, b.Calls) || !slices.Equal(a.Imports, b.Imports) {
			t.Errorf("%s: CRLF changed the result", c.file)
		}
		// Template literals keep their \r\n; every other token is the same.
		ta, tb := tokenTexts(a.Tokens), tokenTexts(b.Tokens)
		for i := range tb {
			tb[i] = strings.ReplaceAll(tb[i], "\r\n", "\n")
		}
		if !slices.Equal(ta, tb) {
			t.Errorf("%s: CRLF changed the tokens", c.file)
		}
	}
}

func FuzzExtractJavaScript(f *testing.F) {
	for _, c := range readJSCases(f) {
		f.Add(c.path, c.src)
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		exts := []string{".js", ".jsx", ".ts", ".tsx"}
		p := "fuzz" + exts[len(name)%len(exts)]
		start := time.Now()
		file, err := ExtractJavaScript(p, src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("ExtractJavaScript took %v on %d bytes", d, len(src))
		}
		if err != nil {
			if file != nil {
				t.Fatalf("ExtractJavaScript returned a File and error %v", err)
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
		checkFile(t, src, file)
		if len(file.Imports) != len(file.ImportNames) {
			t.Fatalf("%d imports, %d import names", len(file.Imports), len(file.ImportNames))
		}
		for _, c := range file.Calls {
			if c.Line < 1 || c.Line > max(len(Lines(src)), 1) {
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
		expectExtractError(t, "ExtractJavaScript", ExtractJavaScript, tt.path, tt.src, tt.want)
	}
}

// TestExtractJavaScriptGarbage feeds the extractor large inputs that
// stress its recursion and lookahead: it must answer fast, error or not.
func TestExtractJavaScriptGarbage(t *testing.T) {
	inputs := map[string]string{
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
	for name, src := range inputs {
		for _, ext := range []string{".ts", ".tsx", ".js"} {
			start := time.Now()
			f, err := ExtractJavaScript("g"+ext, []byte(src))
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%s%s: %v on %d bytes", name, ext, d, len(src))
			}
			if err == nil {
				checkFile(t, []byte(src), f)
			}
		}
	}
}

// expectJSTokens checks whether the sources a and b, as path, have the
// same tokens.
func expectJSTokens(t *testing.T, path, a, b string, same bool) {
	t.Helper()
	fa, err := ExtractJavaScript(path, []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := ExtractJavaScript(path, []byte(b))
	if err != nil {
		t.Fatal(err)
	}
	ta, tb := tokenTexts(fa.Tokens), tokenTexts(fb.Tokens)
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

// jsDriftSource is a TypeScript file with anchors to capture, and edits of
// it that each drift test makes.
const jsDriftSource = `import { Injectable } from "@nestjs/common";

/** Orders. */
@Injectable()
export class OrderService {
  private readonly orders = new Map<string, Order>();

  /** Validates an order. */
  validate(order: Order): boolean {
    // a total must be positive
    return order.total > 0 && order.lines.length > 0;
  }

  get size(): number {
    return this.orders.size;
  }

  set size(_: number) {
    throw new Error('read-only');
  }
}

export const total = (lines: Line[]) =>
  lines.reduce((sum, l) => sum + l.price * l.qty, 0);

export function place(order: Order): void;
export function place(order: Order, at: Date): void;
export function place(order: Order, at = new Date()) {
  console.log(` + "`placed ${order.id} at ${at.toISOString()}`" + `);
}

interface Order { id: string; total: number; lines: Line[] }
type Line = { price: number; qty: number }
`

func TestJSDrift(t *testing.T) {
	const p = "src/orders.ts"
	targets := []string{"OrderService.validate", "OrderService.size", "total", "place", "Order", "Line", "OrderService"}
	capture := map[string]Anchor{}
	s := NewSource(Default, p, []byte(jsDriftSource))
	if s.File == nil {
		t.Fatal(s.ParseErr)
	}
	for _, sym := range targets {
		tg, err := claims.ParseTarget(p + "@" + sym)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Capture(tg, Resolve(tg, nil, s), s, "t", "")
		if err != nil {
			t.Fatal(err)
		}
		if a.Parser != TypeScriptParser {
			t.Fatalf("parser %q", a.Parser)
		}
		capture[sym] = a
	}
	judge := func(src, sym string) Verdict {
		tg, _ := claims.ParseTarget(p + "@" + sym)
		a := capture[sym]
		return Judge(&a, Resolve(tg, &a, NewSource(Default, p, []byte(src))))
	}
	replace := func(old, new string) string {
		if !strings.Contains(jsDriftSource, old) {
			t.Fatalf("%q not in the source", old)
		}
		return strings.Replace(jsDriftSource, old, new, 1)
	}
	type want struct {
		state              State
		reason             Reason
		moved, reformatted bool
	}
	linked, moved := want{state: Linked}, want{state: Linked, moved: true}
	for _, tt := range []struct {
		name string
		src  string
		want map[string]want // symbols not listed stay linked in place
	}{
		{"unchanged", jsDriftSource, nil},
		{"moved", "// header\n\n" + jsDriftSource, map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": moved}},
		{"changed", replace("order.total > 0", "order.total >= 0"), map[string]want{
			"OrderService.validate": {state: Stale, reason: ContentChanged},
			"OrderService":          {state: Stale, reason: ContentChanged}}},
		{"setter changed", replace("'read-only'", "'readonly'"), map[string]want{
			"OrderService.size": {state: Stale, reason: ContentChanged},
			"OrderService":      {state: Stale, reason: ContentChanged}}},
		{"overload removed", replace("export function place(order: Order, at: Date): void;\n", ""), map[string]want{
			"place": {state: Stale, reason: ContentChanged}, "Order": moved, "Line": moved}},
		{"vanished", replace("type Line = { price: number; qty: number }\n", ""), map[string]want{
			"Line": {state: Stale, reason: SymbolNotFound}}},
		{"duplicated", jsDriftSource + "function place() {}\n", map[string]want{
			"place": {state: Unknown, reason: Ambiguous}}},
		// A decorator is not part of a TypeScript range: adding one moves
		// the method, whose text is unchanged; the class changed.
		{"decorator added", replace("  /** Validates an order. */\n", "  /** Validates an order. */\n  @Log()\n"), map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": {state: Stale, reason: ContentChanged}}},
		{"class decorator added", replace("@Injectable()\n", "@Injectable()\n@Sealed\n"), map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": moved}},
		{"doc comment edited", replace("/** Validates an order. */", "/** Checks an order before it is saved. */"), map[string]want{
			"OrderService": {state: Linked, reformatted: true}}}, // the method's doc is inside the class
		{"comment edited", replace("// a total must be positive", "// totals below one are refused"), map[string]want{
			"OrderService.validate": {state: Linked, reformatted: true},
			"OrderService":          {state: Linked, reformatted: true}}},
		// prettier --no-semi --single-quote --trailing-comma all, and a
		// reflow of the arrow function onto one line.
		{"reformatted", strings.NewReplacer(
			"return order.total > 0 && order.lines.length > 0;", "return (\n      order.total > 0 &&\n      order.lines.length > 0\n    )",
			"throw new Error('read-only');", "throw new Error(\"read-only\")",
			"export const total = (lines: Line[]) =>\n  lines.reduce((sum, l) => sum + l.price * l.qty, 0);", "export const total = (lines: Line[]) => lines.reduce((sum, l) => sum + l.price * l.qty, 0,)",
			"export function place(order: Order): void;", "export function place(order: Order): void",
		).Replace(jsDriftSource), map[string]want{
			"OrderService.validate": {state: Linked, reformatted: true},
			"OrderService.size":     {state: Linked, reformatted: true, moved: true},
			"OrderService":          {state: Linked, reformatted: true},
			"total":                 {state: Linked, reformatted: true, moved: true},
			"place":                 {state: Linked, reformatted: true, moved: true},
			"Order":                 {state: Linked, moved: true},
			"Line":                  {state: Linked, moved: true},
		}},
	} {
		for _, sym := range targets {
			w, ok := tt.want[sym]
			if !ok {
				w = linked
			}
			v := judge(tt.src, sym)
			if v.State != w.state || v.Reason != w.reason || v.Moved != w.moved || v.Reformatted != w.reformatted {
				t.Errorf("%s: %s: %+v, want %+v", tt.name, sym, v, w)
			}
		}
	}
}

func TestMatchJS(t *testing.T) {
	var jest, vitest []TestResult
	for name, dst := range map[string]*[]TestResult{"jest-junit.xml": &jest, "vitest.xml": &vitest} {
		rs, err := ParseReport(name, mustRead(t, filepath.Join("testdata", "reports", name)))
		if err != nil {
			t.Fatal(err)
		}
		*dst = rs
	}
	abs := []TestResult{{Suite: "x", Name: "y", File: "/home/ci/shop/src/auth.test.js", Outcome: OutcomePass}}
	m := TestMatcher{}
	for _, tt := range []struct {
		target  string
		results []TestResult
		want    []string // Suite > Name of the matches
	}{
		{"src/auth.test.js", jest, []string{
			"login accepts a valid password", "login locks the account after five tries", "login signs in with SSO"}},
		{"src/cart.test.js", jest, []string{"cart applies a coupon > 100% as zero", "cart totals line items"}},
		{"src/auth.test.ts", jest, nil},
		{"src/auth.test.ts", vitest, []string{
			"login > accepts a valid password", "login > locks the account after five tries", "login > signs in with SSO"}},
		{"src/cart.test.ts", vitest, []string{"cart > totals line items"}},
		{"web/src/cart.test.ts", vitest, []string{"cart > totals line items"}}, // vitest run in web/
		{"src/cart.test.tsx", vitest, nil},
		{"cart.test.ts", vitest, nil},
		{"src/auth.test.ts@login", vitest, nil}, // a symbol stands for no result
		{"src/auth.test.js", abs, []string{"y"}},
		{"ci/shop/src/auth.test.js", abs, []string{"y"}},
		{"rc/auth.test.js", abs, nil},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range m.Match(tg, tt.results) {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Match(%s) = %q, want %q", tt.target, got, tt.want)
		}
	}
}

// BenchmarkExtractJavaScript extracts the testdata corpus, or the
// JavaScript and TypeScript files below $JSBENCH_DIR (real code, such as an
// npm package's sources).
func BenchmarkExtractJavaScript(b *testing.B) {
	var cases []extractCase
	all := readJSCases(b)
	if dir := os.Getenv("JSBENCH_DIR"); dir != "" {
		all = nil
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isJSExt(strings.ToLower(filepath.Ext(p))) {
				all = append(all, extractCase{path: filepath.ToSlash(p), src: mustRead(b, p)})
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range all {
		if _, err := ExtractJavaScript(c.path, c.src); err == nil {
			cases = append(cases, c)
		}
	}
	benchExtract(b, cases, func(c extractCase) (string, []byte) { return c.path, c.src }, ExtractJavaScript)
}
