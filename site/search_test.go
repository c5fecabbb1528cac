//go:build conformance

package site

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// searchQuery is one query of the shared corpus.
type searchQuery struct {
	Query string `json:"query"`
	Kind  string `json:"kind"`
}

// searchCorpus reads testdata/search_queries.txt.
func searchCorpus(t *testing.T) []searchQuery {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "search_queries.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []searchQuery
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q := searchQuery{Query: line}
		if rest, ok := strings.CutPrefix(line, "kind:"); ok {
			q.Kind, q.Query, _ = strings.Cut(rest, " ")
		}
		qs = append(qs, q)
	}
	return qs
}

// searchFixture writes a workspace with confusable and non-ASCII names.
func searchFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"tracewiki.toml": "title = \"search fixture\"\n",
		"go.mod":         "module example.com/walk\n",
		"walk/names.go": "package walk\n\ntype Blocklist struct{}\n\nfunc unlockAll() {}\n\ntype mdWalker struct{}\n\n" +
			"func (w *mdWalker) block() {}\n\nfunc clock() int { return 0 }\n\nfunc lockFile() {}\n\nfunc Ångström() {}\n",
		"walk/names_test.go": "package walk\n\nimport \"testing\"\n\nfunc TestLockFile(t *testing.T) { lockFile() }\n",
		"content/requirements/REQ-1.md": "---\ntitle: The lock file is never damaged\nimplements: [walk/names.go@lockFile]\n" +
			"tests: [walk/names_test.go@TestLockFile]\n---\nA failed build leaves the lock as it was.\n",
		"content/requirements/REQ-10.md": "---\ntitle: Clock skew is tolerated\n---\nTimes come from the lock, not the clock.\n",
		"content/requirements/REQ-2.md":  "---\ntitle: Situación del ÅNGSTRÖM\n---\nΣΊΣΥΦΟΣ en İstanbul; 日本語 and x😀y.\n",
		"content/decisions/ADR-1.md":     "---\ntitle: Block lists\n---\nWe keep a Blocklist; unlockAll clears it ([code](code:walk/names.go@Ångström)).\n",
		"content/walkers.md":             "# The Markdown walker\n\nThe walker skips a block ([code](code:walk/names.go@mdWalker.block)).\n",
	}
	for name, data := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	return dir
}

// TestSearchAgreement runs the search page's own script in headless
// Chromium on two built sites (tracewiki's own wiki and a fixture of
// confusable and non-ASCII names) and requires it to rank every query of
// the shared corpus exactly as the Go reference does on the same index:
// the same matches, scores and order.
func TestSearchAgreement(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("TestSearchAgreement needs Debian's chromium (%v); test.sh installs it", err)
	}
	corpus := searchCorpus(t)
	sites := []string{buildInto(t, ".."), buildInto(t, searchFixture(t))}
	b := newBrowser(t, chromium)
	defer b.close()
	for _, out := range sites {
		var idx synth.SearchJSON
		readJSON(t, filepath.Join(out, "api", "search.json"), &idx)
		ix := synth.NewSearchIndex(idx.Entries, "en")
		u := "file://" + filepath.ToSlash(filepath.Join(out, "search", "index.html"))
		b.open(t, u)
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`(`+jsQueries(t, corpus)+`).map(q =>
			window.tracewikiSearch.rank(q.query, q.kind).map(r => r.entry.id + "=" + r.score.toFixed(6)))`))
		cancel()
		if err != nil {
			t.Fatalf("%s: run the page's search: %v", u, err)
		}
		matched := 0
		for i, q := range corpus {
			var want []string
			for _, r := range ix.Rank(q.Query, q.Kind) {
				want = append(want, idx.Entries[r.Index].ID.String()+"="+strconv.FormatFloat(r.Score, 'f', 6, 64))
			}
			matched += len(want)
			if !slices.Equal(got[i], want) && !(len(got[i]) == 0 && len(want) == 0) {
				t.Errorf("%s: query %q kind %q:\n page: %q\n Go:   %q", out, q.Query, q.Kind, got[i], want)
			}
		}
		t.Logf("%s: %d queries, %d matches, page and Go agree", out, len(corpus), matched)
		if len(b.problems()) > 0 {
			t.Errorf("browser: %q", b.problems())
		}
	}

	// On tracewiki's own wiki, "lock" puts the lock-file requirement
	// ahead of every symbol that merely contains the letters.
	var own synth.SearchJSON
	readJSON(t, filepath.Join(sites[0], "api", "search.json"), &own)
	ranked := synth.NewSearchIndex(own.Entries, "en").Search("lock", synth.SearchOptions{Limit: 3})
	if len(ranked.Results) == 0 || ranked.Results[0].Type != string(claims.NodeRequirement) || !strings.Contains(strings.ToLower(ranked.Results[0].Title), "lock") {
		t.Errorf(`own wiki: search "lock" starts with %+v; want the lock-file requirement`, ranked.Results)
	}
}

// jsQueries is the corpus as a JavaScript array literal.
func jsQueries(t *testing.T, qs []searchQuery) string {
	data, err := json.Marshal(qs)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
