package codeanchors

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// An extractCase is one testdata/<lang>/*.txtar file: the source in its
// first section, named for the path it is extracted as, and the expected
// output in the sections after it. When the archive comment contains
// [crlf], the input is extracted with its line endings turned into CRLF
// (kept as LF on disk, so no tool rewrites it).
type extractCase struct {
	file    string // the txtar file
	comment []byte
	path    string
	src     []byte
	want    []txtar.File
}

// readCases reads every case of testdata/dir; input says whether a first
// section's name is a source of the language, what describes it in errors.
func readCases(tb testing.TB, dir string, input func(name string) bool, what string) []extractCase {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(names) == 0 {
		tb.Fatalf("no testdata/%s/*.txtar cases", dir)
	}
	var cases []extractCase
	for _, name := range names {
		a := txtar.Parse(mustRead(tb, name))
		if len(a.Files) == 0 || !input(a.Files[0].Name) {
			tb.Fatalf("%s: the first section must be %s", name, what)
		}
		c := extractCase{name, a.Comment, a.Files[0].Name, a.Files[0].Data, a.Files[1:]}
		if bytes.Contains(a.Comment, []byte("[crlf]")) {
			c.src = bytes.ReplaceAll(c.src, []byte("\n"), []byte("\r\n"))
		}
		cases = append(cases, c)
	}
	return cases
}

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

// expectExtractError checks that extract fails on src with exactly want,
// returns no File, and that the error is a scanner.Error naming the path,
// so editors can jump to it. name is the extractor's name, for messages.
func expectExtractError(t *testing.T, name string, extract func(string, []byte) (*File, error), path, src, want string) {
	t.Helper()
	f, err := extract(path, []byte(src))
	if err == nil || err.Error() != want || f != nil {
		t.Errorf("%s(%q, %q) = %v, %v, want nil, %s", name, path, src, f, err, want)
	}
	var se scanner.Error
	if !errors.As(err, &se) || se.Pos.Filename != path {
		t.Errorf("%s(%q, %q): error %v is not a scanner.Error for the path", name, path, src, err)
	}
}

// expectCRLFNeutral checks that CRLF line endings change nothing but
// offsets: the same error, or the same symbols on the same lines, ambiguous
// names and tokens. check verifies the CRLF result's own invariants.
func expectCRLFNeutral(t *testing.T, file, path string, src []byte, extract func(string, []byte) (*File, error), check func(*testing.T, []byte, *File)) {
	t.Helper()
	lf := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	a, errA := extract(path, lf)
	b, errB := extract(path, crlf)
	if errA != nil || errB != nil {
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: errors %v (LF) and %v (CRLF)", file, errA, errB)
		}
		return
	}
	check(t, crlf, b)
	for i := range a.Symbols {
		a.Symbols[i].StartOff, a.Symbols[i].EndOff = b.Symbols[i].StartOff, b.Symbols[i].EndOff
	}
	if !slices.Equal(a.Symbols, b.Symbols) || !slices.Equal(a.Ambiguous, b.Ambiguous) || !slices.Equal(a.Tokens, b.Tokens) {
		t.Errorf("%s: CRLF changed the result:\n%+v\n%+v", file, a, b)
	}
}

// benchExtract runs extract over every file of items in each iteration and
// reports symbols/s and lines/s (and bytes/s through SetBytes). file gives
// an item's path and source. Reading the files stays outside the loop.
func benchExtract[S any](b *testing.B, items []S, file func(S) (string, []byte), extract func(string, []byte) (*File, error)) {
	var size, lines int
	for _, it := range items {
		_, src := file(it)
		size += len(src)
		lines += len(Lines(src))
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var nsyms, nlines int
	for b.Loop() {
		for _, it := range items {
			f, err := extract(file(it))
			if err != nil {
				b.Fatal(err)
			}
			nsyms += len(f.Symbols)
		}
		nlines += lines
	}
	b.ReportMetric(float64(nsyms)/b.Elapsed().Seconds(), "symbols/s")
	b.ReportMetric(float64(nlines)/b.Elapsed().Seconds(), "lines/s")
}
