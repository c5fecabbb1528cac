package interchange

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func fixture(t *testing.T, name string) []File {
	t.Helper()
	files, err := readFixture(name)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func readFixture(name string) ([]File, error) {
	ar, err := txtar.ParseFile("testdata/" + name + ".txtar")
	if err != nil {
		return nil, err
	}
	var out []File
	for _, f := range ar.Files {
		out = append(out, File{Name: f.Name, Data: f.Data})
	}
	return out, nil
}

// summary renders a result compactly: one line per item with its document,
// level, title, status, parents (! marks a suspect one), implements, tags
// and fields, then the unmapped entries.
func summary(r *Result) string {
	var b strings.Builder
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "document %s %q prefix=%q\n", d.Path, d.Title, d.Prefix)
	}
	for _, it := range r.Items {
		var ps []string
		for _, p := range it.Parents {
			s := p.ID
			if p.Suspect {
				s += "!"
			}
			ps = append(ps, s)
		}
		var fs []string
		for _, k := range sortedKeys(it.Fields) {
			fs = append(fs, k+"="+it.Fields[k])
		}
		fmt.Fprintf(&b, "%s doc=%s level=%s title=%q status=%s normative=%t derived=%t parents=%s implements=%s tags=%s fields=%s text=%q\n",
			it.ID, it.Document, it.Level, it.Title, it.Status, it.Normative, it.Derived, strings.Join(ps, ","),
			strings.Join(it.Implements, ","), strings.Join(it.Tags, ","), strings.Join(fs, ","), it.Text)
	}
	for _, u := range r.Unmapped {
		fmt.Fprintf(&b, "unmapped %s: %s: %s\n", u.Where, u.What, u.Why)
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func checkCounts(t *testing.T, r *Result, items, parents, sections, unmapped int) {
	t.Helper()
	if len(r.Items) != items || r.Parents() != parents || r.Sections != sections || len(r.Unmapped) != unmapped {
		t.Errorf("items %d, parents %d, sections %d, unmapped %d; want %d, %d, %d, %d\n%s",
			len(r.Items), r.Parents(), r.Sections, len(r.Unmapped), items, parents, sections, unmapped, summary(r))
	}
}

func has(t *testing.T, r *Result, lines ...string) {
	t.Helper()
	s := summary(r)
	for _, l := range lines {
		if !strings.Contains(s, l) {
			t.Errorf("the import lacks %q:\n%s", l, s)
		}
	}
}

func TestImportDoorstop(t *testing.T) {
	r := ImportDoorstop(fixture(t, "doorstop"))
	checkCounts(t, r, 7, 4, 1, 3)
	has(t, r,
		`document srd "SRD" prefix="SRD"`, `document sys "SYS" prefix="SYS"`,
		`SYS001 doc=sys level=1.0 title="Braking" status= normative=false`,
		`SYS002 doc=sys level=1.1 title="" status= normative=true derived=false parents= implements= tags= fields= text="The car stops within 40 m from 100 km/h.\n"`,
		`SYS003 doc=sys level=1.2 title="" status=deprecated`,
		`SYS004 doc=sys level=1.3 title="" status= normative=true derived=false parents= implements=src/lamp.go`,
		// The current stamps keep the links reviewed; the outdated and the missing one are suspect.
		`SRD001 doc=srd level=1 title="" status= normative=true derived=false parents=SYS002,SYS004 implements=src/brake.go`,
		`SRD002 doc=srd level=2 title="" status= normative=true derived=false parents=SYS002!,SYS004! implements= tags= fields=asil=D text="The controller reports a degraded brake."`,
		`SRD003 doc=srd level=3 title="" status= normative=true derived=true parents= implements= tags= fields=owner=brakes-team`,
		`unmapped doorstop:reqs/srd/SRD003.yml: parent link SRD003 -> NOPE999: the parent "NOPE999" is not among the imported items`,
		`unmapped reqs/notes.yml: file: not inside a Doorstop document`,
		`unmapped reqs/sys/SYS004.md: reference: only references of type file map to implements (got type "url")`,
	)
}

func TestDoorstopStamp(t *testing.T) {
	// Doorstop's stamp of SYS002 (uid, text, ref), computed independently
	// in Python with hashlib as Doorstop's Stamp.digest does.
	got := doorstopStamps("SYS002", map[string]any{"text": "The car stops within 40 m from 100 km/h.\n", "ref": ""}, nil)
	if !slices.Contains(got, "U9D9FpvnUiD1xSy3tUckl71AtTrwCa3_IhOCGtX_XGs=") {
		t.Errorf("doorstopStamps = %q, want Doorstop's stamp among them", got)
	}
}

func TestImportStrictDoc(t *testing.T) {
	r, err := ImportStrictDoc(fixture(t, "strictdoc"))
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, r, 8, 3, 4, 4)
	has(t, r,
		`document brake-system "Brake System" prefix="BRK-"`,
		`BRK-SEC-1 doc=brake-system level=1.0 title="Stopping" status= normative=false`,
		`BRK-1 doc=brake-system level=1.1 title="The car stops" status=accepted normative=true derived=false parents= implements= tags=safety,braking fields=asil=D text="The car stops within 40 m from 100 km/h."`,
		`BRK-2 doc=brake-system level=1.2 title="Pressure" status=proposed normative=true derived=false parents=BRK-1 implements=src/brake.go tags= fields=rationale=Measured on the test track. text="The controller applies full pressure\nwithin 50 ms."`,
		`BRAKE-SYSTEM-S1.3 doc=brake-system level=1.3.0 title="Degraded mode"`,
		`BRAKE-SYSTEM-T1-3-1 doc=brake-system level=1.3.1 title="" status= normative=false`,
		`HAZ-1 doc=brake-system level=1.3.2 title="Loss of braking" status= normative=true derived=false parents= implements= tags= fields=status=Under review`,
		`BRK-3 doc=brake-system level=2.1 title="Warning lamp" status= normative=true derived=false parents=BRK-1,HAZ-1`,
		`relation Trace BRK-1: only Parent, Child and File relations map`,
		`[REQUIREMENT] "A requirement without UID": has no UID`,
		`section "Degraded mode": has no UID; imported as heading BRAKE-SYSTEM-S1.3`,
		`section "Warnings": has no UID; imported as heading BRAKE-SYSTEM-S2`,
	)
}

