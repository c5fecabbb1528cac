package claims

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// record is one claim of a claim records file, with the page it goes on.
type record struct {
	claim     Claim
	pagePath  string // content path without .md
	pageTitle string
	pageType  string
}

// parseRecords parses a claim records file (JSON or YAML): an object
// {"claims": [...]} or a bare list of claims in the KnowledgeRail shape.
func parseRecords(name, rel string, data []byte, ds *Diagnostics) []record {
	var root *value
	if path.Ext(rel) == ".json" {
		var err error
		root, err = jsonTree(name, data)
		if err != nil {
			var pe *posError
			if errors.As(err, &pe) {
				ds.Add(pe.pos, CodeSyntax, "bad JSON: %v", pe.err)
			} else {
				ds.Add(Pos{File: name, Line: 1}, CodeSyntax, "bad JSON: %v", err)
			}
			return nil
		}
	} else {
		var n yaml.Node
		if err := unmarshalYAML(data, &n); err != nil {
			ds.Add(fmErrorPos(name, err, 0), CodeSyntax, "bad YAML: %s", fmErrorMsg(err))
			return nil
		}
		c := yamlConv{file: name, budget: maxValueNodes}
		var err error
		if root, err = c.conv(&n, 0); err != nil {
			ds.Add(Pos{File: name, Line: 1}, CodeSyntax, "bad YAML: %v", err)
			return nil
		}
	}

	d := decoder{ds: ds}
	var list *value
	switch root.kind {
	case vNull:
		return nil
	case vList:
		list = root
	case vMap:
		for _, e := range d.entries(root) {
			switch e.key {
			case "claims":
				list = e.val
			case "params":
			default:
				ds.Add(e.pos, CodeUnknownKey, "unknown key %q in claim records (known keys: claims, params)", e.key)
			}
		}
		if list == nil || list.kind == vNull {
			return nil
		}
		if list.kind != vList {
			ds.Add(list.pos, CodeField, "claims: want a list of claims, got %s", list.describe())
			return nil
		}
	default:
		ds.Add(root.pos, CodeSyntax, "claim records are %s, want {\"claims\": [...]} or a list of claims", root.describe())
		return nil
	}

	var recs []record
	for _, item := range list.items {
		c, ok := d.claim(item, true)
		if !ok {
			continue
		}
		c.claim.Origin = OriginRecord
		recs = append(recs, c)
	}
	return recs
}

// claim decodes one claim in the KnowledgeRail shape:
//
//	{text, kind, origin, confidence, target: {code_resource_uri | ref,
//	 page_path, page_title, page_type}}
//
// The page_* keys belong to records only: a frontmatter claim is on the
// page that holds it. ok is false when the claim cannot be kept.
func (d decoder) claim(v *value, inRecord bool) (rec record, ok bool) {
	if v.kind != vMap {
		d.ds.Add(v.pos, CodeField, "claim: want a mapping {text, kind, origin, confidence, target}, got %s", v.describe())
		return record{}, false
	}
	c := &rec.claim
	c.Pos = v.pos
	var target *value
	for _, e := range d.entries(v) {
		switch e.key {
		case "text":
			c.Text = collapseSpace(d.str(e))
		case "kind":
			c.Kind = d.str(e)
		case "origin":
			c.Source = d.str(e)
		case "confidence":
			c.Confidence = d.number(e)
		case "target":
			target = e.val
		default:
			d.ds.Add(e.pos, CodeUnknownKey, "unknown key %q in claim (known keys: confidence, kind, origin, target, text)", e.key)
		}
	}
	ok = true
	if c.Text == "" {
		d.ds.Add(v.pos, CodeField, "claim without text")
		ok = false
	}

	targetKeys := []string{"code_resource_uri", "ref"}
	if inRecord {
		targetKeys = []string{"code_resource_uri", "page_path", "page_title", "page_type", "ref"}
	}
	var pagePathPos Pos
	hasPagePath := false
	if target != nil && target.kind == vMap {
		var uri, ref *entry
		for _, e := range d.entries(target) {
			if !slices.Contains(targetKeys, e.key) {
				d.ds.Add(e.pos, CodeUnknownKey, "unknown key %q in claim target (known keys: %s)", e.key, strings.Join(targetKeys, ", "))
				continue
			}
			switch e.key {
			case "code_resource_uri":
				uri = &e
			case "ref":
				ref = &e
			case "page_path":
				rec.pagePath, pagePathPos, hasPagePath = d.str(e), e.val.pos, true
			case "page_title":
				rec.pageTitle = strings.TrimSpace(d.str(e))
			case "page_type":
				rec.pageType = d.str(e)
			}
		}
		switch {
		case uri != nil && ref != nil:
			d.ds.Add(ref.pos, CodeField, "claim target has both code_resource_uri and ref; give one")
			ok = false
		case uri != nil:
			if s := d.str(*uri); s != "" {
				_, t, err := ParseCodeURI(s)
				if err != nil {
					d.ds.Add(uri.val.pos, CodeBadTarget, "%v", err)
					ok = false
				}
				c.Target, c.HasTarget = t, err == nil
			}
		case ref != nil:
			if s := d.str(*ref); s != "" {
				t, err := ParseTarget(s)
				if err != nil {
					d.ds.Add(ref.val.pos, CodeBadTarget, "%v", err)
					ok = false
				}
				c.Target, c.HasTarget = t, err == nil
			}
		}
	} else if target != nil && target.kind != vNull {
		d.ds.Add(target.pos, CodeField, "target: want a mapping {code_resource_uri}, got %s", target.describe())
		ok = false
	}

	if inRecord {
		switch {
		case !hasPagePath || rec.pagePath == "":
			d.ds.Add(v.pos, CodeField, "claim record without target.page_path: it names the page the claim goes on")
			ok = false
		default:
			p, err := cleanPagePath(rec.pagePath)
			if err != nil {
				d.ds.Add(pagePathPos, CodeField, "page_path: %v", err)
				ok = false
			}
			rec.pagePath = p
		}
	}
	return rec, ok
}

