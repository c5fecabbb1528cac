package interchange

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// sdocNode is one [ELEMENT] of an .sdoc file with its fields in order.
type sdocNode struct {
	tag    string
	file   string // the file it is in (a fragment's, for [DOCUMENT_FROM_FILE])
	line   int
	fields []sdocField
	rels   []sdocField // RELATIONS: Key = TYPE, Value = VALUE
}

type sdocField struct {
	Key, Value string
	Line       int
	// Extra are a relation's lines other than TYPE and VALUE ("ROLE: Refines").
	Extra []string
}

func (n *sdocNode) get(key string) string {
	for _, f := range n.fields {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}

// ImportStrictDoc reads StrictDoc .sdoc documents. Each [DOCUMENT] is a
// document (its TITLE, as a slug, names the folder). [SECTION]/[[SECTION]]
// nesting gives levels; a section becomes a heading (normative false, its
// UID or a made-up id DOC-S1.2 that the report names). [REQUIREMENT] and
// the custom element tags a [GRAMMAR] declares are items: UID → id, TITLE,
// STATEMENT (also CONTENT, for [TEXT]) → body, STATUS → status when it is
// one of tracewiki's (Draft → proposed, Active/Approved → accepted,
// Obsolete → deprecated) else a field, TAGS → tags, every other field →
// fields; RELATIONS Parent → parent, Child → a parent link on the child,
// File → implements. Multi-line fields are >>> ... <<<, closed only by a
// <<< in the first column (an indented one is text, as in StrictDoc).
// [DOCUMENT_FROM_FILE] includes a fragment file of the same import. Items
// without a UID, relations of other types or roles, document fields other
// than TITLE and PREFIX, and unknown files are reported. A file that does
// not parse, or whose sections nest deeper than [MaxDepth], is an error
// naming its file and line: the import needs every document it was given.
func ImportStrictDoc(files []File) (*Result, error) {
	r := &Result{Format: "strictdoc"}
	byName := map[string]File{}
	for _, f := range files {
		byName[f.Name] = f
	}
	var children [][2]string      // child, parent from Child relations
	included := map[string]bool{} // fragments read through [DOCUMENT_FROM_FILE]
	var fragments []string
	for _, f := range files {
		if path.Ext(f.Name) != ".sdoc" {
			continue
		}
		nodes, err := parseSdoc(f, byName, included, 0)
		if err != nil {
			return nil, err
		}
		if len(nodes) == 0 || nodes[0].tag != "DOCUMENT" {
			fragments = append(fragments, f.Name) // read through [DOCUMENT_FROM_FILE], if a document includes it
			continue
		}
		doc := Document{Title: nodes[0].get("TITLE"), From: "strictdoc:" + f.Name}
		if doc.Title == "" {
			doc.Title = strings.TrimSuffix(path.Base(f.Name), ".sdoc")
		}
		doc.Path = Slug(doc.Title)
		for _, fl := range nodes[0].fields {
			switch fl.Key {
			case "TITLE":
			case "PREFIX", "REQ_PREFIX":
				doc.Prefix = fl.Value
			default:
				r.unmapped(fmt.Sprintf("%s:%d", f.Name, fl.Line), "document field "+fl.Key+" "+strconv.Quote(fl.Value), "a tracewiki document has a title and a prefix only")
			}
		}
		r.Documents = append(r.Documents, doc)
		elements := map[string]bool{"REQUIREMENT": true, "TEXT": true}
		var levels []int // the numbering of the current section path
		counter := []int{0}
		for _, n := range nodes[1:] {
			where := fmt.Sprintf("%s:%d", n.file, n.line)
			switch n.tag {
			case "GRAMMAR":
				for _, fl := range n.fields {
					if fl.Key == "TAG" {
						elements[fl.Value] = true
					}
				}
				continue
			case "SECTION", "[SECTION]":
				if len(levels) == MaxDepth {
					return nil, fmt.Errorf("%s: [SECTION] nested more than %d deep (the most an import takes)", where, MaxDepth)
				}
				counter[len(counter)-1]++
				levels = append(levels, counter[len(counter)-1])
				counter = append(counter, 0)
				id := n.get("UID")
				if id == "" {
					id = fmt.Sprintf("%s-S%s", strings.ToUpper(doc.Path), joinLevel(levels, "."))
					r.unmapped(where, "section "+strconv.Quote(n.get("TITLE")), "has no UID; imported as heading %s", id)
				}
				r.Sections++
				r.Items = append(r.Items, Item{ID: id, Title: n.get("TITLE"), Document: doc.Path, Level: joinLevel(levels, ".") + ".0", From: "strictdoc:" + where})
				continue
			case "/SECTION", "[/SECTION]":
				if len(levels) > 0 {
					levels, counter = levels[:len(levels)-1], counter[:len(counter)-1]
				}
				continue
			case "DOCUMENT_FROM_FILE":
				continue // already expanded
			}
			if !elements[n.tag] {
				r.unmapped(where, "["+n.tag+"]", "not an element of the document's grammar")
				continue
			}
			counter[len(counter)-1]++
			level := joinLevel(append(levels[:len(levels):len(levels)], counter[len(counter)-1]), ".")
			it := Item{ID: n.get("UID"), Title: n.get("TITLE"), Document: doc.Path, Level: level, Normative: n.tag != "TEXT", From: "strictdoc:" + where}
			if it.ID == "" {
				if n.tag == "TEXT" {
					it.ID = fmt.Sprintf("%s-T%s", strings.ToUpper(doc.Path), strings.ReplaceAll(level, ".", "-"))
					r.Sections++
				} else {
					r.unmapped(where, "["+n.tag+"] "+strconv.Quote(it.Title), "has no UID: a requirement needs an id to be linked")
					continue
				}
			}
			for _, fl := range n.fields {
				switch fl.Key {
				case "UID", "TITLE":
				case "STATEMENT", "CONTENT":
					it.Text = fl.Value
				case "STATUS":
					if s, ok := sdocStatus(fl.Value); ok {
						it.Status = s
					} else {
						it.setField("status", fl.Value)
					}
				case "TAGS":
					for t := range strings.SplitSeq(fl.Value, ",") {
						if t = strings.TrimSpace(t); t != "" {
							it.Tags = append(it.Tags, t)
						}
					}
				default:
					it.setField(strings.ToLower(fl.Key), fl.Value)
				}
			}
			for _, rel := range n.rels {
				for _, x := range rel.Extra {
					r.unmapped(where, "relation "+rel.Key+" "+rel.Value+" "+x, "tracewiki links carry no roles or formats")
				}
				switch strings.ToLower(rel.Key) {
				case "parent":
					it.Parents = append(it.Parents, Parent{ID: rel.Value})
				case "child":
					children = append(children, [2]string{rel.Value, it.ID})
				case "file":
					it.Implements = append(it.Implements, rel.Value)
				default:
					r.unmapped(where, "relation "+rel.Key+" "+rel.Value, "only Parent, Child and File relations map")
				}
			}
			r.Items = append(r.Items, it)
		}
	}
	for _, name := range fragments {
		if !included[name] {
			r.unmapped(name, "file", "has no [DOCUMENT] and no document includes it with [DOCUMENT_FROM_FILE]")
		}
	}
	index := map[string][]int{}
	for i, it := range r.Items {
		index[it.ID] = append(index[it.ID], i)
	}
	for _, c := range children {
		for _, i := range index[c[0]] {
			r.Items[i].Parents = append(r.Items[i].Parents, Parent{ID: c[1]})
		}
		if len(index[c[0]]) == 0 {
			r.unmapped("strictdoc:"+c[1], "relation Child "+c[0], "the child %q is not among the imported items", c[0])
		}
	}
	r.finish()
	return r, nil
}

func (it *Item) setField(k, v string) {
	if it.Fields == nil {
		it.Fields = map[string]string{}
	}
	it.Fields[k] = v
}

func joinLevel(ns []int, sep string) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, sep)
}