func TestImportReqIF(t *testing.T) {
	files := fixture(t, "reqif")
	r, err := ImportReqIF(files)
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, r, 5, 2, 1, 3)
	has(t, r,
		`document brake-system "Brake System"`,
		`document brakes-unplaced "Unplaced objects of brakes.reqif"`,
		`o-orphan doc=brakes-unplaced level=1 title="Nowhere"`,
		`o-chapter doc=brake-system level=1.0 title="Stopping" status= normative=false`,
		`SYS-1 doc=brake-system level=1.1 title="The car stops" status=accepted normative=true derived=false parents= implements= tags= fields=Owner=brakes team text="The car stops within 40 m from 100 km/h & more."`,
		`SW-1 doc=brake-system level=1.2 title="Pressure" status= normative=true derived=false parents=SYS-1`,
		`SW-2 doc=brake-system level=2 title="Warning" status= normative=true derived=false parents=SYS-1 `,
		// An enumeration value without a LONG-NAME is kept as its
		// IDENTIFIER (no status of tracewiki's: a field).
		`SW-1 doc=brake-system level=1.2 title="Pressure" status= normative=true derived=false parents=SYS-1 implements= tags= fields=status=st-nameless text="Full pressure within 50 ms."`,
		`SPEC-OBJECTs: 1 in no SPECIFICATION; imported into document "brakes-unplaced"`,
		`SPEC-RELATION: links "o-2" to "o-gone"`,
		`enumeration value st-nameless: has no LONG-NAME; kept as its IDENTIFIER`,
	)
	// The same file zipped is a .reqifz.
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("brakes.reqif")
	w.Write(files[0].Data)
	zw.Close()
	rz, err := ImportReqIF([]File{{Name: "brakes.reqifz", Data: zbuf.Bytes()}})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := len(rz.Items), rz.Parents(); a != 5 || b != 2 {
		t.Errorf(".reqifz: %d items, %d parents; want 5, 2", a, b)
	}
	if _, err := ImportReqIF([]File{{Name: "bad.reqif", Data: []byte("<REQ-IF><unclosed>")}}); err == nil || !strings.Contains(err.Error(), "bad.reqif: not ReqIF XML") {
		t.Errorf("bad XML: %v", err)
	}
}

