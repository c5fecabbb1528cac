package interchange

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// ReqIF 1.2 (OMG formal/2016-07-01) as far as tracewiki reads and writes it.
type (
	reqifDoc struct {
		XMLName xml.Name     `xml:"REQ-IF"`
		Header  reqifHeader  `xml:"THE-HEADER>REQ-IF-HEADER"`
		Content reqifContent `xml:"CORE-CONTENT>REQ-IF-CONTENT"`
	}
	reqifHeader struct {
		Identifier   string `xml:"IDENTIFIER,attr"`
		CreationTime string `xml:"CREATION-TIME"`
		ReqIFVersion string `xml:"REQ-IF-VERSION"`
		SourceTool   string `xml:"SOURCE-TOOL-ID"`
		Title        string `xml:"TITLE"`
	}
	reqifContent struct {
		Datatypes      reqifDatatypes  `xml:"DATATYPES"`
		SpecTypes      reqifSpecTypes  `xml:"SPEC-TYPES"`
		SpecObjects    []reqifObject   `xml:"SPEC-OBJECTS>SPEC-OBJECT"`
		SpecRelations  []reqifRelation `xml:"SPEC-RELATIONS>SPEC-RELATION"`
		Specifications []reqifSpec     `xml:"SPECIFICATIONS>SPECIFICATION"`
	}
	reqifDatatypes struct {
		Strings []reqifIdent `xml:"DATATYPE-DEFINITION-STRING"`
		XHTML   []reqifIdent `xml:"DATATYPE-DEFINITION-XHTML"`
		Enums   []reqifEnum  `xml:"DATATYPE-DEFINITION-ENUMERATION"`
	}
	reqifIdent struct {
		Identifier string `xml:"IDENTIFIER,attr"`
		LastChange string `xml:"LAST-CHANGE,attr"`
		LongName   string `xml:"LONG-NAME,attr,omitempty"`
		MaxLength  string `xml:"MAX-LENGTH,attr,omitempty"`
	}
	reqifEnum struct {
		reqifIdent
		Values []reqifIdent `xml:"SPECIFIED-VALUES>ENUM-VALUE"`
	}
	reqifSpecTypes struct {
		ObjectTypes   []reqifObjectType `xml:"SPEC-OBJECT-TYPE"`
		RelationTypes []reqifIdent      `xml:"SPEC-RELATION-TYPE"`
		SpecTypes     []reqifIdent      `xml:"SPECIFICATION-TYPE"`
	}
	reqifObjectType struct {
		reqifIdent
		Strings []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-STRING"`
		XHTML   []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-XHTML"`
		Enums   []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-ENUMERATION"`
		// Read only: the plain-valued definitions other tools write.
		Integers []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-INTEGER"`
		Booleans []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-BOOLEAN"`
		Dates    []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-DATE"`
		Reals    []reqifAttrDef `xml:"SPEC-ATTRIBUTES>ATTRIBUTE-DEFINITION-REAL"`
	}
	reqifAttrDef struct {
		reqifIdent
		StringType string `xml:"TYPE>DATATYPE-DEFINITION-STRING-REF,omitempty"`
		XHTMLType  string `xml:"TYPE>DATATYPE-DEFINITION-XHTML-REF,omitempty"`
		EnumType   string `xml:"TYPE>DATATYPE-DEFINITION-ENUMERATION-REF,omitempty"`
	}
	reqifObject struct {
		reqifIdent
		Strings []reqifStrVal  `xml:"VALUES>ATTRIBUTE-VALUE-STRING"`
		XHTML   []reqifXHTML   `xml:"VALUES>ATTRIBUTE-VALUE-XHTML"`
		Enums   []reqifEnumVal `xml:"VALUES>ATTRIBUTE-VALUE-ENUMERATION"`
		// Read only: integer, boolean, date and real values (DOORS writes
		// dates, Polarion booleans), kept as fields.
		Integers []reqifPlainVal `xml:"VALUES>ATTRIBUTE-VALUE-INTEGER"`
		Booleans []reqifPlainVal `xml:"VALUES>ATTRIBUTE-VALUE-BOOLEAN"`
		Dates    []reqifPlainVal `xml:"VALUES>ATTRIBUTE-VALUE-DATE"`
		Reals    []reqifPlainVal `xml:"VALUES>ATTRIBUTE-VALUE-REAL"`
		Type     string          `xml:"TYPE>SPEC-OBJECT-TYPE-REF"`
	}
	reqifPlainVal struct {
		Value string `xml:"THE-VALUE,attr"`
		// One of these names the definition, by the value's kind.
		Integer string `xml:"DEFINITION>ATTRIBUTE-DEFINITION-INTEGER-REF"`
		Boolean string `xml:"DEFINITION>ATTRIBUTE-DEFINITION-BOOLEAN-REF"`
		Date    string `xml:"DEFINITION>ATTRIBUTE-DEFINITION-DATE-REF"`
		Real    string `xml:"DEFINITION>ATTRIBUTE-DEFINITION-REAL-REF"`
	}
	reqifStrVal struct {
		Value      string `xml:"THE-VALUE,attr"`
		Definition string `xml:"DEFINITION>ATTRIBUTE-DEFINITION-STRING-REF"`
	}
	reqifXHTML struct {
		Definition string   `xml:"DEFINITION>ATTRIBUTE-DEFINITION-XHTML-REF"`
		Value      innerXML `xml:"THE-VALUE"`
	}
	innerXML struct {
		Inner string `xml:",innerxml"`
	}
	reqifEnumVal struct {
		Definition string   `xml:"DEFINITION>ATTRIBUTE-DEFINITION-ENUMERATION-REF"`
		Values     []string `xml:"VALUES>ENUM-VALUE-REF"`
	}
	reqifRelation struct {
		reqifIdent
		Source string `xml:"SOURCE>SPEC-OBJECT-REF"`
		Target string `xml:"TARGET>SPEC-OBJECT-REF"`
		Type   string `xml:"TYPE>SPEC-RELATION-TYPE-REF"`
	}
	reqifSpec struct {
		reqifIdent
		Children []reqifHierarchy `xml:"CHILDREN>SPEC-HIERARCHY"`
		Type     string           `xml:"TYPE>SPECIFICATION-TYPE-REF"`
	}
	reqifHierarchy struct {
		Identifier string           `xml:"IDENTIFIER,attr"`
		LastChange string           `xml:"LAST-CHANGE,attr"`
		Children   []reqifHierarchy `xml:"CHILDREN>SPEC-HIERARCHY"`
		Object     string           `xml:"OBJECT>SPEC-OBJECT-REF"`
	}
)

