package output

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// writeSite replaces the output o with a minimal site, as a build does: the
// manifest that marks it, and a home page saying which build it is.
func writeSite(o *Folder, which string) error {
	unlock, err := o.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	w, err := o.Begin(nil, nil)
	if err != nil {
		return err
	}
	for name, data := range map[string]string{
		"api/manifest.json": `{"schemaVersion": 1, "project_id": "p", "nodes": {}, "links": {}, "artifacts": []}`,
		"index.html":        which,
	} {
		p := filepath.Join(w.Dir(), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			w.Abort()
			return err
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit()
}

// besideOutput lists the names in the output's parent folder.
func besideOutput(t *testing.T, parent string) []string {
	t.Helper()
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestSwapKilledBetweenRenames kills a build (SIGKILL, in a child process)
// between the two renames of a swap, where the output folder does not
// exist, and checks that the next build restores the old site before
// anything else and leaves nothing behind.
func TestSwapKilledBetweenRenames(t *testing.T) {
	if out := os.Getenv("TRACEWIKI_TEST_SWAP_KILL"); out != "" {
		exchange = func(a, b string) error { return errNoExchange }
		swapHook = func(step string) {
			if step == "between" {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
		writeSite(&Folder{Dir: out, Name: "public"}, "new")
		t.Fatal("the swap was not killed")
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	o := &Folder{Dir: out, Name: "public"}
	if err := writeSite(o, "old"); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSwapKilledBetweenRenames$")
	cmd.Env = append(os.Environ(), "TRACEWIKI_TEST_SWAP_KILL="+out)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	names := besideOutput(t, parent)
	if slices.Contains(names, "public") || !slices.Contains(names, ".public.old-"+pid) {
		t.Fatalf("after the kill: %q, want no public and .public.old-%s", names, pid)
	}

	var notes []string
	if err := o.recover(func(s string) { notes = append(notes, s) }, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "index.html")); string(got) != "old" {
		t.Errorf("after recovery public/index.html = %q, want the old site", got)
	}
	if names := besideOutput(t, parent); !slices.Equal(names, []string{"public"}) {
		t.Errorf("after recovery: %q, want only public", names)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "restored public from .public.old-"+pid) {
		t.Errorf("notes %q, want one saying public was restored", notes)
	}
	if err := writeSite(o, "newer"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "index.html")); string(got) != "newer" {
		t.Errorf("public/index.html = %q, want the newer site", got)
	}
}

// TestLeftoversRemoved checks that a build removes the folders killed runs
// left beside the output (those of processes that are gone, in the names
// of this and of earlier tracewiki versions), and keeps those of a running
// process.
func TestLeftoversRemoved(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if err := writeSite(&Folder{Dir: out, Name: "public"}, "old"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".public.new-" + dead + "-123", ".public.new-" + dead, ".public.old-" + dead, ".public.new-1-5", "other"} {
		if err := os.MkdirAll(filepath.Join(parent, name, "api"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeSite(&Folder{Dir: out, Name: "public"}, "new"); err != nil {
		t.Fatal(err)
	}
	// pid 1 is always running: its folder stays.
	if names := besideOutput(t, parent); !slices.Equal(names, []string{".public.new-1-5", "other", "public"}) {
		t.Errorf("beside the output: %q, want .public.new-1-5, other and public", names)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "index.html")); string(got) != "new" {
		t.Errorf("public/index.html = %q, want the new site", got)
	}
}

// TestIsSwapFolder checks the names of swap folders of any output.
func TestIsSwapFolder(t *testing.T) {
	for name, want := range map[string]bool{
		".public.new-17863-2754470888": true, ".public.old-17863": true, ".site.new-1-2": true,
		".a.new-1.new-5-6": true, ".my.site.old-42": true,
		".public.new-17863": false, ".public.old-1-2": false, "public.new-1-2": false, ".public.new-x-1": false,
		".public.new-1-": false, "..new-1-2": false, ".public.tmp-1": false, ".public": false,
	} {
		if got := IsSwapFolder(name); got != want {
			t.Errorf("IsSwapFolder(%q) = %v, want %v", name, got, want)
		}
	}
}