// sampleExport is an export of two documents with a parent link, a
// heading, tags, fields, and a stale link.
func sampleExport() *Export {
	return &Export{SchemaVersion: 1, ProjectID: "brakes",
		Documents: []ExportDocument{{Path: "software", Title: "Software & co"}, {Path: "system", Title: "System"}},
		Requirements: []Row{
			{ID: "SW-1", Document: "software", Level: "1", Title: "Pressure <fast>", Status: "accepted", Normative: true, Text: "Full pressure\nwithin 50 ms & more.",
				Parents:    []Link{{Ref: "requirement:SYS-1", State: "stale", Reason: "parent_changed"}, {Ref: "requirement:SYS-2", State: "linked"}},
				Implements: []Link{{Ref: "src/brake.go@Apply", State: "linked"}}, Tests: []Link{}, Tags: []string{"safety", "braking"},
				Fields: map[string]string{"asil": "D"}, Implemented: true, Stale: true, Reasons: []string{"parent_changed"}},
			{ID: "SYS-0", Document: "system", Level: "1.0", Title: "Braking", Normative: false, Parents: []Link{}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{}, Reasons: []string{}},
			{ID: "SYS-1", Document: "system", Level: "1.1", Title: "Stop", Normative: true, Text: "The car stops.", Parents: []Link{}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{"owner": "x"}, Reasons: []string{}},
			{ID: "SYS-2", Document: "system", Level: "1.2", Title: "Warn", Normative: true, Derived: true, Parents: []Link{}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{}, Reasons: []string{}},
		}}
}

// TestReqIFRoundTrip exports to ReqIF and imports it back: the same
// requirements, titles, texts, statuses, tags, fields, normative and
// derived flags, and parent links.
func TestReqIFRoundTrip(t *testing.T) {
	e := sampleExport()
	data, err := e.ReqIF("2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := e.ReqIF("2026-01-01T00:00:00Z")
	if !bytes.Equal(data, again) {
		t.Error("two ReqIF exports of the same requirements differ")
	}
	// Without a date, a fixed one: never the clock's.
	undated, _ := e.ReqIF("")
	if want := `CREATION-TIME>` + exportEpoch + `<`; !bytes.Contains(undated, []byte(want)) {
		t.Errorf("an undated ReqIF export has no %s:\n%s", want, undated)
	}
	r, err := ImportReqIF([]File{{Name: "x.reqif", Data: data}})
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(r.Unmapped) > 0 {
		t.Errorf("the round trip reports unmapped items:\n%s", summary(r))
	}
	got := map[string]Item{}
	for _, it := range r.Items {
		got[it.ID] = it
	}
	for _, row := range e.Requirements {
		it, ok := got[row.ID]
		if !ok {
			t.Errorf("%s: lost in the round trip", row.ID)
			continue
		}
		var parents []string
		for _, p := range it.Parents {
			parents = append(parents, "requirement:"+p.ID)
		}
		var want []string
		for _, p := range row.Parents {
			want = append(want, p.Ref)
		}
		if !slices.Equal(parents, want) || it.Title != row.Title || it.Text != row.Text || it.Status != row.Status ||
			it.Normative != row.Normative || it.Derived != row.Derived || !slices.Equal(it.Tags, row.Tags) ||
			fmt.Sprint(it.Fields) != fmt.Sprint(nilIfEmpty(row.Fields)) || slices.Compare(it.Implements, refs(row.Implements)) != 0 {
			t.Errorf("%s: round trip gave %+v\nwant %+v", row.ID, it, row)
		}
	}
	if len(r.Items) != len(e.Requirements) || len(r.Documents) != 2 {
		t.Errorf("round trip: %d items in %d documents, want %d in 2", len(r.Items), len(r.Documents), len(e.Requirements))
	}
	// The structure a ReqIF consumer checks first.
	for _, want := range []string{
		`<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd">`,
		`<REQ-IF-HEADER IDENTIFIER="header-brakes">`, `<REQ-IF-VERSION>1.0</REQ-IF-VERSION>`, `<REQ-IF-TOOL-ID>tracewiki</REQ-IF-TOOL-ID>`,
		`<DATATYPE-DEFINITION-STRING IDENTIFIER="dt-string" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="String" MAX-LENGTH="1000000">`,
		`<SPEC-OBJECT IDENTIFIER="req-SW-1" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="Pressure &lt;fast&gt;">`,
		`<xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml">Full pressure<xhtml:br/>within 50 ms &amp; more.</xhtml:div>`,
		`<SOURCE>`, `<TARGET>`, `<SPEC-RELATION-TYPE-REF>type-parent</SPEC-RELATION-TYPE-REF>`,
		`<SPECIFICATION IDENTIFIER="spec-software-software-co" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="Software &amp; co">`,
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the ReqIF lacks %s", want)
		}
	}
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func refs(ls []Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Ref)
	}
	return out
}

