package site

import (
	"fmt"
	"net/url"
	"os/exec"
	"strings"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// forgeLinks makes links to the repository's forge at one commit. The zero
// value makes none (no repo_url, or no commit known).
type forgeLinks struct {
	kind, repo, commit string
}

// newForgeLinks returns the forge links of a build: commit is --commit, or
// else git's HEAD in dir; with no repo_url or no commit there are none.
func newForgeLinks(c workspace.Config, commit, dir string) (forgeLinks, error) {
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
