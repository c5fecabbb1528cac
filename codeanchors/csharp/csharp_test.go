package csharp

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
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// A extractCase is one testdata/*.txtar file: the C# source in its first
// section, named for the path it is extracted as, then the expected output.
// [crlf] in the archive comment turns the input's line endings into CRLF.
type extractCase struct {
	file    string
	comment []byte
	path    string
	src     []byte
	want    []txtar.File
}

func readCases(tb testing.TB) []extractCase {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(names) == 0 {
		tb.Fatalf("no testdata/*.txtar cases (%v)", err)
	}
	var cases []extractCase
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		a := txtar.Parse(data)
		if len(a.Files) == 0 || !strings.HasSuffix(a.Files[0].Name, ".cs") {
			tb.Fatalf("%s: the first section must be the C# input (Input.cs)", name)
		}
		c := extractCase{name, a.Comment, a.Files[0].Name, a.Files[0].Data, a.Files[1:]}
		if bytes.Contains(a.Comment, []byte("[crlf]")) {
			c.src = bytes.ReplaceAll(c.src, []byte("\n"), []byte("\r\n"))
		}
		cases = append(cases, c)
	}
	return cases
}

// goldenSections renders what Extract returns: symbols (name kind
// start-end, then ambiguous: name), imports, calls (FROM: QUAL.NAME line)
// and, with [tokens] in the comment, tokens (line text); or the error.
func goldenSections(c extractCase) []txtar.File {
	f, err := Extract(c.path, c.src)
	if err != nil {
		return []txtar.File{{Name: "error", Data: []byte(err.Error() + "\n")}}
	}
	var syms, imps, calls, toks bytes.Buffer
	for _, s := range f.Symbols {
		fmt.Fprintf(&syms, "%s %s %d-%d\n", s.Name, s.Kind, s.Start, s.End)
	}
	for _, name := range f.Ambiguous {
		fmt.Fprintf(&syms, "ambiguous: %s\n", name)
	}
	out := []txtar.File{{Name: "symbols", Data: syms.Bytes()}}
	if f.Package != "" || len(f.Imports) > 0 {
		if f.Package != "" {
			fmt.Fprintf(&imps, "package %s\n", f.Package)
		}
		for _, imp := range f.Imports {
			fmt.Fprintf(&imps, "%s\n", imp)
		}
		out = append(out, txtar.File{Name: "imports", Data: imps.Bytes()})
	}
	for _, c := range f.Calls {
		callee := c.Name
		switch c.Qual {
		case "":
		case ".":
			callee = "<expr>." + c.Name
		default:
			callee = c.Qual + "." + c.Name
		}
		fmt.Fprintf(&calls, "%s: %s %d\n", c.From, callee, c.Line)
	}
	if calls.Len() > 0 {
		out = append(out, txtar.File{Name: "calls", Data: calls.Bytes()})
	}
	if bytes.Contains(c.comment, []byte("[tokens]")) {
		for _, t := range f.Tokens {
			fmt.Fprintf(&toks, "%d %s\n", t.Line, t.Text)
		}
		out = append(out, txtar.File{Name: "tokens", Data: toks.Bytes()})
	}
	return out
}

