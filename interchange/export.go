package interchange

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// ExportSchemaVersion is the version of the JSON export.
const ExportSchemaVersion = 1

// Export is every requirement with its document, level, parents, links and
// their states, tags, fields and derived fields: the JSON export
// (tracewiki export json), documented by export.schema.json.
type Export struct {
	SchemaVersion int              `json:"schemaVersion"`
	ProjectID     string           `json:"project_id"`
	Documents     []ExportDocument `json:"documents"`    // by path
	Requirements  []Row            `json:"requirements"` // by document, then level order
}

// ExportDocument is a requirement document.
type ExportDocument struct {
	Path  string `json:"path"`
	Title string `json:"title"`
}

// Row is one requirement.
type Row struct {
	ID          string            `json:"id"`
	Document    string            `json:"document"` // "" at the top level
	Level       string            `json:"level"`
	Title       string            `json:"title"`
	Status      string            `json:"status"`
	Normative   bool              `json:"normative"`
	Derived     bool              `json:"derived"`
	Text        string            `json:"text"`
	Parents     []Link            `json:"parents"`
	Implements  []Link            `json:"implements"`
	Tests       []Link            `json:"tests"`
	Tags        []string          `json:"tags"`
	Fields      map[string]string `json:"fields"`
	Implemented bool              `json:"implemented"`
	Tested      bool              `json:"tested"`
	Verified    bool              `json:"verified"`
	Stale       bool              `json:"stale"`
	Reasons     []string          `json:"reasons"` // the distinct reasons of its links that are not linked
}

// Link is a parent or code link with its state.
type Link struct {
	Ref    string `json:"ref"`
	State  string `json:"state"`
	Reason string `json:"reason"`
}

// CSVColumns are the fixed columns of the CSV export; one column per custom
// field follows, by name.
var CSVColumns = []string{"id", "document", "level", "title", "status", "normative", "parents", "implements", "tests", "tags", "verified", "implemented", "tested", "stale", "reasons"}

