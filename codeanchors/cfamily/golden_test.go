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

// sections renders what Extract gives for a case: langtest's golden
// sections, a call's qualifier and name apart ("QUAL NAME").
func sections(f *lang.File, err error) []txtar.File { return langtest.QualSections(f, err, " ") }

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
