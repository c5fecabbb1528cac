package site

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// xlsxRoundTrip imports src with format into a new workspace, exports it
// as a workbook, imports the workbook into another new workspace and
// returns both workspaces' exports (as JSON, without the project id,
// which is each workspace's folder name) and the workbook.
func xlsxRoundTrip(t *testing.T, format, src string) (before, after []byte, book []byte) {
	t.Helper()
	a, b := t.TempDir(), t.TempDir()
	if _, err := Import(a, ImportOptions{Format: format, Source: src, By: "t"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	book = exportXLSX(t, a)
	file := filepath.Join(t.TempDir(), "reqs.xlsx")
	if err := os.WriteFile(file, book, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Import(b, ImportOptions{Format: "xlsx", Source: file, By: "t"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Result.Unmapped) != 0 || len(rep.Kept) != 0 {
		t.Errorf("import xlsx:\n%s", rep)
	}
	return exportJSON(t, a), exportJSON(t, b), book
}

func exportXLSX(t *testing.T, dir string) []byte {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	x, err := p.Export()
	if err != nil {
		t.Fatal(err)
	}
	data, err := p.ExportXLSX(x)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func exportJSON(t *testing.T, dir string) []byte {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	x, err := p.Export()
	if err != nil {
		t.Fatal(err)
	}
	x.ProjectID = ""
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestXLSXRoundTripWorkspace: StrictDoc documents imported into one
// workspace, exported as a workbook and imported into another give the
// same export, every field of every requirement (ids, documents, levels,
// titles, text, status, parents and their states, tags, fields, derived
// state); a second import of the same workbook changes nothing; an edited
// file is kept; a row deleted from the workbook removes its unedited file.
func TestXLSXRoundTripWorkspace(t *testing.T) {
	src := t.TempDir()
	writeFixtureFile(t, src, "a.sdoc", []byte(`[DOCUMENT]
TITLE: Alpha Spec

[SECTION]
TITLE: Start

[REQUIREMENT]
UID: A-1
STATUS: Draft
TITLE: =HYPERLINK("http://x.example","x")
STATEMENT: >>>
- first
- second

+1 and @me
<<<
RATIONALE: -because
COMMENT: 1.10

[REQUIREMENT]
UID: A-2
TITLE: Child
STATEMENT: Depends on A-1.
RELATIONS:
- TYPE: Parent
  VALUE: A-1

[/SECTION]
`))
	writeFixtureFile(t, src, "b.sdoc", []byte("[DOCUMENT]\nTITLE: Beta\n\n[REQUIREMENT]\nUID: B-1\nSTATEMENT: b\nRELATIONS:\n- TYPE: Parent\n  VALUE: A-2\n"))
	before, after, book := xlsxRoundTrip(t, "strictdoc", src)
	if string(before) != string(after) {
		t.Errorf("the round trip changed the requirements:\nbefore %s\nafter %s", before, after)
	}
	for _, want := range []string{`"id": "A-1"`, `"rationale": "-because"`, `"comment": "1.10"`, `"title": "=HYPERLINK(`, `"ref": "requirement:A-2"`} {
		if !strings.Contains(string(before), want) {
			t.Errorf("the fixture's export lacks %s:\n%s", want, before)
		}
	}
	// Idempotence, edits kept, rows removed: on the second workspace.
	b := t.TempDir()
	file := filepath.Join(t.TempDir(), "reqs.xlsx")
	if err := os.WriteFile(file, book, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(b, ImportOptions{Format: "xlsx", Source: file, By: "t"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	rep, err := Import(b, ImportOptions{Format: "xlsx", Source: file, By: "t"}, io.Discard)
	if err != nil || len(rep.Written) != 0 || len(rep.Unchanged) == 0 {
		t.Fatalf("second import wrote %q, %v", rep.Written, err)
	}
	edited := filepath.Join(b, "content/requirements/alpha-spec/A-1.md")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(data, "Edited.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	x, err := p.Export()
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	x.Requirements = x.Requirements[:len(x.Requirements)-1] // drop B-1, the last
	smaller, err := x.XLSX("")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, smaller, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = Import(b, ImportOptions{Format: "xlsx", Source: file, By: "t"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.String()
	if !strings.Contains(s, "removed content/requirements/beta/B-1.md") {
		t.Errorf("the dropped row's file stays:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(b, "content/requirements/beta/B-1.md")); !os.IsNotExist(err) {
		t.Errorf("beta/B-1.md: %v", err)
	}
	if got, _ := os.ReadFile(edited); !strings.Contains(string(got), "Edited.") {
		t.Errorf("the edited file was overwritten:\n%s", got)
	}
}

// TestCodeCoverageTable: the code coverage sheet has the totals, each
// folder and each file with its uncovered symbols; a waived file's
// uncovered symbols are justified, out of its share, as in
// api/coverage.json's folders.
func TestCodeCoverageTable(t *testing.T) {
	c := synth.CoverageJSON{
		Totals:  synth.CoverageCount{Files: 2, Symbols: 5, Covered: 2, Justified: 2, Uncovered: 1, Share: 2.0 / 3},
		Folders: []synth.CoverageFolder{{Folder: "src", CoverageCount: synth.CoverageCount{Files: 2, Symbols: 5, Covered: 2, Justified: 2, Uncovered: 1, Share: 2.0 / 3}}},
		Files: []synth.CoverageOfFile{
			{Path: "src/a.go", Symbols: 3, Covered: 1, Waived: true, Uncovered: []string{"A", "B"}},
			{Path: "src/b.go", Symbols: 2, Covered: 1, Uncovered: []string{"C"}},
		},
	}
	got := codeCoverageTable(c)
	want := [][]string{
		{"total", ".", "2", "5", "2", "2", "1", "66.6%", "", ""},
		{"folder", "src", "2", "5", "2", "2", "1", "66.6%", "", ""},
		{"file", "src/a.go", "1", "3", "1", "2", "0", "100.0%", "true", "A;B"},
		{"file", "src/b.go", "1", "2", "1", "0", "1", "50.0%", "false", "C"},
	}
	if got.Name != "Code coverage" || !reflect.DeepEqual(got.Rows, want) {
		t.Errorf("rows = %q, want %q", got.Rows, want)
	}
}
