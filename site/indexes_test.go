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

func TestFileLineHunk(t *testing.T) {
	tests := []struct {
		in           string
		oldAt, newAt int
		want         string
	}{
		{"@@ -2,5 +2,6 @@", 26, 28, "@@ -27,5 +29,6 @@"},
		{"@@ -3 +3 @@", 10, 12, "@@ -12 +14 @@"},
		{"@@ -0,0 +1,2 @@", 10, 12, "@@ -9,0 +12,2 @@"},
		{"@@ -1,4 +0,0 @@", 10, 0, "@@ -10,4 +0,0 @@"},
		{"not a hunk", 10, 12, "not a hunk"},
	}
	for _, tt := range tests {
		if got := fileLineHunk(tt.in, tt.oldAt, tt.newAt); got != tt.want {
			t.Errorf("fileLineHunk(%q, %d, %d) = %q, want %q", tt.in, tt.oldAt, tt.newAt, got, tt.want)
		}
	}
}
