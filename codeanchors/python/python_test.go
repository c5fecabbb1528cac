package python

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is Python's golden suite: testdata/extract (see its README.md);
// [tokens] in a case's comment adds a tokens section, and imports are
// listed as IMPORT as "NAME".
var suite = langtest.Suite{
	Dir:   "extract",
	Ext:   []string{".py", ".pyi"},
	Extra: []string{"astsymbols.py", "astcomments.py"},
	Sections: func(c langtest.Case, f *lang.File, err error) []txtar.File {
		return langtest.Sections(c, f, err, func(f *lang.File) []byte {
			var b bytes.Buffer
			for i, imp := range f.Imports {
				fmt.Fprintf(&b, "%s as %q\n", imp, f.ImportNames[i])
			}
			return b.Bytes()
		})
	},
	Check:    pyCheckFile,
	Language: Language,
	Insert:   insertions,
	Comments: comments,
}

// TestSuite runs the language's suite ([langtest.Suite.Run]): goldens
// (-update rewrites them, refused when CI is set), CRLF, context-free
// hashes, the insertion property, comments.
func TestSuite(t *testing.T) { suite.Run(t) }

func FuzzExtractPython(f *testing.F) { suite.Fuzz(f, "fuzz.py") }

// pyCheckFile is [checkFile] for Python, where _ is a name like any other:
// a def _ is a symbol (often an ambiguous one).
func pyCheckFile(t *testing.T, src []byte, f *lang.File) {
	t.Helper()
	g := *f
	g.Symbols = slices.DeleteFunc(slices.Clone(f.Symbols), func(s lang.Symbol) bool {
		return s.Name == "_" || strings.HasPrefix(s.Name, "_.") || strings.HasSuffix(s.Name, "._")
	})
	langtest.CheckFile(t, src, &g)
	for _, s := range f.Symbols {
		if s.Start < 1 || s.Start > s.End || s.End > len(lang.Lines(src)) {
			t.Fatalf("%s: lines %d-%d outside 1-%d", s.Name, s.Start, s.End, len(lang.Lines(src)))
		}
	}
}

// hostilePython returns the inputs of [TestExtractPythonBounded] by name.
func hostilePython() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 1<<20)
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	// Printable garbage gets further than random bytes before it fails.
	printable := make([]byte, 1<<20)
	const alphabet = "abc def class if:\n  \t()[]{}'\"#\\fr.@=,;0x1e5"
	for i := range printable {
		printable[i] = alphabet[rng.IntN(len(alphabet))]
	}
	var deepIndent strings.Builder
	for i := range 150 {
		fmt.Fprintf(&deepIndent, "%sif x:\n", strings.Repeat(" ", i))
	}
	return map[string][]byte{
		"random bytes":      garbage,
		"printable garbage": printable,
		"open brackets":     bytes.Repeat([]byte("(["), 1<<19),
		"nested f-strings":  []byte(strings.Repeat(`f"{`, 1<<16)),
		"f-string fields":   []byte(`f"` + strings.Repeat("{x:{y:", 1<<16)),
		"unclosed string":   append([]byte(`x = """`), bytes.Repeat([]byte("a\n"), 1<<19)...),
		"deep indentation":  []byte(deepIndent.String()),
		"decorators":        bytes.Repeat([]byte("@d\n"), 1<<18),
		"many classes":      bytes.Repeat([]byte("class C:\n  def f(self): pass\n"), 1<<15),
		"continuations":     bytes.Repeat([]byte("x = 1 + \\\n"), 1<<17),
	}
}

// TestExtractPythonBounded feeds inputs built to make a careless scanner
// recurse, loop or allocate without bound; each must end, with a File whose
// ranges are valid or an error. It asserts no wall time (a loaded machine
// would make that flaky): a hang fails through go test's timeout, and
// BenchmarkExtractPythonHostile reports the throughput on the same inputs.
func TestExtractPythonBounded(t *testing.T) {
	inputs := hostilePython()
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range inputs {
			if !yield(k) {
				return
			}
		}
	}) {
		f, err := Extract("big.py", inputs[name])
		if err == nil {
			pyCheckFile(t, inputs[name], f)
		}
		t.Logf("%s: error %v", name, err)
	}
}

