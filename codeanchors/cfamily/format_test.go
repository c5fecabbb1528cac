package cfamily

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// clangFormatStyles are the styles the stability test reformats with: each
// rewraps most of a file (a narrow LLVM style; GNU's braces and spaces
// before parentheses with tabs and long lines; Mozilla's return types on
// their own lines), moving braces, breaking and joining lines, splitting
// string literals and adding namespace-end comments.
var clangFormatStyles = []string{
	"{BasedOnStyle: LLVM, ColumnLimit: 40}",
	"{BasedOnStyle: GNU, ColumnLimit: 120, UseTab: Always}",
	"{BasedOnStyle: Mozilla, ColumnLimit: 60, Standard: c++03}",
}

// TestClangFormatStability reformats real code (GoogleTest's sources,
// Debian package googletest, and the C library's headers string.h, stdio.h,
// stdlib.h and unistd.h) with clang-format in three styles and checks that
// the token hash of at least 99% of the symbols whose text hash changed
// survives. The counts are logged for the closing note.
func TestClangFormatStability(t *testing.T) {
	if _, err := exec.LookPath("clang-format"); err != nil {
		t.Fatalf("clang-format is needed (Debian package clang-format; test.sh installs it): %v", err)
	}
	files, err := filepath.Glob(filepath.Join(gtestRoot, "googletest", "src", "*.cc"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus %s (Debian package googletest; test.sh installs it): %v", gtestRoot, err)
	}
	for _, h := range []string{"string.h", "stdio.h", "stdlib.h", "unistd.h"} {
		files = append(files, filepath.Join("/usr/include", h))
	}
	slices.Sort(files)
	var st langtest.Stability
	for _, style := range clangFormatStyles {
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("clang-format", "--style="+style, "--assume-filename="+filepath.Base(p))
			cmd.Stdin = bytes.NewReader(src)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("clang-format %s: %v", p, err)
			}
			if err := st.Add(Extract, p, style, src, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Log(t, fmt.Sprintf("clang-format over %d files x %d styles", len(files), len(clangFormatStyles)))
	st.RequireReformatted(t, 500, 99)
}

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
