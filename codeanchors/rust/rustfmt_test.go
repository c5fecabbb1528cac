//go:build conformance

package rust

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// debianRustfmt is Debian's rustfmt (package rustfmt, installed by
// test.sh), named by path so that a rustup toolchain earlier in PATH is not
// used instead.
const debianRustfmt = "/usr/bin/rustfmt"

// rustfmtStyles are the configurations the stability test reformats with:
// each rewraps most of a file written for rustfmt's defaults (the
// standard library is), adding and removing line breaks, trailing commas
// and match arm blocks.
var rustfmtStyles = []string{
	"max_width=40,tab_spaces=2",
	"max_width=200,use_small_heuristics=Max,hard_tabs=true",
}

// TestRustfmtStability reformats real code (the files of the standard
// library's core/src/cell, core/src/iter and alloc/src/collections, Debian
// rust-src) with rustfmt in two styles, and checks that the token hash of
// every symbol rustfmt does not touch semantically survives: at least 99%
// of symbols whose text hash changed keep their token hash. The count is
// logged for the closing note.
func TestRustfmtStability(t *testing.T) {
	if _, err := os.Stat(debianRustfmt); err != nil {
		t.Fatalf("%s is needed (Debian package rustfmt; test.sh installs it): %v", debianRustfmt, err)
	}
	var files []string
	for _, dir := range []string{"core/src/cell", "core/src/iter", "alloc/src/collections"} {
		err := filepath.WalkDir(filepath.Join(rustSrc, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatalf("corpus (Debian package rust-src; test.sh installs it): %v", err)
		}
	}
	slices.Sort(files)
	var st langtest.Stability
	for _, style := range rustfmtStyles {
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(debianRustfmt, "--edition", "2021", "--config", style)
			cmd.Stdin = bytes.NewReader(src)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				// rustfmt gives up on some files (macros it cannot
				// format, lines it cannot fit); those are not measured.
				continue
			}
			rel, _ := filepath.Rel(rustSrc, p)
			if err := st.Add(Extract, rel, style, src, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Log(t, fmt.Sprintf("rustfmt over %d files x %d styles (the runs rustfmt finished)", len(files), len(rustfmtStyles)))
	st.RequireReformatted(t, 200, 99)
}