func TestCSV(t *testing.T) {
	data, err := sampleExport().CSV()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHead := append(slices.Clone(CSVColumns), "asil", "owner")
	if !slices.Equal(recs[0], wantHead) {
		t.Errorf("CSV header = %q, want %q", recs[0], wantHead)
	}
	if got := strings.Join(recs[0][:15], ","); got != "id,document,level,title,status,normative,parents,implements,tests,tags,verified,implemented,tested,stale,reasons" {
		t.Errorf("fixed columns = %s (SPEC 5)", got)
	}
	sw := recs[1]
	for i, want := range map[int]string{0: "SW-1", 1: "software", 2: "1", 3: "Pressure <fast>", 5: "true",
		6: "requirement:SYS-1 (stale);requirement:SYS-2", 7: "src/brake.go@Apply", 9: "safety;braking",
		10: "false", 11: "true", 13: "true", 14: "parent_changed", 15: "D", 16: ""} {
		if sw[i] != want {
			t.Errorf("SW-1 column %s = %q, want %q", recs[0][i], sw[i], want)
		}
	}
	if len(recs) != 5 || recs[2][5] != "false" || recs[3][16] != "x" {
		t.Errorf("rows: %q", recs)
	}
}

func TestRender(t *testing.T) {
	it := Item{ID: "SRD-1", Title: "Pressure", Level: "1.2", Parents: []Parent{{ID: "SYS-1"}, {ID: "SYS-2"}},
		Tags: []string{"a"}, Fields: map[string]string{"asil": "D"}, Normative: false, Text: "Body\n", From: "doorstop:reqs/SRD-1.yml"}
	file := Render(it)
	for _, want := range []string{"id: SRD-1\n", "title: Pressure\n", "level: \"1.2\"\n", "parent: [SYS-1, SYS-2]\n", "normative: false\n",
		"fields:\n  asil: D\n", `imported: {from: doorstop:reqs/SRD-1.yml, hash: "sha256:`, "---\nBody\n"} {
		if !bytes.Contains(file, []byte(want)) {
			t.Errorf("Render lacks %q:\n%s", want, file)
		}
	}
	// The recorded hash is the file's own hash without the imported line,
	// so an unedited file is recognised and an edited one is not.
	i := bytes.Index(file, []byte(`hash: "`)) + len(`hash: "`)
	recorded := string(file[i : i+len("sha256:")+64])
	if recorded != ImportedHash(file) {
		t.Errorf("recorded hash %s, file hash %s", recorded, ImportedHash(file))
	}
	if ImportedHash(bytes.Replace(file, []byte("Body"), []byte("Edited"), 1)) == recorded {
		t.Error("an edit does not change the hash")
	}
	if !bytes.Equal(file, Render(it)) {
		t.Error("Render is not deterministic")
	}
}

