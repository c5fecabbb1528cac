package codeanchors

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// refuseUpdateInCI stops -update when CI is set: goldens are written by
// people, and reviewed.
func refuseUpdateInCI(t *testing.T) {
	t.Helper()
	if *update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people")
	}
}

// checkGoldenDir fails on every file of testdata/dir that is neither a
// .txtar case nor one of extra: a golden no test reads would go stale
// unnoticed.
func checkGoldenDir(t *testing.T, dir string, extra ...string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); !strings.HasSuffix(n, ".txtar") && n != "README.md" && !slices.Contains(extra, n) {
			t.Errorf("testdata/%s/%s: not a .txtar case; no test reads it", dir, n)
		}
	}
}

// compareGolden compares the sections a case produced (got) with its golden
// ones (want). With -update it first rewrites the case file (comment, the
// input section, then got) and compares with what it reads back. call names
// the call under test in messages, "ExtractGo(\"a.go\")".
func compareGolden(t *testing.T, file string, comment []byte, input txtar.File, got, want []txtar.File, call string) {
	t.Helper()
	if *update {
		files := append([]txtar.File{input}, got...)
		if err := os.WriteFile(file, txtar.Format(&txtar.Archive{Comment: comment, Files: files}), 0o666); err != nil {
			t.Fatal(err)
		}
		want = txtar.Parse(mustRead(t, file)).Files[1:]
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g txtar.File) bool { return g.Name == w.Name }) {
			t.Errorf("%s: section %q is not produced by the test (stale golden; run go test -update)", file, w.Name)
		}
	}
	for _, g := range got {
		i := slices.IndexFunc(want, func(w txtar.File) bool { return w.Name == g.Name })
		if i < 0 {
			t.Errorf("%s: missing section %q; want:\n%s", file, g.Name, g.Data)
			continue
		}
		if !bytes.Equal(g.Data, want[i].Data) {
			t.Errorf("%s %s:\n%s\nwant:\n%s", call, g.Name, g.Data, want[i].Data)
		}
	}
}
