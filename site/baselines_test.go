package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// releasesRepo builds a git repository with three tagged releases of a
// small wiki: v1.0 (REQ-1, REQ-2), v1.1 (REQ-3 added, REQ-1 re-wrapped),
// v1.2 (REQ-2's text changed, REQ-3 removed).
func releasesRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(date string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	release := func(tag, date string) {
		git(date, "add", "-A")
		git(date, "commit", "-q", "-m", tag)
		git(date, "tag", tag)
	}
	git("2026-01-01T00:00:00Z", "init", "-q")
	write("tracewiki.toml", "title = \"Pay\"\n\n[baselines]\ntags = \"v*\"\n")
	write("content/requirements/REQ-1.md", "---\ntitle: Charges\n---\nCards are charged\nwhen the order is placed.\n")
	write("content/requirements/REQ-2.md", "---\ntitle: Refunds\n---\nCharges can be refunded.\n")
	release("v1.0", "2026-01-01T00:00:00Z")
	write("content/requirements/REQ-1.md", "---\ntitle: Charges\n---\nCards are charged when\nthe order is placed.\n")
	write("content/requirements/REQ-3.md", "---\ntitle: Receipts\nparent: [REQ-1]\n---\nEvery charge sends a receipt.\n")
	release("v1.1", "2026-02-01T00:00:00Z")
	write("content/requirements/REQ-2.md", "---\ntitle: Refunds\n---\nCharges can be refunded in part.\n")
	if err := os.Remove(filepath.Join(dir, "content/requirements/REQ-3.md")); err != nil {
		t.Fatal(err)
	}
	release("v1.2", "2026-03-01T00:00:00Z")
	return dir
}

// TestReleasesPage builds the Releases page from three tagged releases,
// and a second build with the same cache reads no revision from git.
func TestReleasesPage(t *testing.T) {
	dir := releasesRepo(t)
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	testHookSnapshot = func(rev string) { read = append(read, rev) }
	defer func() { testHookSnapshot = nil }()

	s := buildSite(t, dir, BuildOptions{Cache: cache}, 1)
	if got := strings.Join(read, " "); got != "v1.0 v1.1 v1.2" {
		t.Errorf("cold build read revisions %q, want each tag once: v1.0 v1.1 v1.2", got)
	}
	page := string(s.Files["releases/index.html"])
	for _, want := range []string{"v1.2 (2026-03-01", "v1.1 (2026-02-01", "Matrix at v1.0", "changed: body", "refunded in part", "Receipts"} {
		if !strings.Contains(page, want) {
			t.Errorf("releases/index.html lacks %q", want)
		}
	}
	// v1.1 only re-wrapped REQ-1: the only change listed is REQ-3 added.
	v11 := page[strings.Index(page, "v1.1 (2026"):strings.Index(page, "Matrix at v1.1")]
	if strings.Contains(v11, "changed") || !strings.Contains(v11, "added") {
		t.Errorf("v1.1's changelog lists a re-wrapped requirement as changed, or not REQ-3 as added:\n%s", v11)
	}
	if !strings.Contains(string(s.Files["index.html"]), `href="releases/index.html"`) {
		t.Error("the home page does not link the Releases page")
	}
	// A requirement's page says which baseline last changed it: REQ-2 its
	// text in v1.2; REQ-1's re-wrap in v1.1 is no change.
	for id, want := range map[string]string{"REQ-1": "", "REQ-2": "v1.2"} {
		page := string(s.Files["requirements/"+id+"/index.html"])
		got := strings.Contains(page, "changed in")
		if got != (want != "") || want != "" && !strings.Contains(page, `href="../../releases/index.html">`+want+`</a>`) {
			t.Errorf("%s's page: changed in %q wanted; the page has it: %v", id, want, got)
		}
	}
	schemas := compileSchemas(t)
	validate(t, schemas, "changelog", "api/changelog.json", s.Files["api/changelog.json"])

	read = nil
	calls := func() int64 {
		p, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if _, err := p.Build(BuildOptions{Cache: cache, Frozen: true}, nil); err != nil {
			t.Fatal(err)
		}
		return p.WS.GitCalls()
	}
	warm := calls()
	if len(read) != 0 {
		t.Errorf("a warm build read revisions %q from git, want none (the cache keeps baselines by commit)", read)
	}
	if warm > 4 {
		t.Errorf("a warm build ran git %d times", warm)
	}
	s2 := buildSite(t, dir, BuildOptions{Cache: cache}, 1)
	if string(s2.Files["releases/index.html"]) != page || string(s2.Files["api/changelog.json"]) != string(s.Files["api/changelog.json"]) {
		t.Error("the Releases page from the cache differs from the one computed")
	}
}
