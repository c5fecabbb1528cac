package interchange

import (
	"encoding/xml"
	"strings"
	"testing"
)

// reqifToolFile wraps REQ-IF-CONTENT children in a ReqIF document with the
// header a tool writes.
func reqifToolFile(tool, content string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<THE-HEADER><REQ-IF-HEADER IDENTIFIER="h"><REQ-IF-TOOL-ID>` + tool + `</REQ-IF-TOOL-ID><REQ-IF-VERSION>1.0</REQ-IF-VERSION></REQ-IF-HEADER></THE-HEADER>
<CORE-CONTENT><REQ-IF-CONTENT>` + content + `</REQ-IF-CONTENT></CORE-CONTENT></REQ-IF>`)
}

// TestReqIFFromTools reads files in the shapes the ALM tools of
// ../shared/data/reqif-samples write, and checks that every attribute
// lands somewhere: the ReqIF.* names on the item, any other attribute (a
// date, a boolean, an enumeration, a definition without a LONG-NAME, a
// value whose definition the file does not declare) in its fields.
func TestReqIFFromTools(t *testing.T) {
	// Polarion: ForeignID, ChapterName (a string) for headings, Text as
	// XHTML, ForeignCreatedOn (a date), ForeignCreatedBy and a Status
	// enumeration.
	polarion := reqifToolFile("Polarion ReqIF Roundtrip", `
<DATATYPES>
<DATATYPE-DEFINITION-STRING IDENTIFIER="polarion_type_string" LONG-NAME="String" MAX-LENGTH="999"/>
<DATATYPE-DEFINITION-XHTML IDENTIFIER="polarion_type_rich_text" LONG-NAME="Rich Text"/>
<DATATYPE-DEFINITION-DATE IDENTIFIER="polarion_type_date_time" LONG-NAME="Date time"/>
<DATATYPE-DEFINITION-ENUMERATION IDENTIFIER="enum-status" LONG-NAME="Enumeration for Status"><SPECIFIED-VALUES>
<ENUM-VALUE IDENTIFIER="st-approved" LONG-NAME="Approved"/><ENUM-VALUE IDENTIFIER="st-reviewed" LONG-NAME="Reviewed"/>
</SPECIFIED-VALUES></DATATYPE-DEFINITION-ENUMERATION>
</DATATYPES>
<SPEC-TYPES>
<SPECIFICATION-TYPE IDENTIFIER="polarion_live_document" LONG-NAME="Polarion Live Document"/>
<SPEC-OBJECT-TYPE IDENTIFIER="t-req" LONG-NAME="System Requirement"><SPEC-ATTRIBUTES>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="a-chapter" LONG-NAME="ReqIF.ChapterName"><TYPE><DATATYPE-DEFINITION-STRING-REF>polarion_type_string</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="a-by" LONG-NAME="ReqIF.ForeignCreatedBy"><TYPE><DATATYPE-DEFINITION-STRING-REF>polarion_type_string</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-DATE IDENTIFIER="a-on" LONG-NAME="ReqIF.ForeignCreatedOn"><TYPE><DATATYPE-DEFINITION-DATE-REF>polarion_type_date_time</DATATYPE-DEFINITION-DATE-REF></TYPE></ATTRIBUTE-DEFINITION-DATE>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="a-fid" LONG-NAME="ReqIF.ForeignID"><TYPE><DATATYPE-DEFINITION-STRING-REF>polarion_type_string</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-XHTML IDENTIFIER="a-text" LONG-NAME="ReqIF.Text"><TYPE><DATATYPE-DEFINITION-XHTML-REF>polarion_type_rich_text</DATATYPE-DEFINITION-XHTML-REF></TYPE></ATTRIBUTE-DEFINITION-XHTML>
<ATTRIBUTE-DEFINITION-ENUMERATION IDENTIFIER="a-status" LONG-NAME="Status" MULTI-VALUED="false"><TYPE><DATATYPE-DEFINITION-ENUMERATION-REF>enum-status</DATATYPE-DEFINITION-ENUMERATION-REF></TYPE></ATTRIBUTE-DEFINITION-ENUMERATION>
</SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE>
</SPEC-TYPES>
<SPEC-OBJECTS>
<SPEC-OBJECT IDENTIFIER="rmf-1"><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="Section 1"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-chapter</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
<ATTRIBUTE-VALUE-STRING THE-VALUE="DP-1"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-fid</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
</VALUES><TYPE><SPEC-OBJECT-TYPE-REF>t-req</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>
<SPEC-OBJECT IDENTIFIER="rmf-2"><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="DP-2"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-fid</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
<ATTRIBUTE-VALUE-STRING THE-VALUE="ann"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-by</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
<ATTRIBUTE-VALUE-DATE THE-VALUE="2021-07-01T01:12:06.082Z"><DEFINITION><ATTRIBUTE-DEFINITION-DATE-REF>a-on</ATTRIBUTE-DEFINITION-DATE-REF></DEFINITION></ATTRIBUTE-VALUE-DATE>
<ATTRIBUTE-VALUE-XHTML><DEFINITION><ATTRIBUTE-DEFINITION-XHTML-REF>a-text</ATTRIBUTE-DEFINITION-XHTML-REF></DEFINITION><THE-VALUE><xhtml:div><xhtml:p>The pump <xhtml:b>shall</xhtml:b> stop.</xhtml:p></xhtml:div></THE-VALUE></ATTRIBUTE-VALUE-XHTML>
<ATTRIBUTE-VALUE-ENUMERATION><DEFINITION><ATTRIBUTE-DEFINITION-ENUMERATION-REF>a-status</ATTRIBUTE-DEFINITION-ENUMERATION-REF></DEFINITION><VALUES><ENUM-VALUE-REF>st-reviewed</ENUM-VALUE-REF></VALUES></ATTRIBUTE-VALUE-ENUMERATION>
</VALUES><TYPE><SPEC-OBJECT-TYPE-REF>t-req</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>
</SPEC-OBJECTS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="s1" LONG-NAME="Pump"><TYPE><SPECIFICATION-TYPE-REF>polarion_live_document</SPECIFICATION-TYPE-REF></TYPE><CHILDREN>
<SPEC-HIERARCHY IDENTIFIER="h1"><OBJECT><SPEC-OBJECT-REF>rmf-1</SPEC-OBJECT-REF></OBJECT><CHILDREN>
<SPEC-HIERARCHY IDENTIFIER="h2"><OBJECT><SPEC-OBJECT-REF>rmf-2</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
</CHILDREN></SPEC-HIERARCHY>
</CHILDREN></SPECIFICATION></SPECIFICATIONS>`)

	// Enterprise Architect 8: an attribute definition and an enumeration
	// value without a LONG-NAME; the title is the object's LONG-NAME.
	sparx := reqifToolFile("Enterprise Architect", `
<DATATYPES>
<DATATYPE-DEFINITION-STRING IDENTIFIER="T_String" LONG-NAME="String" MAX-LENGTH="999"/>
<DATATYPE-DEFINITION-ENUMERATION IDENTIFIER="T_Prio"><SPECIFIED-VALUES><ENUM-VALUE IDENTIFIER="PRIO-HIGH"/></SPECIFIED-VALUES></DATATYPE-DEFINITION-ENUMERATION>
</DATATYPES>
<SPEC-TYPES>
<SPECIFICATION-TYPE IDENTIFIER="URS" LONG-NAME="User Requirements Specification"/>
<SPEC-OBJECT-TYPE IDENTIFIER="FUNC-REQ" LONG-NAME="Functional Requirement"><SPEC-ATTRIBUTES>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="FUNC-REQ-TXT"><TYPE><DATATYPE-DEFINITION-STRING-REF>T_String</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-ENUMERATION IDENTIFIER="FUNC-REQ-PRIO" LONG-NAME="Priority"><TYPE><DATATYPE-DEFINITION-ENUMERATION-REF>T_Prio</DATATYPE-DEFINITION-ENUMERATION-REF></TYPE></ATTRIBUTE-DEFINITION-ENUMERATION>
</SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE>
</SPEC-TYPES>
<SPEC-OBJECTS>
<SPEC-OBJECT IDENTIFIER="R001" LONG-NAME="Observe earths surface."><TYPE><SPEC-OBJECT-TYPE-REF>FUNC-REQ</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-STRING THE-VALUE="The system shall observe."><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>FUNC-REQ-TXT</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
<ATTRIBUTE-VALUE-ENUMERATION><DEFINITION><ATTRIBUTE-DEFINITION-ENUMERATION-REF>FUNC-REQ-PRIO</ATTRIBUTE-DEFINITION-ENUMERATION-REF></DEFINITION><VALUES><ENUM-VALUE-REF>PRIO-HIGH</ENUM-VALUE-REF></VALUES></ATTRIBUTE-VALUE-ENUMERATION>
</VALUES></SPEC-OBJECT>
</SPEC-OBJECTS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="S" LONG-NAME="Forest Fire Detection System"><TYPE><SPECIFICATION-TYPE-REF>URS</SPECIFICATION-TYPE-REF></TYPE><CHILDREN>
<SPEC-HIERARCHY IDENTIFIER="h1"><OBJECT><SPEC-OBJECT-REF>R001</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
</CHILDREN></SPECIFICATION></SPECIFICATIONS>`)

	// DOORS, part of a module: values whose definitions the file does not
	// declare (the object text among them), a boolean, and the object's
	// Absolute Number as ForeignID.
	doors := reqifToolFile("DOORS", `
<SPEC-OBJECTS>
<SPEC-OBJECT IDENTIFIER="_d1-obj"><TYPE><SPEC-OBJECT-TYPE-REF>_d1</SPEC-OBJECT-TYPE-REF></TYPE><VALUES>
<ATTRIBUTE-VALUE-XHTML><DEFINITION><ATTRIBUTE-DEFINITION-XHTML-REF>_d1_OBJECTTEXT</ATTRIBUTE-DEFINITION-XHTML-REF></DEFINITION><THE-VALUE><xhtml:div>Brakes hold.</xhtml:div></THE-VALUE></ATTRIBUTE-VALUE-XHTML>
<ATTRIBUTE-VALUE-BOOLEAN THE-VALUE="true"><DEFINITION><ATTRIBUTE-DEFINITION-BOOLEAN-REF>_d1_ACCEPTED</ATTRIBUTE-DEFINITION-BOOLEAN-REF></DEFINITION></ATTRIBUTE-VALUE-BOOLEAN>
</VALUES></SPEC-OBJECT>
</SPEC-OBJECTS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="mod" LONG-NAME="Module"><CHILDREN>
<SPEC-HIERARCHY IDENTIFIER="h1"><OBJECT><SPEC-OBJECT-REF>_d1-obj</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
</CHILDREN></SPECIFICATION></SPECIFICATIONS>`)

	for _, tc := range []struct {
		name string
		data []byte
		has  []string
	}{
		{"polarion.reqif", polarion, []string{
			`document pump "Pump"`,
			`DP-1 doc=pump level=1.0 title="Section 1" status= normative=false`,
			`DP-2 doc=pump level=1.1 title="" status= normative=true derived=false parents= implements= tags= fields=ReqIF.ForeignCreatedBy=ann,ReqIF.ForeignCreatedOn=2021-07-01T01:12:06.082Z,status=Reviewed text="The pump shall stop."`,
		}},
		{"sparx.reqif", sparx, []string{
			`R001 doc=forest-fire-detection-system level=1 title="Observe earths surface." status= normative=true derived=false parents= implements= tags= fields=FUNC-REQ-TXT=The system shall observe.,Priority=PRIO-HIGH`,
			`unmapped sparx.reqif: attribute definition FUNC-REQ-TXT: has no LONG-NAME: its values are read as the attribute "FUNC-REQ-TXT"`,
			`enumeration value PRIO-HIGH: has no LONG-NAME; kept as its IDENTIFIER`,
		}},
		{"doors.reqif", doors, []string{
			`fields=_d1_ACCEPTED=true,_d1_OBJECTTEXT=Brakes hold.`,
			`its definition "_d1_OBJECTTEXT" is not declared; kept as the field "_d1_OBJECTTEXT"`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ImportReqIF([]File{{Name: tc.name, Data: tc.data}})
			if err != nil {
				t.Fatal(err)
			}
			has(t, r, tc.has...)
		})
	}
}

// TestReqIFExportForTools: the export declares the attributes ReqIF tools
// map by name (ReqIF.ForeignID, ReqIF.Name, ReqIF.ChapterName, ReqIF.Text
// of the XHTML type), gives a heading ReqIF.ChapterName and no
// ReqIF.Name, a requirement ReqIF.Name and no ReqIF.ChapterName, and every
// object its id as ReqIF.ForeignID.
func TestReqIFExportForTools(t *testing.T) {
	data, err := sampleExport().ReqIF("2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	var doc reqifDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Content
	name := map[string]string{} // definition → LONG-NAME
	xhtml := map[string]bool{}
	for _, ot := range c.SpecTypes.ObjectTypes {
		for _, a := range ot.Strings {
			name[a.Identifier] = a.LongName
		}
		for _, a := range ot.XHTML {
			name[a.Identifier], xhtml[a.LongName] = a.LongName, true
		}
	}
	if !xhtml["ReqIF.Text"] {
		t.Errorf("ReqIF.Text is not an XHTML attribute: %v", name)
	}
	heading, normative := 0, 0
	for _, e := range sampleExport().Requirements {
		var o *reqifObject
		for i := range c.SpecObjects {
			if c.SpecObjects[i].Identifier == "req-"+ncName(e.ID) {
				o = &c.SpecObjects[i]
			}
		}
		if o == nil {
			t.Fatalf("%s: no SPEC-OBJECT", e.ID)
		}
		vals := map[string]string{}
		for _, v := range o.Strings {
			vals[name[v.Definition]] = v.Value
		}
		if vals["ReqIF.ForeignID"] != e.ID {
			t.Errorf("%s: ReqIF.ForeignID = %q", e.ID, vals["ReqIF.ForeignID"])
		}
		_, hasName := vals["ReqIF.Name"]
		_, hasChapter := vals["ReqIF.ChapterName"]
		if e.Normative {
			normative++
			if vals["ReqIF.Name"] != e.Title || hasChapter {
				t.Errorf("%s (a requirement): ReqIF.Name %q, ChapterName set %t", e.ID, vals["ReqIF.Name"], hasChapter)
			}
		} else {
			heading++
			if vals["ReqIF.ChapterName"] != e.Title || hasName {
				t.Errorf("%s (a heading): ReqIF.ChapterName %q, Name set %t", e.ID, vals["ReqIF.ChapterName"], hasName)
			}
		}
		if len(o.XHTML) != 1 || name[o.XHTML[0].Definition] != "ReqIF.Text" || !strings.HasPrefix(o.XHTML[0].Value.Inner, `<xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml">`) {
			t.Errorf("%s: ReqIF.Text value %+v", e.ID, o.XHTML)
		}
	}
	if heading == 0 || normative == 0 {
		t.Errorf("the sample has %d headings and %d requirements; want both kinds", heading, normative)
	}
}