// cleanPagePath turns a page_path into a content path without .md:
// "guides/login.md" and "./guides/login" give "guides/login".
func cleanPagePath(p string) (string, error) {
	c := path.Clean(strings.TrimSuffix(p, ".md"))
	if c == "." || c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, "/") || strings.ContainsAny(c, "\\\x00") {
		return "", fmt.Errorf("%q is not a content path like guides/login", p)
	}
	return c, nil
}

// collapseSpace trims s and turns each run of white space into one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// posError is a JSON error at a position.
type posError struct {
	pos Pos
	err error
}

func (e *posError) Error() string { return fmt.Sprintf("%s: %v", e.pos, e.err) }

// jsonTree decodes JSON into values, with the line and column of each value
// found from the decoder's offsets.
func jsonTree(file string, data []byte) (*value, error) {
	j := &jsonConv{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data)), budget: maxValueNodes}
	j.dec.UseNumber()
	v, err := j.value(0)
	if err != nil {
		return nil, j.wrap(err)
	}
	if _, err := j.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the top-level value")
		}
		return nil, j.wrap(err)
	}
	return v, nil
}

type jsonConv struct {
	file   string
	data   []byte
	dec    *json.Decoder
	budget int
}

func (j *jsonConv) wrap(err error) error {
	off := int(j.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &posError{pos: offsetPos(j.file, j.data, off), err: err}
}

// next returns the offset of the next token: the decoder's offset past
// white space and the separators ',' and ':'.
func (j *jsonConv) next() int {
	off := int(j.dec.InputOffset())
	for off < len(j.data) && strings.IndexByte(" \t\r\n,:", j.data[off]) >= 0 {
		off++
	}
	return off
}

func (j *jsonConv) value(depth int) (*value, error) {
	j.budget--
	if depth > maxValueDepth || j.budget < 0 {
		return nil, errValueLimit
	}
	pos := offsetPos(j.file, j.data, j.next())
	tok, err := j.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			v := &value{kind: vList, pos: pos}
			for j.dec.More() {
				item, err := j.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			_, err := j.dec.Token() // ']'
			return v, err
		case '{':
			v := &value{kind: vMap, pos: pos}
			for j.dec.More() {
				kpos := offsetPos(j.file, j.data, j.next())
				k, err := j.dec.Token()
				if err != nil {
					return nil, err
				}
				item, err := j.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.entries = append(v.entries, entry{key: k.(string), pos: kpos, val: item})
			}
			_, err := j.dec.Token() // '}'
			return v, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return &value{kind: vScalar, typ: "string", s: t, pos: pos}, nil
	case json.Number:
		return &value{kind: vScalar, typ: "number", s: t.String(), pos: pos}, nil
	case bool:
		return &value{kind: vScalar, typ: "bool", s: fmt.Sprint(t), pos: pos}, nil
	case nil:
		return &value{kind: vNull, pos: pos}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}
