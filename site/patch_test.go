package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/tracewiki/tracewiki/site/buildcache"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// patchEdit edits the shop fixture so that the next build patches every
// kind of step: a page's text changes (replace), a new page appears (add)
// and a page is removed (delete).
func patchEdit(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "content", "guides", "checkout.md")
	data, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, []byte(strings.Replace(string(data), "charges the card", "charges the credit card", 1)), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "content", "guides", "refunds.md"), []byte("---\ntitle: Refunds\n---\n# Refunds\n\nMoney goes back.\n"), 0o644))
	must(t, os.Remove(filepath.Join(dir, "content", "notes", "raw.md")))
}

// builtShop builds the shop fixture with a cache of its own into public
// in a folder of its own, and returns the workspace, that folder, the
// output and the cache.
func builtShop(t *testing.T) (dir, parent, out string, cache *Cache) {
	t.Helper()
	dir = fixture(t, "shop")
	cache = mustCache(t, t.TempDir())
	parent = t.TempDir()
	out = filepath.Join(parent, "public")
	buildCached(t, dir, out, cache)
	return dir, parent, out, cache
}

// folderID is the inode of a folder: a swap replaces the output folder,
// a patch keeps it.
func folderID(t *testing.T, dir string) uint64 {
	t.Helper()
	st, err := os.Stat(dir)
	must(t, err)
	return workspace.Inode(st)
}

// TestPatch checks that an edit of a few pages updates the output folder
// in place (the folder stays, unchanged files keep their inodes, nothing
// is left beside it) to what a cold build makes, and that an edit of
// every page swaps in a whole new folder instead.
func TestPatch(t *testing.T) {
	dir, parent, out, cache := builtShop(t)
	folder := folderID(t, out)
	decisions, _ := statOutput(filepath.Join(out, "decisions", "DEC-1", "index.html"))

	patchEdit(t, dir)
	s := buildCached(t, dir, out, cache)
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
		t.Fatalf("the patched output differs from a cold build: %s", diff)
	}
	if folderID(t, out) != folder {
		t.Error("a build that changed a few files replaced the output folder")
	}
	if after, _ := statOutput(filepath.Join(out, "decisions", "DEC-1", "index.html")); !after.same(decisions) {
		t.Error("an unchanged page was rewritten")
	}
	if s.Linked == 0 {
		t.Error("no file counted as kept")
	}
	if names := besideOutput(t, parent); !slices.Equal(names, []string{"public"}) {
		t.Errorf("beside the output: %q, want only public", names)
	}
	if _, err := os.Stat(filepath.Join(out, "pages", "notes", "raw")); err == nil {
		t.Error("the removed page's folder is still there")
	}

	// A new title changes every page: too many for a patch, in a site of
	// more pages than a patch of a small site changes (64).
	for i := range 80 {
		writeFixtureFile(t, dir, fmt.Sprintf("content/more/page%02d.md", i), []byte(fmt.Sprintf("# Page %d\n\nMore text.\n", i)))
	}
	buildCached(t, dir, out, cache)
	folder = folderID(t, out)
	cfg := filepath.Join(dir, "tracewiki.toml")
	data, err := os.ReadFile(cfg)
	must(t, err)
	renamed := regexp.MustCompile(`(?m)^title = .*$`).ReplaceAll(data, []byte(`title = "Renamed shop"`))
	if slices.Equal(renamed, data) {
		t.Fatal("the fixture's config has no title to change")
	}
	must(t, os.WriteFile(cfg, renamed, 0o644))
	buildCached(t, dir, out, cache)
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
		t.Fatalf("the swapped output differs from a cold build: %s", diff)
	}
	if folderID(t, out) == folder {
		t.Error("a build that changed every page patched the output folder")
	}
}

// TestPatchFails fails a patch at each step, before a step and between
// the two renames of a replacement: the build fails saying the output is
// as it was, and it is.
func TestPatchFails(t *testing.T) {
	dir, parent, out, cache := builtShop(t)
	old := readTree(t, out)
	patchEdit(t, dir)
	defer func() { buildcache.PatchHook = nil }()
	steps := -1
	for i := 0; steps < 0 || i < steps; i++ {
		for _, at := range []string{"before", "between"} {
			failed := false
			buildcache.PatchHook = func(where string, j, n int) error {
				steps = n
				if where == at && j == i {
					failed = true
					return errors.New("disk full")
				}
				return nil
			}
			_, err := buildAndWriteCache(dir, out, cache)
			if !failed {
				if err != nil {
					t.Fatalf("%s step %d: %v", at, i, err)
				}
				continue // not a replacement: no step between
			}
			if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "the output is as it was") {
				t.Fatalf("%s step %d: error %v, want disk full and the output as it was", at, i, err)
			}
			if diff := firstDiffFile(old, readTree(t, out)); diff != "" {
				t.Fatalf("failed %s step %d of %d: the output changed: %s", at, i, steps, diff)
			}
			if names := besideOutput(t, parent); !slices.Equal(names, []string{"public"}) {
				t.Fatalf("failed %s step %d: beside the output %q, want only public", at, i, names)
			}
		}
	}
	if steps < 3 {
		t.Fatalf("the patch had %d steps; the edit should make more", steps)
	}
}

