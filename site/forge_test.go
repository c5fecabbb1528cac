package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/site/workspace"
)

func TestForgeURLs(t *testing.T) {
	for _, c := range []struct {
		repo, forge   string
		file, lines   string // for a.go, lines 10–24 at commit abc1234
		wantForgeKind string
	}{
		{"https://github.com/acme/shop", "", "https://github.com/acme/shop/blob/abc1234/src/a%20b.go", "https://github.com/acme/shop/blob/abc1234/src/a%20b.go#L10-L24", "github"},
		{"https://gitlab.com/acme/shop.git", "", "https://gitlab.com/acme/shop/-/blob/abc1234/src/a%20b.go", "https://gitlab.com/acme/shop/-/blob/abc1234/src/a%20b.go#L10-24", "gitlab"},
		{"https://codeberg.org/acme/shop/", "", "https://codeberg.org/acme/shop/src/commit/abc1234/src/a%20b.go", "https://codeberg.org/acme/shop/src/commit/abc1234/src/a%20b.go#L10-L24", "gitea"},
		{"https://git.acme.example/shop", "gitea", "https://git.acme.example/shop/src/commit/abc1234/src/a%20b.go", "https://git.acme.example/shop/src/commit/abc1234/src/a%20b.go#L10-L24", "gitea"},
		{"https://ghe.acme.example/shop", "github", "https://ghe.acme.example/shop/blob/abc1234/src/a%20b.go", "https://ghe.acme.example/shop/blob/abc1234/src/a%20b.go#L10-L24", "github"},
	} {
		cfg, err := workspace.ParseConfig("tracewiki.toml", []byte("repo_url = \""+c.repo+"\"\nforge = \""+c.forge+"\"\n"), "shop")
		if err != nil {
			t.Errorf("%s: %v", c.repo, err)
			continue
		}
		if cfg.Forge != c.wantForgeKind {
			t.Errorf("%s: forge %q, want %q", c.repo, cfg.Forge, c.wantForgeKind)
		}
		f, err := newForgeLinks(cfg, "abc1234", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if got := f.File("src/a b.go"); got != c.file {
			t.Errorf("%s: file = %s, want %s", c.repo, got, c.file)
		}
		if got := f.Lines("src/a b.go", 10, 24); got != c.lines {
			t.Errorf("%s: lines = %s, want %s", c.repo, got, c.lines)
		}
	}
	for _, c := range []struct{ toml, want string }{
		{`repo_url = "https://git.acme.example/shop"`, `tracewiki.toml:1: repo_url "https://git.acme.example/shop": cannot tell its forge from the host; set forge`},
		{"repo_url = \"https://github.com/a/b\"\nforge = \"bitbucket\"", `tracewiki.toml:2: forge "bitbucket": want "github", "gitlab" or "gitea"`},
		{`repo_url = "javascript:alert(1)"`, `tracewiki.toml:1: repo_url "javascript:alert(1)": want the repository's http(s) URL`},
	} {
		_, err := workspace.ParseConfig("tracewiki.toml", []byte(c.toml+"\n"), "shop")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("workspace.ParseConfig(%q) = %v, want %s…", c.toml, err, c.want)
		}
	}
	// No repo_url: no links, whatever the commit.
	if f, err := newForgeLinks(workspace.Config{}, "abc1234", t.TempDir()); err != nil || f.Lines("a.go", 1, 2) != "" || f.File("a.go") != "" {
		t.Errorf("without repo_url: %v, %q", err, f.Lines("a.go", 1, 2))
	}
	// Outside git and without --commit: no links rather than wrong ones.
	cfg := workspace.Config{RepoURL: "https://github.com/a/b", Forge: "github"}
	if f, err := newForgeLinks(cfg, "", t.TempDir()); err != nil || f.File("a.go") != "" {
		t.Errorf("outside git: %v, %q", err, f.File("a.go"))
	}
	if _, err := newForgeLinks(cfg, "no-such-branch", t.TempDir()); err == nil {
		t.Errorf("--commit no-such-branch outside git: no error")
	}
}

// TestForgeLinksBuild builds the shop fixture with a repo_url and a commit:
// anchored ranges, file pages and drift entries link to the forge; the
// same fixture without repo_url has no such link anywhere.
func TestForgeLinksBuild(t *testing.T) {
	dir := fixture(t, "shop")
	plain := buildSite(t, dir, BuildOptions{Commit: "0123456789abcdef"}, 0)
	for name, data := range plain.Files {
		if strings.Contains(string(data), "/blob/0123456789abcdef") || strings.Contains(string(data), "View at commit") {
			t.Errorf("%s links to a forge without repo_url", name)
		}
	}
	must(t, os.WriteFile(filepath.Join(dir, "tracewiki.toml"), []byte("title = \"Shop\"\nrepo_url = \"https://github.com/acme/shop\"\n"), 0o644))
	s := buildSite(t, dir, BuildOptions{Commit: "0123456789abcdef"}, 0)
	const blob = "https://github.com/acme/shop/blob/0123456789abcdef/"
	assertLines(t, "requirements/REQ-1/index.html", s.Files["requirements/REQ-1/index.html"],
		`<a class="forge" href="`+blob+`cart/cart.go#L17-L23">view at commit</a>`)
	assertLines(t, "code/cart/cart.go/index.html", s.Files["code/cart/cart.go/index.html"],
		`<dt>source</dt><dd><a href="`+blob+`cart/cart.go">on the forge at 0123456789ab</a></dd>`)
	assertLines(t, "drift/index.html", s.Files["drift/index.html"],
		`<a class="forge" href="`+blob+`pay/pay.go#L`)
}
