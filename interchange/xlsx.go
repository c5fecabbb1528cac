package interchange

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
)

// XLSXColumns are the fixed columns of a requirement sheet of the workbook
// export, in order: CSV's, with the text and the derived flag; one column
// per custom field follows, by name.
var XLSXColumns = []string{"id", "document", "level", "title", "text", "status", "normative", "derived", "parents", "implements", "tests", "tags", "verified", "implemented", "tested", "stale", "reasons"}

// Sheets of the workbook that are not requirement sheets: the matrix and
// the coverage are computed (an import skips them), the documents sheet
// gives the documents' titles back to an import.
const (
	MatrixSheet       = "Matrix"
	CoverageSheet     = "Coverage"
	CodeCoverageSheet = "Code coverage"
	DocumentsSheet    = "Documents"
)

// topSheet names the sheet of the requirements outside any document.
const topSheet = "Requirements"

// fieldColumnPrefix marks a custom field's column whose name is also a
// fixed column's ("fields.status"); an import reads any column so named
// as the field.
const fieldColumnPrefix = "fields."

// maxSheetName is the length of a sheet name spreadsheets accept.
const maxSheetName = 31

// maxCellChars is the most characters (UTF-16 units) a spreadsheet cell
// holds; excelize cuts longer strings short, so the export refuses them
// rather than lose text.
const maxCellChars = excelize.TotalCellChars

// exportEpoch is the date an export records when none is given (the
// workbook's properties, ReqIF's times): a fixed one, so two exports of
// the same content are the same bytes (a workbook's zip entries carry no
// time: excelize leaves them zero).
const exportEpoch = "1980-01-01T00:00:00Z"

// Table is a sheet of computed rows the caller adds to a workbook (the
// coverage): a name, a header and rows of cells.
type Table struct {
	Name   string
	Header []string
	Rows   [][]string
}

