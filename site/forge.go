package site

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// newForgeLinks returns the forge links of a build: commit is --commit, or
// else git's HEAD in dir; with no repo_url or no commit there are none.
func newForgeLinks(c workspace.Config, commit, dir string) (render.Forge, error) {
	if c.RepoURL == "" {
		return render.Forge{}, nil
	}
	switch {
	case commit == "":
		if commit = gitRev(dir, "HEAD"); commit == "" {
			return render.Forge{}, nil // not in git: no links rather than wrong ones
		}
	case len(commit) >= 7 && len(commit) <= 64 && strings.Trim(commit, "0123456789abcdef") == "":
		// A hash, used as given: CI may build a checkout without .git.
	default:
		// A tag or branch: the links name the commit it is now.
		rev := gitRev(dir, commit)
		if rev == "" {
			return render.Forge{}, fmt.Errorf("--commit %q: not a commit hash, and git cannot resolve it", commit)
		}
		commit = rev
	}
	return render.Forge{Kind: c.Forge, Repo: c.RepoURL, Commit: commit}, nil
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
