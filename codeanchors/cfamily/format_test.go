package cfamily

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestTokenHashSemanticEdits checks that edits clang-format never makes
// change the token hash, and edits it does make do not.
func TestTokenHashSemanticEdits(t *testing.T) {
	const base = "std::vector<std::vector<int>> f(int a, int b) {\n    const char *s = \"ab\" \"c\";\n    return g(a, b, s);\n}\n"
	same := []string{
		"std::vector<std::vector<int> > f(int a, int b) { const char *s = \"abc\"; return g(a, b, s); }\n",
		"std::vector<std::vector<int>>\nf(int a,\n  int b)\n{\n\tconst char* s = \"a\"\n\t\t\"bc\"; // joined\n\treturn g(a,\n\t         b, s);\n}\n",
		"/** doc */\nstd::vector<std::vector<int>> f(int a, int b) {\n  const char *s = \"ab\" \\\n  \"c\";\n  return g(a, b, s); /* done */\n}\n",
	}
	differ := []string{
		"std::vector<std::vector<int>> f(int a, int b) {\n    const char *s = \"ab c\";\n    return g(a, b, s);\n}\n",
		"std::vector<std::vector<int>> f(int a, int b) {\n    const char *s = \"ab\" \"c\";\n    return g(b, a, s);\n}\n",
		"std::vector<std::vector<long>> f(int a, int b) {\n    const char *s = \"ab\" \"c\";\n    return g(a, b, s);\n}\n",
		"std::vector<std::vector<int>> f(int a, int b) {\n    const char *s = \"ab\" \"c\";\n    return g(a, b, s) + 1;\n}\n",
		"std::vector<std::vector<int>> f(int a, int b) {\n    const char *s = L\"ab\" L\"c\";\n    return g(a, b, s);\n}\n",
		"std::vector<std::vector<int>> f(int a, int b) {\n    char *s = \"ab\" \"c\";\n    return g(a, b, s);\n}\n",
	}
	langtest.TokenHashEdits(t, Extract, "a.cpp", "f", base, same, differ)
	// a directive's end is a token: a line break in a macro is code
	m1, _ := Extract("m.h", []byte("#define F(x) x\nint y;\n"))
	m2, _ := Extract("m.h", []byte("#define F(x) x \\\nint y;\n"))
	if lang.HashTokens(m1.Tokens, 1, 2) == lang.HashTokens(m2.Tokens, 1, 2) {
		t.Error("joining the next line into a macro keeps the token hash")
	}
}
