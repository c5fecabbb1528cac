package site

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// errNoGit is returned when git is not installed.
var errNoGit = errors.New("git not found on PATH; give the changed paths as arguments instead of --base")

// GitChanges returns what changed in the workspace since the revision rev,
// as git run in the workspace root sees it: committed, staged and unstaged
// changes of tracked files ("git diff REV"; untracked files are not
// included, "git add -N" makes them count). Each path is relative to the
// workspace root, and only paths inside it are listed; each comes with the
// changed lines of its current text (a deleted file, a binary or a
// mode-only change counts as a whole-file change). paths, when given,
// restrict the diff to them (literal paths, not pathspec patterns).
//
// Git runs read-only: GIT_OPTIONAL_LOCKS=0 keeps it from refreshing the
// index.
func (w *Workspace) GitChanges(rev string, paths []string) ([]synth.Change, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--base %q: not a revision", rev)
	}
	for _, p := range paths {
		if !workspace.Local(p) {
			return nil, fmt.Errorf("%q: %w", p, ErrOutside)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errNoGit
	}
	if _, err := w.git("rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, err
	}
	if _, err := w.git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--base %q: unknown revision", rev)
	}
	diff := []string{"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "--relative", "--src-prefix=a/", "--dst-prefix=b/"}
	names, err := w.git(slices.Concat(diff, []string{"--name-only", "-z", rev, "--"}, paths)...)
	if err != nil {
		return nil, err
	}
	patch, err := w.git(slices.Concat(diff, []string{"-U0", rev, "--"}, paths)...)
	if err != nil {
		return nil, err
	}
	lines, err := parseHunks(patch)
	if err != nil {
		return nil, fmt.Errorf("git diff -U0 %s: %w", rev, err)
	}
	var out []synth.Change
	for name := range strings.SplitSeq(strings.TrimSuffix(string(names), "\x00"), "\x00") {
		if name == "" || !workspace.Local(name) {
			continue
		}
		out = append(out, synth.Change{Path: name, Lines: lines[name]})
	}
	slices.SortFunc(out, func(a, b synth.Change) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// git runs git in the workspace root with the arguments and returns its
// standard output; a failure carries git's own message.
func (w *Workspace) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-c", "core.quotepath=false", "--literal-pathspecs"}, args...)...)
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// parseHunks reads a "git diff -U0" patch and returns the changed lines of
// each file's new side, by path. A file whose new side is /dev/null
// (deleted) gets none: it changed as a whole.
func parseHunks(patch []byte) (map[string][]synth.LineRange, error) {
	out := map[string][]synth.LineRange{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(patch))
	sc.Buffer(make([]byte, 64<<10), len(patch)+1)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur = ""
		case strings.HasPrefix(line, "+++ "):
			name, err := patchName(line[4:])
			if err != nil {
				return nil, err
			}
			cur, _ = strings.CutPrefix(name, "b/")
			if name == "/dev/null" {
				cur = ""
			}
		case strings.HasPrefix(line, "@@ ") && cur != "":
			r, err := hunkRange(line)
			if err != nil {
				return nil, err
			}
			out[cur] = append(out[cur], r)
		}
	}
	return out, sc.Err()
}

// patchName decodes a file name of a patch header, which git quotes in C
// style when it holds special characters.
func patchName(s string) (string, error) {
	s = strings.TrimSuffix(s, "\t")
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	name, err := strconv.Unquote(s)
	if err != nil {
		return "", fmt.Errorf("file name %s: %v", s, err)
	}
	return name, nil
}

// hunkRange reads the new side of a hunk header "@@ -a,b +c,d @@": lines
// c to c+d-1, or for d = 0 a deletion after line c.
func hunkRange(line string) (synth.LineRange, error) {
	fields := strings.Fields(line)
	if len(fields) < 4 || !strings.HasPrefix(fields[2], "+") {
		return synth.LineRange{}, fmt.Errorf("bad hunk header %q", line)
	}
	startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(startS)
	count := 1
	if err == nil && hasCount {
		count, err = strconv.Atoi(countS)
	}
	if err != nil || start < 0 || count < 0 {
		return synth.LineRange{}, fmt.Errorf("bad hunk header %q", line)
	}
	if count == 0 {
		return synth.LineRange{Start: start, End: start + 1, Deleted: true}, nil
	}
	return synth.LineRange{Start: start, End: start + count - 1}, nil
}

// Impact answers "tracewiki impact": what relies on the changed paths
// args (PATH or PATH#Lx-Ly), or with o.Base on those of "git diff BASE" in
// the workspace (restricted to args when given), within o.Budget tokens
// when given.
func Impact(ws *Workspace, k *synth.Knowledge, args []string, o synth.ImpactOptions) (synth.ImpactJSON, error) {
	base := o.Base
	if base == "" && len(args) == 0 {
		return synth.ImpactJSON{}, errors.New("give the changed PATHs, or --base REV")
	}
	var changes []synth.Change
	var paths []string
	for _, arg := range args {
		c, err := synth.ParseChange(arg)
		if err != nil {
			return synth.ImpactJSON{}, err
		}
		if base != "" && len(c.Lines) > 0 {
			return synth.ImpactJSON{}, fmt.Errorf("%q: with --base, give paths without lines", arg)
		}
		changes = append(changes, c)
		paths = append(paths, c.Path)
	}
	if base != "" {
		var err error
		if changes, err = ws.GitChanges(base, paths); err != nil {
			return synth.ImpactJSON{}, err
		}
	}
	return k.Impact(changes, o), nil
}