// TestGolden checks Extract on every testdata/*.txtar case; -update
// rewrites the expected sections (refused when CI is set).
func TestGolden(t *testing.T) {
	if *langtest.Update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people")
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && !strings.HasSuffix(n, ".txtar") && n != "README.md" && n != "csref.js" {
			t.Errorf("testdata/%s: not a case; no test reads it", n)
		}
	}
	for _, c := range readCases(t) {
		got := goldenSections(c)
		want := c.want
		if *langtest.Update {
			files := append([]txtar.File{{Name: c.path, Data: bytes.ReplaceAll(c.src, []byte("\r\n"), []byte("\n"))}}, got...)
			if err := os.WriteFile(c.file, txtar.Format(&txtar.Archive{Comment: c.comment, Files: files}), 0o666); err != nil {
				t.Fatal(err)
			}
			want = got
		}
		for _, w := range want {
			if !slices.ContainsFunc(got, func(g txtar.File) bool { return g.Name == w.Name }) {
				t.Errorf("%s: section %q is not produced by the test (stale golden; run go test -update)", c.file, w.Name)
			}
		}
		for _, g := range got {
			i := slices.IndexFunc(want, func(w txtar.File) bool { return w.Name == g.Name })
			switch {
			case i < 0:
				t.Errorf("%s: missing section %q; want:\n%s", c.file, g.Name, g.Data)
			case !bytes.Equal(g.Data, want[i].Data):
				t.Errorf("Extract(%q) %s:\n%s\nwant:\n%s", c.path, g.Name, g.Data, want[i].Data)
			}
		}
		f, err := Extract(c.path, c.src)
		if err == nil {
			checkFile(t, c.src, f)
		} else {
			var se scanner.Error
			if !errors.As(err, &se) || se.Pos.Filename != c.path || f != nil {
				t.Errorf("%s: error %v is not a scanner.Error for the path, or came with a File", c.file, err)
			}
		}
		expectCRLFNeutral(t, c)
	}
}

// checkFile checks what holds for every file Extract returns: ranges and
// offsets inside the source and equal to the lines, names listed once and
// in order, tokens on lines in order.
func checkFile(t *testing.T, src []byte, f *lang.File) {
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
		if tok.Line < 1 || tok.Line > max(len(lines), 1) || i > 0 && f.Tokens[i-1].Line > tok.Line {
			t.Fatalf("token %d %q: line %d out of place", i, tok.Text, tok.Line)
		}
	}
	for _, c := range f.Calls {
		if !seen[c.From] {
			t.Fatalf("call %+v: from a symbol that is not listed", c)
		}
	}
}

// expectCRLFNeutral checks that CRLF line endings change nothing but
// offsets.
func expectCRLFNeutral(t *testing.T, c extractCase) {
	t.Helper()
	lf := bytes.ReplaceAll(c.src, []byte("\r\n"), []byte("\n"))
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	a, errA := Extract(c.path, lf)
	b, errB := Extract(c.path, crlf)
	if errA != nil || errB != nil {
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: errors %v (LF) and %v (CRLF)", c.file, errA, errB)
		}
		return
	}
	checkFile(t, crlf, b)
	for i := range a.Symbols {
		a.Symbols[i].StartOff, a.Symbols[i].EndOff = b.Symbols[i].StartOff, b.Symbols[i].EndOff
	}
	if !slices.Equal(a.Symbols, b.Symbols) || !slices.Equal(a.Ambiguous, b.Ambiguous) || !slices.Equal(a.Tokens, b.Tokens) {
		t.Errorf("%s: CRLF changed the result", c.file)
	}
}

// FuzzExtract checks that Extract never panics, fails with a File, or
// returns a range outside the input, seeded with the golden cases.
func FuzzExtract(f *testing.F) {
	for _, c := range readCases(f) {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Extract("fuzz.cs", src)
		if err != nil {
			if file != nil {
				t.Fatalf("Extract returned a File and error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.cs:") {
				t.Fatalf("error %q does not start with the path", err)
			}
			return
		}
		checkFile(t, src, file)
	})
}

// BenchmarkExtract extracts the conformance corpus (UniTask, UniRx and
// ONNX Runtime's C# bindings from npm) and reports symbols/s and lines/s.
// Files that do not parse (braces split across #if branches, which
// tree-sitter rejects too) are left out.
func BenchmarkExtract(b *testing.B) {
	var files []source
	for _, f := range corpusSources(b) {
		if _, err := Extract(f.path, f.src); err == nil {
			files = append(files, f)
		}
	}
	var size, lines int
	for _, f := range files {
		size += len(f.src)
		lines += len(lang.Lines(f.src))
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var nsyms, nlines int
	for b.Loop() {
		for _, f := range files {
			x, err := Extract(f.path, f.src)
			if err != nil {
				b.Fatal(err)
			}
			nsyms += len(x.Symbols)
		}
		nlines += lines
	}
	b.ReportMetric(float64(nsyms)/b.Elapsed().Seconds(), "symbols/s")
	b.ReportMetric(float64(nlines)/b.Elapsed().Seconds(), "lines/s")
}