// maxReqIF bounds a ReqIF file and each entry of a .reqifz archive.
const maxReqIF = 64 << 20

// Attribute long names tracewiki maps (ReqIF's recommended names, then
// common tool names), compared case-insensitively.
var (
	reqifIDNames    = []string{"reqif.foreignid", "id", "uid", "identifier"}
	reqifTitleNames = []string{"reqif.name", "reqif.chaptername", "title", "name", "heading"}
	reqifTextNames  = []string{"reqif.text", "text", "statement", "description"}
)

// ImportReqIF reads .reqif files and .reqifz archives (zip files of .reqif
// files). Each SPECIFICATION is a document (its LONG-NAME as a slug); its
// SPEC-HIERARCHY gives the order and levels. SPEC-OBJECTs in no
// SPECIFICATION go to a document of their own, named after the file
// ([unplacedDocument]), in file order, and are reported. A SPEC-OBJECT is an
// item: the attribute named ReqIF.ForeignID (or ID, UID) is its id when it
// is a tracewiki id, else its IDENTIFIER made one ([reqifIDs]); ReqIF.Name or ReqIF.ChapterName (or Title) its title;
// ReqIF.Text (or Text, Statement, Description; XHTML reduced to text) its
// body; Status its status when it is one of tracewiki's; Tags its tags;
// normative=false (tracewiki's own export) or a ChapterName without text
// makes it a heading; every other attribute (string, XHTML, enumeration,
// integer, boolean, date, real) a field. A SPEC-RELATION links
// its SOURCE (child) to its TARGET (parent); a relation type whose name
// says "child" goes the other way. Reported: each id that is not the
// object's ForeignID or IDENTIFIER as written, objects in no
// specification, relations to unknown objects, enumeration values without
// a name.
func ImportReqIF(files []File) (*Result, error) {
	r := &Result{Format: "reqif"}
	var docs []File
	for _, f := range files {
		switch strings.ToLower(path.Ext(f.Name)) {
		case ".reqif", ".xml":
			docs = append(docs, f)
		case ".reqifz":
			zr, err := zip.NewReader(bytes.NewReader(f.Data), int64(len(f.Data)))
			if err != nil {
				return nil, fmt.Errorf("%s: not a zip archive: %v", f.Name, err)
			}
			for _, zf := range zr.File {
				if strings.ToLower(path.Ext(zf.Name)) != ".reqif" {
					continue
				}
				rc, err := zf.Open()
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %v", f.Name, zf.Name, err)
				}
				data, err := io.ReadAll(io.LimitReader(rc, maxReqIF+1))
				rc.Close()
				if err != nil || len(data) > maxReqIF {
					return nil, fmt.Errorf("%s: %s: unreadable or over %d bytes", f.Name, zf.Name, maxReqIF)
				}
				docs = append(docs, File{Name: f.Name + "/" + zf.Name, Data: data})
			}
		}
	}
	for _, f := range docs {
		if err := importReqIFDoc(r, f); err != nil {
			return nil, err
		}
	}
	r.finish()
	return r, nil
}

