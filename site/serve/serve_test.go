package serve

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// serveTimeout bounds every wait of the serve tests, so a failure fails
// instead of hanging.
const serveTimeout = 30 * time.Second

const (
	guideMD    = "---\ntitle: Guide\n---\nHello greets the user ([code](code:src/greet.go@Hello)).\n"
	greetGo    = "package src\n\n// Hello greets.\nfunc Hello() string {\n\treturn \"hello\"\n}\n"
	guideURL   = "pages/guide/index.html"
	reloadMark = `new EventSource("/__tracewiki/events")`
)

// serveWorkspace writes a small workspace, captures its anchors and returns
// its folder.
func serveWorkspace(t *testing.T, guide string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"tracewiki.toml":             "title = \"Serve test\"\n",
		"go.mod":                     "module example.com/serve\n\ngo 1.26\n",
		"src/greet.go":               greetGo,
		"content/guide.md":           guide,
		"content/requirements/R1.md": "---\ntitle: Greeting\nstatus: accepted\nimplements: [src/greet.go@Hello]\n---\nThe tool greets.\n",
	} {
		writeFile(t, dir, name, data)
	}
	if !strings.Contains(guide, "title: [") { // a broken page cannot be loaded to capture
		p, err := site.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Capture(site.CaptureOptions{By: "test"}, io.Discard); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	return dir
}

func writeFile(t testing.TB, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startServer serves dir on a free loopback port until the test ends, and
// checks then that Run returned cleanly.
func startServer(t testing.TB, dir string, opts Options) (*Server, string) {
	t.Helper()
	opts.Addr = "127.0.0.1:0"
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	srv, err := NewServer(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-ran:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(serveTimeout):
			t.Errorf("Run did not return after cancel")
		}
	})
	return srv, "http://" + srv.Addr()
}

var testClient = &http.Client{Timeout: serveTimeout}

func get(t testing.TB, u string) (*http.Response, string) {
	t.Helper()
	resp, err := testClient.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// rawStatus sends target as is on the request line, with no client-side
// cleaning, and returns the status code.
func rawStatus(t *testing.T, addr, target string) int {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, serveTimeout)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(serveTimeout))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// subscribe opens the event stream and returns the generations it
// announces, the first being the current one.
func subscribe(t testing.TB, base string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events Content-Type = %q", ct)
	}
	ch := make(chan string, 100)
	go func() {
		defer resp.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if gen, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				ch <- gen
			}
		}
	}()
	return ch
}

// nextEvent waits for the next announced generation.
func nextEvent(t testing.TB, events <-chan string) string {
	t.Helper()
	return nextEventWithin(t, events, serveTimeout)
}

func nextEventWithin(t testing.TB, events <-chan string, d time.Duration) string {
	t.Helper()
	select {
	case gen, ok := <-events:
		if !ok {
			t.Fatal("event stream ended")
		}
		return gen
	case <-time.After(d):
		t.Fatal("no event before the deadline")
	}
	return ""
}

// waitPage waits for rebuild events until the page at u satisfies ok, and
// returns its last response.
func waitPage(t *testing.T, events <-chan string, u string, ok func(code int, body string) bool) (int, string) {
	t.Helper()
	deadline := time.Now().Add(serveTimeout)
	for {
		nextEvent(t, events)
		resp, body := get(t, u)
		if ok(resp.StatusCode, body) {
			return resp.StatusCode, body
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: still %d:\n%s", u, resp.StatusCode, body)
		}
	}
}

