// Package langtest is the test harness every language package reuses: txtar
// golden cases read from testdata/DIR and compared section by section
// (-update rewrites them, refused when CI is set; a file no test reads
// fails), the invariants of an extracted [lang.File] (CheckFile), the CRLF
// and error checks, and the extraction benchmark loop. See
// codeanchors/lang/doc.go for how a language package uses it.
package langtest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/scanner"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Update is the -update flag of every test binary that imports langtest:
// rewrite the golden files instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite golden files")

// MustRead returns the contents of the file name, or stops the test.
func MustRead(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// CheckFile checks the invariants of a File extracted from src: every range
// inside the source, offsets at line boundaries, symbols sorted and unique,
// tokens in line order.
func CheckFile(t *testing.T, src []byte, f *lang.File) {
	t.Helper()
	lines := lang.Lines(src)
	seen := map[string]bool{}
	for i, s := range f.Symbols {
		if s.Start < 1 || s.Start > s.End || s.End > len(lines) {
			t.Fatalf("%s: lines %d-%d outside 1-%d", s.Name, s.Start, s.End, len(lines))
		}
		if s.StartOff < 0 || s.StartOff > s.EndOff || s.EndOff > len(src) {
			t.Fatalf("%s: offsets %d-%d outside 0-%d", s.Name, s.StartOff, s.EndOff, len(src))
		}
		text := bytes.ReplaceAll(src[s.StartOff:s.EndOff], []byte("\r\n"), []byte("\n"))
		if want := bytes.Join(lines[s.Start-1:s.End], []byte("\n")); !bytes.Equal(text, want) {
			t.Fatalf("%s: src[%d:%d] = %q, want lines %d-%d = %q", s.Name, s.StartOff, s.EndOff, text, s.Start, s.End, want)
		}
		if s.Name == "_" || strings.HasPrefix(s.Name, "_.") || strings.HasSuffix(s.Name, "._") {
			t.Fatalf("symbol %q: blank names are not symbols", s.Name)
		}
		if seen[s.Name] {
			t.Fatalf("symbol %q listed twice", s.Name)
		}
		seen[s.Name] = true
		if _, found := slices.BinarySearch(f.Ambiguous, s.Name); found {
			t.Fatalf("symbol %q is both listed and ambiguous", s.Name)
		}
		if i > 0 {
			p := f.Symbols[i-1]
			if p.Start > s.Start || p.Start == s.Start && p.Name >= s.Name {
				t.Fatalf("symbols %q (line %d) and %q (line %d) out of order", p.Name, p.Start, s.Name, s.Start)
			}
		}
	}
	if !slices.IsSorted(f.Ambiguous) || len(slices.Compact(slices.Clone(f.Ambiguous))) != len(f.Ambiguous) {
		t.Fatalf("Ambiguous %q: not sorted and unique", f.Ambiguous)
	}
	for i, tok := range f.Tokens {
		if tok.Line < 1 || tok.Line > max(len(lines), 1) {
			t.Fatalf("token %d %q: line %d outside 1-%d", i, tok.Text, tok.Line, len(lines))
		}
		if i > 0 && f.Tokens[i-1].Line > tok.Line {
			t.Fatalf("token %d %q: line %d after line %d", i, tok.Text, tok.Line, f.Tokens[i-1].Line)
		}
	}
}

// TokenTexts returns the texts of toks, for messages.
func TokenTexts(toks []lang.Token) []string {
	texts := make([]string, len(toks))
	for i, t := range toks {
		texts[i] = t.Text
	}
	return texts
}

// A Case is one testdata/DIR/*.txtar file: the source in its
// first section, named for the path it is extracted as, and the expected
// output in the sections after it. When the archive comment contains
// [crlf], the input is extracted with its line endings turned into CRLF
// (kept as LF on disk, so no tool rewrites it).
type Case struct {
	File    string // the txtar file
	Comment []byte
	Path    string
	Src     []byte
	Want    []txtar.File
}

// ReadCases reads every case of testdata/dir; input says whether a first
// section's name is a source of the language, what describes it in errors.
func ReadCases(tb testing.TB, dir string, input func(name string) bool, what string) []Case {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(names) == 0 {
		tb.Fatalf("no testdata/%s/*.txtar cases", dir)
	}
	var cases []Case
	for _, name := range names {
		a := txtar.Parse(MustRead(tb, name))
		if len(a.Files) == 0 || !input(a.Files[0].Name) {
			tb.Fatalf("%s: the first section must be %s", name, what)
		}
		c := Case{name, a.Comment, a.Files[0].Name, a.Files[0].Data, a.Files[1:]}
		if bytes.Contains(a.Comment, []byte("[crlf]")) {
			c.Src = bytes.ReplaceAll(c.Src, []byte("\n"), []byte("\r\n"))
		}
		cases = append(cases, c)
	}
	return cases
}

// RefuseUpdateInCI stops -update when CI is set: goldens are written by
// people, and reviewed.
func RefuseUpdateInCI(t *testing.T) {
	t.Helper()
	if *Update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people")
	}
}

