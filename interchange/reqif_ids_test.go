package interchange

import (
	"slices"
	"strings"
	"testing"
)

// idsReqIF is a small ReqIF as tools write it: generated IDENTIFIERs
// ("_…", xsd:IDs), an anonymized ForeignID, two objects sharing a
// ForeignID, one whose ForeignID is a tracewiki id, one in no
// SPECIFICATION and a relation from it.
const idsReqIF = `<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd">
<THE-HEADER><REQ-IF-HEADER IDENTIFIER="h"><TITLE>t</TITLE></REQ-IF-HEADER></THE-HEADER>
<CORE-CONTENT><REQ-IF-CONTENT>
<DATATYPES><DATATYPE-DEFINITION-STRING IDENTIFIER="_str" LONG-NAME="s" MAX-LENGTH="1000"/></DATATYPES>
<SPEC-TYPES>
<SPEC-OBJECT-TYPE IDENTIFIER="_type" LONG-NAME="Requirement"><SPEC-ATTRIBUTES>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="_fid" LONG-NAME="ReqIF.ForeignID"><TYPE><DATATYPE-DEFINITION-STRING-REF>_str</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="_txt" LONG-NAME="ReqIF.Text"><TYPE><DATATYPE-DEFINITION-STRING-REF>_str</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
</SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE>
<SPEC-RELATION-TYPE IDENTIFIER="_rel" LONG-NAME="derives"/>
</SPEC-TYPES>
<SPEC-OBJECTS>
<SPEC-OBJECT IDENTIFIER="_abc-123"><TYPE><SPEC-OBJECT-TYPE-REF>_type</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="...Anonymized..."><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_fid</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
<ATTRIBUTE-VALUE-STRING THE-VALUE="first"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_txt</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES></SPEC-OBJECT>
<SPEC-OBJECT IDENTIFIER="abc-123"><TYPE><SPEC-OBJECT-TYPE-REF>_type</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="second"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_txt</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES></SPEC-OBJECT>
<SPEC-OBJECT IDENTIFIER="_x1"><TYPE><SPEC-OBJECT-TYPE-REF>_type</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="SYS-1"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_fid</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES></SPEC-OBJECT>
<SPEC-OBJECT IDENTIFIER="_x2"><TYPE><SPEC-OBJECT-TYPE-REF>_type</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="SYS-1"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_fid</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES></SPEC-OBJECT>
<SPEC-OBJECT IDENTIFIER="_lost é"><TYPE><SPEC-OBJECT-TYPE-REF>_type</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="nowhere"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>_txt</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES></SPEC-OBJECT>
</SPEC-OBJECTS>
<SPEC-RELATIONS>
<SPEC-RELATION IDENTIFIER="_r1"><TYPE><SPEC-RELATION-TYPE-REF>_rel</SPEC-RELATION-TYPE-REF></TYPE>
<SOURCE><SPEC-OBJECT-REF>_lost é</SPEC-OBJECT-REF></SOURCE><TARGET><SPEC-OBJECT-REF>_x1</SPEC-OBJECT-REF></TARGET></SPEC-RELATION>
</SPEC-RELATIONS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="_spec" LONG-NAME="System"><CHILDREN>
<SPEC-HIERARCHY IDENTIFIER="_h1"><OBJECT><SPEC-OBJECT-REF>_abc-123</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
<SPEC-HIERARCHY IDENTIFIER="_h2"><OBJECT><SPEC-OBJECT-REF>abc-123</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
<SPEC-HIERARCHY IDENTIFIER="_h3"><OBJECT><SPEC-OBJECT-REF>_x1</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
<SPEC-HIERARCHY IDENTIFIER="_h4"><OBJECT><SPEC-OBJECT-REF>_x2</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
</CHILDREN></SPECIFICATION></SPECIFICATIONS>
</REQ-IF-CONTENT></CORE-CONTENT>
</REQ-IF>
`

