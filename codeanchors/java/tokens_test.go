package java

import (
	"slices"
	"strings"
	"testing"
)

func tokenTexts(t *testing.T, src string) []string {
	t.Helper()
	f, err := Extract("T.java", []byte(src))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	var out []string
	for _, tok := range f.Tokens {
		out = append(out, tok.Text)
	}
	return out
}

// TestTokensFormatting checks what the token hash ignores (layout,
// comments, redundant parentheses, trailing commas, modifier order,
// C-style array brackets, text block indentation) and what it does not
// (every change of meaning, including parentheses that matter).
func TestTokensFormatting(t *testing.T) {
	const base = `class T {
    @Deprecated
    public static final int[] A = {1, 2};
    enum E { X, Y }
    int f(int a, int b[], String s) {
        int x = a * b[0] + (a - 1);
        String q = """
            hi
              there
            """;
        return x > 0 ? -x : (int) s.length() >> 2;
    }
}
`
	same := []string{
		// layout and comments
		strings.ReplaceAll(base, "    ", "\t") + "// end\n",
		strings.Replace(base, "int f(int a, int b[], String s) {", "int f(\n        int a,\n        int b[],\n        String s) { /* c */", 1),
		// redundant parentheses
		strings.Replace(base, "return x > 0 ? -x : (int) s.length() >> 2;", "return (x > 0 ? (-x) : ((int) s.length()) >> 2);", 1),
		strings.Replace(base, "int x = a * b[0] + (a - 1);", "int x = ((a * b[0]) + (a - 1));", 1),
		// trailing commas and modifier order
		strings.Replace(strings.Replace(base, "{1, 2}", "{1, 2,}", 1), "X, Y }", "X, Y, }", 1),
		strings.Replace(base, "    @Deprecated\n    public static final", "    static public @Deprecated final", 1),
		// C-style arrays and text block indentation
		strings.Replace(base, "int b[]", "int[] b", 1),
		strings.Replace(base, "            hi\n              there\n            \"\"\"", "    hi\n      there\n    \"\"\"", 1),
		strings.Replace(base, "X, Y }", "X, Y; }", 1),
	}
	differ := []string{
		strings.Replace(base, "int x = a * b[0] + (a - 1);", "int x = a * (b[0] + a - 1);", 1),
		strings.Replace(base, "int x = a * b[0] + (a - 1);", "int x = a * b[0] + a - 1;", 1),
		strings.Replace(base, "(int) s.length() >> 2", "(int) (s.length() >> 2)", 1),
		strings.Replace(base, "public static final", "public final", 1),
		strings.Replace(base, "{1, 2}", "{2, 1}", 1),
		strings.Replace(base, "X, Y", "Y, X", 1),
		strings.Replace(base, "hi\n", "hi \\n\n", 1),
		strings.Replace(base, "              there", "                there", 1),
		strings.Replace(base, ">> 2", ">>> 2", 1),
		strings.Replace(base, "@Deprecated", "@Deprecated(since = \"1\")", 1),
	}
	want := tokenTexts(t, base)
	for _, src := range same {
		if got := tokenTexts(t, src); !slices.Equal(got, want) {
			t.Errorf("tokens of\n%s\n= %q\nwant %q", src, got, want)
		}
	}
	for _, src := range differ {
		if _, err := Extract("T.java", []byte(src)); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if got := tokenTexts(t, src); slices.Equal(got, want) {
			t.Errorf("tokens of\n%s\nequal those of\n%s", src, base)
		}
	}
}

// TestParensKept lists parentheses the token hash must keep: dropping them
// would read as another program.
func TestParensKept(t *testing.T) {
	for _, expr := range []string{
		"a - (b - c)", "(a + b) * c", "a << (b >> c)", "(a ? b : c).x", "-(a + b)", "!(a && b)", "(a = b) + 1", "(a ? b : c) ? d : e",
		"(String) (a + b)", "(x -> x).apply(1)", "(a + b).toString()", "a + (b + c)", "a || (b ? c : d)",
		"(a << b) + c", "(Runnable) () -> {}", "f((a, b) -> a)", "(a instanceof B) + \"\"",
		"(new int[3]).length", "x = (y) -> y",
	} {
		src := "class T { Object f() { return " + expr + "; } }"
		f, err := Extract("T.java", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		var got, want []string
		for _, tok := range f.Tokens {
			got = append(got, tok.Text)
		}
		l, _ := lex([]byte(src))
		for _, tok := range l.toks {
			want = append(want, src[tok.off:tok.end])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: tokens %q, want every parenthesis kept", expr, got)
		}
	}
}
