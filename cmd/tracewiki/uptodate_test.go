package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBuildUpToDate checks the short way of a build of an unchanged
// workspace into the output it made (site.UpToDate): it says exactly what
// the full build said, notes, summary and exit code with --fail-on, and
// writes nothing (the cache's record of the output is untouched); after an
// edit of a page's text, the build says the same again, and after an edit
// that changes what the page claims, the build is made again.
func TestBuildUpToDate(t *testing.T) {
	ws := t.TempDir()
	writeWorkspace(t, ws)
	for name, text := range map[string]string{
		"shop/broken.go":  "package shop\n\nfunc Broken( {\n",
		"content/more.md": "# More\n\nTaxes are added ([code](code:shop/price.go@Tax)).\n",
	} {
		if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Paths changed within two seconds of a build are not trusted by
	// their stamps (a change in the same clock tick keeps them).
	time.Sleep(2100 * time.Millisecond)
	t.Chdir(ws)
	cache := t.TempDir()
	build := func() (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"build", "--frozen", "--cache", cache, "--fail-on", "unknown"}, nil, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, stdout, stderr := build()
	if code != exitFindings || !bytes.Contains([]byte(stderr), []byte("broken.go")) {
		t.Fatalf("first build: exit %d, want %d with a note on broken.go:\n%s%s", code, exitFindings, stdout, stderr)
	}
	records, _ := filepath.Glob(filepath.Join(cache, "output", "*", "*"))
	if len(records) != 1 {
		t.Fatalf("the cache holds %d records of outputs, want 1", len(records))
	}
	before, err := os.Stat(records[0])
	if err != nil {
		t.Fatal(err)
	}
	code2, stdout2, stderr2 := build()
	if code2 != code || stdout2 != stdout || stderr2 != stderr {
		t.Errorf("the up-to-date build said (exit %d)\n%s%s\nthe full one (exit %d)\n%s%s", code2, stdout2, stderr2, code, stdout, stderr)
	}
	if after, err := os.Stat(records[0]); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Error("the second build wrote the output's record: it was made again, not found up to date")
	}
	// An edit of the page's text only (site.BuildEdited): the same words,
	// and the page shows it.
	if err := os.WriteFile("content/more.md", []byte("# More\n\nTaxes are added ([code](code:shop/price.go@Tax)).\n\nMore words.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code4, stdout4, stderr4 := build()
	if code4 != code || stdout4 != stdout || stderr4 != stderr {
		t.Errorf("the build of an edited page said (exit %d)\n%s%s\nthe first one (exit %d)\n%s%s", code4, stdout4, stderr4, code, stdout, stderr)
	}
	if page, err := os.ReadFile(filepath.Join("public", "pages", "more", "index.html")); err != nil || !bytes.Contains(page, []byte("<p>More words.</p>")) {
		t.Errorf("the edited page does not show its new text (%v)", err)
	}
	if err := os.WriteFile("content/more.md", []byte("# More\n\nNo more taxes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stdout3, stderr3 := build(); !bytes.Contains([]byte(stdout3), []byte(", 1 unknown")) {
		t.Errorf("after one of the two unknown links was removed:\n%s%s", stdout3, stderr3)
	}
}