// TestReqIFIDs: every object is imported, its id chosen from a valid
// ForeignID, else from its IDENTIFIER made valid, with a suffix on a
// collision; each id not taken as written is reported, and an object in no
// SPECIFICATION lands in the file's "unplaced" document.
func TestReqIFIDs(t *testing.T) {
	r, err := ImportReqIF([]File{{Name: "tool.reqif", Data: []byte(idsReqIF)}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Item{}
	for _, it := range r.Items {
		got[it.Text+"|"+it.Document] = it
	}
	var ids []string
	for _, it := range r.Items {
		ids = append(ids, it.ID+"@"+it.Document)
	}
	slices.Sort(ids)
	wantIDs := []string{"SYS-1@system", "abc-123-2@system", "abc-123@system", "lost--@tool-unplaced", "x2@system"}
	slices.Sort(wantIDs)
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("ids = %v\nwant %v", ids, wantIDs)
	}
	if it := got["first|system"]; it.ID != "abc-123-2" {
		t.Errorf("the object _abc-123 is %q; want abc-123-2 (abc-123 is another object's IDENTIFIER)", it.ID)
	}
	// The relation from the unplaced object is kept.
	for _, it := range r.Items {
		if it.ID == "lost--" && (len(it.Parents) != 1 || it.Parents[0].ID != "SYS-1") {
			t.Errorf("lost-- parents = %v; want SYS-1", it.Parents)
		}
	}
	var docs []string
	for _, d := range r.Documents {
		docs = append(docs, d.Path+": "+d.Title)
	}
	if !slices.Contains(docs, "tool-unplaced: Unplaced objects of tool.reqif") {
		t.Errorf("documents = %v; want the file's unplaced document", docs)
	}
	var report []string
	for _, u := range r.Unmapped {
		report = append(report, u.Where+": "+u.What+": "+u.Why)
	}
	all := strings.Join(report, "\n")
	for _, w := range []string{
		`tool.reqif#_abc-123: id ...Anonymized...: imported as abc-123-2 (ForeignID is not a tracewiki id; its IDENTIFIER "_abc-123" made one)`,
		`tool.reqif#_x2: id SYS-1: imported as x2 (ForeignID is used by another object)`,
		`tool.reqif#_lost é: id _lost é: imported as lost-- (IDENTIFIER is not a tracewiki id)`,
		`tool.reqif: SPEC-OBJECTs: 1 in no SPECIFICATION; imported into document "tool-unplaced" in file order`,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("report lacks %q; it is:\n%s", w, all)
		}
	}
	if len(report) != 4 {
		t.Errorf("report has %d entries; want 4:\n%s", len(report), all)
	}
	// Deterministic: the same file gives the same ids and report.
	again, _ := ImportReqIF([]File{{Name: "tool.reqif", Data: []byte(idsReqIF)}})
	if len(again.Items) != len(r.Items) || len(again.Unmapped) != len(r.Unmapped) {
		t.Fatal("a second import differs")
	}
	for i := range r.Items {
		if again.Items[i].ID != r.Items[i].ID {
			t.Errorf("a second import gives %s for %s", again.Items[i].ID, r.Items[i].ID)
		}
	}
}

func TestValidIDFrom(t *testing.T) {
	for in, want := range map[string]string{
		"_abc-123":               "abc-123",
		"_-c1sIGrgEeuTd-Zu7Pcz":  "c1sIGrgEeuTd-Zu7Pcz",
		"REQ 1/a":                "REQ-1-a",
		"...Anonymized...":       "Anonymized...",
		"___":                    "reqif",
		"é":                      "reqif",
		strings.Repeat("a", 200): strings.Repeat("a", maxIDLen-idSuffixRoom),
	} {
		got := validIDFrom(in)
		if got != want {
			t.Errorf("validIDFrom(%q) = %q; want %q", in, got, want)
		}
		if !validID(got) {
			t.Errorf("validIDFrom(%q) = %q is not a valid id", in, got)
		}
	}
}
