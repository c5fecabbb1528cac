package render

import (
	"fmt"
	"net/url"
	"strings"
)

// Forge makes links to the repository's forge (the config's repo_url and
// forge) at one commit. The zero value makes none (no repo_url, or no
// commit known).
type Forge struct {
	Kind   string // the config's forge: "github" (also ""), "gitlab", "gitea"
	Repo   string // the config's repo_url
	Commit string // the commit the links point at
}

// File links to a file at the commit; "" without forge links.
func (f Forge) File(path string) string {
	if f.Commit == "" {
		return ""
	}
	var segs []string
	for s := range strings.SplitSeq(path, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	p := f.Commit + "/" + strings.Join(segs, "/")
	switch f.Kind {
	case "gitlab":
		return f.Repo + "/-/blob/" + p
	case "gitea":
		return f.Repo + "/src/commit/" + p
	}
	return f.Repo + "/blob/" + p
}

// Lines links to lines start..end of a file at the commit.
func (f Forge) Lines(path string, start, end int) string {
	u := f.File(path)
	if u == "" || start < 1 {
		return u
	}
	if end < start {
		end = start
	}
	if f.Kind == "gitlab" {
		return fmt.Sprintf("%s#L%d-%d", u, start, end)
	}
	return fmt.Sprintf("%s#L%d-L%d", u, start, end)
}
