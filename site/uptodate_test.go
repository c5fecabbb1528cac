package site

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// upToDateOf asks whether a frozen build of dir into out with cache is up to
// date.
func upToDateOf(t *testing.T, dir, out string, cache *Cache, opts BuildOptions) (*Summary, bool) {
	t.Helper()
	opts.Frozen, opts.Cache = true, cache
	return UpToDate(dir, out, opts)
}

// TestUpToDate checks that a build of an unchanged workspace into the
// output it made is found up to date, with that build's summary, and that
// every kind of change, in the workspace, the output or the options, is
// noticed: each is followed by a build, after which the workspace is up
// to date again.
func TestUpToDate(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 0 // the fixture was written a moment ago
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); ok {
		t.Fatal("up to date before any build")
	}
	s := buildCached(t, dir, out, cache)
	sum, ok := upToDateOf(t, dir, out, cache, BuildOptions{})
	if !ok {
		t.Fatal("not up to date after a build of an unchanged workspace")
	}
	if want := countsOf(s.Check); sum.Pages != s.Pages || !equalCounts(sum.Counts, want) {
		t.Errorf("summary: %d pages, %v; want %d pages, %v", sum.Pages, sum.Counts, s.Pages, want)
	}
	file := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	edit := func(name, old, new string) func(t *testing.T) {
		return func(t *testing.T) {
			data, err := os.ReadFile(file(name))
			must(t, err)
			if !bytes.Contains(data, []byte(old)) {
				t.Fatalf("%s has no %q", name, old)
			}
			must(t, os.WriteFile(file(name), bytes.Replace(data, []byte(old), []byte(new), 1), 0o644))
		}
	}
	changes := []struct {
		name   string
		change func(t *testing.T)
		opts   BuildOptions
	}{
		{name: "content, same size", change: edit("content/guides/checkout.md", "charges the card", "charges the cart")},
		{name: "code, same size", change: edit("pay/pay.go", "return -amount", "return +amount")},
		{name: "config", change: edit("tracewiki.toml", `title = "Shop"`, `title = "Shop two"`)},
		{name: "new content file", change: func(t *testing.T) {
			must(t, os.WriteFile(file("content/guides/new.md"), []byte("# New\n"), 0o644))
		}},
		{name: "new code file", change: func(t *testing.T) {
			must(t, os.WriteFile(file("pay/more.go"), []byte("package pay\n\nfunc More() {}\n"), 0o644))
		}},
		{name: "new code folder", change: func(t *testing.T) {
			must(t, os.MkdirAll(file("tax"), 0o755))
			must(t, os.WriteFile(file("tax/tax.go"), []byte("package tax\n"), 0o644))
		}},
		{name: "new project file", change: func(t *testing.T) {
			must(t, os.WriteFile(file("pay/go.mod"), []byte("module example.com/pay\n"), 0o644))
		}},
		{name: "deleted file", change: func(t *testing.T) { must(t, os.Remove(file("cart/cart_test.go"))) }},
		{name: "lock touched", change: func(t *testing.T) {
			now := time.Now().Add(time.Hour)
			must(t, os.Chtimes(file("tracewiki.lock"), now, now))
		}},
		{name: "output file changed by hand", change: func(t *testing.T) {
			must(t, os.WriteFile(filepath.Join(out, "index.html"), []byte("changed"), 0o644))
		}},
		{name: "output file added", change: func(t *testing.T) {
			must(t, os.WriteFile(filepath.Join(out, "extra.txt"), []byte("x"), 0o644))
		}},
		{name: "output removed", change: func(t *testing.T) { must(t, os.RemoveAll(out)) }},
		{name: "base URL", change: func(*testing.T) {}, opts: BuildOptions{BaseURL: "/preview/"}},
	}
	for _, c := range changes {
		c.change(t)
		if _, ok := upToDateOf(t, dir, out, cache, c.opts); ok {
			t.Errorf("%s: still up to date", c.name)
		}
		p, err := Load(dir)
		must(t, err)
		o, err := p.Output(out)
		must(t, err)
		opts := c.opts
		opts.Frozen, opts.Cache = true, cache
		_, err = p.BuildInto(o, opts, &bytes.Buffer{}, nil)
		p.Close()
		must(t, err)
		if _, ok := upToDateOf(t, dir, out, cache, c.opts); !ok {
			t.Errorf("%s: not up to date after the build that followed", c.name)
		}
	}
	// A folder whose times changed but whose entries did not: a file made
	// and removed again.
	tmp := file("content/guides/scratch.md")
	must(t, os.WriteFile(tmp, []byte("# Scratch\n"), 0o644))
	must(t, os.Remove(tmp))
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{BaseURL: "/preview/"}); !ok { // as last built
		t.Error("not up to date after a file was made and removed again")
	}
	// Files no walk takes: a vim swap file and a backup beside a page.
	swap, backup := file("content/guides/.checkout.md.swp"), file("content/guides/checkout.md~")
	must(t, os.WriteFile(swap, []byte("vim"), 0o644))
	must(t, os.WriteFile(backup, []byte("old"), 0o644))
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{BaseURL: "/preview/"}); !ok {
		t.Error("not up to date after a swap file and a backup were made beside a page")
	}
	must(t, errors.Join(os.Remove(swap), os.Remove(backup)))
	if _, ok := upToDateOf(t, dir, filepath.Join(t.TempDir(), "elsewhere"), cache, BuildOptions{}); ok {
		t.Error("up to date for an output never built")
	}
	if _, ok := UpToDate(dir, out, BuildOptions{Cache: cache}); ok {
		t.Error("a build that captures is up to date after a frozen one")
	}
}

