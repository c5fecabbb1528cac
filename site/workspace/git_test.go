package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// TestParseHunks reads a "git diff -U0" patch: changed lines of the new
// side by file, a pure deletion as a Deleted range after its line, a
// deleted file with no lines (it changed as a whole), and a C-quoted name.
func TestParseHunks(t *testing.T) {
	patch := `diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -2 +2 @@ func A() {
-old
+new
@@ -10,2 +9,0 @@
-gone
-gone
diff --git a/old.go b/old.go
--- a/old.go
+++ /dev/null
@@ -1,3 +0,0 @@
-x
-y
-z
diff --git "a/sp\303\244ce.go" "b/sp\303\244ce.go"
--- "a/sp\303\244ce.go"
+++ "b/sp\303\244ce.go"
@@ -4,0 +5,3 @@
+1
+2
+3
`
	got, err := parseHunks([]byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]LineRange{
		"a.go":     {{Start: 2, End: 2}, {Start: 9, End: 10, Deleted: true}},
		"späce.go": {{Start: 5, End: 7}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseHunks = %v, want %v", got, want)
	}
	if _, err := parseHunks([]byte("+++ b/a.go\n@@ -1 +x @@\n")); err == nil {
		t.Error("a bad hunk header was accepted")
	}
}

// TestGitChanges runs git on a repository: a changed line of a tracked
// file counts, an untracked file does not, and a path outside the
// workspace or an option as the revision is refused before git runs.
func TestGitChanges(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed:", err)
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	must(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\nthree\n"), 0o644))
	run("add", "a.go")
	run("commit", "-q", "-m", "first")
	must(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\nTWO\nthree\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "new.go"), []byte("untracked\n"), 0o644))
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	got, err := ws.GitChanges("HEAD", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Path: "a.go", Lines: []LineRange{{Start: 2, End: 2}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GitChanges = %v, want %v", got, want)
	}
	if _, err := ws.GitChanges("HEAD", []string{"../x.go"}); err == nil {
		t.Error("a path outside the workspace was accepted")
	}
	if _, err := ws.GitChanges("--output=x", nil); err == nil {
		t.Error("an option was accepted as the revision")
	}
	if head, prefix, err := ws.GitRepo(); err != nil || len(head) != 40 || prefix != "" {
		t.Errorf("GitRepo = %q, %q, %v; want the commit at the root", head, prefix, err)
	}
}
