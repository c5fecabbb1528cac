//go:build conformance

package cfamily

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

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
