package site

import (
	"fmt"
	"strings"
	"testing"
)

// TestListsNaturalOrder checks that the decision index lists ids in
// natural order (ADR-2 before ADR-10), in the page and in its JSON twin,
// where byte order would put ADR-10 first.
func TestListsNaturalOrder(t *testing.T) {
	dir := t.TempDir()
	writeFixtureFile(t, dir, "tracewiki.toml", []byte("title = \"t\"\n"))
	for _, id := range []string{"ADR-10", "ADR-2", "ADR-1"} {
		writeFixtureFile(t, dir, "content/decisions/"+id+".md",
			[]byte(fmt.Sprintf("---\ntitle: Decision %s\nstatus: accepted\n---\nText.\n", id)))
	}
	s := buildSite(t, dir, BuildOptions{Frozen: true}, 0)
	html := string(s.Files["decisions/index.html"])
	a, b, c := strings.Index(html, ">ADR-1<"), strings.Index(html, ">ADR-2<"), strings.Index(html, ">ADR-10<")
	if a < 0 || !(a < b && b < c) {
		t.Errorf("decisions/index.html: ADR-1 at %d, ADR-2 at %d, ADR-10 at %d; want natural order", a, b, c)
	}
	js := string(s.Files["decisions/index.json"])
	a, b, c = strings.Index(js, `"decision:ADR-1"`), strings.Index(js, `"decision:ADR-2"`), strings.Index(js, `"decision:ADR-10"`)
	if a < 0 || !(a < b && b < c) {
		t.Errorf("decisions/index.json: ADR-1 at %d, ADR-2 at %d, ADR-10 at %d; want natural order", a, b, c)
	}
}