// BenchmarkExtractPythonHostile extracts every input of
// [TestExtractPythonBounded] once per iteration and reports MB/s, so a
// scanner that turns superlinear on one of them shows in the numbers.
func BenchmarkExtractPythonHostile(b *testing.B) {
	inputs := hostilePython()
	var size int64
	for _, src := range inputs {
		size += int64(len(src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range inputs {
			Extract("big.py", src)
		}
	}
}

// TestPythonTokensFormatting checks what the token hash ignores (quotes,
// string prefixes, number case, comments, blank lines, continuations,
// indentation width) and what it does not (indentation levels, values).
func TestPythonTokensFormatting(t *testing.T) {
	base := "def f(x):\n    if x:\n        return 'a\\n' + b'\\x00' + f'{x!r:>{10}}' + 0XFF\n    return None\n"
	same := []string{
		"def f(x):  # doc\n  if x:\n\n     return \"a\\n\" + B\"\\0\" + F\"{ x !r:>{ 10 }}\" + 0xff\n  return None\n",
		"def f(x):\n    if x:\n        return \"\"\"a\n\"\"\" + b'\\000' + rf'{x!r:>{10}}' + \\\n            0xFF\n    return None\n",
		"def f(x):\n\tif x:\n\t\treturn u'a\\x0a' + b'\\x00' + f'{x!r:>{10}}' + 0XFF\n\treturn None\n",
	}
	differ := []string{
		"def f(x):\n    if x:\n        return 'a\\n' + b'\\x00' + f'{x!r:>{10}}' + 0XFF\n        return None\n",
		"def f(x):\n    if x:\n        return r'a\\n' + b'\\x00' + f'{x!r:>{10}}' + 0XFF\n    return None\n",
		"def f(x):\n    if x:\n        return 'a\\n' + '\\x00' + f'{x!r:>{10}}' + 0XFF\n    return None\n",
		"def f(x):\n    if x:\n        return 'a\\n' + b'\\x00' + f'{x!s:>{10}}' + 0XFF\n    return None\n",
	}
	texts := func(src string) []string {
		f, err := Extract("f.py", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return langtest.TokenTexts(f.Tokens)
	}
	want := texts(base)
	for _, src := range same {
		if got := texts(src); !slices.Equal(got, want) {
			t.Errorf("tokens of\n%s\n= %q\nwant %q", src, got, want)
		}
	}
	for _, src := range differ {
		if got := texts(src); slices.Equal(got, want) {
			t.Errorf("tokens of\n%s\nequal those of\n%s", src, base)
		}
	}
}

// TestPythonTokensBlack checks that what black changes in a file (trailing
// commas, redundant parentheses, split lines, semicolons, docstring
// indentation) keeps the tokens, while the same-looking edits that change
// the program do not.
func TestPythonTokensBlack(t *testing.T) {
	const before = `def g(items, key):
  """Sort things.

      Indented more.   
  """
  result = sorted(items, key=key,)
  x = (1,)
  y = a[1,]
  s = {1, 2,}
  if (result): return (result[0] +
                       result[1])
  for (k, v) in (pairs):
    del (k)
  z = 1; w = 2;
  return (x, y)
`
	const after = `def g(items, key):
    """Sort things.

        Indented more.
    """
    result = sorted(
        items,
        key=key,
    )
    x = (1,)
    y = a[1,]
    s = {1, 2}
    if result:
        return result[0] + result[1]
    for k, v in pairs:
        del k
    z = 1
    w = 2
    return x, y
`
	texts := func(src string) []string {
		f, err := Extract("g.py", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return langtest.TokenTexts(f.Tokens)
	}
	if a, b := texts(before), texts(after); !slices.Equal(a, b) {
		t.Errorf("black changed the tokens:\n%q\n%q", a, b)
	}
	for _, pair := range [][2]string{
		{"if d[1:2]: x = 1\ny = 2\n", "if d[1:2]:\n    x = 1\ny = 2\n"},
		{"try: import a\nexcept ImportError: a = None\n", "try:\n    import a\nexcept ImportError:\n    a = None\n"},
		{"class C: pass\n", "class C:\n    pass\n"},
		{"def f(): return {1: 2}; pass\n", "def f():\n    return {1: 2}\n    pass\n"},
	} {
		if a, b := texts(pair[0]), texts(pair[1]); !slices.Equal(a, b) {
			t.Errorf("tokens of %q = %q, of %q = %q; want equal", pair[0], a, pair[1], b)
		}
	}
	for _, pair := range [][2]string{
		{"x = (1,)\n", "x = (1)\n"},
		{"y = a[1,]\n", "y = a[1]\n"},
		{"f((x,))\n", "f((x))\n"},
		{"return ()\n", "return\n"},
		{"assert (x, 'm')\n", "assert x, 'm'\n"},
		{"x = b in (1, 2)\n", "x = b in 1, 2\n"},
		{"x = (a) if b else c\n", "x = a if b else c\n"},
		{"x = [(a, b)]\n", "x = [a, b]\n"},
		{`x = """a\n  b"""` + "\n", `x = """a\nb"""` + "\n"},
	} {
		if a, b := texts(pair[0]), texts(pair[1]); slices.Equal(a, b) {
			t.Errorf("%q and %q have the same tokens %q", pair[0], pair[1], a)
		}
	}
}

// insertions are the declarations of the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
var insertions = []langtest.InsertSet{{Decls: []langtest.Insertion{
	{Text: "def tw_inserted(x):\n    return x\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 2)}, Nested: true},
	{Text: "class TwInserted:\n    def m(self):\n        return 1\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3), langtest.Sym("TwInserted.m", 2, 3)}, Nested: true},
	{Text: "@decorator(1)\ndef tw_decorated():\n    pass\n", Symbols: []lang.Symbol{langtest.Sym("tw_decorated", 1, 3)}, Nested: true},
}}}

// comments check that Extract hands out every # comment and every
// docstring (Doc; strings joined implicitly are one) once, in source
// order, with its lines, and nothing that only looks like one: a # in a
// string or an f-string's literal text, a string that is not the first
// statement of its module, class or function, a bytes literal in a
// docstring's place, and an f-string there.
var comments = []langtest.CommentCase{{Path: "m.py",
	Src: "#!/usr/bin/env python3\n" +
		"\"\"\"Module doc.\n@implements REQ-1\"\"\"\n" +
		"import os  # trailing\n" +
		"s = '# not a comment'\n" +
		"\"not a docstring: not the first statement\"\n" +
		"class C:\n" +
		"    r'''Class doc. # not a comment'''\n" +
		"    def m(self):\n" +
		"        # before the docstring\n" +
		"        \"Method doc.\"  # after it\n" +
		"        x = f\"# {self  # a comment in a field\n" +
		"        }\"\n" +
		"def f(): 'Inline doc.'\n" +
		"def g():\n" +
		"    b'bytes are no docstring'\n" +
		"def h():\n" +
		"    f'nor is an f-string {1}'\n" +
		"    def inner():\n" +
		"        '''Inner doc.'''\n" +
		"def k():\n" +
		"    \"Joined \" 'docstring.'  # Python joins them\n",
	Want: []lang.Comment{
		{Line: 1, EndLine: 1, Text: "#!/usr/bin/env python3"},
		{Line: 2, EndLine: 3, Text: "\"\"\"Module doc.\n@implements REQ-1\"\"\"", Doc: true},
		{Line: 4, EndLine: 4, Text: "# trailing"},
		{Line: 8, EndLine: 8, Text: "r'''Class doc. # not a comment'''", Doc: true},
		{Line: 10, EndLine: 10, Text: "# before the docstring"},
		{Line: 11, EndLine: 11, Text: "\"Method doc.\"", Doc: true},
		{Line: 11, EndLine: 11, Text: "# after it"},
		{Line: 12, EndLine: 12, Text: "# a comment in a field"},
		{Line: 14, EndLine: 14, Text: "'Inline doc.'", Doc: true},
		{Line: 20, EndLine: 20, Text: "'''Inner doc.'''", Doc: true},
		{Line: 22, EndLine: 22, Text: "\"Joined \" 'docstring.'", Doc: true},
		{Line: 22, EndLine: 22, Text: "# Python joins them"},
	}}}