func importReqIFDoc(r *Result, f File) error {
	var doc reqifDoc
	d := xml.NewDecoder(bytes.NewReader(f.Data))
	d.Strict = true
	if err := d.Decode(&doc); err != nil {
		return fmt.Errorf("%s: not ReqIF XML: %v", f.Name, err)
	}
	c := doc.Content
	attrName := map[string]string{}
	enumName := map[string]string{}
	for _, t := range c.SpecTypes.ObjectTypes {
		for _, a := range concat(t.Strings, t.XHTML, t.Enums, t.Integers, t.Booleans, t.Dates, t.Reals) {
			// A definition without a LONG-NAME (Enterprise Architect
			// writes them) is named by its IDENTIFIER: its values are
			// kept as a field of that name, never dropped.
			attrName[a.Identifier] = a.LongName
			if a.LongName == "" && a.Identifier != "" {
				attrName[a.Identifier] = a.Identifier
				r.unmapped(f.Name, "attribute definition "+a.Identifier, "has no LONG-NAME: its values are read as the attribute %q", a.Identifier)
			}
		}
	}
	for _, e := range c.Datatypes.Enums {
		for _, v := range e.Values {
			enumName[v.Identifier] = v.LongName
		}
	}
	relType := map[string]string{}
	for _, t := range c.SpecTypes.RelationTypes {
		relType[t.Identifier] = t.LongName
	}
	objects := map[string]*reqifObject{}
	for i := range c.SpecObjects {
		objects[c.SpecObjects[i].Identifier] = &c.SpecObjects[i]
	}
	var read []readObject // in document order, then the unplaced ones
	placed := map[string]bool{}
	where := func(id string) string { return f.Name + "#" + id }
	for _, spec := range c.Specifications {
		title := spec.LongName
		if title == "" {
			title = spec.Identifier
		}
		docPath := Slug(title)
		r.Documents = append(r.Documents, Document{Path: docPath, Title: title, From: "reqif:" + where(spec.Identifier)})
		var walk func(hs []reqifHierarchy, prefix []int, depth int)
		walk = func(hs []reqifHierarchy, prefix []int, depth int) {
			if depth > MaxDepth {
				r.unmapped(where(spec.Identifier), "SPEC-HIERARCHY", "nested more than %d deep; the entries below are not imported", MaxDepth)
				return
			}
			prev := prefix // the level of the entry before, for its number
			for _, h := range hs {
				o := objects[h.Object]
				if o == nil {
					r.unmapped(where(h.Identifier), "SPEC-HIERARCHY", "names SPEC-OBJECT %q, which does not exist", h.Object)
					continue
				}
				if placed[o.Identifier] {
					r.unmapped(where(h.Identifier), "SPEC-HIERARCHY", "places SPEC-OBJECT %q a second time; the first place is kept", h.Object)
					continue
				}
				placed[o.Identifier] = true
				it, foreign := reqifItem(r, o, attrName, enumName, where(o.Identifier))
				it.Document = docPath
				lv := levelNumbers(it.Level)
				if !fitsHierarchy(lv, prefix, prev) {
					if it.Level != "" {
						r.unmapped(where(o.Identifier), "attribute Level "+strconv.Quote(it.Level), "does not agree with its place in the SPEC-HIERARCHY; numbered by its place")
					}
					// No level, or one the hierarchy contradicts (moved in
					// a ReqIF tool): number it by its place.
					n := 1
					if len(prev) > len(prefix) {
						n = prev[len(prefix)] + 1
					}
					lv = append(prefix[:len(prefix):len(prefix)], n)
					it.Level = joinLevel(lv, ".")
					if !it.Normative && len(h.Children) > 0 && len(lv) == 1 {
						it.Level += ".0"
					}
				}
				if !it.Normative {
					r.Sections++
				}
				read = append(read, readObject{item: it, identifier: o.Identifier, foreign: foreign})
				walk(h.Children, lv, depth+1)
				prev = lv
			}
		}
		walk(spec.Children, nil, 0)
	}
	read = append(read, unplaced(r, f.Name, c.SpecObjects, placed, attrName, enumName, where)...)
	ids := reqifIDs(r, read, where)
	byID := map[string]int{}
	for _, o := range read {
		o.item.ID = ids[o.identifier]
		byID[o.item.ID] = len(r.Items)
		r.Items = append(r.Items, o.item)
	}
	for _, rel := range c.SpecRelations {
		child, parent := ids[rel.Source], ids[rel.Target]
		if strings.Contains(strings.ToLower(relType[rel.Type]), "child") {
			child, parent = parent, child
		}
		if child == "" || parent == "" {
			r.unmapped(where(rel.Identifier), "SPEC-RELATION", "links %q to %q; both must be imported SPEC-OBJECTs", rel.Source, rel.Target)
			continue
		}
		i := byID[child]
		r.Items[i].Parents = append(r.Items[i].Parents, Parent{ID: parent})
	}
	return nil
}

