package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// verifiedWorkspace writes a workspace whose REQ-1 was verified (run r1)
// and SW-1 reviewed against REQ-1's text recorded, then REQ-1 is changed
// to now; with git, committed is REQ-1's text in the first commit, and
// another in the second.
func verifiedWorkspace(t *testing.T, withGit bool, recorded, committed, now string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) { t.Helper(); runGit(t, dir, args...) }
	write := func(name, text string) {
		t.Helper()
		name = filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(name), 0o755))
		must(t, os.WriteFile(name, []byte(text), 0o644))
	}
	const head = "---\ntitle: Brakes\n---\n"
	write("content/requirements/REQ-1.md", head+committed)
	write("content/requirements/SW-1.md", "---\ntitle: ABS\nparent: [REQ-1]\n---\nWheels never lock.\n")
	rev := claims.Revision("Brakes", []byte(recorded))
	l := codeanchors.NewLock()
	l.StampParent("SW-1", "REQ-1", codeanchors.ParentLink{Revision: rev, ReviewedAt: "2026-01-01T00:00:00Z"})
	l.RecordEvidence(codeanchors.Evidence{Req: "REQ-1", Run: "r1", Revision: rev, RecordedAt: "2026-01-01T00:00:00Z",
		Tests: []codeanchors.EvidenceTest{{Name: "TestStop", Outcome: codeanchors.OutcomePass, Target: "stop_test.go@TestStop"}}})
	data, err := l.Marshal()
	must(t, err)
	write("tracewiki.lock", string(data))
	if withGit {
		git("init", "-q")
		git("add", ".")
		git("commit", "-q", "-m", "verified")
		write("content/requirements/REQ-1.md", head+"An unrelated\nedit.\n")
		git("commit", "-q", "-am", "another text")
	}
	write("content/requirements/REQ-1.md", head+now)
	return dir
}

// runGit runs git in dir with a fixed author and time, no user config.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestVerifiedTextDiff checks that the drift page and the requirement page
// show the text a stale evidence entry (and a suspect parent link) was
// recorded against, diffed with the current text, when the git history
// has it, and which revision it was when it does not.
func TestVerifiedTextDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test")
	}
	const verified, now = "The car stops\nwithin forty metres.\n", "The car stops\nwithin fifty metres.\n"
	rev := codeanchors.HashPrefix + short(claims.Revision("Brakes", []byte(verified))) + "…"

	s := buildSite(t, verifiedWorkspace(t, true, verified, verified, now), BuildOptions{}, 0)
	for _, name := range []string{"drift/index.html", "requirements/REQ-1/index.html"} {
		assertLines(t, name, s.Files[name],
			`verified against revision `+rev+`, the text of content/requirements/REQ-1.md at commit `,
			`<span class="del">-within forty metres.</span>`,
			`<span class="add">&#43;within fifty metres.</span>`,
			`! An unrelated`,
		)
	}
	assertLines(t, "drift/index.html", s.Files["drift/index.html"],
		`reviewed against revision `+rev+`, the text of content/requirements/REQ-1.md at commit `)

	// The verified text was never committed: say which revision it was.
	dir := verifiedWorkspace(t, true, "Never\ncommitted.\n", verified, now)
	s = buildSite(t, dir, BuildOptions{}, 0)
	never := codeanchors.HashPrefix + short(claims.Revision("Brakes", []byte("Never\ncommitted.\n"))) + "…"
	for _, name := range []string{"drift/index.html", "requirements/REQ-1/index.html"} {
		assertLines(t, name, s.Files[name],
			`verified against revision `+never+`; that text is not in the git history (searched the last 2 commits of content/requirements/REQ-1.md)`,
			`! <span class="del">`)
	}

	// No git repository: the same, with why.
	s = buildSite(t, verifiedWorkspace(t, false, verified, verified, now), BuildOptions{}, 0)
	assertLines(t, "drift/index.html", s.Files["drift/index.html"],
		`verified against revision `+rev+`; that text is not in the git history (the workspace is in no git repository)`)

	// A re-wrap since verification is no change: nothing to show.
	s = buildSite(t, verifiedWorkspace(t, true, verified, verified, "The car stops within\nforty metres.\n"), BuildOptions{}, 0)
	assertLines(t, "drift/index.html", s.Files["drift/index.html"], `! verified against`)
}

// TestVerifiedTextUpToDate checks that a build which read the git history
// is up to date only while HEAD is the same: the texts it found are not in
// the workspace's files, and a new commit (here one rewriting the commit
// that held the verified text) may change them.
func TestVerifiedTextUpToDate(t *testing.T) {
	const verified, now = "The car stops\nwithin forty metres.\n", "The car stops\nwithin fifty metres.\n"
	dir := verifiedWorkspace(t, true, verified, verified, now)
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	buildCached(t, dir, out, cache)
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); !ok {
		t.Fatal("not up to date right after the build")
	}
	runGit(t, dir, "commit", "-q", "--amend", "-m", "reworded")
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); ok {
		t.Error("up to date after HEAD changed: the commit it names may be gone")
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, buildCachedTree(t, dir, out, cache))); diff != "" {
		t.Errorf("after a new HEAD, the cached build differs from a cold one: %s", diff)
	}
}

// buildCachedTree builds dir into out with cache and returns out.
func buildCachedTree(t *testing.T, dir, out string, cache *Cache) string {
	t.Helper()
	buildCached(t, dir, out, cache)
	return out
}
