//go:build conformance

package cfamily

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// rawComment is a comment token of clang's raw token dump, with the line
// of its Loc: `comment '// text'	 [StartOfLine]	Loc=<file:3:1>`. The text
// may span lines; what follows its closing quote does not.
var rawComment = regexp.MustCompile(`(?ms)^comment '.*?'\t[^\n]*?Loc=<[^\n]*:(\d+):\d+>`)

// TestCommentsConformance checks the comments Extract hands out against
// clang's raw lexer (-Xclang -dump-raw-tokens: no preprocessing, so
// comments in directives and in branches never taken count, as here) over
// the corpora of [TestConformance]: the same number of comments in each
// file, starting on the same lines, in every file Extract reads.
func TestCommentsConformance(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Fatalf("clang is needed (Debian package clang; test.sh installs it): %v", err)
	}
	for _, c := range corpora {
		var files, comments, differ int
		for _, p := range c.list(t) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Extract(p, src)
			if err != nil {
				continue
			}
			args := append(append([]string{}, c.args[:2]...), "-Xclang", "-dump-raw-tokens", "-fsyntax-only", p)
			out, err := exec.Command("clang", args...).CombinedOutput()
			if err != nil {
				t.Fatalf("clang %v: %v\n%s", args, err, out)
			}
			var want []int
			for _, m := range rawComment.FindAllSubmatch(out, -1) {
				n, _ := strconv.Atoi(string(m[1]))
				want = append(want, n)
			}
			got := make([]int, len(f.Comments))
			for i, cm := range f.Comments {
				got[i] = cm.Line
			}
			files++
			comments += len(got)
			if !slices.Equal(got, want) {
				if differ++; differ <= 10 {
					k := 0
					for k < len(got) && k < len(want) && got[k] == want[k] {
						k++
					}
					t.Errorf("%s: %d comments, clang %d; the first that differs starts on line %v, clang's on %v", p, len(got), len(want), got[k:min(k+1, len(got))], want[k:min(k+1, len(want))])
				}
			}
		}
		t.Logf("%s: %d files, %d comments; %d files differ", c.name, files, comments, differ)
	}
}
