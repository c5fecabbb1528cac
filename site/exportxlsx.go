package site

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tracewiki/tracewiki/interchange"
	"github.com/tracewiki/tracewiki/synth"
)

// ExportXLSX is the workbook of export xlsx (SPEC 5): the requirements of
// x (one sheet per document), the matrix and the document coverage
// ([interchange.Export.XLSX]), and the code coverage of the workspace
// ([Project.Coverage], as api/coverage.json has it), dated [ExportTime].
func (p *Project) ExportXLSX(x *interchange.Export) ([]byte, error) {
	cov, err := p.Coverage()
	if err != nil {
		return nil, err
	}
	return x.XLSX(ExportTime(), codeCoverageTable(cov))
}

// ExportTime is the date an export records: SOURCE_DATE_EPOCH's when set,
// else "", the format's fixed date, so that two exports of the same
// content are the same bytes (a wall-clock time would make every export
// differ).
func ExportTime() string {
	if strings.TrimSpace(os.Getenv("SOURCE_DATE_EPOCH")) == "" {
		return ""
	}
	return Now().Format(time.RFC3339)
}

// codeCoverageTable is the code coverage sheet: the totals, each folder
// and each file, with the symbols no requirement covers.
func codeCoverageTable(c synth.CoverageJSON) interchange.Table {
	t := interchange.Table{Name: interchange.CodeCoverageSheet,
		Header: []string{"kind", "path", "files", "symbols", "covered", "justified", "uncovered", "share", "waived", "uncovered symbols"}}
	count := func(kind, path string, n synth.CoverageCount) []string {
		return []string{kind, path, strconv.Itoa(n.Files), strconv.Itoa(n.Symbols), strconv.Itoa(n.Covered),
			strconv.Itoa(n.Justified), strconv.Itoa(n.Uncovered), synth.Percent(n.Share), "", ""}
	}
	t.Rows = append(t.Rows, count("total", ".", c.Totals))
	for _, f := range c.Folders {
		t.Rows = append(t.Rows, count("folder", f.Folder, f.CoverageCount))
	}
	for _, f := range c.Files {
		// A file's counts as synth.CoverageCount's: a waived file's
		// uncovered symbols are justified, out of its share.
		n := synth.CoverageCount{Files: 1, Symbols: f.Symbols, Covered: f.Covered, Uncovered: f.Symbols - f.Covered, Share: 1}
		if f.Waived {
			n.Justified, n.Uncovered = n.Uncovered, 0
		}
		if d := n.Symbols - n.Justified; d > 0 {
			n.Share = float64(n.Covered) / float64(d)
		}
		row := count("file", f.Path, n)
		row[8], row[9] = strconv.FormatBool(f.Waived), strings.Join(f.Uncovered, ";")
		t.Rows = append(t.Rows, row)
	}
	return t
}
