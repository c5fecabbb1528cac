//go:build conformance

package textdiff

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnifiedGNU checks the table against GNU diff -u, where the
// spaces of the table are replaced by real lines.
func TestUnifiedGNU(t *testing.T) {
	const gnu = "/usr/bin/diff"
	if _, err := os.Stat(gnu); err != nil {
		t.Fatalf("GNU diff is needed to check Unified against diff -u: %v", err)
	}
	dir := t.TempDir()
	for _, c := range diffCases {
		if c.context < 0 {
			continue // diff -U rejects a negative count
		}
		got := Unified("old", "new", splitSpaces(c.old), splitSpaces(c.new), c.context)
		want := gnuDiff(t, gnu, dir, splitSpaces(c.old), splitSpaces(c.new), c.context)
		if got != want {
			t.Errorf("%s: Unified =\n%s\ndiff -U%d says\n%s", c.name, got, c.context, want)
		}
	}
	// Random inputs where the shortest diff is unique up to GNU's own
	// choices would be fragile; compare the number of changed lines, which
	// is the same for any minimal diff (diff --minimal).
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 30 {
		old, new := randomLines(r, 40, 3), randomLines(r, 40, 3)
		got := changedLines(Unified("old", "new", old, new, 3))
		want := changedLines(gnuDiff(t, gnu, dir, old, new, 3, "--minimal"))
		if got != want {
			t.Errorf("case %d: Unified changes %d lines, diff --minimal %d\nold %q\nnew %q", i, got, want, old, new)
		}
	}
}

func gnuDiff(t *testing.T, gnu, dir string, old, new []string, context int, flags ...string) string {
	t.Helper()
	write := func(name string, ls []string) string {
		p := filepath.Join(dir, name)
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(l + "\n")
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := append([]string{"-U" + strconv.Itoa(context), "--label", "old", "--label", "new"}, flags...)
	args = append(args, write("old", old), write("new", new))
	out, err := exec.Command(gnu, args...).Output()
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("%s %q: %v", gnu, args, err)
	}
	return string(out)
}
