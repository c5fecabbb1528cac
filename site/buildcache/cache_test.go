package buildcache

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// TestMain moves tracewiki's per-user folder (the build cache's secret) to a
// temporary folder, so that no test writes the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tracewiki-test-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(ConfigDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// testCache opens a build cache in a fresh temporary folder.
func testCache(t *testing.T) *Cache {
	t.Helper()
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCacheEntries checks that an entry reads back, and that a corrupt, a
// truncated, a foreign entry and one of another version are ignored, never
// trusted, and overwritten by the next Put.
func TestCacheEntries(t *testing.T) {
	c := testCache(t)
	key := cacheKey([]byte("a"))
	if _, ok := c.Get("s", key); ok {
		t.Fatal("an empty cache has an entry")
	}
	c.Put("s", key, []byte("hello"))
	if got, ok := c.Get("s", key); !ok || string(got) != "hello" {
		t.Fatalf("Get = %q, %v; want hello", got, ok)
	}
	if _, ok := c.Get("t", key); ok {
		t.Fatal("an entry of another stage was found")
	}
	p := c.path("s", c.name("s", key))
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	other, err := openCache(c.dir, "another version")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := other.Get("s", key); ok {
		t.Fatal("another tool version read this version's entry")
	}
	other.Put("s", key, []byte("hello"))
	otherEntry, err := os.ReadFile(other.path("s", other.name("s", key)))
	if err != nil {
		t.Fatal(err)
	}
	c.Put("s", cacheKey([]byte("b")), []byte("world"))
	foreign, err := os.ReadFile(c.path("s", c.name("s", cacheKey([]byte("b")))))
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-1] ^= 1
	longer := append(bytes.Clone(good), '!')
	for name, data := range map[string][]byte{
		"corrupt payload":  flipped,
		"truncated":        good[:len(good)-2],
		"header only":      good[:headerLen-1],
		"longer":           longer,
		"empty":            nil,
		"foreign entry":    foreign,
		"another version":  otherEntry,
		"not an entry":     []byte("hello"),
		"corrupt checksum": append(append(bytes.Clone(good[:headerLen-1]), good[headerLen-1]^1), good[headerLen:]...),
	} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get("s", key); ok {
			t.Errorf("%s: Get = %q, trusted", name, got)
		}
		c.Put("s", key, []byte("hello"))
		if got, ok := c.Get("s", key); !ok || string(got) != "hello" {
			t.Errorf("%s: after Put, Get = %q, %v", name, got, ok)
		}
	}
	var nilCache *Cache
	nilCache.Put("s", key, []byte("x"))
	if _, ok := nilCache.Get("s", key); ok {
		t.Error("a nil cache returned an entry")
	}
}

// TestCacheConcurrentPut checks that writers racing on the same entries
// never leave a reader a partial one.
func TestCacheConcurrentPut(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		c, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for i := range 200 {
				key := cacheKey([]byte{byte(i % 10)})
				want := bytes.Repeat([]byte{byte(i % 10)}, 1000+i%10)
				c.Put("s", key, want)
				if got, ok := c.Get("s", key); ok && !bytes.Equal(got, want) {
					t.Errorf("writer %d: entry %d reads back different bytes", w, i%10)
				}
			}
		})
	}
	wg.Wait()
	entries, _ := filepath.Glob(filepath.Join(dir, "s", "*", ".tmp-*"))
	if len(entries) > 0 {
		t.Errorf("temporary files left: %q", entries)
	}
}

// TestCacheTrim checks the trimming policy: entries unused for the maximum
// age go, then the least recently used while over the size cap; files
// that are not entries stay.
func TestCacheTrim(t *testing.T) {
	c := testCache(t)
	now := time.Now()
	for i := range 5 {
		key := cacheKey([]byte{byte(i)})
		c.Put("s", key, bytes.Repeat([]byte("x"), 100))
		used := now.Add(-time.Duration(i) * 10 * 24 * time.Hour) // 0, 10, 20, 30, 40 days ago
		must(t, os.Chtimes(c.path("s", c.name("s", key)), used, used))
	}
	must(t, os.WriteFile(filepath.Join(c.dir, "s", "README"), []byte("not ours"), 0o644))
	entrySize := int64(headerLen + 100)
	must(t, c.trim(now, 25*24*time.Hour, 2*entrySize))
	for i := range 5 {
		_, ok := c.Get("s", cacheKey([]byte{byte(i)}))
		if want := i < 2; ok != want {
			t.Errorf("entry used %d days ago: kept %v, want %v", i*10, ok, want)
		}
	}
	if _, err := os.Stat(filepath.Join(c.dir, "s", "README")); err != nil {
		t.Errorf("a file that is no entry was removed: %v", err)
	}
	// Trim runs at most daily: a fresh stamp skips it.
	must(t, c.Trim())
	old := now.Add(-60 * 24 * time.Hour)
	key := cacheKey([]byte{0})
	must(t, os.Chtimes(c.path("s", c.name("s", key)), old, old))
	must(t, c.Trim())
	if _, err := os.Stat(c.path("s", c.name("s", key))); err != nil {
		t.Error("Trim ran again within a day")
	}
}

