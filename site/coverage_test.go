package site

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// TestCoveragePage: the shop fixture's coverage page is api/coverage.json
// shown: each folder's row with its counts, each file with its uncovered
// symbols linked to their places on the file's page, and the home page's
// card leads to it.
func TestCoveragePage(t *testing.T) {
	s := buildSite(t, fixture(t, "shop"), BuildOptions{}, 0)
	var c synth.CoverageJSON
	if err := json.Unmarshal(s.Files[synth.CoverageFile], &c); err != nil {
		t.Fatal(err)
	}
	if c.Totals.Symbols == 0 || c.Totals.Uncovered == 0 || c.Totals.Covered == 0 {
		t.Fatalf("the shop fixture should have covered and uncovered symbols: %+v", c.Totals)
	}
	page := string(s.Files["coverage/index.html"])
	if twin := s.Files["coverage/index.json"]; string(twin) != string(s.Files[synth.CoverageFile]) {
		t.Error("the coverage page's twin is not api/coverage.json")
	}
	if want := c.Totals.String(); !strings.Contains(page, want) {
		t.Errorf("the page does not say %q", want)
	}
	for _, f := range c.Folders {
		row := fmt.Sprintf("<td>%d</td><td>%d</td><td>%d</td><td>%d</td>", f.Files, f.Symbols, f.Covered, f.Uncovered)
		if !strings.Contains(page, row) {
			t.Errorf("folder %s: no row with %s", f.Folder, row)
		}
	}
	for _, f := range c.Files {
		for _, name := range f.Uncovered {
			link := fmt.Sprintf(`href="../code/%s/index.html#sym-%s"><code>%s</code>`, f.Path, name, name)
			if !strings.Contains(page, link) {
				t.Errorf("%s@%s: no link %s", f.Path, name, link)
			}
		}
	}
	if !strings.Contains(string(s.Files["index.html"]), `href="coverage/index.html"`) {
		t.Error("the home page does not link the coverage page")
	}
}
