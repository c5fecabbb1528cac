//go:build conformance

package ruby

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// formatCorpus picks every step-th file of the standard library's top
// folder and copies the files into dir; it returns their names there.
func formatCorpus(t *testing.T, dir string, step int) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(rubyCorpus[0], "*.rb"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no corpus under %s (test.sh installs ruby): %v", rubyCorpus[0], err)
	}
	slices.Sort(matches)
	// rubocop 1.39 stops with "Infinite loop detected" on these (its
	// EmptyLinesAroundBeginBody and EmptyLineAfterGuardClause cops undo
	// each other).
	skip := map[string]bool{"time.rb": true}
	var names []string
	for i := 0; i < len(matches); i += step {
		if skip[filepath.Base(matches[i])] {
			continue
		}
		src, err := os.ReadFile(matches[i])
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(matches[i])
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// tokenHashes extracts each file of dir and returns its symbols' token
// hashes by "file@symbol".
func tokenHashes(t *testing.T, dir string, names []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Extract(n, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, s := range f.Symbols {
			out[n+"@"+s.Name] = lang.HashTokens(f.Tokens, s.Start, s.End)
		}
	}
	return out
}

// rubocop runs rubocop with flag (-x: layout cops only; -a: every safe
// correction) over the files in dir, with no cache and no config but its
// defaults.
func rubocop(t *testing.T, dir, flag string, names []string) {
	t.Helper()
	if _, err := exec.LookPath("rubocop"); err != nil {
		t.Fatalf("rubocop is needed (test.sh installs Debian's rubocop): %v", err)
	}
	args := append([]string{flag, "--cache", "false", "--format", "quiet", "--force-exclusion"}, names...)
	cmd := exec.Command("rubocop", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir) // no user configuration
	out, err := cmd.CombinedOutput()
	// Exit status 1 means offenses were left; 2 is a failure.
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("rubocop %s: %v\n%s", flag, err, out)
	}
}

// TestRubocopStability formats part of the standard library with rubocop
// 1.39 (Debian's) and compares every symbol's token hash before and after.
// The layout corrections (-x: indentation, spaces, blank lines, line
// breaks, leading dots, heredoc indentation) must keep at least 99.5% of
// them. Every safe correction (-a) also rewrites code (parallel
// assignments split, one-line defs expanded into attr_reader, if into
// modifier if, === into is_a?), which a token hash must see: it is
// measured, with a floor of 45% (49.6% measured on this corpus).
func TestRubocopStability(t *testing.T) {
	for _, c := range []struct {
		flag string
		bar  float64
	}{{"-x", 99.5}, {"-a", 45}} {
		dir := t.TempDir()
		names := formatCorpus(t, dir, 3)
		before := tokenHashes(t, dir, names)
		rubocop(t, dir, c.flag, names)
		after := tokenHashes(t, dir, names)
		same, changed := 0, []string{}
		for k, h := range before {
			if after[k] == h {
				same++
			} else {
				changed = append(changed, k)
			}
		}
		slices.Sort(changed)
		pct := 100 * float64(same) / float64(max(len(before), 1))
		t.Logf("rubocop %s over %d files: %d of %d symbol token hashes kept (%.2f%%)", c.flag, len(names), same, len(before), pct)
		if len(changed) > 0 {
			t.Logf("changed: %s", strings.Join(changed[:min(len(changed), 20)], ", "))
		}
		if len(before) < 500 || pct < c.bar {
			t.Errorf("rubocop %s: %s", c.flag, fmt.Sprintf("%.2f%% of %d hashes kept, want at least %.1f%% of 500", pct, len(before), c.bar))
		}
	}
}
