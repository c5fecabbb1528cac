package site

import (
	"fmt"
	"net/url"
	"os/exec"
	"strings"
)

// Forges by the host of a repository URL, when the config names none.
var forgeHosts = map[string]string{
	"github.com": "github", "gitlab.com": "gitlab", "gitea.com": "gitea", "codeberg.org": "gitea",
}

// checkForge validates repo_url and forge, and fills in the forge from the
// host when it is not given.
func (c *Config) checkForge() error {
	switch c.Forge {
	case "", "github", "gitlab", "gitea":
	default:
		return fmt.Errorf("forge %q: want \"github\", \"gitlab\" or \"gitea\"", c.Forge)
	}
	if c.RepoURL == "" {
		return nil
	}
	u, err := url.Parse(c.RepoURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("repo_url %q: want the repository's http(s) URL, like https://github.com/acme/shop", c.RepoURL)
	}
	c.RepoURL = strings.TrimSuffix(strings.TrimSuffix(c.RepoURL, "/"), ".git")
	if c.Forge == "" {
		c.Forge = forgeHosts[strings.ToLower(u.Hostname())]
		if c.Forge == "" {
			return fmt.Errorf("repo_url %q: cannot tell its forge from the host; set forge = \"github\", \"gitlab\" or \"gitea\"", c.RepoURL)
		}
	}
	return nil
}

// forgeLinks makes links to the repository's forge at one commit. The zero
// value makes none (no repo_url, or no commit known).
type forgeLinks struct {
	kind, repo, commit string
}

// newForgeLinks returns the forge links of a build: commit is --commit, or
// else git's HEAD in dir; with no repo_url or no commit there are none.
func newForgeLinks(c Config, commit, dir string) (forgeLinks, error) {
	if c.RepoURL == "" {
		return forgeLinks{}, nil
	}
	switch {
	case commit == "":
		if commit = gitRev(dir, "HEAD"); commit == "" {
			return forgeLinks{}, nil // not in git: no links rather than wrong ones
		}
	case len(commit) >= 7 && len(commit) <= 64 && strings.Trim(commit, "0123456789abcdef") == "":
		// A hash, used as given: CI may build a checkout without .git.
	default:
		// A tag or branch: the links name the commit it is now.
		rev := gitRev(dir, commit)
		if rev == "" {
			return forgeLinks{}, fmt.Errorf("--commit %q: not a commit hash, and git cannot resolve it", commit)
		}
		commit = rev
	}
	return forgeLinks{kind: c.Forge, repo: c.RepoURL, commit: commit}, nil
}

// gitRev is the commit hash of rev in dir's repository, "" when git is
// absent, dir is not in a repository or rev names no commit.
func gitRev(dir, rev string) string {
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

// file links to a file at the commit; "" without forge links.
func (f forgeLinks) file(path string) string {
	if f.commit == "" {
		return ""
	}
	var segs []string
	for s := range strings.SplitSeq(path, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	p := f.commit + "/" + strings.Join(segs, "/")
	switch f.kind {
	case "gitlab":
		return f.repo + "/-/blob/" + p
	case "gitea":
		return f.repo + "/src/commit/" + p
	}
	return f.repo + "/blob/" + p
}

// lines links to lines start..end of a file at the commit.
func (f forgeLinks) lines(path string, start, end int) string {
	u := f.file(path)
	if u == "" || start < 1 {
		return u
	}
	if end < start {
		end = start
	}
	if f.kind == "gitlab" {
		return fmt.Sprintf("%s#L%d-%d", u, start, end)
	}
	return fmt.Sprintf("%s#L%d-L%d", u, start, end)
}
