package site

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

// siteFiles is a minimal site: the manifest that marks it, and a home page
// saying which build it is.
func siteFiles(which string) *Site {
	return &Site{Files: map[string][]byte{
		"api/manifest.json": []byte(`{"schemaVersion": 1, "project_id": "p", "nodes": {}, "links": {}, "artifacts": []}`),
		"index.html":        []byte(which),
	}}
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
		siteFiles("new").Write(&Output{Dir: out, Name: "public"}, nil)
		t.Fatal("the swap was not killed")
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	o := &Output{Dir: out, Name: "public"}
	if err := siteFiles("old").Write(o, nil); err != nil {
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
	if err := o.recover(func(s string) { notes = append(notes, s) }); err != nil {
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
	if err := siteFiles("newer").Write(o, nil); err != nil {
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
	if err := siteFiles("old").Write(&Output{Dir: out, Name: "public"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".public.new-" + dead + "-123", ".public.new-" + dead, ".public.old-" + dead, ".public.new-1-5", "other"} {
		if err := os.MkdirAll(filepath.Join(parent, name, "api"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := siteFiles("new").Write(&Output{Dir: out, Name: "public"}, nil); err != nil {
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
		if got := isSwapFolder(name); got != want {
			t.Errorf("isSwapFolder(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestContentTemp checks which names are temporary files of content files.
func TestContentTemp(t *testing.T) {
	for name, want := range map[string]int{
		"p68.md.tmp-24220": 24220, "_index.md.tmp-7448": 7448, "r.yaml.tmp-1": 1,
		"p.md.tmp-": -1, "p.md.tmp-x": -1, "p.txt.tmp-1": -1, ".p.md.tmp-1": -1, "p.md": -1, "tracewiki.lock.tmp-5": -1,
	} {
		pid, ok := contentTemp(name)
		if want < 0 && ok || want >= 0 && (!ok || pid != want) {
			t.Errorf("contentTemp(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
	if got := tempName("a.md"); !strings.HasSuffix(got, ".tmp-"+strconv.Itoa(os.Getpid())) {
		t.Errorf("tempName = %q", got)
	}
	if pid, ok := contentTemp(tempName("a.md")); !ok || pid != os.Getpid() {
		t.Errorf("contentTemp(tempName) = %d, %v", pid, ok)
	}
}