func TestServe(t *testing.T) {
	dir := serveWorkspace(t, guideMD)
	lock, err := os.ReadFile(filepath.Join(dir, "tracewiki.lock"))
	if err != nil {
		t.Fatal(err)
	}
	srv, base := startServer(t, dir, Options{})
	page := base + "/" + guideURL

	resp, body := get(t, page)
	if resp.StatusCode != 200 || !strings.Contains(body, "Hello greets the user") || strings.Contains(body, "badge-stale") {
		t.Fatalf("GET %s = %d:\n%s", guideURL, resp.StatusCode, body)
	}
	if !strings.Contains(body, reloadMark) {
		t.Errorf("served page has no reload script")
	}
	if built, _, _ := srv.state.Load().site.File(guideURL); strings.Contains(string(built), "EventSource") {
		t.Errorf("the built page itself has a reload script")
	}
	for _, h := range [][2]string{{"Content-Type", "text/html; charset=utf-8"}, {"Cache-Control", "no-store"}} {
		if got := resp.Header.Get(h[0]); got != h[1] {
			t.Errorf("%s = %q, want %q", h[0], got, h[1])
		}
	}
	if _, folder := get(t, base+"/pages/guide/"); folder != body {
		t.Errorf("GET pages/guide/ is not its index.html")
	}
	for u, ct := range map[string]string{"/api/graph.json": "application/json", "/assets/chroma.css": "text/css; charset=utf-8"} {
		if resp, body := get(t, base+u); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ct || strings.Contains(body, "EventSource") {
			t.Errorf("GET %s = %d %q", u, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	for _, u := range []string{"/nope", "/pages/guide", "/pages/guide/index.htm", "/src/greet.go", "/tracewiki.lock"} {
		if resp, _ := get(t, base+u); resp.StatusCode != 404 {
			t.Errorf("GET %s = %d, want 404", u, resp.StatusCode)
		}
	}

	t.Run("traversal", func(t *testing.T) {
		if code := rawStatus(t, srv.Addr(), "/index.html"); code != 200 {
			t.Fatalf("GET /index.html = %d, want 200", code)
		}
		for _, target := range []string{
			"/../go.mod", "/%2e%2e/go.mod", "/%2E%2E/go.mod", "/a/..%2f..%2fgo.mod", "/pages/../../go.mod",
			"/pages/..%5c..%5cgo.mod", `/pages/..\..\go.mod`, "/index.html%00", "/./index.html", "//index.html",
			"/pages/./guide/index.html", "/pages//guide/index.html", "/..", "/%2e%2e%2fgo.mod",
		} {
			if code := rawStatus(t, srv.Addr(), target); code != 404 {
				t.Errorf("GET %s = %d, want 404", target, code)
			}
		}
	})

	t.Run("neighborhood", func(t *testing.T) {
		for _, tc := range []struct {
			query     string
			depth     int
			wantNode  string
			wantUnkwn []string
		}{
			{"path=src/greet.go&depth=9", 3, "symbol:src/greet.go@Hello", []string{}},
			{"req_key=R1&depth=0", 1, "requirement:R1", []string{}},
			{"req_key=R1&issue_key=NOPE&depth=2", 2, "requirement:R1", []string{"NOPE"}},
			{"", 1, "", []string{}},
		} {
			resp, body := get(t, base+NeighborhoodPath+"?"+tc.query)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("GET ?%s = %d %q", tc.query, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			var got synth.NeighborhoodJSON
			dec := json.NewDecoder(strings.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("GET ?%s: %v\n%s", tc.query, err, body)
			}
			nb := got.Neighborhood
			ids := make([]string, len(nb.Nodes))
			for i, n := range nb.Nodes {
				ids[i] = n.ID.String()
			}
			if nb.Depth != tc.depth || nb.ProjectID != "serve-test" || !slices.Equal(nb.Unknown, tc.wantUnkwn) ||
				tc.wantNode != "" && !slices.Contains(ids, tc.wantNode) || tc.wantNode == "" && len(ids) > 0 {
				t.Errorf("GET ?%s: depth %d, unknown %q, nodes %q", tc.query, nb.Depth, nb.Unknown, ids)
			}
		}
		if resp, _ := get(t, base+NeighborhoodPath+"?depth=two"); resp.StatusCode != 400 {
			t.Errorf("depth=two: %d, want 400", resp.StatusCode)
		}
	})

	events := subscribe(t, base)
	first := nextEvent(t, events)
	if first != srv.state.Load().gen {
		t.Fatalf("first event %q, want the current generation", first)
	}

	t.Run("edit page", func(t *testing.T) {
		writeFile(t, dir, "content/guide.md", strings.Replace(guideMD, "greets the user", "welcomes the reader", 1))
		waitPage(t, events, page, func(code int, body string) bool {
			return code == 200 && strings.Contains(body, "Hello welcomes the reader")
		})
	})

	t.Run("editor files", func(t *testing.T) {
		// A swap file and a backup beside the page: no rebuild, so no
		// reload while its author types; the edit saved after them is one.
		writeFile(t, dir, "content/.guide.md.swp", "vim")
		writeFile(t, dir, "content/guide.md~", "backup")
		select {
		case gen := <-events:
			t.Fatalf("a rebuild (%s) after an editor's swap file and backup", gen)
		case <-time.After(300 * time.Millisecond): // fifteen debounce times
		}
		writeFile(t, dir, "content/guide.md", strings.Replace(guideMD, "greets the user", "welcomes the reader", 1)+"\nSaved after the swap file.\n")
		waitPage(t, events, page, func(code int, body string) bool {
			return code == 200 && strings.Contains(body, "Saved after the swap file.")
		})
	})

	t.Run("edit source", func(t *testing.T) {
		writeFile(t, dir, "src/greet.go", strings.Replace(greetGo, `"hello"`, `"hi"`, 1))
		_, body := waitPage(t, events, page, func(code int, body string) bool {
			return code == 200 && strings.Contains(body, "badge-stale")
		})
		if !strings.Contains(body, "the anchored code changed") || !strings.Contains(body, "welcomes the reader") {
			t.Errorf("stale page:\n%s", body)
		}
	})

	t.Run("broken edit", func(t *testing.T) {
		writeFile(t, dir, "content/guide.md", "---\ntitle: [unclosed\n---\nBroken <b>page</b>.\n")
		code, body := waitPage(t, events, page, func(code int, body string) bool {
			return strings.Contains(body, `id="tracewiki-error"`)
		})
		if code != 500 || !strings.Contains(body, "content/guide.md:") || !strings.Contains(body, "welcomes the reader") {
			t.Errorf("broken build: %d:\n%s", code, body)
		}
		if resp, body := get(t, base+"/api/graph.json"); resp.StatusCode != 200 || strings.Contains(body, "tracewiki-error") {
			t.Errorf("an artifact of the last good site = %d", resp.StatusCode)
		}
		writeFile(t, dir, "content/guide.md", guideMD)
		waitPage(t, events, page, func(code int, body string) bool {
			return code == 200 && !strings.Contains(body, "tracewiki-error") && strings.Contains(body, "greets the user")
		})
	})

	t.Run("broken config", func(t *testing.T) {
		writeFile(t, dir, "tracewiki.toml", "title = \"Serve test\"\ntitel = \"typo\"\n")
		_, body := waitPage(t, events, page, func(code int, body string) bool {
			return code == 500 && strings.Contains(body, `id="tracewiki-error"`)
		})
		if !strings.Contains(body, "tracewiki.toml:2: unknown key &#34;titel&#34;") {
			t.Errorf("broken config banner:\n%s", body)
		}
		writeFile(t, dir, "tracewiki.toml", "title = \"Serve test\"\n")
		waitPage(t, events, page, func(code int, body string) bool {
			return code == 200 && !strings.Contains(body, "tracewiki-error")
		})
	})

	t.Run("new folder", func(t *testing.T) {
		writeFile(t, dir, "content/notes/deep/later.md", "---\ntitle: Later\n---\nAdded later.\n")
		waitPage(t, events, base+"/pages/notes/deep/later/index.html", func(code int, body string) bool {
			return code == 200 && strings.Contains(body, "Added later.")
		})
		writeFile(t, dir, "content/notes/deep/later.md", "---\ntitle: Later\n---\nEdited in a new folder.\n")
		waitPage(t, events, base+"/pages/notes/deep/later/index.html", func(code int, body string) bool {
			return code == 200 && strings.Contains(body, "Edited in a new folder.")
		})
	})

	if now, err := os.ReadFile(filepath.Join(dir, "tracewiki.lock")); err != nil || string(now) != string(lock) {
		t.Errorf("serve changed the lock (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("serve wrote the output folder (%v)", err)
	}
}

func TestServeShutdownEndsEvents(t *testing.T) {
	dir := serveWorkspace(t, guideMD)
	srv, err := NewServer(dir, Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	events := subscribe(t, "http://"+srv.Addr())
	nextEvent(t, events)
	cancel()
	select {
	case err := <-ran:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(serveTimeout):
		t.Fatal("Run did not return after cancel")
	}
	select {
	case _, open := <-events:
		if open {
			t.Fatal("an event after shutdown")
		}
	case <-time.After(serveTimeout):
		t.Fatal("the event stream was not closed")
	}
}

func TestServeBaseURL(t *testing.T) {
	dir := serveWorkspace(t, guideMD)
	srv, base := startServer(t, dir, Options{BaseURL: "/pr-7"})
	if srv.BaseURL() != "/pr-7/" {
		t.Fatalf("BaseURL() = %q", srv.BaseURL())
	}
	if resp, _ := get(t, base+"/pr-7/"+guideURL); resp.StatusCode != 200 {
		t.Errorf("GET under the base URL = %d", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/"+guideURL); resp.StatusCode != 404 {
		t.Errorf("GET outside the base URL = %d, want 404", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/pr-7/api/neighborhood?req_key=R1"); resp.StatusCode != 200 {
		t.Errorf("neighborhood under the base URL = %d", resp.StatusCode)
	}
	resp, _ := get(t, base+"/")
	if resp.Request.URL.Path != "/pr-7/" || resp.StatusCode != 200 {
		t.Errorf("GET / ended at %s with %d, want /pr-7/", resp.Request.URL.Path, resp.StatusCode)
	}
}

func TestServeFirstBuildBroken(t *testing.T) {
	dir := serveWorkspace(t, "---\ntitle: [unclosed\n---\n")
	_, base := startServer(t, dir, Options{})
	resp, body := get(t, base+"/"+guideURL)
	if resp.StatusCode != 500 || !strings.Contains(body, "content/guide.md:") || !strings.Contains(body, reloadMark) {
		t.Fatalf("GET = %d:\n%s", resp.StatusCode, body)
	}
	if resp, _ := get(t, base+NeighborhoodPath+"?req_key=R1"); resp.StatusCode != 503 {
		t.Errorf("neighborhood before any good build = %d, want 503", resp.StatusCode)
	}
	events := subscribe(t, base)
	nextEvent(t, events)
	writeFile(t, dir, "content/guide.md", guideMD)
	waitPage(t, events, base+"/"+guideURL, func(code int, body string) bool {
		return code == 200 && strings.Contains(body, "Hello greets the user") && strings.Contains(body, "badge-unknown")
	})
}

func TestServeRefusesNonLoopback(t *testing.T) {
	dir := t.TempDir()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:1313"} {
		if _, err := NewServer(dir, Options{Addr: addr}); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("NewServer(Addr: %q) = %v, want ErrNotLoopback", addr, err)
		}
	}
	for _, tc := range []struct {
		addr   string
		public bool
		ok     bool
	}{
		{"127.0.0.1:1313", false, true},
		{"127.1.2.3:0", false, true},
		{"[::1]:0", false, true},
		{"localhost:0", false, true},
		{"0.0.0.0:1313", true, true},
		{":1313", true, true},
		{"127.0.0.1", false, false}, // no port
	} {
		if err := checkAddr(tc.addr, tc.public); (err == nil) != tc.ok {
			t.Errorf("checkAddr(%q, %v) = %v", tc.addr, tc.public, err)
		}
	}
}

func TestCleanPath(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{"/", true},
		{"/index.html", true},
		{"/pages/guide/", true},
		{"/pages/a%20b/index.html", true},
		{"/../go.mod", false},
		{"/%2e%2e/go.mod", false},
		{"/a/..%2f..%2fgo.mod", false},
		{"/a%2fb", false},
		{"/a%5cb", false},
		{"/a\\b", false},
		{"/a%00", false},
		{"/a/./b", false},
		{"/a//b", false},
		{"/..", false},
		{"/.", false},
	} {
		u, err := url.Parse(tc.raw)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", tc.raw, err)
		}
		if _, ok := cleanPath(u); ok != tc.ok {
			t.Errorf("cleanPath(%q) = %v, want %v", tc.raw, ok, tc.ok)
		}
	}
}

func TestServeBannerEscapes(t *testing.T) {
	got := banner([]string{`a.md:1:2: bad <script>alert("x")</script> & more`})
	if strings.Contains(got, "<script>") || !strings.Contains(got, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more") {
		t.Errorf("banner = %s", got)
	}
	if banner(nil) != "" {
		t.Errorf("banner(nil) is not empty")
	}
	page := inject([]byte("<html><body><p>x</p></body></html>"), "<!--s-->")
	if string(page) != "<html><body><p>x</p><!--s--></body></html>" {
		t.Errorf("inject = %s", page)
	}
}

// BenchmarkServeRebuild measures serve's latency on the workspace named by
// TRACEWIKI_SERVE_SITE (such as bench/gen's 10,000-page site, captured):
// from saving an edit of one page (TRACEWIKI_SERVE_PAGE, default
// content/area00/page00000.md) to the reload event of its rebuild, with the
// default debounce, and to the first response for the page's URL
// (TRACEWIKI_SERVE_URL, default pages/area00/page00000/) that holds the
// edit. Run it with -benchtime 5x; the page is restored after.
// TRACEWIKI_SERVE_CPUPROFILE names a file for a CPU profile of the edits
// alone (not the first build), TRACEWIKI_SERVE_MEMPROFILE one for a heap
// profile after them.
func BenchmarkServeRebuild(b *testing.B) {
	dir := os.Getenv("TRACEWIKI_SERVE_SITE")
	if dir == "" {
		b.Skip("TRACEWIKI_SERVE_SITE is not set")
	}
	name := cmp.Or(os.Getenv("TRACEWIKI_SERVE_PAGE"), "content/area00/page00000.md")
	orig, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { writeFile(b, dir, name, string(orig)) })
	srv, base := startServer(b, dir, Options{Debounce: 100 * time.Millisecond, Log: os.Stderr})
	events := subscribe(b, base)
	nextEvent(b, events)
	pageURL := base + srv.BaseURL() + cmp.Or(os.Getenv("TRACEWIKI_SERVE_URL"), "pages/area00/page00000/")
	if prof := os.Getenv("TRACEWIKI_SERVE_CPUPROFILE"); prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { pprof.StopCPUProfile(); f.Close() })
	}
	var took, shown []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		mark := fmt.Sprintf("Edited %d-%d.", i, start.UnixNano())
		writeFile(b, dir, name, fmt.Sprintf("%s\n%s\n", orig, mark))
		nextEventWithin(b, events, 10*time.Minute)
		took = append(took, time.Since(start))
		if errs := srv.state.Load().errs; len(errs) > 0 {
			b.Fatalf("rebuild failed: %q", errs)
		}
		for {
			resp, err := http.Get(pageURL)
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if bytes.Contains(body, []byte(mark)) {
				break
			}
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("%s never showed the edit", pageURL)
			}
			time.Sleep(2 * time.Millisecond)
		}
		shown = append(shown, time.Since(start))
	}
	if prof := os.Getenv("TRACEWIKI_SERVE_MEMPROFILE"); prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		if err := pprof.WriteHeapProfile(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	slices.Sort(took)
	slices.Sort(shown)
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "ms-median/rebuild")
	b.ReportMetric(float64(shown[len(shown)/2].Milliseconds()), "ms-median/edit-to-response")
	b.ReportMetric(float64(srv.state.Load().site.Pages), "pages")
	b.Logf("rebuild latencies: %v", took)
}

// TestServeHostHeader checks that the server answers only requests whose
// Host header is a loopback name or address or one given in Hosts, so a
// DNS-rebinding page cannot read the preview.
func TestServeHostHeader(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "content/index.md", "# Home\n")
	srv, base := startServer(t, dir, Options{Hosts: []string{"wiki.internal"}})
	for _, c := range []struct {
		host string
		code int
	}{
		{"", 200}, // the client's own: 127.0.0.1:PORT
		{"localhost:1313", 200},
		{"LOCALHOST", 200},
		{"app.localhost", 200},
		{"[::1]:8080", 200},
		{"127.0.0.2", 200},
		{"wiki.internal", 200},
		{"Wiki.Internal.:80", 200},
		{"evil.example", http.StatusMisdirectedRequest},
		{"evil.example:" + strings.Split(srv.Addr(), ":")[1], http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example", http.StatusMisdirectedRequest},
		{"10.0.0.1", http.StatusMisdirectedRequest},
		{"localhost.evil.example", http.StatusMisdirectedRequest},
	} {
		req, err := http.NewRequest("GET", base+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("Host %q: status %d, want %d", c.host, resp.StatusCode, c.code)
		}
	}
}