func sdocStatus(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "draft", "proposed":
		return "proposed", true
	case "active", "approved", "accepted":
		return "accepted", true
	case "obsolete", "deprecated":
		return "deprecated", true
	case "rejected":
		return "rejected", true
	}
	return "", false
}

// parseSdoc reads the elements of an .sdoc file, expanding
// [DOCUMENT_FROM_FILE] fragments found in files.
func parseSdoc(f File, files map[string]File, included map[string]bool, depth int) ([]sdocNode, error) {
	if depth > 8 {
		return nil, fmt.Errorf("%s: [DOCUMENT_FROM_FILE] nested more than 8 deep", f.Name)
	}
	lines := strings.Split(strings.ReplaceAll(string(f.Data), "\r\n", "\n"), "\n")
	var nodes []sdocNode
	var cur *sdocNode
	inRels := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && !strings.Contains(t, ":"):
			tag := strings.TrimSuffix(strings.TrimPrefix(t, "["), "]")
			nodes = append(nodes, sdocNode{tag: tag, file: f.Name, line: i + 1})
			cur, inRels = &nodes[len(nodes)-1], false
			continue
		case cur == nil:
			return nil, fmt.Errorf("%s:%d: text outside an element", f.Name, i+1)
		}
		if inRels && strings.HasPrefix(t, "- TYPE:") {
			rel := sdocField{Key: strings.TrimSpace(strings.TrimPrefix(t, "- TYPE:")), Line: i + 1}
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  ") && !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "- ") {
				i++
				k, v, _ := strings.Cut(strings.TrimSpace(lines[i]), ":")
				switch v = strings.TrimSpace(v); {
				case k == "VALUE":
					rel.Value = v
				case k == "FORMAT" && v == "Sourcecode": // a File's only format
				default:
					rel.Extra = append(rel.Extra, k+": "+v)
				}
			}
			cur.rels = append(cur.rels, rel)
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want FIELD: value, got %q", f.Name, i+1, t)
		}
		start := i + 1
		val = strings.TrimSpace(val)
		if key == "RELATIONS" || key == "ELEMENTS" || key == "FIELDS" {
			inRels = key == "RELATIONS"
			continue
		}
		key = strings.TrimPrefix(key, "- ") // grammar lists: - TAG: X, - TITLE: F
		if val == ">>>" {
			var b []string
			for i++; i < len(lines) && !closesField(lines[i]); i++ {
				b = append(b, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("%s:%d: %s: >>> is never closed by a <<< in the first column", f.Name, start, key)
			}
			val = strings.Join(b, "\n")
		}
		if cur.tag == "DOCUMENT_FROM_FILE" && key == "FILE" {
			name := path.Join(path.Dir(f.Name), val)
			frag, ok := files[name]
			if !ok {
				return nil, fmt.Errorf("%s:%d: [DOCUMENT_FROM_FILE] %s is not in the import", f.Name, i+1, val)
			}
			included[name] = true
			sub, err := parseSdoc(frag, files, included, depth+1)
			if err != nil {
				return nil, err
			}
			for _, n := range sub {
				if n.tag != "DOCUMENT" {
					nodes = append(nodes, n)
				}
			}
			nodes = append(nodes, sdocNode{tag: "DOCUMENT_FROM_FILE", file: f.Name, line: i + 1})
			cur = &nodes[len(nodes)-1]
			continue
		}
		cur.fields = append(cur.fields, sdocField{Key: key, Value: val, Line: start})
	}
	return nodes, nil
}

// closesField reports whether a line ends a multi-line field: <<< in the
// first column (trailing white space allowed). StrictDoc's grammar asks
// for it there, so an indented <<< (an example in a code block) is text.
func closesField(line string) bool {
	return strings.TrimRight(line, " \t") == "<<<"
}
