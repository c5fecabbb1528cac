package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tracewiki/tracewiki/site/render"
)

// buildWith builds dir frozen into a fresh output folder, with cache
// (nil: none), and returns the output's files.
func buildWith(t *testing.T, dir string, cache *Cache) map[string][]byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	return buildOut(t, dir, out, cache)
}

// buildOut builds dir frozen into out with cache and returns out's files.
func buildOut(t *testing.T, dir, out string, cache *Cache) map[string][]byte {
	t.Helper()
	buildCached(t, dir, out, cache)
	return readTree(t, out)
}

// buildCached builds dir frozen into out with cache.
func buildCached(t *testing.T, dir, out string, cache *Cache) *Site {
	t.Helper()
	s, err := buildAndWriteCache(dir, out, cache)
	must(t, err)
	return s
}

// readTree reads every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	got := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestCacheWarmBuild checks that a build from a warm cache writes exactly
// the bytes of a build without one, and that it used the cache: nothing
// was written to it, something was read.
func TestCacheWarmBuild(t *testing.T) {
	dir := fixture(t, "shop")
	cold := buildWith(t, dir, nil)
	cacheDir := t.TempDir()
	first, err := OpenCache(cacheDir)
	must(t, err)
	if diff := firstDiffFile(cold, buildWith(t, dir, first)); diff != "" {
		t.Fatalf("a build with an empty cache differs from one without: %s", diff)
	}
	if s := first.Stats(); s.Writes == 0 {
		t.Fatalf("the first build wrote nothing to the cache: %+v", s)
	}
	entries := func() int {
		n, _ := filepath.Glob(filepath.Join(cacheDir, render.HighlightStage, "*", "*"))
		return len(n)
	}
	highlighted := entries()
	if highlighted == 0 {
		t.Fatal("nothing highlighted was cached")
	}
	second, err := OpenCache(cacheDir) // a new process, as far as memory goes
	must(t, err)
	if diff := firstDiffFile(cold, buildWith(t, dir, second)); diff != "" {
		t.Fatalf("a warm build differs from a cold one: %s", diff)
	}
	// Into a new output folder: its record is the only miss, and with the
	// records for UpToDate, CachedSearch and BuildEdited the only writes.
	if s := second.Stats(); s.Hits < highlighted || s.Writes != 4 || s.Misses != 1 {
		t.Errorf("warm build: %+v; want %d highlight hits, one output record missed, it, the up-to-date, the search source and the edit record written", s, highlighted)
	}
	if n := entries(); n != highlighted {
		t.Errorf("the warm build added %d highlight entries", n-highlighted)
	}
}

// TestCacheOutputReuse checks the output folder's reuse: a build of an
// unchanged workspace into the folder it last built renders and writes
// nothing; an edit rewrites only the files whose bytes changed (the others
// are hard links to the old ones); and a file changed by hand in the
// output is never trusted.
func TestCacheOutputReuse(t *testing.T) {
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	build := func() *Site { t.Helper(); return buildCached(t, dir, out, cache) }
	if s := build(); s.Reused || s.Linked != 0 {
		t.Fatalf("first build: reused %v, linked %d", s.Reused, s.Linked)
	}
	want := readTree(t, out)
	index := filepath.Join(out, "index.html")
	before, _ := statOutput(index)
	if s := build(); !s.Reused || s.Pages == 0 {
		t.Fatalf("unchanged build: reused %v, %d pages", s.Reused, s.Pages)
	}
	if after, _ := statOutput(index); !after.same(before) {
		t.Error("the unchanged build replaced index.html")
	}
	// A file changed by hand (same size, same mtime) is noticed by inode
	// when replaced, and by mtime when written in place.
	must(t, os.WriteFile(index, bytes.ToUpper(want["index.html"]), 0o644))
	if s := build(); s.Reused {
		t.Fatal("a build reused an output changed by hand")
	}
	if diff := firstDiffFile(want, readTree(t, out)); diff != "" {
		t.Fatalf("after a hand edit, the build differs: %s", diff)
	}
	// An extra file in the output: a cold build would not have it.
	must(t, os.WriteFile(filepath.Join(out, "extra.txt"), []byte("x"), 0o644))
	if s := build(); s.Reused {
		t.Fatal("a build reused an output with an extra file")
	}
	if _, err := os.Stat(filepath.Join(out, "extra.txt")); err == nil {
		t.Fatal("the extra file survived the build")
	}
	// An edit to one page: most files are linked, the page is rewritten.
	page := filepath.Join(out, "pages", "guides", "checkout", "index.html")
	pageBefore, ok := statOutput(page)
	if !ok {
		t.Fatalf("no %s: the fixture's page moved", page)
	}
	reqBefore, _ := statOutput(filepath.Join(out, "decisions", "index.html"))
	p := filepath.Join(dir, "content", "guides", "checkout.md")
	data, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, bytes.Replace(data, []byte("charges the card"), []byte("charges the credit card"), 1), 0o644))
	s := build()
	if s.Reused || s.Linked == 0 {
		t.Fatalf("after an edit: reused %v, linked %d", s.Reused, s.Linked)
	}
	if after, _ := statOutput(page); after.same(pageBefore) {
		t.Error("the edited page was linked, not rewritten")
	}
	if after, _ := statOutput(filepath.Join(out, "decisions", "index.html")); !after.same(reqBefore) {
		t.Error("an unchanged page was rewritten, not linked")
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
		t.Fatalf("the edited build differs from a cold one: %s", diff)
	}
}