// TestCacheSecret checks the secret's file: made on first use, 0600 and
// 32 bytes, read back the same; a file that is not a secret is refused
// (Secret then draws a key for the process).
func TestCacheSecret(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "tracewiki")
	first, err := loadCacheSecret(dir)
	must(t, err)
	st, err := os.Stat(filepath.Join(dir, cacheSecretFile))
	must(t, err)
	if len(first) != cacheSecretLen || st.Size() != cacheSecretLen || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret: %d bytes, file %d bytes, mode %v", len(first), st.Size(), st.Mode().Perm())
	}
	again, err := loadCacheSecret(dir)
	must(t, err)
	if !bytes.Equal(first, again) {
		t.Error("the secret changed between two reads")
	}
	name := filepath.Join(dir, cacheSecretFile)
	must(t, os.Chmod(name, 0o644))
	if _, err := loadCacheSecret(dir); err == nil {
		t.Error("a secret others may read was used")
	}
	must(t, os.WriteFile(name, []byte("short"), 0o600))
	must(t, os.Chmod(name, 0o600))
	if _, err := loadCacheSecret(dir); err == nil {
		t.Error("a 5-byte secret was used")
	}
	if got, want := os.Getenv(ConfigDirEnv), Secret(); got == "" || len(want) != cacheSecretLen {
		t.Errorf("%s = %q, secret %d bytes", ConfigDirEnv, got, len(want))
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

// TestCacheOtherSecret checks that an entry written with another secret
// (a cache restored from another machine) is a miss (the attack log's
// C-06; TestCacheForgedEntry in package site forges one).
func TestCacheOtherSecret(t *testing.T) {
	other, err := openCacheWith(t.TempDir(), toolVersion(), bytes.Repeat([]byte{7}, cacheSecretLen))
	must(t, err)
	key := cacheKey([]byte("k"))
	other.Put("s", key, []byte("theirs"))
	mine, err := openCache(other.dir, toolVersion())
	must(t, err)
	if got, ok := mine.Get("s", key); ok {
		t.Errorf("an entry of another secret was trusted: %q", got)
	}
}

// TestOutlineRewrap checks that a re-wrapped requirement changes the
// documents' outline, though not its revision: its document page shows
// the text as written, so a cached page must render again.
func TestOutlineRewrap(t *testing.T) {
	sum := func(body string) []byte {
		t.Helper()
		r := &claims.Requirement{ID: "SYS-1", Title: "T", Revision: claims.Revision("T", []byte(body)), LegacyRevision: claims.LegacyRevision("T", []byte(body))}
		ol, err := NewOutline(&claims.Model{Requirements: []*claims.Requirement{r}})
		must(t, err)
		return ol.sum
	}
	if string(sum("a b\nc\n")) == string(sum("a\nb c\n")) {
		t.Error("a re-wrapped requirement keeps the outline: its document page would be reused with the old wrapping")
	}
}

// TestUpToDateRacy checks the paths changed just before the build that
// stamped them: a file is trusted only when its bytes still hash as they
// did, a folder only when it lists the entries it did.
func TestUpToDateRacy(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = time.Hour // every path changed "just before"
	dir := t.TempDir()
	const name, folder = "pay/pay.go", "content/guides"
	for _, f := range []string{name, folder + "/a.md"} {
		must(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644))
	}
	// A build that read the file and listed the folder.
	built, err := workspace.Open(dir)
	must(t, err)
	defer built.Close()
	_, err = built.ReadFile(name)
	must(t, err)
	_, err = fs.ReadDir(built.FS(), folder)
	must(t, err)
	c := testCache(t)
	opts := Options{Frozen: true}
	c.Record(Built{WS: built, Out: filepath.Join(t.TempDir(), "public"), Options: opts, SiteKey: []byte{1}})
	rec, _ := loadUpToDate(c, dir, "", opts)
	if rec == nil {
		t.Fatal("no record of the build")
	}
	ws, err := workspace.Open(dir)
	must(t, err)
	defer ws.Close()
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
	if _, ok := rec.lists[folder]; !ok {
		t.Fatalf("%s was listed but has no listing in the record", folder)
	}
	if same, _ := rec.same(ws, dir, folder); !same {
		t.Errorf("%s, unchanged but stamped just after a change, is not trusted", folder)
	}
	rec.lists[folder] = [32]byte{1}
	if same, _ := rec.same(ws, dir, folder); same {
		t.Errorf("%s is trusted by its stamp though it is listed otherwise", folder)
	}
}

// TestCacheUpgrade checks what an upgrade keeps of a build's records: the
// same tracewiki finds the workspace up to date and the output holding its
// site; one of another version finds neither, and reads none of the old
// version's entries, so its build is a cold one.
func TestCacheUpgrade(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644))
	ws, err := workspace.Open(dir)
	must(t, err)
	defer ws.Close()
	_, err = ws.ReadFile("a.md")
	must(t, err)

	c := testCache(t)
	out, key, opts := filepath.Join(t.TempDir(), "public"), []byte("site key"), Options{Frozen: true}
	sw, err := (&output.Folder{Dir: out, Name: "public"}).Begin(nil, UndoLeftPatch)
	must(t, err)
	w := NewWriter(c, out, sw.Dir())
	must(t, w.Write("index.html", []byte("<h1>A</h1>")))
	must(t, w.Commit(sw, parallel))
	w.Record(c, key, true)
	c.Record(Built{WS: ws, Out: out, Options: opts, SiteKey: key})

	if _, ok := UpToDate(c, dir, "", opts); !ok {
		t.Fatal("the same version: not up to date after a build")
	}
	if !NewWriter(c, out, t.TempDir()).Holds(key) {
		t.Fatal("the same version: the output does not hold the site it wrote")
	}
	later, err := openCache(c.dir, "a later tracewiki")
	must(t, err)
	if _, ok := UpToDate(later, dir, "", opts); ok {
		t.Error("another version: up to date by the old version's record")
	}
	if NewWriter(later, out, t.TempDir()).Holds(key) {
		t.Error("another version: the output holds its site by the old version's record")
	}
	if s := later.Stats(); s.Hits != 0 {
		t.Errorf("another version used %d entries of the old one", s.Hits)
	}
}
