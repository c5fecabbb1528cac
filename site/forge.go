package site

import (
	"fmt"
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
		if commit = workspace.GitRev(dir, "HEAD"); commit == "" {
			return render.Forge{}, nil // not in git: no links rather than wrong ones
		}
	case len(commit) >= 7 && len(commit) <= 64 && strings.Trim(commit, "0123456789abcdef") == "":
		// A hash, used as given: CI may build a checkout without .git.
	default:
		// A tag or branch: the links name the commit it is now.
		rev := workspace.GitRev(dir, commit)
		if rev == "" {
			return render.Forge{}, fmt.Errorf("--commit %q: not a commit hash, and git cannot resolve it", commit)
		}
		commit = rev
	}
	return render.Forge{Kind: c.Forge, Repo: c.RepoURL, Commit: commit}, nil
}