// readObject is a SPEC-OBJECT read as an item, before its id is chosen.
type readObject struct {
	item       Item
	identifier string // the object's IDENTIFIER
	foreign    string // its ReqIF.ForeignID (or ID, UID), "" when it has none
}

// unplaced reads the SPEC-OBJECTs that no SPEC-HIERARCHY places into a
// document of their own, named after the file ("sample.reqif" gives
// "sample-unplaced"), numbered in file order, so that an export whose
// hierarchy is missing or broken still yields its requirements. It reports
// how many went there.
func unplaced(r *Result, file string, objects []reqifObject, placed map[string]bool, attrName, enumName map[string]string, where func(string) string) []readObject {
	base := path.Base(file)
	title := "Unplaced objects of " + base
	docPath := Slug(strings.TrimSuffix(base, path.Ext(base)) + " unplaced")
	var read []readObject
	for i := range objects {
		o := &objects[i]
		if placed[o.Identifier] {
			continue
		}
		placed[o.Identifier] = true // a duplicate IDENTIFIER is read once
		it, foreign := reqifItem(r, o, attrName, enumName, where(o.Identifier))
		it.Document = docPath
		level := strconv.Itoa(len(read) + 1)
		if it.Level != "" && it.Level != level {
			r.unmapped(where(o.Identifier), "attribute Level "+strconv.Quote(it.Level), "the object is in no SPEC-HIERARCHY; numbered %s by file order", level)
		}
		it.Level = level
		read = append(read, readObject{item: it, identifier: o.Identifier, foreign: foreign})
	}
	if len(read) > 0 {
		r.Documents = append(r.Documents, Document{Path: docPath, Title: title, From: "reqif:" + file})
		r.unmapped(file, "SPEC-OBJECTs", "%d in no SPECIFICATION; imported into document %q in file order", len(read), docPath)
	}
	return read
}

