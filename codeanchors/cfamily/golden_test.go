package cfamily

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// readCases reads the testdata/extract/*.txtar cases (see its README.md).
func readCases(tb testing.TB) []langtest.Case {
	tb.Helper()
	return langtest.ReadCases(tb, "extract", func(name string) bool { return isSource(name) }, "a C or C++ source")
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
			q = c.Qual + " " + c.Name
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
	langtest.RefuseUpdateInCI(t)
	langtest.CheckGoldenDir(t, "extract")
	for _, c := range readCases(t) {
		f, err := Extract(c.Path, c.Src)
		if err != nil {
			langtest.ExpectExtractError(t, "Extract", Extract, c.Path, string(c.Src), err.Error())
		} else {
			langtest.CheckFile(t, c.Src, f)
		}
		input := txtar.File{Name: c.Path, Data: bytes.ReplaceAll(c.Src, []byte("\r\n"), []byte("\n"))}
		langtest.CompareGolden(t, c.File, c.Comment, input, sections(f, err), c.Want, fmt.Sprintf("Extract(%q)", c.Path))
		langtest.ExpectCRLFNeutral(t, c.File, c.Path, c.Src, Extract, langtest.CheckFile)
	}
}
