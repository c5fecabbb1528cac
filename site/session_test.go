package site

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/synth"
)

// sessionTimeout bounds every wait of the session tests, so a failure
// fails instead of hanging.
const sessionTimeout = 30 * time.Second

// sessionBuild is one build of a watched session.
type sessionBuild struct {
	site *Site
	err  error
}

// watchSession opens a watching session on dir, builds once, and builds
// again after each burst of changes until the test ends; it returns the
// session, its first build and the later builds.
func watchSession(t *testing.T, dir string) (*Session, *Site, <-chan sessionBuild) {
	t.Helper()
	s, err := OpenSession(dir, SessionOptions{Watch: true, Debounce: 20 * time.Millisecond})
	must(t, err)
	first, err := s.Build("")
	must(t, err)
	builds := make(chan sessionBuild, 100)
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.Watch(ctx, func() {
			site, err := s.Build("")
			builds <- sessionBuild{site, err}
		})
	}()
	t.Cleanup(func() {
		cancel()
		s.Close()
		<-watched
	})
	return s, first, builds
}

// nextBuild waits for the session's next build.
func nextBuild(t *testing.T, builds <-chan sessionBuild) sessionBuild {
	t.Helper()
	select {
	case b := <-builds:
		return b
	case <-time.After(sessionTimeout):
		t.Fatal("no build before the deadline")
	}
	return sessionBuild{}
}

// waitFor waits, build by build, until the site's file name holds text,
// and returns that site.
func waitFor(t *testing.T, builds <-chan sessionBuild, name, text string) *Site {
	t.Helper()
	deadline := time.Now().Add(sessionTimeout)
	for {
		b := nextBuild(t, builds)
		if b.err == nil {
			data, ok, err := b.site.File(name)
			must(t, err)
			if ok && strings.Contains(string(data), text) {
				return b.site
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed %q", name, text)
		}
	}
}

// waitProblem waits, build by build, until a build fails with a problem
// in file that says what.
func waitProblem(t *testing.T, s *Session, builds <-chan sessionBuild, file, what string) {
	t.Helper()
	deadline := time.Now().Add(sessionTimeout)
	for {
		b := nextBuild(t, builds)
		if b.err != nil {
			for _, e := range Problems(b.err) {
				if strings.HasPrefix(e, file+":") && strings.Contains(e, what) {
					if !slices.Equal(s.Problems(), Problems(b.err)) {
						t.Errorf("the session's problems %q are not the build's", s.Problems())
					}
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session never reported %s: ...%s...", file, what)
		}
	}
}

// TestSessionEditMatchesBuild checks a watched session's incremental
// builds (serve's): after edits (a page, a source file, the lock, a new
// page, a page's claims, a requirement, a page removed, a link to another
// page's heading and that heading removed and restored), the site it
// builds, every file rendered, is byte for byte a cold build of the
// edited workspace; and the edited page shows the edit.
func TestSessionEditMatchesBuild(t *testing.T) {
	dir := fixture(t, "shop")
	s, first, builds := watchSession(t, dir)
	check := func(what string, got *Site) {
		t.Helper()
		files, err := got.lazy.all()
		must(t, err)
		want := buildSite(t, dir, BuildOptions{}, 0).Files
		if diff := firstDiffFile(want, files); diff != "" {
			t.Fatalf("%s: the session's site differs from a cold build: %s", what, diff)
		}
	}
	check("first build", first)
	p := filepath.Join(dir, "content", "guides", "checkout.md")
	data, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, bytes.Replace(data, []byte("charges the card"), []byte("charges the credit card"), 1), 0o644))
	check("page edit", waitFor(t, builds, "pages/guides/checkout/index.html", "charges the credit card"))
	q := filepath.Join(dir, "pay", "pay.go")
	data, err = os.ReadFile(q)
	must(t, err)
	must(t, os.WriteFile(q, bytes.Replace(data, []byte("return -amount"), []byte("return 0 - amount"), 1), 0o644))
	check("source edit", waitFor(t, builds, "code/pay/pay.go/index.html", "0 - amount"))
	// The lock changes (the edited code recaptured): the session parses it
	// again.
	lp, err := Load(dir)
	must(t, err)
	res, err := lp.Capture(CaptureOptions{Stale: true, By: "test"}, io.Discard)
	lp.Close()
	must(t, err)
	if len(res.Captured) == 0 {
		t.Fatal("the source edit left nothing to recapture")
	}
	b := nextBuild(t, builds)
	must(t, b.err)
	check("lock edit", b.site)
	writeFixtureFile(t, dir, "content/guides/new.md", []byte("---\ntitle: New\n---\nSee [cart totals](req:REQ-1).\n"))
	check("new page", waitFor(t, builds, "pages/guides/new/index.html", "cart totals"))

	// The edits below change what other files' pages show, while those
	// files are not parsed again: the model is linked anew each time.
	data, err = os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, bytes.Replace(data, []byte("## Details\n"), []byte("## Details\n\nTotals are summed ([Total](code:cart/cart.go@Cart.Total)).\n"), 1), 0o644))
	check("a page's claims changed", waitFor(t, builds, "pages/guides/checkout/index.html", "Totals are summed"))
	r := filepath.Join(dir, "content", "requirements", "REQ-3.md")
	data, err = os.ReadFile(r)
	must(t, err)
	must(t, os.WriteFile(r, bytes.Replace(bytes.Replace(data, []byte("title: Payments are charged"), []byte("title: Payments are charged once"), 1),
		[]byte("issues: [DEC-2]\n"), nil, 1), 0o644))
	check("requirement edit", waitFor(t, builds, "requirements/REQ-3/index.html", "Payments are charged once"))
	must(t, os.Remove(filepath.Join(dir, "content", "notes", "raw.md")))
	b = nextBuild(t, builds)
	must(t, b.err)
	if _, ok, _ := b.site.File("pages/notes/raw/index.html"); ok {
		t.Errorf("a removed page is still in the site")
	}
	check("page removed", b.site)
	idx := filepath.Join(dir, "content", "index.md")
	data, err = os.ReadFile(idx)
	must(t, err)
	must(t, os.WriteFile(idx, append(data, "Read [the details](guides/checkout.md#details).\n"...), 0o644))
	check("link to a heading", waitFor(t, builds, "index.html", "the details"))
	// The heading goes: the unchanged index page's link breaks.
	data, err = os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, bytes.Replace(data, []byte("## Details\n"), []byte("## More\n"), 1), 0o644))
	waitProblem(t, s, builds, "content/index.md", "missing heading")
	must(t, os.WriteFile(p, data, 0o644))
	check("heading back", waitFor(t, builds, "index.html", "the details"))
	if len(s.Problems()) > 0 {
		t.Errorf("a good build left the problems %q", s.Problems())
	}
}