// TestCacheEdits checks every kind of edit against a cold build: after a
// warm build, the workspace is edited and built again with the same cache;
// the output must equal a build of the edited workspace without a cache.
func TestCacheEdits(t *testing.T) {
	edit := func(name, old, new string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) { replaceIn(t, dir, name, old, new) }
	}
	for _, c := range []struct {
		name    string
		edit    func(t *testing.T, dir string)
		setup   func(t *testing.T, dir string) // applied before the first build
		fixture string                         // "" for shop
	}{
		{name: "page", edit: edit("content/guides/checkout.md", "Then it charges the card", "Then it charges the credit card")},
		{name: "page heading", edit: edit("content/guides/checkout.md", "## Details", "## The details")},
		{name: "page text", edit: edit("content/notes/raw.md", "Inline raw HTML stays text", "Inline raw HTML stays plain text")},
		{name: "page fence", edit: edit("content/guides/checkout.md", "# Checkout\n", "# Checkout\n\n```go\nfunc f() {}\n```\n")},
		{name: "requirement", edit: edit("content/requirements/REQ-1.md", "counts every item", "counts each item")},
		{name: "source file", edit: edit("pay/pay.go", "return -amount", "return 0 - amount")},
		{name: "source file shifted", edit: edit("pay/pay.go", "package pay\n", "package pay\n\n// Shifted.\n")},
		{name: "lock", edit: func(t *testing.T, dir string) {
			edit("pay/pay.go", "return -amount", "return 0 - amount")(t, dir)
			p, err := Load(dir)
			must(t, err)
			defer p.Close()
			_, err = p.Capture(CaptureOptions{Refs: []string{"pay/pay.go@Refund"}, By: "bob@example.com"}, io.Discard)
			must(t, err)
		}},
		{name: "config", edit: edit("tracewiki.toml", `title = "Shop"`, `title = "Shop two"`)},
		{name: "new page", edit: func(t *testing.T, dir string) {
			writeFixtureFile(t, dir, "content/guides/new.md", []byte("---\ntitle: New\n---\nSee [cart totals](req:REQ-1).\n"))
		}},
		{name: "deleted source", edit: func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, "pay", "pay.go"))) }},
		// Edits of one document that show on other pages, which a build
		// keeps when their own inputs did not change (see [render.PageStore]).
		{name: "page title", edit: edit("content/guides/checkout.md", "title: Checkout", "title: Checking out")},
		{name: "claims moved down", edit: edit("content/guides/checkout.md", "# Checkout\n", "# Checkout\n\nA new first line.\n")},
		{name: "page another page links to", edit: edit("content/guides/checkout.md", "## Details", "## Details\n\nThe details.\n\n## More"),
			setup: edit("content/notes/raw.md", "goes nowhere.", "goes nowhere. See [the details](../guides/checkout.md#details).")},
		{name: "decision mentions a path", edit: edit("content/decisions/DEC-2.md", "goes through pay/pay.go.", "goes through pay/pay.go and cart/cart.go.")},
		{name: "claim record", edit: edit("content/claims/cart.yaml", "Items carry a SKU", "Items carry an SKU")},
		{name: "claim record on a page", edit: edit("content/claims/cart.yaml", "Checkout validates before charging.", "Checkout validates first.")},
		// A claim's text shows in its page's claims table too; a
		// frontmatter claim's on the pages of what it links.
		{name: "claim text", edit: edit("content/guides/checkout.md", "Refunds go back to the card", "Refunds go back to the same card")},
		{name: "frontmatter claim text", edit: edit("content/decisions/DEC-2.md", "The gateway call is Charge.", "The gateway call is pay.Charge.")},
		{name: "frontmatter claim text of a page", edit: edit("content/notes/raw.md", "text: Raw pages stay text.", "text: Raw pages stay plain text."),
			setup: edit("content/notes/raw.md", "title: Raw HTML\n", "title: Raw HTML\nclaims:\n  - text: Raw pages stay text.\n    target: {ref: pay/pay.go@Charge}\n")},
		{name: "decision date", edit: edit("content/decisions/DEC-1.md", "date: 2026-01-10", "date: 2026-01-11")},
		{name: "page sources", edit: edit("content/notes/raw.md", "title: Raw HTML\n", "title: Raw HTML\nsources: [docs/raw.txt]\n")},
		{name: "requirement tags", edit: edit("content/requirements/REQ-2.md", "status: accepted\n", "status: accepted\ntags: [money]\n")},
		{name: "requirement title", edit: edit("content/requirements/REQ-1.md", "title: Cart totals", "title: Cart sums")},
		// The home page shows the index page's text, a document page its
		// introduction and its requirements' text.
		{name: "index page text", edit: edit("content/index.md", "exact and charges", "exact, and charges")},
		{name: "document introduction", fixture: "reqs", edit: edit("content/requirements/system/_index.md", "as a whole", "as one")},
		{name: "requirement in a document", fixture: "reqs", edit: edit("content/requirements/software/ui/SW-3.md", "A lamp lights", "A red lamp lights")},
		{name: "requirement in a nested document", fixture: "reqs", edit: edit("content/requirements/software/brakes/SW-2.md", "tests itself", "checks itself")},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fixture(t, cmp.Or(c.fixture, "shop"))
			if c.setup != nil {
				c.setup(t, dir)
			}
			cacheDir := t.TempDir()
			warm, err := OpenCache(cacheDir)
			must(t, err)
			out := filepath.Join(t.TempDir(), "public")
			before := buildOut(t, dir, out, warm)
			c.edit(t, dir)
			again, err := OpenCache(cacheDir)
			must(t, err)
			got := buildOut(t, dir, out, again)
			// The cold build stays in memory, which writes the same files
			// as a build into a folder (TestBuildIntoMatchesMemory).
			want := buildSite(t, dir, BuildOptions{}, 0).Files
			if diff := firstDiffFile(want, got); diff != "" {
				t.Fatalf("the cached build of the edited workspace differs from a cold one: %s", diff)
			}
			if firstDiffFile(before, got) == "" {
				t.Fatal("the edit changed nothing in the output: the test proves nothing")
			}
		})
	}
}