// TestPatchKilled kills a build (SIGKILL, in a child process) in the
// middle of a patch, and checks that the next build undoes it before
// anything else: the output is the old site again, with a note, and
// nothing is left beside it; and that a build after that equals a cold
// one.
func TestPatchKilled(t *testing.T) {
	if env := os.Getenv("TRACEWIKI_TEST_PATCH_KILL"); env != "" {
		var args struct{ Dir, Out, Cache, At string }
		must(t, json.Unmarshal([]byte(env), &args))
		at, stepText, _ := strings.Cut(args.At, ":")
		step, _ := strconv.Atoi(stepText)
		buildcache.PatchHook = func(where string, i, n int) error {
			if where == at && (i == step || step < 0 && i == n+step) {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
			return nil
		}
		buildAndWriteCache(args.Dir, args.Out, mustCache(t, args.Cache))
		t.Fatal("the patch was not killed")
	}
	for _, at := range []string{"before:0", "before:1", "between:-1", "before:-1"} {
		t.Run(at, func(t *testing.T) {
			dir := fixture(t, "shop")
			cacheDir := t.TempDir()
			parent := t.TempDir()
			out := filepath.Join(parent, "public")
			buildCached(t, dir, out, mustCache(t, cacheDir))
			old := readTree(t, out)
			patchEdit(t, dir)

			args, _ := json.Marshal(map[string]string{"Dir": dir, "Out": out, "Cache": cacheDir, "At": at})
			cmd := exec.Command(os.Args[0], "-test.run=^TestPatchKilled$")
			cmd.Env = append(os.Environ(), "TRACEWIKI_TEST_PATCH_KILL="+string(args))
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed: %v", err)
			}
			journal, _ := filepath.Glob(filepath.Join(parent, ".public.new-"+strconv.Itoa(cmd.Process.Pid)+"-*", ".journal"))
			if len(journal) != 1 {
				t.Fatalf("no patch journal left beside the output: %q", besideOutput(t, parent))
			}
			var pt struct{ Ops []struct{ Kind string } } // the journal (patch.go of buildcache)
			data, err := os.ReadFile(journal[0])
			must(t, err)
			must(t, json.Unmarshal(data, &pt))
			kinds := map[string]bool{}
			for _, op := range pt.Ops {
				kinds[op.Kind] = true
			}
			if !kinds["add"] || !kinds["replace"] || !kinds["delete"] {
				t.Fatalf("the patch's steps are of the kinds %v; want add, replace and delete", kinds)
			}

			var notes []string
			o := &Output{Folder: output.Folder{Dir: out, Name: "public"}}
			w, err := o.Begin(func(s string) { notes = append(notes, s) }, buildcache.UndoLeftPatch)
			must(t, err)
			w.Abort()
			if diff := firstDiffFile(old, readTree(t, out)); diff != "" {
				t.Fatalf("after undoing the patch killed at %s, the output is not the old site: %s", at, diff)
			}
			if names := besideOutput(t, parent); !slices.Equal(names, []string{"public"}) {
				t.Errorf("beside the output: %q, want only public", names)
			}
			if len(notes) != 1 || !strings.Contains(notes[0], "undid the update of public") {
				t.Errorf("notes %q, want one saying the update was undone", notes)
			}
			buildCached(t, dir, out, mustCache(t, cacheDir))
			if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
				t.Errorf("the build after the undone one differs from a cold build: %s", diff)
			}
		})
	}
}

// TestBuildsIntoOneOutput runs builds into one output at the same time,
// sharing a cache, after an edit: each waits for the other, and the
// output is what a cold build makes.
func TestBuildsIntoOneOutput(t *testing.T) {
	dir := fixture(t, "shop")
	cacheDir := t.TempDir()
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	buildCached(t, dir, out, mustCache(t, cacheDir))
	patchEdit(t, dir)
	if err := errors.Join(buildAtOnce(dir, []string{out, out, out, out}, cacheDir)...); err != nil {
		t.Fatal(err)
	}
	if diff := firstDiffFile(buildWith(t, dir, nil), readTree(t, out)); diff != "" {
		t.Errorf("after concurrent builds the output differs from a cold build: %s", diff)
	}
	if names := besideOutput(t, parent); !slices.Equal(names, []string{"public"}) {
		t.Errorf("beside the output: %q, want only public", names)
	}
}