// TestSessionUntouched checks that a watched session reports no change
// for files its last good load neither read nor would walk into (an
// editor's swap file and backup beside a page), and reports the edit
// saved after them.
func TestSessionUntouched(t *testing.T) {
	dir := fixture(t, "shop")
	_, _, builds := watchSession(t, dir)
	writeFixtureFile(t, dir, "content/guides/.checkout.md.swp", []byte("vim"))
	writeFixtureFile(t, dir, "content/guides/checkout.md~", []byte("backup"))
	select {
	case <-builds:
		t.Fatal("a build after an editor's swap file and backup")
	case <-time.After(300 * time.Millisecond): // fifteen debounce times
	}
	writeFixtureFile(t, dir, "content/guides/later.md", []byte("---\ntitle: Later\n---\nSaved after the swap file.\n"))
	waitFor(t, builds, "pages/guides/later/index.html", "Saved after the swap file.")
}

// TestSessionQueries checks that a session's queries answer from its last
// good load, say why before the first, and keep the last good answers
// while the workspace is broken.
func TestSessionQueries(t *testing.T) {
	dir := fixture(t, "shop")
	s, err := OpenSession(dir, SessionOptions{})
	must(t, err)
	if _, err := s.Lookup("REQ-1", synth.LookupOptions{}); err == nil {
		t.Fatal("a lookup before any load answered")
	}
	if _, err := s.Build(""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Knowledge(); err == nil {
		t.Error("a build answered a lookup: only an analysis does")
	}
	if nb, err := s.Neighborhood(synth.Query{ReqKey: "REQ-1", Depth: synth.DefaultDepth}); err != nil || len(nb.Neighborhood.Nodes) == 0 {
		t.Errorf("neighborhood after a build: %v, %d nodes", err, len(nb.Neighborhood.Nodes))
	}
	if _, err := s.Analyze(); err != nil {
		t.Fatal(err)
	}
	l, err := s.Lookup("REQ-1", synth.LookupOptions{})
	if err != nil || l.Entity == nil {
		t.Fatalf("lookup REQ-1: %v, %+v", err, l)
	}
	if rep, err := s.Check(""); err != nil || rep == nil {
		t.Fatalf("check: %v", err)
	}
	writeFixtureFile(t, dir, "tracewiki.toml", []byte("titel = \"typo\"\n"))
	if _, err := s.Analyze(); err == nil {
		t.Fatal("a broken config analyzed")
	}
	if p := s.Problems(); len(p) == 0 || !strings.Contains(strings.Join(p, "\n"), "titel") {
		t.Errorf("problems = %q", p)
	}
	if l2, err := s.Lookup("REQ-1", synth.LookupOptions{}); err != nil || l2.Entity == nil {
		t.Errorf("lookup while broken: %v; want the last good answer", err)
	}
}

func TestSourceCache(t *testing.T) {
	var c sourceCache
	a := c.parse("a.go", []byte("package a\n\nfunc F() {}\n"))
	if c.parse("a.go", []byte("package a\n\nfunc F() {}\n")) != a {
		t.Errorf("same bytes, same build: parsed again")
	}
	c.swap()
	if c.parse("a.go", []byte("package a\n\nfunc F() {}\n")) != a {
		t.Errorf("same bytes, next build: parsed again")
	}
	b := c.parse("b.go", []byte("package a\n"))
	c.swap()
	if got := c.parse("a.go", []byte("package a\n\nfunc G() {}\n")); got == a || got.File == nil || got.File.Symbols[0].Name != "G" {
		t.Errorf("changed bytes: got the old parse")
	}
	c.swap()
	if c.parse("b.go", []byte("package a\n")) == b {
		t.Errorf("a file the last build did not use was kept")
	}
}