// TestCachePagesKept checks that a build after an edit of one page's text
// renders that page and the search page, whose index holds every text, and
// keeps the others from the last build unrendered; an edit that changes
// what other pages show (a title) renders those pages too, not all.
func TestCachePagesKept(t *testing.T) {
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	build := func() *Site { t.Helper(); return buildCached(t, dir, out, cache) }
	first := build()
	if first.Kept != 0 {
		t.Fatalf("first build kept %d pages", first.Kept)
	}
	// The pages the first build wrote with a key, as its output record
	// has them: the others always render.
	keyed := 0
	for _, prefix := range cache.KeyedPages(out) {
		if prefix != render.GraphFile {
			keyed++
		}
	}
	if keyed < first.Pages/2 {
		t.Fatalf("%d of %d pages can be kept: the test proves little", keyed, first.Pages)
	}
	page := filepath.Join(dir, "content", "guides", "checkout.md")
	data, err := os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, append(data, "\nOne more sentence.\n"...), 0o644))
	graph := filepath.Join(out, filepath.FromSlash(render.GraphFile))
	graphBefore, _ := statOutput(graph)
	if s := build(); s.Kept != keyed-1 {
		t.Errorf("after a text edit of one page: %d pages kept, want %d (all that can be but the edited one)", s.Kept, keyed-1)
	}
	if after, _ := statOutput(graph); !after.same(graphBefore) {
		t.Errorf("after a text edit of one page, %s was written again", render.GraphFile)
	}
	// Text added before a page's links moves them in its body, which shows
	// on no other page.
	data, err = os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, bytes.Replace(data, []byte("See [cart totals]"), []byte("Also see [cart totals]"), 1), 0o644))
	if s := build(); s.Kept != keyed-1 {
		t.Errorf("after a text edit before the links of one page: %d pages kept, want %d", s.Kept, keyed-1)
	}
	// A claim's sentence shows only in the page's own body and claims
	// table.
	data, err = os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, bytes.Replace(data, []byte("Checkout validates the cart first"), []byte("Checkout checks the whole cart first"), 1), 0o644))
	if s := build(); s.Kept != keyed-1 {
		t.Errorf("after a claim's text edit of one page: %d pages kept, want %d", s.Kept, keyed-1)
	}
	data, err = os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, bytes.Replace(data, []byte("## Details"), []byte("## The details"), 1), 0o644))
	if s := build(); s.Kept != keyed-1 {
		t.Errorf("after a heading edit of one page: %d pages kept, want %d", s.Kept, keyed-1)
	}
	// A kept page's file changed by hand in the output is rendered again.
	decision := filepath.Join(out, "decisions", "DEC-1", "index.html")
	old, err := os.ReadFile(decision)
	must(t, err)
	must(t, os.WriteFile(decision, []byte("changed by hand"), 0o644))
	must(t, os.WriteFile(page, append(data, "\nTwo more sentences.\n"...), 0o644))
	if s := build(); s.Kept != keyed-2 {
		t.Errorf("after a hand edit of one kept page and a text edit of another: %d pages kept, want %d", s.Kept, keyed-2)
	}
	if got, _ := os.ReadFile(decision); !bytes.Equal(got, old) {
		t.Errorf("the page changed by hand was kept:\n%s", got)
	}
	data, err = os.ReadFile(page)
	must(t, err)
	must(t, os.WriteFile(page, bytes.Replace(data, []byte("title: Checkout"), []byte("title: Checking out"), 1), 0o644))
	graphBefore, _ = statOutput(graph)
	if s := build(); s.Kept == 0 || s.Kept >= keyed-1 {
		t.Errorf("after a title edit: %d of %d pages kept, want fewer than all but the page (the title shows on the neighbors' pages), more than none", s.Kept, keyed)
	}
	if after, _ := statOutput(graph); after.same(graphBefore) {
		t.Errorf("after a title edit, %s was kept", render.GraphFile)
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
		t.Fatalf("the edited build differs from a cold one: %s", diff)
	}
}