// idSuffixRoom is what [reqifIDs] keeps free below the id length limit for
// a "-N" suffix on collision.
const idSuffixRoom = 8

// reqifIDs chooses each object's item id, keyed by IDENTIFIER: its
// ForeignID when that is a tracewiki id, else its IDENTIFIER made one by
// [validIDFrom]; an id taken already (ids compare case-insensitively, here
// and among the items of earlier files) gets "-2", "-3", … Ids kept as
// written are taken first, so a mapped id never takes one of them.
// Deterministic: objects are mapped in the order they were read. Every id
// that is not the ForeignID, or the IDENTIFIER of an object without one,
// is reported as "id X imported as Y".
func reqifIDs(r *Result, read []readObject, where func(string) string) map[string]string {
	taken := map[string]bool{}
	for _, it := range r.Items {
		taken[strings.ToLower(it.ID)] = true
	}
	ids := map[string]string{}
	kept := func(o readObject) string {
		if o.foreign != "" {
			if validID(o.foreign) {
				return o.foreign
			}
			return ""
		}
		if validID(o.identifier) {
			return o.identifier
		}
		return ""
	}
	for _, o := range read {
		if id := kept(o); id != "" && !taken[strings.ToLower(id)] {
			ids[o.identifier] = id
			taken[strings.ToLower(id)] = true
		}
	}
	for _, o := range read {
		if _, ok := ids[o.identifier]; ok {
			continue
		}
		base := validIDFrom(o.identifier)
		id := base
		for n := 2; taken[strings.ToLower(id)]; n++ {
			id = base + "-" + strconv.Itoa(n)
		}
		ids[o.identifier] = id
		taken[strings.ToLower(id)] = true
		from, why := o.identifier, "IDENTIFIER is not a tracewiki id"
		switch {
		case o.foreign != "" && validID(o.foreign):
			from, why = o.foreign, "ForeignID is used by another object"
		case o.foreign != "":
			from, why = o.foreign, "ForeignID is not a tracewiki id; its IDENTIFIER "+strconv.Quote(o.identifier)+" made one"
		case validID(o.identifier):
			why = "IDENTIFIER is used by another object"
		}
		r.unmapped(where(o.identifier), "id "+from, "imported as %s (%s)", id, why)
	}
	return ids
}

// validIDFrom makes a ReqIF IDENTIFIER (an xsd:ID: "_" and letters first
// are common, as in "_abc-123") a tracewiki id: each character other than
// an ASCII letter, digit, '.', '_' or '-' becomes '-', the leading
// characters that are not a letter or digit go, and it is cut to leave room
// for a collision suffix. One with no letter or digit becomes "reqif".
func validIDFrom(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	id := strings.TrimLeft(b.String(), "._-")
	if len(id) > maxIDLen-idSuffixRoom {
		id = id[:maxIDLen-idSuffixRoom]
	}
	if id == "" {
		return "reqif"
	}
	return id
}

