package rust

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

// update is -update: rewrite the golden sections of testdata/extract. It is
// langtest's flag, which every test binary importing langtest shares.
var update = langtest.Update

// A goldenCase is one testdata/golden/*.txtar file: the source in its first
// section, named for the path it is extracted as, then the expected
// sections (see testdata/extract/README.md).
type goldenCase struct {
	file    string
	comment []byte
	path    string
	src     []byte
	want    []txtar.File
}

func readCases(tb testing.TB) []goldenCase {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "extract", "*.txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(names) == 0 {
		tb.Fatal("no testdata/extract/*.txtar cases")
	}
	var cases []goldenCase
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		a := txtar.Parse(data)
		if len(a.Files) == 0 || !strings.HasSuffix(a.Files[0].Name, ".rs") {
			tb.Fatalf("%s: the first section must be a .rs source", name)
		}
		c := goldenCase{name, a.Comment, a.Files[0].Name, a.Files[0].Data, a.Files[1:]}
		if bytes.Contains(a.Comment, []byte("[crlf]")) {
			c.src = bytes.ReplaceAll(c.src, []byte("\n"), []byte("\r\n"))
		}
		cases = append(cases, c)
	}
	return cases
}

// sections renders what Extract gives for a case.
func sections(f *lang.File, err error) []txtar.File {
	if err != nil {
		return []txtar.File{{Name: "error", Data: []byte(err.Error() + "\n")}}
	}
	var syms, imps, calls bytes.Buffer
	for _, s := range f.Symbols {
		fmt.Fprintf(&syms, "%s %s %d-%d\n", s.Name, s.Kind, s.Start, s.End)
	}
	for _, n := range f.Ambiguous {
		fmt.Fprintf(&syms, "ambiguous %s\n", n)
	}
	for i, p := range f.Imports {
		if f.ImportNames[i] != "" {
			fmt.Fprintf(&imps, "%s as %s\n", p, f.ImportNames[i])
		} else {
			fmt.Fprintf(&imps, "%s\n", p)
		}
	}
	for _, c := range f.Calls {
		q := c.Name
		if c.Qual != "" {
			q = c.Qual + "::" + c.Name
		}
		fmt.Fprintf(&calls, "%d %s -> %s\n", c.Line, c.From, q)
	}
	out := []txtar.File{{Name: "symbols", Data: syms.Bytes()}}
	if imps.Len() > 0 {
		out = append(out, txtar.File{Name: "imports", Data: imps.Bytes()})
	}
	if calls.Len() > 0 {
		out = append(out, txtar.File{Name: "calls", Data: calls.Bytes()})
	}
	return out
}

// TestGolden extracts every case and compares with its sections; -update
// rewrites them (refused when CI is set: goldens are reviewed by people).
func TestGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people")
	}
	for _, c := range readCases(t) {
		f, err := Extract(c.path, c.src)
		if err != nil {
			var se scanner.Error
			if !errors.As(err, &se) || se.Pos.Filename != c.path || f != nil {
				t.Errorf("%s: error %v is not a scanner.Error for %s, or comes with a File", c.file, err, c.path)
			}
		} else {
			checkInvariants(t, c.file, c.src, f)
		}
		got := sections(f, err)
		want := c.want
		if *update {
			files := append([]txtar.File{{Name: c.path, Data: bytes.ReplaceAll(c.src, []byte("\r\n"), []byte("\n"))}}, got...)
			if err := os.WriteFile(c.file, txtar.Format(&txtar.Archive{Comment: c.comment, Files: files}), 0o666); err != nil {
				t.Fatal(err)
			}
			want = got
		}
		for _, w := range want {
			if !slices.ContainsFunc(got, func(g txtar.File) bool { return g.Name == w.Name }) {
				t.Errorf("%s: section %q is not produced (stale golden; run go test -update)", c.file, w.Name)
			}
		}
		for _, g := range got {
			i := slices.IndexFunc(want, func(w txtar.File) bool { return w.Name == g.Name })
			if i < 0 {
				t.Errorf("%s: missing section %q; want:\n%s", c.file, g.Name, g.Data)
			} else if !bytes.Equal(g.Data, want[i].Data) {
				t.Errorf("Extract(%q) %s:\n%s\nwant:\n%s", c.path, g.Name, g.Data, want[i].Data)
			}
		}
		expectCRLFNeutral(t, c.file, c.path, c.src)
	}
}

// checkInvariants checks what holds for every result: symbols sorted, lines
// and offsets inside the source and consistent, tokens in order.
func checkInvariants(t *testing.T, name string, src []byte, f *lang.File) {
	t.Helper()
	lines := len(lang.Lines(src))
	for i, s := range f.Symbols {
		if s.Start < 1 || s.End < s.Start || s.End > lines {
			t.Errorf("%s: %s: lines %d-%d outside 1-%d", name, s.Name, s.Start, s.End, lines)
		}
		if s.StartOff < 0 || s.EndOff < s.StartOff || s.EndOff > len(src) {
			t.Errorf("%s: %s: offsets %d-%d outside the source", name, s.Name, s.StartOff, s.EndOff)
		}
		if i > 0 && (f.Symbols[i-1].Start > s.Start || f.Symbols[i-1].Start == s.Start && f.Symbols[i-1].Name > s.Name) {
			t.Errorf("%s: symbols out of order at %s", name, s.Name)
		}
		if slices.Contains(f.Ambiguous, s.Name) {
			t.Errorf("%s: %s is both a symbol and ambiguous", name, s.Name)
		}
	}
	for i, tk := range f.Tokens {
		if tk.Line < 1 || tk.Line > lines || i > 0 && f.Tokens[i-1].Line > tk.Line {
			t.Errorf("%s: token %d %q on line %d", name, i, tk.Text, tk.Line)
			break
		}
	}
	if len(f.Imports) != len(f.ImportNames) {
		t.Errorf("%s: %d imports, %d import names", name, len(f.Imports), len(f.ImportNames))
	}
}

// expectCRLFNeutral checks that CRLF line endings change nothing but
// offsets.
func expectCRLFNeutral(t *testing.T, file, path string, src []byte) {
	t.Helper()
	lf := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	a, errA := Extract(path, lf)
	b, errB := Extract(path, crlf)
	if errA != nil || errB != nil {
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: errors %v (LF) and %v (CRLF)", file, errA, errB)
		}
		return
	}
	checkInvariants(t, file, crlf, b)
	for i := range a.Symbols {
		a.Symbols[i].StartOff, a.Symbols[i].EndOff = b.Symbols[i].StartOff, b.Symbols[i].EndOff
	}
	if !slices.Equal(a.Symbols, b.Symbols) || !slices.Equal(a.Ambiguous, b.Ambiguous) || !slices.Equal(a.Tokens, b.Tokens) {
		t.Errorf("%s: CRLF changed the result:\n%+v\n%+v", file, a, b)
	}
}
