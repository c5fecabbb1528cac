//go:build conformance

package site

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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

// searchCorpus reads the shared queries (testdata/search_queries.txt) and
// the questions to the own wiki (testdata/search_questions.txt).
func searchCorpus(t *testing.T) []searchQuery {
	t.Helper()
	var qs []searchQuery
	for _, name := range []string{"search_queries.txt", "search_questions.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
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
// confusable and non-ASCII names) and requires it to answer every query of
// the shared corpus as "tracewiki search" does (the Go code the CLI and the
// MCP server run; cmd/tracewiki's TestSearchAgreementCLIMCP compares those
// two): the same terms, corrections, count, top 10 ids in order and hint.
// It also requires the page to rank every candidate with the scores of the
// Go reference on the built index, to the sixth decimal.
func TestSearchAgreement(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("TestSearchAgreement needs Debian's chromium (%v); test.sh installs it", err)
	}
	corpus := searchCorpus(t)
	workspaces := []string{"..", searchFixture(t)}
	b := newBrowser(t, chromium)
	defer b.close()
	var own synth.SearchJSON
	for n, ws := range workspaces {
		out := buildInto(t, ws)
		var idx synth.SearchJSON
		readJSON(t, filepath.Join(out, "api", "search.json"), &idx)
		if n == 0 {
			own = idx
		}
		ix := synth.NewSearchIndex(idx.Entries, "en")
		k := knowledgeOf(t, ws)
		u := "file://" + filepath.ToSlash(filepath.Join(out, "search", "index.html"))
		b.open(t, u)
		ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]pageAnswer](`Promise.all((`+jsQueries(t, corpus)+`).map(async q => {
			const a = await window.tracewikiSearch.search(q.query, q.kind, 10);
			const ranked = await window.tracewikiSearch.rank(q.query, q.kind);
			return {terms: a.terms, corrected: a.corrected, count: a.count, hint: a.hint,
				ids: a.results.map(r => r.entry.id),
				ranked: ranked.map(r => r.i + "=" + r.score.toFixed(6))};
		}))`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			t.Fatalf("%s: run the page's search: %v", u, err)
		}
		matched, answered := 0, 0
		for i, q := range corpus {
			cli := k.Search(q.Query, synth.SearchOptions{Kind: q.Kind})
			want := pageAnswer{Terms: cli.Terms, Corrected: cli.Corrected, Count: cli.Count, Hint: cli.Hint, IDs: []string{}}
			for _, r := range cli.Results {
				want.IDs = append(want.IDs, r.ID)
			}
			if want.Corrected == nil {
				want.Corrected = map[string]string{}
			}
			// Every candidate, with its score, as the Go ranking orders
			// the index the page loaded.
			want.Ranked = []string{}
			for _, r := range ix.Rank(q.Query, q.Kind) {
				want.Ranked = append(want.Ranked, strconv.Itoa(r.Index)+"="+strconv.FormatFloat(r.Score, 'f', 6, 64))
			}
			if !reflect.DeepEqual(got[i], want) {
				t.Errorf("%s: query %q kind %q:\n page: %+v\n Go:   %+v", ws, q.Query, q.Kind, got[i], want)
			}
			matched += len(want.Ranked)
			if cli.Count > 0 {
				answered++
			}
		}
		t.Logf("%s: %d queries, %d answered, %d candidates; page and CLI agree", ws, len(corpus), answered, matched)
		// The page shows "No results" first, then the hint.
		ctx, cancel = context.WithTimeout(b.ctx, 30*time.Second)
		status, err := chromedp.Run(ctx, chromedp.Evaluate[[2]string](`(async () => {
			const box = document.getElementById("q");
			box.value = "walkerzzz";
			box.dispatchEvent(new Event("input"));
			await window.tracewikiSearch.shown;
			const first = document.getElementById("status").textContent;
			await window.tracewikiSearch.done;
			return [first, document.getElementById("status").textContent];
		})()`, chromedp.EvalAwaitPromise))
		cancel()
		want := k.Search("walkerzzz", synth.SearchOptions{}).Hint
		if err != nil || status[0] != "No results." || status[1] != "No results: "+want+"." {
			t.Errorf("%s: the page's status for walkerzzz: %q, %v; want %q, then %q", ws, status, err, "No results.", "No results: "+want+".")
		}
		if len(b.problems()) > 0 {
			t.Errorf("browser: %q", b.problems())
		}
	}

	// On tracewiki's own wiki, "lock" puts the lock-file requirement
	// ahead of every symbol that merely contains the letters.
	ranked := synth.NewSearchIndex(own.Entries, "en").Search("lock", synth.SearchOptions{Limit: 3})
	if len(ranked.Results) == 0 || ranked.Results[0].Type != string(claims.NodeRequirement) || !strings.Contains(strings.ToLower(ranked.Results[0].Title), "lock") {
		t.Errorf(`own wiki: search "lock" starts with %+v; want the lock-file requirement`, ranked.Results)
	}
}

// pageAnswer is what the test compares of an answer of the search page
// and of "tracewiki search": Ranked is every candidate as "number=score",
// its number in the index (node order).
type pageAnswer struct {
	Terms     []string          `json:"terms"`
	Corrected map[string]string `json:"corrected"`
	Count     int               `json:"count"`
	Hint      string            `json:"hint"`
	IDs       []string          `json:"ids"`
	Ranked    []string          `json:"ranked"`
}

// knowledgeOf is what "tracewiki search" answers from in workspace dir.
func knowledgeOf(t *testing.T, dir string) *synth.Knowledge {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// jsQueries is the corpus as a JavaScript array literal.
func jsQueries(t *testing.T, qs []searchQuery) string {
	data, err := json.Marshal(qs)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