// reqifItem reads a SPEC-OBJECT as an item whose ID is still unset, and
// returns it with the object's ForeignID (or ID, UID), "" when it has none.
func reqifItem(r *Result, o *reqifObject, attrName, enumName map[string]string, where string) (Item, string) {
	it := Item{Title: o.LongName, Normative: true, From: "reqif:" + where}
	foreign := ""
	chapter := false
	set := func(def, val string) {
		name := attrName[def]
		low := strings.ToLower(name)
		switch {
		case name == "" && def == "":
			r.unmapped(where, "attribute value", "names no definition; its value is not kept")
		case name == "":
			// A value whose definition the file does not declare (a DOORS
			// export of part of a module) is kept as a field named by the
			// definition's IDENTIFIER, and reported.
			r.unmapped(where, "attribute value", "its definition %q is not declared; kept as the field %q", def, def)
			it.setField(def, val)
		case inList(low, reqifIDNames):
			foreign = strings.TrimSpace(val)
		case low == "reqif.chaptername":
			it.Title, chapter = val, true
		case inList(low, reqifTitleNames):
			it.Title = val
		case inList(low, reqifTextNames):
			it.Text = val
		case low == "level":
			it.Level = strings.TrimSpace(val) // checked against the hierarchy by the caller
		case low == "status":
			if s, ok := sdocStatus(val); ok {
				it.Status = s
			} else {
				it.setField("status", val)
			}
		case low == "tags":
			for t := range strings.SplitSeq(val, ",") {
				if t = strings.TrimSpace(t); t != "" {
					it.Tags = append(it.Tags, t)
				}
			}
		case low == "normative":
			it.Normative = val != "false"
		case low == "derived":
			it.Derived = val == "true"
		case low == "implements":
			for t := range strings.SplitSeq(val, ",") {
				if t = strings.TrimSpace(t); t != "" {
					it.Implements = append(it.Implements, t)
				}
			}
		default:
			it.setField(name, val)
		}
	}
	for _, v := range o.Strings {
		set(v.Definition, v.Value)
	}
	for _, v := range o.XHTML {
		set(v.Definition, xhtmlText(v.Value.Inner))
	}
	for _, v := range concat(o.Integers, o.Booleans, o.Dates, o.Reals) {
		set(cmp.Or(v.Integer, v.Boolean, v.Date, v.Real), v.Value)
	}
	for _, v := range o.Enums {
		var names []string
		for _, ref := range v.Values {
			if n := enumName[ref]; n != "" {
				names = append(names, n)
			} else {
				r.unmapped(where, "enumeration value "+ref, "has no LONG-NAME; kept as its IDENTIFIER")
				names = append(names, ref)
			}
		}
		if len(names) > 0 {
			set(v.Definition, strings.Join(names, ", "))
		}
	}
	if chapter && strings.TrimSpace(it.Text) == "" {
		it.Normative = false
	}
	return it, foreign
}

// fitsHierarchy reports whether a level an object carries (tracewiki's
// export writes one) agrees with its place: under its parent entry's level
// and after the entry before it.
func fitsHierarchy(lv, parent, prev []int) bool {
	if lv == nil || !isPrefix(parent, lv) {
		return false
	}
	return len(prev) == len(parent) || slices.Compare(prev, lv) < 0
}

func inList(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var (
	xhtmlBlock = regexp.MustCompile(`(?i)</?(xhtml:)?(p|div|br|li|h[1-6])\b[^>]*>`)
	xhtmlTag   = regexp.MustCompile(`<[^>]*>`)
	blankLines = regexp.MustCompile(`\n{3,}`)
)

// xhtmlText reduces a THE-VALUE's XHTML to text: block elements become
// line breaks, other tags go, entities are decoded, and each line's
// leading no-break spaces become its indentation. XHTML as [xhtmlDiv]
// writes it (one line, only div and br) is read exactly: each br is one
// line break and white space stays, so a round trip keeps the text. Other
// XHTML is laid out for people: the white space around lines and runs of
// blank lines go.
func xhtmlText(s string) string {
	exact := !strings.ContainsAny(s, "\r\n")
	for _, m := range xhtmlBlock.FindAllStringSubmatch(s, -1) {
		exact = exact && (strings.EqualFold(m[2], "div") || strings.EqualFold(m[2], "br"))
	}
	s = xhtmlBlock.ReplaceAllStringFunc(s, func(tag string) string {
		if exact && !strings.Contains(strings.ToLower(tag), "br") {
			return ""
		}
		return "\n"
	})
	s = xhtmlTag.ReplaceAllString(s, "")
	var b strings.Builder
	d := xml.NewDecoder(strings.NewReader("<x>" + s + "</x>"))
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
		}
	}
	var lines []string
	for l := range strings.SplitSeq(b.String(), "\n") {
		if !exact {
			l = strings.TrimRightFunc(strings.TrimLeft(l, " \t\r"), unicode.IsSpace)
		}
		lines = append(lines, indentation(l))
	}
	if exact {
		return strings.Join(lines, "\n")
	}
	return strings.TrimSpace(blankLines.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// indentation turns the no-break spaces a line starts with into spaces:
// its indentation, as [xhtmlDiv] writes it.
func indentation(line string) string {
	rest := strings.TrimLeft(line, "\u00a0")
	n := (len(line) - len(rest)) / len("\u00a0")
	return strings.Repeat(" ", n) + rest
}
