package site

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/site/render"
)

// TestNodeURLs checks the URL function against the output: the URL of
// every node of a built fixture's graph is a page
// the build wrote, and a URL with an anchor (a symbol on its file's page)
// names an element of that page.
func TestNodeURLs(t *testing.T) {
	for _, name := range []string{"shop", "reasons"} {
		s := buildSite(t, fixture(t, name), BuildOptions{BaseURL: "/preview/"}, 0)
		if len(s.Graph.Nodes) == 0 {
			t.Fatalf("%s: empty graph", name)
		}
		anchors := 0
		for _, n := range s.Graph.Nodes {
			u := render.NodeURL(n)
			page, anchor, hasAnchor := strings.Cut(u, "#")
			html, ok := s.Files[page]
			if !ok {
				t.Errorf("%s: %s: URL %s names no page of the output", name, n.ID, u)
				continue
			}
			if hasAnchor {
				anchors++
				if !strings.Contains(string(html), `id="`+anchor+`"`) {
					t.Errorf("%s: %s: page %s has no element with id %q", name, n.ID, page, anchor)
				}
			}
		}
		if anchors == 0 {
			t.Errorf("%s: no symbol URL with an anchor was checked", name)
		}
	}
}
