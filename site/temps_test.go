package site

import (
	"os"
	"strconv"
	"testing"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// besideOutput lists the names in the output's parent folder.
func besideOutput(t *testing.T, parent string) []string {
	t.Helper()
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestContentTemp checks which names are temporary files of content files.
func TestContentTemp(t *testing.T) {
	for name, want := range map[string]int{
		"p68.md.tmp-24220": 24220, "_index.md.tmp-7448": 7448, "r.yaml.tmp-1": 1,
		"p.md.tmp-": -1, "p.md.tmp-x": -1, "p.txt.tmp-1": -1, ".p.md.tmp-1": -1, "p.md": -1, "tracewiki.lock.tmp-5": -1,
	} {
		pid, ok := contentTemp(name)
		if want < 0 && ok || want >= 0 && (!ok || pid != want) {
			t.Errorf("contentTemp(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
	if pid, ok := contentTemp("a.md" + workspace.TempSuffix + strconv.Itoa(os.Getpid())); !ok || pid != os.Getpid() {
		t.Errorf("contentTemp of this process's temporary file = %d, %v", pid, ok)
	}
}