// XLSX writes the export as a workbook: one sheet per document (the
// columns of [XLSXColumns], then one per custom field), then a matrix
// sheet (every requirement's state and links), the tables given (the
// coverage) and a documents sheet (path and title, so an import gives the
// documents their titles back). Each sheet has its header row frozen and a
// filter over its columns. Every cell is a string cell, never a number or
// a formula, and goes through [SafeCell] as CSV's do, since a spreadsheet
// runs a cell that starts a formula once someone edits it or saves the
// sheet as CSV. at (RFC 3339) is the date the properties record, "" for
// a fixed one: the same inputs give the same bytes. A cell longer than a
// spreadsheet holds is an error naming the requirement.
func (e *Export) XLSX(at string, tables ...Table) ([]byte, error) {
	if at == "" {
		at = exportEpoch
	}
	f := excelize.NewFile()
	defer f.Close()
	w := &workbook{f: f, used: map[string]bool{}}
	for _, t := range tables {
		w.used[strings.ToLower(t.Name)] = true
	}
	for _, name := range []string{MatrixSheet, CoverageSheet, DocumentsSheet} {
		w.used[strings.ToLower(name)] = true
	}
	fields := e.fields()
	header := slices.Clone(XLSXColumns)
	for _, k := range fields {
		if slices.Contains(XLSXColumns, strings.ToLower(k)) || strings.HasPrefix(k, fieldColumnPrefix) {
			k = fieldColumnPrefix + k
		}
		header = append(header, k)
	}
	titles := map[string]string{}
	for _, d := range e.Documents {
		titles[d.Path] = d.Title
	}
	var docs []string
	rows := map[string][][]string{}
	for _, r := range e.Requirements {
		if _, ok := rows[r.Document]; !ok {
			docs = append(docs, r.Document)
		}
		rec := []string{r.ID, r.Document, r.Level, r.Title, r.Text, r.Status, strconv.FormatBool(r.Normative),
			strconv.FormatBool(r.Derived), cellLinks(r.Parents), cellLinks(r.Implements), cellLinks(r.Tests),
			strings.Join(r.Tags, ";"), strconv.FormatBool(r.Verified), strconv.FormatBool(r.Implemented),
			strconv.FormatBool(r.Tested), strconv.FormatBool(r.Stale), strings.Join(r.Reasons, ";")}
		for _, k := range fields {
			rec = append(rec, r.Fields[k])
		}
		for i, c := range rec {
			if n := len(utf16.Encode([]rune(c))); n > maxCellChars {
				return nil, fmt.Errorf("requirement %s: its %s is %d characters, more than the %d a spreadsheet cell holds", r.ID, header[i], n, maxCellChars)
			}
		}
		rows[r.Document] = append(rows[r.Document], rec)
	}
	for _, d := range docs {
		if err := w.sheet(w.docSheetName(d), header, rows[d]); err != nil {
			return nil, err
		}
	}
	if err := w.sheet(MatrixSheet, matrixHeader, e.matrix()); err != nil {
		return nil, err
	}
	if err := w.sheet(CoverageSheet, coverageHeader, e.coverage()); err != nil {
		return nil, err
	}
	for _, t := range tables {
		if err := w.sheet(t.Name, t.Header, t.Rows); err != nil {
			return nil, err
		}
	}
	var docRows [][]string
	for _, d := range e.Documents {
		docRows = append(docRows, []string{d.Path, d.Title})
	}
	if err := w.sheet(DocumentsSheet, documentsHeader, docRows); err != nil {
		return nil, err
	}
	f.SetActiveSheet(0)
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "tracewiki", LastModifiedBy: "tracewiki", Title: e.ProjectID, Created: at, Modified: at}); err != nil {
		return nil, err
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// matrixHeader is the header of the matrix sheet: one row per requirement
// with its derived state and links, across documents.
var matrixHeader = []string{"id", "document", "title", "status", "normative", "implemented", "tested", "verified", "stale", "parents", "implements", "tests", "reasons"}

// coverageHeader is the header of the coverage sheet: the normative
// requirements of each document (and of all, first) counted by their
// derived state, as the site's matrix counts them (SPEC 2: coverage counts
// normative requirements only); suspect ones have a stale parent link.
var coverageHeader = []string{"document", "title", "normative", "implemented", "tested", "verified", "suspect"}

// coverage is the coverage sheet's rows: all requirements, then each
// document with requirements, in the export's order.
func (e *Export) coverage() [][]string {
	titles := map[string]string{}
	for _, d := range e.Documents {
		titles[d.Path] = d.Title
	}
	type count struct{ normative, implemented, tested, verified, suspect int }
	all := &count{}
	per := map[string]*count{}
	var order []string
	for _, r := range e.Requirements {
		c := per[r.Document]
		if c == nil {
			c = &count{}
			per[r.Document] = c
			order = append(order, r.Document)
		}
		if !r.Normative {
			continue
		}
		suspect := slices.ContainsFunc(r.Parents, func(l Link) bool { return l.State == "stale" })
		for _, c := range []*count{all, c} {
			c.normative++
			c.implemented += b2i(r.Implemented)
			c.tested += b2i(r.Tested)
			c.verified += b2i(r.Verified)
			c.suspect += b2i(suspect)
		}
	}
	row := func(doc, title string, c *count) []string {
		return []string{doc, title, strconv.Itoa(c.normative), strconv.Itoa(c.implemented), strconv.Itoa(c.tested), strconv.Itoa(c.verified), strconv.Itoa(c.suspect)}
	}
	out := [][]string{row("(all)", e.ProjectID, all)}
	for _, d := range order {
		name := d
		if d == "" {
			name = "(top level)" // requirements in no document
		}
		out = append(out, row(name, titles[d], per[d]))
	}
	return out
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// documentsHeader is the header of the documents sheet.
var documentsHeader = []string{"path", "title"}

// matrix is the matrix sheet's rows.
func (e *Export) matrix() [][]string {
	var out [][]string
	for _, r := range e.Requirements {
		out = append(out, []string{r.ID, r.Document, r.Title, r.Status, strconv.FormatBool(r.Normative),
			strconv.FormatBool(r.Implemented), strconv.FormatBool(r.Tested), strconv.FormatBool(r.Verified),
			strconv.FormatBool(r.Stale), cellLinks(r.Parents), cellLinks(r.Implements), cellLinks(r.Tests),
			strings.Join(r.Reasons, ";")})
	}
	return out
}

// fields are the custom field names of the requirements, sorted.
func (e *Export) fields() []string {
	var out []string
	for _, r := range e.Requirements {
		for k := range r.Fields {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// cellLinks joins links as CSV does: ";" between them, and the state of a
// link that is not linked after it ("src/a.go@F (stale)").
func cellLinks(ls []Link) string {
	var out []string
	for _, l := range ls {
		if l.State != "linked" && l.State != "" {
			out = append(out, l.Ref+" ("+l.State+")")
		} else {
			out = append(out, l.Ref)
		}
	}
	return strings.Join(out, ";")
}

// workbook writes the sheets of an export.
type workbook struct {
	f      *excelize.File
	used   map[string]bool // sheet names taken, lower case (spreadsheets compare them so)
	header int             // the header rows' style; 0 before the first sheet
}

// docSheetName is a document's sheet name: its path, with the characters
// a sheet name may not hold as '-', cut to maxSheetName, and made unique
// with a number.
func (w *workbook) docSheetName(doc string) string {
	base := doc
	if base == "" {
		base = topSheet
	}
	base = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) || r < ' ' {
			return '-'
		}
		return r
	}, base)
	base = strings.Trim(base, "'")
	if base == "" {
		base = topSheet
	}
	name := cutRunes(base, maxSheetName)
	for n := 2; w.used[strings.ToLower(name)]; n++ {
		suffix := " " + strconv.Itoa(n)
		name = cutRunes(base, maxSheetName-len(suffix)) + suffix
	}
	w.used[strings.ToLower(name)] = true
	return name
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// sheet adds a sheet: a bold header row, frozen, with a filter over the
// columns, then the rows; every cell a string cell through [SafeCell].
func (w *workbook) sheet(name string, header []string, rows [][]string) error {
	f := w.f
	if w.header == 0 {
		// The first sheet takes the place of NewFile's "Sheet1" (a
		// workbook always has a sheet).
		if err := f.SetSheetName("Sheet1", name); err != nil {
			return fmt.Errorf("sheet %q: %w", name, err)
		}
	} else if _, err := f.NewSheet(name); err != nil {
		return fmt.Errorf("sheet %q: %w", name, err)
	}
	if w.header == 0 {
		id, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
		if err != nil {
			return err
		}
		w.header = id
	}
	put := func(row int, cells []string) error {
		for col, c := range cells {
			ref, err := excelize.CoordinatesToCellName(col+1, row)
			if err != nil {
				return err
			}
			if err := f.SetCellStr(name, ref, SafeCell(c)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := put(1, header); err != nil {
		return err
	}
	for i, r := range rows {
		if err := put(i+2, r); err != nil {
			return err
		}
	}
	if err := f.SetRowStyle(name, 1, 1, w.header); err != nil {
		return err
	}
	if err := f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	last, err := excelize.CoordinatesToCellName(max(len(header), 1), len(rows)+1)
	if err != nil {
		return err
	}
	return f.AutoFilter(name, "A1:"+last, nil)
}

// maxXLSXUnzip bounds what an import unpacks of a workbook, against zip
// bombs: far above any requirements workbook (StrictDoc's 1,049
// requirements unpack to 1.8 MB).
const maxXLSXUnzip = 256 << 20

// ImportXLSX reads workbooks as [Export.XLSX] writes them (.xlsx files;
// other files are skipped). Every sheet is a requirement sheet but the
// matrix and coverage (computed: skipped) and the documents sheet (the
// documents' titles; a document listed there is part of the import even
// when no row is left in it, so the files of its deleted rows go). A requirement sheet's columns are found by their
// header, in any order: those of [XLSXColumns] map to the item, the
// computed ones (verified, implemented, tested, stale, reasons) are read
// past, and any other column is a custom field (a "fields." prefix
// dropped), so nothing a column holds is lost. Every cell goes through
// [PlainCell]. Links lose the state written after them ("(stale)"), and
// parents their "requirement:" prefix. A sheet without an id column, a row
// without an id and a cell it cannot read are reported.
func ImportXLSX(files []File) (*Result, error) {
	res := &Result{Format: "xlsx"}
	docs := map[string]*Document{}
	read := 0
	for _, file := range files {
		if !strings.EqualFold(path.Ext(file.Name), ".xlsx") {
			continue
		}
		f, err := excelize.OpenReader(bytes.NewReader(file.Data), excelize.Options{RawCellValue: true, UnzipSizeLimit: maxXLSXUnzip, UnzipXMLSizeLimit: maxXLSXUnzip})
		if err != nil {
			return nil, fmt.Errorf("%s: not a workbook: %w", file.Name, err)
		}
		read++
		titles := map[string]string{}
		for _, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: sheet %q: %w", file.Name, sheet, err)
			}
			switch {
			case strings.EqualFold(sheet, MatrixSheet), strings.EqualFold(sheet, CoverageSheet), strings.EqualFold(sheet, CodeCoverageSheet):
				continue // computed: a build derives them again
			case strings.EqualFold(sheet, DocumentsSheet):
				for _, r := range plainRows(rows)[min(1, len(rows)):] {
					if len(r) == 0 || strings.Trim(r[0], "/") == "" {
						continue
					}
					p := strings.Trim(r[0], "/")
					if len(r) >= 2 {
						titles[p] = r[1]
					}
					// A document listed stays part of the import without
					// rows: its items were deleted, and their files go.
					if docs[p] == nil {
						docs[p] = &Document{Path: p, Title: path.Base(p), From: "xlsx:" + file.Name}
					}
				}
				continue
			}
			res.formulas(f, file.Name, sheet, rows)
			res.readSheet(file.Name, sheet, plainRows(rows), docs)
		}
		f.Close()
		for p, d := range docs {
			if t := titles[p]; t != "" {
				d.Title = t
			}
		}
	}
	if read == 0 {
		return nil, fmt.Errorf("no .xlsx file")
	}
	for _, p := range slices.Sorted(maps.Keys(docs)) {
		res.Documents = append(res.Documents, *docs[p])
	}
	res.finish()
	return res, nil
}

// formulas reports the cells of a requirement sheet that hold a formula
// (someone typed one; an export never writes them): the import reads the
// value the spreadsheet last computed, which may not be what the formula
// gives now.
func (res *Result) formulas(f *excelize.File, file, sheet string, rows [][]string) {
	for i, r := range rows {
		for j := range r {
			ref, err := excelize.CoordinatesToCellName(j+1, i+1)
			if err != nil {
				continue
			}
			if fx, err := f.GetCellFormula(sheet, ref); err == nil && fx != "" {
				res.unmapped(fmt.Sprintf("%s:%s!%s", file, sheet, ref), "formula ="+fx, "read as the value it last computed, %q", r[j])
			}
		}
	}
}

// plainRows is rows with every cell through [PlainCell].
func plainRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, c := range r {
			out[i][j] = PlainCell(c)
		}
	}
	return out
}

// readSheet reads the items of a requirement sheet.
func (res *Result) readSheet(file, sheet string, rows [][]string, docs map[string]*Document) {
	where := file + ":" + sheet
	if len(rows) == 0 {
		res.unmapped(where, "sheet "+sheet, "empty")
		return
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		h = strings.TrimSpace(h)
		if _, dup := col[strings.ToLower(h)]; h == "" || dup {
			if h != "" {
				res.unmapped(where, "column "+h, "a second column with this name: read the first")
			}
			continue
		}
		col[strings.ToLower(h)] = i
	}
	if _, ok := col["id"]; !ok {
		res.unmapped(where, "sheet "+sheet, "no id column in its first row: not a requirement sheet")
		return
	}
	for n, r := range rows[1:] {
		line := n + 2
		cell := func(name string) string {
			if i, ok := col[name]; ok && i < len(r) {
				return r[i]
			}
			return ""
		}
		from := fmt.Sprintf("xlsx:%s:%s:%d", file, sheet, line)
		id := strings.TrimSpace(cell("id"))
		if id == "" {
			if strings.TrimSpace(strings.Join(r, "")) != "" {
				res.unmapped(fmt.Sprintf("%s:%d", where, line), "row", "no id")
			}
			continue
		}
		doc := cell("document")
		if _, ok := col["document"]; !ok && !strings.EqualFold(sheet, topSheet) {
			doc = Slug(sheet) // a sheet someone added without the column
		}
		it := Item{ID: id, Title: cell("title"), Text: cell("text"), Document: strings.Trim(doc, "/"),
			Level: cell("level"), Status: cell("status"), Normative: true, From: from}
		for _, flag := range []struct {
			name string
			to   *bool
		}{{"normative", &it.Normative}, {"derived", &it.Derived}} {
			if v := strings.TrimSpace(cell(flag.name)); v != "" {
				b, err := strconv.ParseBool(v)
				if err != nil {
					res.unmapped(from, flag.name+" "+v, "not true or false: %s kept as %t", flag.name, *flag.to)
					continue
				}
				*flag.to = b
			}
		}
		for _, p := range splitCell(cell("parents")) {
			it.Parents = append(it.Parents, Parent{ID: strings.TrimPrefix(p, "requirement:")})
		}
		it.Implements = splitCell(cell("implements"))
		it.Tests = splitCell(cell("tests"))
		for _, t := range strings.Split(cell("tags"), ";") {
			if t = strings.TrimSpace(t); t != "" {
				it.Tags = append(it.Tags, t)
			}
		}
		for name, i := range col {
			if slices.Contains(XLSXColumns, name) || i >= len(r) || r[i] == "" {
				continue
			}
			if it.Fields == nil {
				it.Fields = map[string]string{}
			}
			k := strings.TrimPrefix(strings.TrimSpace(rows[0][i]), fieldColumnPrefix)
			it.Fields[k] = r[i]
		}
		if it.Document != "" && docs[it.Document] == nil {
			docs[it.Document] = &Document{Path: it.Document, Title: path.Base(it.Document), From: "xlsx:" + file}
		}
		if !it.Normative {
			res.Sections++
		}
		res.Items = append(res.Items, it)
	}
}

// splitCell splits a list cell at ";" and drops the state written after a
// link that was not linked ("src/a.go@F (stale)").
func splitCell(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ";") {
		p = strings.TrimSpace(p)
		if i := strings.LastIndex(p, " ("); i > 0 && strings.HasSuffix(p, ")") {
			p = p[:i]
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// OnlyDocument keeps the requirements of the document doc and of the
// documents nested in it (export --document), and those documents; a
// document that has no requirement there is an error naming it.
func (e *Export) OnlyDocument(doc string) error {
	doc = strings.Trim(doc, "/")
	in := func(d string) bool { return d == doc || strings.HasPrefix(d, doc+"/") }
	e.Requirements = slices.DeleteFunc(e.Requirements, func(r Row) bool { return !in(r.Document) })
	e.Documents = slices.DeleteFunc(e.Documents, func(d ExportDocument) bool { return !in(d.Path) })
	if len(e.Requirements) == 0 {
		return fmt.Errorf("--document %s: no requirement in that document", doc)
	}
	return nil
}
