package workspace

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// errNoGit is returned when git is not installed.
var errNoGit = errors.New("git not found on PATH; give the changed paths as arguments instead of --base")

// Change is a file changed since a revision ([Workspace.GitChanges]).
type Change struct {
	Path  string      // slash path in the workspace
	Lines []LineRange // the changed lines of its current text, in order; nil: the whole file
}

// LineRange is a run of changed lines, Start to End (1-based,
// inclusive); Deleted when lines were deleted after line Start (End is
// then Start+1).
type LineRange struct {
	Start, End int
	Deleted    bool
}

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
func (w *Workspace) GitChanges(rev string, paths []string) ([]Change, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--base %q: not a revision", rev)
	}
	for _, p := range paths {
		if !Local(p) {
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
	var out []Change
	for name := range strings.SplitSeq(strings.TrimSuffix(string(names), "\x00"), "\x00") {
		if name == "" || !Local(name) {
			continue
		}
		out = append(out, Change{Path: name, Lines: lines[name]})
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// git runs git in the workspace root with the arguments and returns its
// standard output; a failure carries git's own message.
func (w *Workspace) git(args ...string) ([]byte, error) {
	w.gitCalls.Add(1)
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
func parseHunks(patch []byte) (map[string][]LineRange, error) {
	out := map[string][]LineRange{}
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
func hunkRange(line string) (LineRange, error) {
	fields := strings.Fields(line)
	if len(fields) < 4 || !strings.HasPrefix(fields[2], "+") {
		return LineRange{}, fmt.Errorf("bad hunk header %q", line)
	}
	startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(startS)
	count := 1
	if err == nil && hasCount {
		count, err = strconv.Atoi(countS)
	}
	if err != nil || start < 0 || count < 0 {
		return LineRange{}, fmt.Errorf("bad hunk header %q", line)
	}
	if count == 0 {
		return LineRange{Start: start, End: start + 1, Deleted: true}, nil
	}
	return LineRange{Start: start, End: start + count - 1}, nil
}

// GitRepo returns the HEAD commit of the git repository holding the
// workspace ("" before the first commit) and the workspace's path in it
// ("" at its root, else "sub/dir/"); an error when git or a repository is
// missing.
func (w *Workspace) GitRepo() (head, prefix string, err error) {
	out, err := w.git("rev-parse", "--show-prefix")
	if err != nil {
		return "", "", err
	}
	prefix = strings.TrimSpace(string(out))
	if h, err := w.git("rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err == nil {
		head = strings.TrimSpace(string(h))
	}
	return head, prefix, nil
}

// FileCommits lists the last n commits that changed the file path (slash
// path in the workspace), newest first.
func (w *Workspace) FileCommits(path string, n int) ([]string, error) {
	out, err := w.git("log", "--format=%H", "-n", strconv.Itoa(n), "--", path)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// GitBlobs reads the objects named by specs ("COMMIT:PATH", PATH from the
// repository's root) with one git cat-file; a spec that names no blob is
// absent from the result.
func (w *Workspace) GitBlobs(specs []string) map[string][]byte {
	out := make(map[string][]byte, len(specs))
	if len(specs) == 0 {
		return out
	}
	w.gitCalls.Add(1)
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = w.Dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	cmd.Stdin = strings.NewReader(strings.Join(specs, "\n") + "\n")
	data, err := cmd.Output()
	if err != nil {
		return out
	}
	rd := bufio.NewReader(bytes.NewReader(data))
	for _, spec := range specs {
		header, err := rd.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(header)
		if len(f) != 3 { // "SPEC missing", "SPEC ambiguous"
			continue
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			break
		}
		blob := make([]byte, size+1) // and the LF after it
		if _, err := io.ReadFull(rd, blob); err != nil {
			break
		}
		if f[1] == "blob" {
			out[spec] = blob[:size]
		}
	}
	return out
}

// GitRev is the commit hash of rev in dir's repository, "" when git is
// absent, dir is not in a repository or rev names no commit.
func GitRev(dir, rev string) string {
	if strings.HasPrefix(rev, "-") {
		return "" // never an option
	}
	cmd := exec.Command("git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// ErrUnknownRevision is returned, wrapped with the revision's name, for a
// revision git does not have (a typo, or a tag or commit a shallow clone
// left out).
var ErrUnknownRevision = errors.New("git does not have this revision (a shallow clone? fetch it, or git fetch --unshallow --tags)")

// Snapshot is the workspace's tree at one commit, read from git's object
// store: nothing is checked out and nothing written.
type Snapshot struct {
	Rev    string   // the revision as named
	Commit string   // the commit it names
	Paths  []string // every file of the workspace at the commit, slash paths relative to it, sorted
	prefix string   // the workspace's path in the repository ("" or "sub/dir/")
	w      *Workspace
}

// GitSnapshot lists the workspace's files at the revision rev: one git
// rev-parse and one git ls-tree. A revision git does not have is
// [ErrUnknownRevision], naming it.
func (w *Workspace) GitSnapshot(rev string) (*Snapshot, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q: not a revision", rev)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("git not found on PATH: a revision is read from git")
	}
	_, prefix, err := w.GitRepo()
	if err != nil {
		return nil, err
	}
	out, err := w.git("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rev, ErrUnknownRevision)
	}
	s := &Snapshot{Rev: rev, Commit: strings.TrimSpace(string(out)), prefix: prefix, w: w}
	tree, err := w.git("ls-tree", "-r", "-z", "--full-name", "--name-only", s.Commit, "--", ".")
	if err != nil {
		return nil, err
	}
	for name := range strings.SplitSeq(strings.TrimSuffix(string(tree), "\x00"), "\x00") {
		if rel, ok := strings.CutPrefix(name, prefix); ok && rel != "" && Local(rel) {
			s.Paths = append(s.Paths, rel)
		}
	}
	slices.Sort(s.Paths)
	return s, nil
}

// Read reads the files at paths (relative to the workspace) as they are
// at the snapshot's commit, with one git cat-file; a path the commit does
// not hold as a file is absent from the result.
func (s *Snapshot) Read(paths []string) map[string][]byte {
	specs := make([]string, len(paths))
	for i, p := range paths {
		specs[i] = s.Commit + ":" + s.prefix + p
	}
	blobs := s.w.GitBlobs(specs)
	out := make(map[string][]byte, len(blobs))
	for i, p := range paths {
		if data, ok := blobs[specs[i]]; ok {
			out[p] = data
		}
	}
	return out
}

// Tag is a tag of the repository.
type Tag struct {
	Name   string
	Commit string // the commit it names (an annotated tag peeled)
	Date   string // the tag's date (an annotated tag's own, a lightweight tag's commit's), RFC 3339
	at     int64
}

// GitTags lists the repository's tags whose names match the glob pattern
// (as git for-each-ref matches refs/tags/PATTERN), oldest first: ordered
// by the tag's date, then by name. One git for-each-ref: no history is
// read.
func (w *Workspace) GitTags(pattern string) ([]Tag, error) {
	out, err := w.git("for-each-ref", "--format=%(creatordate:unix) %(creatordate:iso-strict) %(objectname) %(*objectname) %(refname:strip=2)", "--", "refs/tags/"+pattern)
	if err != nil {
		return nil, err
	}
	var tags []Tag
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, " ", 5)
		if len(f) != 5 {
			continue
		}
		at, _ := strconv.ParseInt(f[0], 10, 64)
		t := Tag{Name: f[4], Commit: f[2], Date: f[1], at: at}
		if f[3] != "" {
			t.Commit = f[3]
		}
		tags = append(tags, t)
	}
	slices.SortFunc(tags, func(a, b Tag) int {
		return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.Name, b.Name))
	})
	return tags, nil
}

// GitCalls counts the git processes the workspace ran: a test's way to
// tell that a warm build read no history.
func (w *Workspace) GitCalls() int64 { return w.gitCalls.Load() }
