package site

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/site/buildcache"
)

// upToDateOf asks whether a frozen build of dir into out with cache is up to
// date.
func upToDateOf(t *testing.T, dir, out string, cache *Cache, opts BuildOptions) (*Summary, bool) {
	t.Helper()
	opts.Frozen, opts.Cache = true, cache
	return upToDate(dir, out, opts)
}

// TestUpToDate checks that a build of an unchanged workspace into the
// output it made is found up to date, with that build's summary, and that
// every kind of change, in the workspace, the output or the options, is
// noticed: each is followed by a build, after which the workspace is up
// to date again.
func TestUpToDate(t *testing.T) {
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
	if want := buildcache.CountsOf(s.Check); sum.Pages != s.Pages || !maps.Equal(sum.Counts.States, want.States) || !maps.Equal(sum.Counts.Reasons, want.Reasons) {
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
	if _, ok := upToDate(dir, out, BuildOptions{Cache: cache}); ok {
		t.Error("a build that captures is up to date after a frozen one")
	}
}

// TestUpToDateOutputInside builds into the config's output, a folder of
// the workspace, whose swap folders the build makes beside it in the
// workspace's root while it walks the root: they are hidden from its
// listings, so that after every kind of build (the first, a whole one
// into an output already there, an edited one) the next is up to date.
func TestUpToDateOutputInside(t *testing.T) {
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
	if _, ok := upToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after the first build")
	}
	appendTo("content/requirements/REQ-1.md", "\nMore.\n")
	build() // into the output the first one made
	if _, ok := upToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after a whole build into the output")
	}
	appendTo("content/notes/raw.md", "\nMore.\n")
	if _, ok, err := buildEdited(dir, "", opts, nil); err != nil || !ok {
		t.Fatalf("edited build: %v, %v", ok, err)
	}
	if _, ok := upToDate(dir, "", opts); !ok {
		t.Fatal("not up to date after an edited build")
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, filepath.Join(dir, "public"))); diff != "" {
		t.Fatalf("the output differs from a cold build's: %s", diff)
	}
}