// TestStrictDocDepth: sections nested deeper than MaxDepth are an error
// naming the file and line of the first section past it; at MaxDepth the
// document imports, with levels of MaxDepth numbers. The memory a deep
// input costs stays linear in its size (the attack log's 20,000 nested
// sections took 7.3 GB before).
func TestStrictDocDepth(t *testing.T) {
	_, err := ImportStrictDoc([]File{{Name: "deep.sdoc", Data: deepSdoc(20000)}})
	// Line 3 opens the first section, each takes two lines: the one past
	// MaxDepth is on line 3+2*MaxDepth.
	want := fmt.Sprintf("deep.sdoc:%d: [SECTION] nested more than %d deep", 3+2*MaxDepth, MaxDepth)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("20,000 nested sections: err = %v, want %q", err, want)
	}
	r, err := ImportStrictDoc([]File{{Name: "ok.sdoc", Data: deepSdoc(MaxDepth)}})
	if err != nil {
		t.Fatalf("%d nested sections: %v", MaxDepth, err)
	}
	i := slices.IndexFunc(r.Items, func(it Item) bool { return it.ID == "N-1" })
	if i < 0 {
		t.Fatalf("%d nested sections: N-1 not imported:\n%s", MaxDepth, summary(r))
	}
	if n := strings.Count(r.Items[i].Level, ".") + 1; n != MaxDepth+1 {
		t.Errorf("N-1 at the bottom has level %s (%d numbers), want %d", r.Items[i].Level, n, MaxDepth+1)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ImportStrictDoc([]File{{Name: "deep.sdoc", Data: deepSdoc(20000)}})
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("refusing 20,000 nested sections (600 KB) allocates %d bytes, want at most 64 MiB", n)
	}
}

// TestStrictDocIndentedClose: a multi-line field ends only at a <<< in the
// first column, as in StrictDoc's own user guide, whose example holds an
// indented <<<.
func TestStrictDocIndentedClose(t *testing.T) {
	src := "[DOCUMENT]\nTITLE: G\n\n[REQUIREMENT]\nUID: G-1\nSTATEMENT: >>>\nExample:\n\n    STATEMENT: >>>\n    hello\n    <<<\n\n----\n\nMore.\n<<<\n"
	r, err := ImportStrictDoc([]File{{Name: "g.sdoc", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 1 || !strings.HasSuffix(r.Items[0].Text, "    <<<\n\n----\n\nMore.") {
		t.Errorf("got %s", summary(r))
	}
}

// TestCSVFormulas checks OWASP's rule against formula injection (SPEC 5):
// every cell, title, tags, fields and their names included, that starts
// with =, +, -, @, TAB or CR is written with a leading "'".
func TestCSVFormulas(t *testing.T) {
	x := &Export{Requirements: []Row{{
		ID: "CSV-1", Title: "=cmd|' /C calc'!A0", Status: "+1", Tags: []string{"=1+2", "ok"},
		Fields: map[string]string{"owner": "@SUM(1+1)", "=f": "-2", "tab": "\t=1", "cr": "\r=1", "quoted": "'=1", "plain": "'a"},
	}}}
	data, err := x.CSV()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cell := map[string]string{}
	for i, name := range recs[0] {
		cell[name] = recs[1][i]
	}
	for name, want := range map[string]string{"title": "'=cmd|' /C calc'!A0", "status": "'+1", "tags": "'=1+2;ok",
		"owner": "'@SUM(1+1)", "'=f": "'-2", "tab": "'\t=1", "cr": "'\r=1", "quoted": "''=1", "plain": "'a", "id": "CSV-1"} {
		if got, ok := cell[name]; !ok || got != want {
			t.Errorf("column %q = %q (present %v), want %q", name, got, ok, want)
		}
	}
	for _, rec := range recs {
		for _, c := range rec {
			if c != "" && strings.IndexByte(formulaStart, c[0]) >= 0 {
				t.Errorf("cell %q starts a formula", c)
			}
		}
	}
}

// FuzzSafeCell checks that PlainCell undoes SafeCell for every string, and
// that SafeCell never returns a cell that starts a formula.
func FuzzSafeCell(f *testing.F) {
	for _, s := range []string{"", "=1", "'=1", "''@x", "'a", "-", "\t", "x=1", "'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		safe := SafeCell(s)
		if safe != "" && strings.IndexByte(formulaStart, safe[0]) >= 0 {
			t.Errorf("SafeCell(%q) = %q starts a formula", s, safe)
		}
		if got := PlainCell(safe); got != s {
			t.Errorf("PlainCell(SafeCell(%q)) = %q", s, got)
		}
	})
}