// CSV writes the export as CSV: the columns of [CSVColumns], then one per
// custom field; list cells are joined with ";", a link that is not linked
// carries its state ("src/a.go@F (stale)"), and every cell goes through
// [SafeCell], so no cell is a formula.
func (e *Export) CSV() ([]byte, error) {
	var fields []string
	for _, r := range e.Requirements {
		for k := range r.Fields {
			if !slices.Contains(fields, k) {
				fields = append(fields, k)
			}
		}
	}
	slices.Sort(fields)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(safeRecord(append(slices.Clone(CSVColumns), fields...))); err != nil {
		return nil, err
	}
	links := func(ls []Link) string {
		var out []string
		for _, l := range ls {
			if l.State != "linked" {
				out = append(out, l.Ref+" ("+l.State+")")
			} else {
				out = append(out, l.Ref)
			}
		}
		return strings.Join(out, ";")
	}
	for _, r := range e.Requirements {
		rec := []string{r.ID, r.Document, r.Level, r.Title, r.Status, strconv.FormatBool(r.Normative), links(r.Parents),
			links(r.Implements), links(r.Tests), strings.Join(r.Tags, ";"), strconv.FormatBool(r.Verified),
			strconv.FormatBool(r.Implemented), strconv.FormatBool(r.Tested), strconv.FormatBool(r.Stale), strings.Join(r.Reasons, ";")}
		for _, f := range fields {
			rec = append(rec, r.Fields[f])
		}
		if err := w.Write(safeRecord(rec)); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// formulaStart holds the characters that make a spreadsheet read a cell
// as a formula when they come first: =, +, -, @, TAB and CR (OWASP's list
// against CSV injection).
const formulaStart = "=+-@\t\r"

// SafeCell is a cell of a tabular export (CSV; a workbook too) as a
// spreadsheet may open it: a cell that would start a formula
// ("=cmd|' /C calc'!A0", "@SUM(1)", "-1") gets a leading "'", which
// spreadsheets show as text and do not display. So that [PlainCell]
// undoes it exactly, a cell that is already quotes before such a character
// ("'=1") gets one more. Every tabular export writes its cells through it.
func SafeCell(s string) string {
	rest := strings.TrimLeft(s, "'")
	if rest != "" && strings.IndexByte(formulaStart, rest[0]) >= 0 {
		return "'" + s
	}
	return s
}

// PlainCell is [SafeCell]'s inverse, for imports of tabular files: one
// leading "'" is removed from a cell whose quotes are followed by a
// character of a formula's start; any other cell is as written.
func PlainCell(s string) string {
	rest := strings.TrimLeft(s, "'")
	if rest != s && rest != "" && strings.IndexByte(formulaStart, rest[0]) >= 0 {
		return s[1:]
	}
	return s
}

// safeRecord is rec with every cell passed through [SafeCell].
func safeRecord(rec []string) []string {
	out := make([]string, len(rec))
	for i, c := range rec {
		out[i] = SafeCell(c)
	}
	return out
}

// JSON writes the export as indented JSON with a final newline.
func (e *Export) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(e)
	return buf.Bytes(), err
}

// ReqIFNamespace is the namespace of ReqIF 1.2 documents.
const ReqIFNamespace = "http://www.omg.org/spec/ReqIF/20110401/reqif.xsd"

// ReqIF writes the export as a ReqIF 1.2 document: one SPECIFICATION per
// document (top-level requirements in one named after the project), a
// SPEC-OBJECT per requirement with ReqIF.ForeignID, ReqIF.Name (a
// requirement's title) or ReqIF.ChapterName (a heading's), ReqIF.Text
// (XHTML), Level, Status, Tags, Implements, normative, derived and one
// string attribute per custom field, and a SPEC-RELATION (type "Parent")
// from each child to each parent. The SPEC-HIERARCHY nests by level, so
// ReqIF tools show the sections: a requirement sits under the nearest
// requirement before it whose level is a prefix of its own ("2.0" or "2"
// holds "2.1"). [ImportReqIF] reads it back into the same requirements,
// levels and parent links. at is the LAST-CHANGE and CREATION-TIME of
// everything (RFC 3339; "" means a fixed date), so the same inputs give
// the same bytes.
func (e *Export) ReqIF(at string) ([]byte, error) {
	if at == "" {
		at = exportEpoch
	}
	var fields []string
	for _, r := range e.Requirements {
		for k := range r.Fields {
			if !slices.Contains(fields, k) {
				fields = append(fields, k)
			}
		}
	}
	slices.Sort(fields)
	ident := func(id, name string) reqifIdent { return reqifIdent{Identifier: id, LastChange: at, LongName: name} }
	doc := reqifOut{Xmlns: ReqIFNamespace}
	doc.Header = reqifHeaderOut{Identifier: "header-" + ncName(e.ProjectID), CreationTime: at, ToolID: "tracewiki", Version: "1.0", SourceTool: "tracewiki", Title: e.ProjectID}
	c := &doc.Content
	str := reqifIdent{Identifier: "dt-string", LastChange: at, LongName: "String", MaxLength: "1000000"}
	c.Datatypes.Strings = []reqifIdent{str}
	c.Datatypes.XHTML = []reqifIdent{ident("dt-xhtml", "XHTML")}
	ot := reqifObjectType{reqifIdent: ident("type-requirement", "Requirement")}
	attrs := append([]string{"ReqIF.ForeignID", "ReqIF.Name", "ReqIF.ChapterName", "Level", "Status", "Tags", "Implements", "normative", "derived"}, fields...)
	for i, a := range attrs {
		ot.Strings = append(ot.Strings, reqifAttrDef{reqifIdent: ident("attr-"+strconv.Itoa(i), a), StringType: "dt-string"})
	}
	ot.XHTML = []reqifAttrDef{{reqifIdent: ident("attr-text", "ReqIF.Text"), XHTMLType: "dt-xhtml"}}
	c.SpecTypes.ObjectTypes = []reqifObjectType{ot}
	c.SpecTypes.RelationTypes = []reqifIdent{ident("type-parent", "Parent")}
	c.SpecTypes.SpecTypes = []reqifIdent{ident("type-document", "Document")}
	specs := map[string]*reqifSpec{}
	nests := map[string][]nested{} // each document's hierarchy entries, in level order
	var order []string
	titles := map[string]string{}
	for _, d := range e.Documents {
		titles[d.Path] = d.Title
	}
	for _, r := range e.Requirements {
		oid := "req-" + ncName(r.ID)
		o := reqifObject{reqifIdent: ident(oid, r.Title), Type: "type-requirement"}
		name, chapter := r.Title, ""
		if !r.Normative {
			name, chapter = "", r.Title
		}
		vals := []string{r.ID, name, chapter, r.Level, r.Status, strings.Join(r.Tags, ", "), joinRefs(r.Implements), strconv.FormatBool(r.Normative), strconv.FormatBool(r.Derived)}
		for _, f := range fields {
			vals = append(vals, r.Fields[f])
		}
		for i, v := range vals {
			if v != "" {
				o.Strings = append(o.Strings, reqifStrVal{Value: v, Definition: "attr-" + strconv.Itoa(i)})
			}
		}
		o.XHTML = []reqifXHTML{{Definition: "attr-text", Value: innerXML{Inner: xhtmlDiv(r.Text)}}}
		c.SpecObjects = append(c.SpecObjects, o)
		for _, p := range r.Parents {
			id := p.Ref
			if n, err := claims.ParseNodeID(p.Ref); err == nil {
				id = n.Key
			}
			c.SpecRelations = append(c.SpecRelations, reqifRelation{reqifIdent: ident("rel-"+ncName(r.ID)+"--"+ncName(id), ""), Type: "type-parent", Source: oid, Target: "req-" + ncName(id)})
		}
		key := r.Document
		s := specs[key]
		if s == nil {
			name := titles[key]
			if key == "" || name == "" {
				name = e.ProjectID
				if key != "" {
					name = key
				}
			}
			s = &reqifSpec{reqifIdent: ident("spec-"+ncName(Slug(key+"-"+name)), name), Type: "type-document"}
			specs[key] = s
			order = append(order, key)
		}
		nests[key] = append(nests[key], nested{level: r.Level, h: reqifHierarchy{Identifier: "h-" + ncName(r.ID), LastChange: at, Object: oid}})
	}
	for _, k := range order {
		s := specs[k]
		s.Children = nest(nests[k])
		c.Specifications = append(c.Specifications, *s)
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

type (
	reqifOut struct {
		XMLName xml.Name       `xml:"REQ-IF"`
		Xmlns   string         `xml:"xmlns,attr"`
		Header  reqifHeaderOut `xml:"THE-HEADER>REQ-IF-HEADER"`
		Content reqifContent   `xml:"CORE-CONTENT>REQ-IF-CONTENT"`
	}
	reqifHeaderOut struct {
		Identifier   string `xml:"IDENTIFIER,attr"`
		CreationTime string `xml:"CREATION-TIME"`
		ToolID       string `xml:"REQ-IF-TOOL-ID"`
		Version      string `xml:"REQ-IF-VERSION"`
		SourceTool   string `xml:"SOURCE-TOOL-ID"`
		Title        string `xml:"TITLE"`
	}
)

// nested is a SPEC-HIERARCHY entry with the level of its requirement.
type nested struct {
	level string
	h     reqifHierarchy
}

// nest turns a document's entries, in level order, into a tree: each entry
// goes under the nearest earlier one whose level is a proper prefix of its
// own (a trailing .0, a heading's, not counted), else at the top. Entries
// without a level stay at the top. It keeps a stack of the open entries,
// so it is linear in the entries and their depth.
func nest(entries []nested) []reqifHierarchy {
	type open struct {
		parts []int
		node  *reqifHierarchy
	}
	root := &reqifHierarchy{}
	stack := []open{{node: root}}
	// The tree is built with pointers into children slices that grow,
	// so each node's children are collected first and attached after.
	kids := map[*reqifHierarchy][]*reqifHierarchy{}
	for i := range entries {
		e := &entries[i].h
		parts := levelNumbers(entries[i].level)
		if parts == nil {
			kids[root] = append(kids[root], e)
			stack = stack[:1]
			continue
		}
		for len(stack) > 1 && !isPrefix(stack[len(stack)-1].parts, parts) {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1].node
		kids[top] = append(kids[top], e)
		stack = append(stack, open{parts: parts, node: e})
	}
	var build func(n *reqifHierarchy) []reqifHierarchy
	build = func(n *reqifHierarchy) []reqifHierarchy {
		var out []reqifHierarchy
		for _, k := range kids[n] {
			k.Children = build(k)
			out = append(out, *k)
		}
		return out
	}
	return build(root)
}

// levelNumbers splits a level into its numbers, a trailing 0 (a heading's
// "2.0") dropped; nil when the level is empty or not numbers.
func levelNumbers(level string) []int {
	if level == "" {
		return nil
	}
	var out []int
	for p := range strings.SplitSeq(level, ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil
		}
		out = append(out, n)
	}
	for len(out) > 1 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// isPrefix reports whether p is a proper prefix of q.
func isPrefix(p, q []int) bool {
	return len(p) < len(q) && slices.Equal(p, q[:len(p)])
}

// xhtmlDiv writes a requirement's text as the XHTML of ReqIF.Text: one
// div, each line break a <br/>, and each line's leading spaces as no-break
// spaces, since XHTML collapses white space and Markdown's indentation
// (a list item's second line, a code block) means something.
// [xhtmlText] reads it back.
func xhtmlDiv(text string) string {
	var b strings.Builder
	b.WriteString(`<xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml">`)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteString("<xhtml:br/>")
		}
		rest := strings.TrimLeft(line, " ")
		b.WriteString(strings.Repeat("&#160;", len(line)-len(rest)))
		xml.EscapeText(&b, []byte(rest))
	}
	b.WriteString(`</xhtml:div>`)
	return b.String()
}

func joinRefs(ls []Link) string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Ref)
	}
	return strings.Join(out, ", ")
}

// ncName makes s a valid part of an xsd:ID: letters, digits, '-', '_',
// '.'; other bytes become '_' and a hex code.
func ncName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' {
			b.WriteByte(c)
		} else {
			b.WriteString("_" + strconv.FormatUint(uint64(c), 16))
		}
	}
	return b.String()
}