func equalCounts(a, b Counts) bool {
	eq := func(x, y map[string]int) bool {
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if y[k] != v {
				return false
			}
		}
		return true
	}
	return eq(a.States, b.States) && eq(a.Reasons, b.Reasons)
}

// TestUpToDateRacy checks the paths changed just before the build that
// stamped them: a file is trusted only when its bytes still hash as they
// did, a folder only when it lists the entries it did.
func TestUpToDateRacy(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = time.Hour // every path changed "just before"
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	buildCached(t, dir, out, cache)
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); !ok {
		t.Error("not up to date with every path changed just before the build, and as it was")
	}
	key, err := upToDateKey(dir, out, BuildOptions{Frozen: true})
	must(t, err)
	data, ok := cache.Get(upToDateStage, key)
	if !ok {
		t.Fatal("no record of the build")
	}
	rec, err := parseUpToDate(data)
	must(t, err)
	ws, err := workspace.Open(dir)
	must(t, err)
	defer ws.Close()
	const name = "pay/pay.go"
	if _, ok := rec.sums[name]; !ok {
		t.Fatalf("%s was read but has no hash in the record", name)
	}
	if same, _ := rec.same(ws, dir, name); !same {
		t.Errorf("%s, unchanged but stamped just after a change, is not trusted", name)
	}
	rec.sums[name] = [32]byte{1}
	if same, _ := rec.same(ws, dir, name); same {
		t.Errorf("%s is trusted by its stamp though its bytes hash otherwise", name)
	}
	const folder = "content/guides"
	if same, _ := rec.same(ws, dir, folder); !same {
		t.Errorf("%s, unchanged but stamped just after a change, is not trusted", folder)
	}
	rec.lists[folder] = [32]byte{1}
	if same, _ := rec.same(ws, dir, folder); same {
		t.Errorf("%s is trusted by its stamp though it is listed otherwise", folder)
	}
}

// TestUpToDateRecord checks that a record reads back as written, names
// with tabs, quotes and newlines included, and that anything else is
// refused.
func TestUpToDateRecord(t *testing.T) {
	rec := &upToDate{start: 42, out: "/tmp/out\tdir", siteKey: []byte{1, 2, 3}, gitRev: "HEAD", commit: "abc",
		summary: Summary{Pages: 7, Notes: "tracewiki: a \"note\"\n", Output: "public",
			Counts: Counts{States: map[string]int{"linked": 3}, Reasons: map[string]int{"content_changed": 1}}},
		paths: map[string]workspace.Stamp{"a\tb\n.md": {Size: 5, Mode: 0o644, Mtime: 1, Ctime: 2, Ino: 3, Dev: 4}, "gone": {Missing: true}},
		sums:  map[string][32]byte{"a\tb\n.md": {9}},
		lists: map[string][32]byte{"gone": {8}},
	}
	got, err := parseUpToDate(rec.encode())
	must(t, err)
	if got.start != rec.start || got.out != rec.out || !bytes.Equal(got.siteKey, rec.siteKey) || got.gitRev != rec.gitRev ||
		got.commit != rec.commit || got.summary.Pages != 7 || got.summary.Notes != rec.summary.Notes ||
		got.summary.Output != "public" || !equalCounts(got.summary.Counts, rec.summary.Counts) ||
		len(got.paths) != 2 || got.paths["a\tb\n.md"] != rec.paths["a\tb\n.md"] || !got.paths["gone"].Missing ||
		got.sums["a\tb\n.md"] != rec.sums["a\tb\n.md"] || len(got.lists) != 1 || got.lists["gone"] != rec.lists["gone"] {
		t.Errorf("read back %+v, wrote %+v", got, rec)
	}
	good := string(rec.encode())
	for _, bad := range []string{"", "tracewiki-uptodate 1\n", good + "path\tnot quoted\n", strings.Replace(good, "sitekey\t010203", "sitekey\tzz", 1), good + "what\t1\n"} {
		if _, err := parseUpToDate([]byte(bad)); err == nil {
			t.Errorf("parseUpToDate(%q) succeeded", bad)
		}
	}
}

// TestUpToDateOutputInside builds into the config's output, a folder of
// the workspace, whose swap folders the build makes beside it in the
// workspace's root while it walks the root: they are hidden from its
// listings, so that after every kind of build (the first, a whole one
// into an output already there, an edited one) the next is up to date.
func TestUpToDateOutputInside(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 0 // the fixture was written a moment ago
	dir := fixture(t, "shop")
	cache := mustCache(t, t.TempDir())
	opts := BuildOptions{Frozen: true, Cache: cache}
	build := func() {
		t.Helper()
		p, err := Load(dir)
		must(t, err)
		defer p.Close()
		o, err := p.Output("")
		must(t, err)
		_, err = p.BuildInto(o, opts, io.Discard, nil)
		must(t, err)
	}
	appendTo := func(name, text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(name)), os.O_APPEND|os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteString(text)
		must(t, errors.Join(err, f.Close()))
	}
	build()
	if _, ok := UpToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after the first build")
	}
	appendTo("content/requirements/REQ-1.md", "\nMore.\n")
	build() // into the output the first one made
	if _, ok := UpToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after a whole build into the output")
	}
	appendTo("content/notes/raw.md", "\nMore.\n")
	if _, ok, err := BuildEdited(dir, "", opts, nil); err != nil || !ok {
		t.Fatalf("edited build: %v, %v", ok, err)
	}
	if _, ok := UpToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after an edited build")
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, filepath.Join(dir, "public"))); diff != "" {
		t.Fatalf("the output differs from a cold build's: %s", diff)
	}
}