// CheckGoldenDir fails on every file of testdata/dir that is neither a
// .txtar case nor one of extra: a golden no test reads would go stale
// unnoticed.
func CheckGoldenDir(t *testing.T, dir string, extra ...string) {
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

// CompareGolden compares the sections a case produced (got) with its golden
// ones (want). With -update it first rewrites the case file (comment, the
// input section, then got) and compares with what it reads back. call names
// the call under test in messages, "Extract(\"a.go\")".
func CompareGolden(t *testing.T, file string, comment []byte, input txtar.File, got, want []txtar.File, call string) {
	t.Helper()
	if *Update {
		files := append([]txtar.File{input}, got...)
		if err := os.WriteFile(file, txtar.Format(&txtar.Archive{Comment: comment, Files: files}), 0o666); err != nil {
			t.Fatal(err)
		}
		want = txtar.Parse(MustRead(t, file)).Files[1:]
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

// ExpectExtractError checks that extract fails on src with exactly want,
// returns no File, and that the error is a scanner.Error naming the path,
// so editors can jump to it. name is the extractor's name, for messages.
func ExpectExtractError(t *testing.T, name string, extract func(string, []byte) (*lang.File, error), path, src, want string) {
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

// ExpectCRLFNeutral checks that CRLF line endings change nothing but
// offsets: the same error, or the same symbols on the same lines, ambiguous
// names and tokens. check verifies the CRLF result's own invariants.
func ExpectCRLFNeutral(t *testing.T, file, path string, src []byte, extract func(string, []byte) (*lang.File, error), check func(*testing.T, []byte, *lang.File)) {
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

// BenchExtract runs extract over every file of items in each iteration and
// reports symbols/s and lines/s (and bytes/s through SetBytes). file gives
// an item's path and source. Reading the files stays outside the loop.
func BenchExtract[S any](b *testing.B, items []S, file func(S) (string, []byte), extract func(string, []byte) (*lang.File, error)) {
	var size, lines int
	for _, it := range items {
		_, src := file(it)
		size += len(src)
		lines += len(lang.Lines(src))
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

// ExpectContextFree checks that a symbol's hashes depend only on its own
// text: its line hash and token hash do not change when code is inserted
// just before its first line or just after its last line. The inserted
// code is the text of other symbols of the cases (the longest ones, which
// nest the deepest), re-indented to the symbol's own indentation. A
// variant that does not parse, or in which the symbol is not found exactly
// once, is skipped: inserting a function inside a grouped declaration is
// not valid code. It returns the number of variants compared; a language
// test requires some.
func ExpectContextFree(t *testing.T, extract func(string, []byte) (*lang.File, error), cases []Case) int {
	t.Helper()
	var snippets []string
	type sized struct {
		text  string
		lines int
	}
	var all []sized
	for _, c := range cases {
		f, err := extract(c.Path, c.Src)
		if err != nil {
			continue
		}
		for _, s := range f.Symbols {
			all = append(all, sized{string(c.Src[s.StartOff:s.EndOff]), s.End - s.Start + 1})
		}
	}
	slices.SortStableFunc(all, func(a, b sized) int { return b.lines - a.lines })
	for _, s := range all {
		if len(snippets) == 3 {
			break
		}
		if !slices.Contains(snippets, s.text) {
			snippets = append(snippets, s.text)
		}
	}
	compared := 0
	for _, c := range cases {
		f, err := extract(c.Path, c.Src)
		if err != nil {
			continue
		}
		src := bytes.ReplaceAll(c.Src, []byte("\r\n"), []byte("\n"))
		lines := strings.SplitAfter(string(src), "\n")
		for _, s := range f.Symbols {
			hash, tokens := lang.HashLines(lang.Lines(c.Src), s.Start, s.End), lang.HashTokens(f.Tokens, s.Start, s.End)
			first := lines[s.Start-1]
			indent := first[:len(first)-len(strings.TrimLeft(first, " \t"))]
			for _, snip := range snippets {
				insert := reindent(snip, indent)
				n := strings.Count(insert, "\n")
				for _, before := range []bool{true, false} {
					at, shift := s.End, 0
					if before {
						at, shift = s.Start-1, n
					}
					variant := strings.Join(lines[:at], "")
					if !strings.HasSuffix(variant, "\n") && variant != "" {
						variant += "\n"
					}
					variant += insert + strings.Join(lines[at:], "")
					g, err := extract(c.Path, []byte(variant))
					if err != nil {
						continue
					}
					vs, ok, _ := g.Lookup(s.Name)
					if !ok || vs.Start != s.Start+shift || vs.End != s.End+shift {
						continue
					}
					compared++
					vh, vt := lang.HashLines(lang.Lines([]byte(variant)), vs.Start, vs.End), lang.HashTokens(g.Tokens, vs.Start, vs.End)
					if vh != hash || vt != tokens {
						where := "after"
						if before {
							where = "before"
						}
						t.Errorf("%s: %s: hashes change when this code is inserted %s it (line hash equal: %v, token hash equal: %v):\n%s",
							c.File, s.Name, where, vh == hash, vt == tokens, insert)
					}
				}
			}
		}
	}
	return compared
}

// reindent removes the common indentation of text's lines, puts indent
// before each non-blank one, and ends it with a blank line.
func reindent(text, indent string) string {
	ls := strings.Split(strings.TrimRight(text, "\n"), "\n")
	common := -1
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	var b strings.Builder
	for _, l := range ls {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) != "" {
			b.WriteString(indent + l[max(common, 0):])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}