// TestCacheConcurrentBuilds runs two builds sharing one (empty) cache at
// the same time, into two outputs: both succeed and equal a build without
// a cache.
func TestCacheConcurrentBuilds(t *testing.T) {
	dir := fixture(t, "shop")
	want := buildWith(t, dir, nil)
	cacheDir := t.TempDir()
	outs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	errs := buildAtOnce(dir, outs, cacheDir)
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatalf("build %d: %v", i, errs[i])
		}
		if diff := firstDiffFile(want, readTree(t, out)); diff != "" {
			t.Errorf("build %d differs from one without a cache: %s", i, diff)
		}
	}
	// And a third, warm, build reads what they wrote.
	if diff := firstDiffFile(want, buildWith(t, dir, mustCache(t, cacheDir))); diff != "" {
		t.Errorf("warm build after the concurrent ones differs: %s", diff)
	}
	tmp, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*", ".tmp-*"))
	if len(tmp) > 0 {
		t.Errorf("temporary files left in the cache: %q", tmp)
	}
}

// buildAtOnce builds dir into each of outs at the same time, each with
// the cache in cacheDir opened on its own, and returns their errors.
func buildAtOnce(dir string, outs []string, cacheDir string) []error {
	var wg sync.WaitGroup
	errs := make([]error, len(outs))
	for i, out := range outs {
		wg.Go(func() {
			c, err := OpenCache(cacheDir)
			if err == nil {
				_, err = buildAndWriteCache(dir, out, c)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	return errs
}

func mustCache(t *testing.T, dir string) *Cache {
	t.Helper()
	c, err := OpenCache(dir)
	must(t, err)
	return c
}

// buildAndWriteCache is buildAndWrite with a cache, and the site built.
func buildAndWriteCache(dir, out string, c *Cache) (*Site, error) {
	p, err := Load(dir)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	o, err := p.Output(out)
	if err != nil {
		return nil, err
	}
	return p.BuildInto(o, BuildOptions{Frozen: true, Cache: c}, io.Discard, nil)
}

// TestCacheEnv checks where the cache lives: TRACEWIKI_CACHE, "off", and
// by default tracewiki under the user cache folder.
func TestCacheEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	c, err := CacheFromEnv()
	if err != nil || c.Dir() != dir {
		t.Fatalf("CacheFromEnv with %s=%s: %v, %v", CacheEnv, dir, c, err)
	}
	t.Setenv(CacheEnv, "off")
	if c, err := CacheFromEnv(); err != nil || c != nil {
		t.Fatalf("CacheFromEnv with off: %v, %v", c, err)
	}
	user := t.TempDir()
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", user)
	t.Setenv("HOME", user)
	c, err = CacheFromEnv()
	if err != nil || !strings.HasPrefix(c.Dir(), user) || filepath.Base(c.Dir()) != "tracewiki" {
		t.Fatalf("default cache: %v, %v; want tracewiki under %s", c, err, user)
	}
}

// TestOutputIntact checks that the output walk notices every kind of
// change to an output folder: a file added, in the root or deeper, an
// empty folder added, a file changed, removed or replaced by a folder, and
// a folder replaced by a symlink to it.
func TestOutputIntact(t *testing.T) {
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	changes := []struct {
		name   string
		change func(out string) error
	}{
		{"nothing", func(string) error { return nil }},
		{"file added", func(out string) error { return os.WriteFile(filepath.Join(out, "x.html"), nil, 0o644) }},
		{"file added deep", func(out string) error {
			return os.WriteFile(filepath.Join(out, "pages", "guides", "x.html"), nil, 0o644)
		}},
		{"folder added", func(out string) error { return os.Mkdir(filepath.Join(out, "pages", "new"), 0o755) }},
		{"file changed", func(out string) error {
			return os.WriteFile(filepath.Join(out, "pages", "index.html"), []byte("changed"), 0o644)
		}},
		{"file removed", func(out string) error { return os.Remove(filepath.Join(out, "api", "search.json")) }},
		{"file replaced by a folder", func(out string) error {
			p := filepath.Join(out, "api", "search.json")
			return errors.Join(os.Remove(p), os.Mkdir(p, 0o755))
		}},
		{"folder replaced by a symlink to it", func(out string) error {
			p, elsewhere := filepath.Join(out, "pages"), filepath.Join(t.TempDir(), "pages")
			return errors.Join(os.Rename(p, elsewhere), os.Symlink(elsewhere, p))
		}},
	}
	for _, c := range changes {
		out := filepath.Join(t.TempDir(), "public")
		buildCached(t, dir, out, cache)
		must(t, c.change(out))
		if got, want := cache.Intact(out), c.name == "nothing"; got != want {
			t.Errorf("%s: intact %v, want %v", c.name, got, want)
		}
	}
}

// TestCacheForgedEntry is the attack log's C-06: whoever can write the
// cache replaces highlighted code by HTML of their own and makes the header
// consistent again (name, length and the payload's SHA-256). The entry's
// MAC does not match, so it is a miss, rebuilt, and the site is the one a
// build without a cache makes. An entry written with another secret (a
// cache restored from another machine) is a miss too.
func TestCacheForgedEntry(t *testing.T) {
	dir := fixture(t, "shop")
	cold := buildWith(t, dir, nil)
	cacheDir := t.TempDir()
	buildWith(t, dir, mustCache(t, cacheDir))
	entries, _ := filepath.Glob(filepath.Join(cacheDir, render.HighlightStage, "*", "*"))
	if len(entries) == 0 {
		t.Fatal("nothing highlighted was cached")
	}
	const marker = "FORGED-CACHE-ENTRY"
	forged := []byte(`<img src=x onerror="alert('` + marker + `')">`)
	for _, p := range entries {
		data, err := os.ReadFile(p)
		must(t, err)
		hdr := bytes.Clone(data[:len("tracewiki-cache\n")+sha256.Size]) // the magic, the name hash
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(forged)))
		sum := sha256.Sum256(forged)
		entry := append(append(append(hdr, n[:]...), sum[:]...), forged...)
		must(t, os.WriteFile(p, entry, 0o644))
	}
	warm := mustCache(t, cacheDir)
	got := buildWith(t, dir, warm)
	for name, data := range got {
		if bytes.Contains(data, []byte(marker)) {
			t.Fatalf("%s holds the forged entry's HTML", name)
		}
	}
	if diff := firstDiffFile(cold, got); diff != "" {
		t.Errorf("the build over forged entries differs from one without a cache: %s", diff)
	}
	if s := warm.Stats(); s.Misses < len(entries) {
		t.Errorf("%+v: want every forged entry (%d) missed", s, len(entries))
	}
}

// TestCacheModelKeys checks, over edits of every kind (code, a page's
// title, a requirement's status, a claim's text), that a cached build of
// the edited workspace equals a build without a cache byte for byte, and
// that it renders exactly the keyed pages whose files the edit changes:
// a page is kept by the hash of its model, whatever the edit.
func TestCacheModelKeys(t *testing.T) {
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	buildCached(t, dir, out, cache)
	before := readTree(t, out)
	edit := func(name, old, new string) { t.Helper(); replaceIn(t, dir, name, old, new) }
	for _, c := range []struct {
		name           string
		file, old, new string
	}{
		// Charge's body changed, two lines longer: Refund, below it,
		// moves down.
		{"code", "pay/pay.go", "\t\treturn 0\n", "\t\treturn 0 // nothing charged\n\t}\n\t{\n"},
		{"page title", "content/guides/checkout.md", "title: Checkout", "title: Checking out"},
		{"requirement status", "content/requirements/REQ-2.md", "status: accepted", "status: proposed"},
		{"claim text", "content/guides/checkout.md", "Checkout validates the cart first", "Checkout checks the whole cart first"},
	} {
		keyed := 0 // the pages the last build recorded with their model key
		for _, prefix := range cache.KeyedPages(out) {
			if prefix != render.GraphFile {
				keyed++
			}
		}
		edit(c.file, c.old, c.new)
		s := buildCached(t, dir, out, cache)
		after := readTree(t, out)
		if diff := firstDiffFile(buildWith(t, dir, nil), after); diff != "" {
			t.Fatalf("%s: the cached build differs from one without a cache: %s", c.name, diff)
		}
		changed := 0 // keyed pages whose files the edit changed
		for _, prefix := range cache.KeyedPages(out) {
			if prefix == render.GraphFile {
				continue
			}
			for _, f := range []string{"index.html", "index.json"} {
				if !bytes.Equal(before[prefix+f], after[prefix+f]) {
					changed++
					break
				}
			}
		}
		if rendered := keyed - s.Kept; changed == 0 || rendered != changed || s.Kept == 0 {
			t.Errorf("%s: rendered %d of %d keyed pages, want the %d the edit changed (and not all)", c.name, rendered, keyed, changed)
		}
		t.Logf("%s: rendered %d of %d keyed pages", c.name, keyed-s.Kept, keyed)
		before = after
	}
}
