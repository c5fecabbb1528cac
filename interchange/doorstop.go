package interchange

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// doorstopDoc is a .doorstop.yml document.
type doorstopDoc struct {
	dir      string
	prefix   string
	parent   string
	sep      string
	from     string
	reviewed []string // extended attributes that count in the fingerprint
}

// ImportDoorstop reads a Doorstop tree: every folder with a .doorstop.yml
// is a document (settings prefix, parent, sep; attributes.reviewed), and
// its *.yml items (or *.md items with YAML frontmatter, Doorstop's
// markdown item format) are items whose uid is the file name.
//
// Mapped: the document's attributes.defaults.doc.title → its title (else
// the prefix); uid → id; level, as written ("2.0" keeps its ".0"); header
// → title, or for a heading (normative false, level ending in .0) with
// an empty header, the text's first line, as Doorstop shows it (the rest
// is the body); text → body, with the images it references (relative
// paths below the item's folder) copied beside the item's file; normative;
// derived; active: false → status deprecated;
// links → parent, each with its fingerprint checked against the parent's
// stamp as Doorstop computes it (sha256, urlsafe base64, over uid, text,
// ref, references and the reviewed attributes; older Doorstop's md5 hex
// too), so a link Doorstop calls suspect stays suspect; ref and
// references (type file) → implements. Other attributes become fields.
// Reported: files that do not parse, an item outside any document, links
// to unknown items, references that are not files, images that cannot be
// copied, document attributes other than the title, and attributes that
// are not scalars.
func ImportDoorstop(files []File) *Result {
	r := &Result{Format: "doorstop"}
	docs := map[string]*doorstopDoc{}
	for _, f := range files {
		if path.Base(f.Name) != ".doorstop.yml" {
			continue
		}
		var cfg struct {
			Settings struct {
				Prefix string `yaml:"prefix"`
				Parent string `yaml:"parent"`
				Sep    string `yaml:"sep"`
			} `yaml:"settings"`
			Attributes struct {
				Reviewed []string `yaml:"reviewed"`
				Defaults struct {
					Doc map[string]any `yaml:"doc"`
				} `yaml:"defaults"`
				Publish []any `yaml:"publish"`
			} `yaml:"attributes"`
			Extensions map[string]any `yaml:"extensions"`
		}
		if err := yaml.Unmarshal(f.Data, &cfg); err != nil || cfg.Settings.Prefix == "" {
			r.unmapped(f.Name, "document", "not a Doorstop document (%v)", errOr(err, "no settings.prefix"))
			continue
		}
		d := &doorstopDoc{dir: path.Dir(f.Name), prefix: cfg.Settings.Prefix, parent: cfg.Settings.Parent, sep: cfg.Settings.Sep, from: "doorstop:" + f.Name, reviewed: cfg.Attributes.Reviewed}
		docs[d.dir] = d
		doc := Document{Path: Slug(d.prefix), Title: d.prefix, Prefix: d.prefix, From: d.from}
		for _, k := range slices.Sorted(maps.Keys(cfg.Attributes.Defaults.Doc)) {
			v, _ := scalar(cfg.Attributes.Defaults.Doc[k])
			if k == "title" && strings.TrimSpace(v) != "" {
				doc.Title = strings.TrimSpace(v)
				continue
			}
			r.unmapped(f.Name, "document attribute "+k+" "+strconv.Quote(v), "a tracewiki document has a title and a prefix only")
		}
		if len(cfg.Attributes.Publish) > 0 {
			r.unmapped(f.Name, "attributes.publish", "tracewiki publishes every field")
		}
		for _, k := range slices.Sorted(maps.Keys(cfg.Extensions)) {
			r.unmapped(f.Name, "extensions."+k, "Doorstop extensions do not apply in tracewiki")
		}
		r.Documents = append(r.Documents, doc)
	}
	// An item belongs to the document of the nearest folder at or above it.
	docOf := func(name string) *doorstopDoc {
		for dir := path.Dir(name); ; dir = path.Dir(dir) {
			if d := docs[dir]; d != nil {
				return d
			}
			if dir == "." || dir == "/" {
				return nil
			}
		}
	}
	type raw struct {
		item  Item
		data  map[string]any
		links []map[string]any
		doc   *doorstopDoc
	}
	var raws []raw
	for _, f := range files {
		ext := path.Ext(f.Name)
		base := path.Base(f.Name)
		if strings.HasPrefix(base, ".") || ext != ".yml" && ext != ".yaml" && ext != ".md" {
			continue
		}
		d := docOf(f.Name)
		if d == nil {
			r.unmapped(f.Name, "file", "not inside a Doorstop document (no .doorstop.yml above it)")
			continue
		}
		data, text, level, err := doorstopItem(f, ext)
		if err != nil {
			r.unmapped(f.Name, "item", "%v", err)
			continue
		}
		uid := strings.TrimSuffix(base, ext)
		it := Item{ID: uid, Document: Slug(d.prefix), Normative: true, From: "doorstop:" + f.Name, Fields: map[string]string{}}
		if text != "" {
			data["text"] = text
		}
		it.Text = str(data["text"])
		for k, v := range data {
			switch k {
			case "text", "links", "reviewed":
			case "level":
				it.Level = level
			case "header":
				it.Title = strings.TrimSpace(str(v))
			case "normative":
				it.Normative = truthy(v)
			case "derived":
				it.Derived = truthy(v)
			case "active":
				if !truthy(v) {
					it.Status = "deprecated"
				}
			case "ref":
				if s := strings.TrimSpace(str(v)); s != "" {
					it.Implements = append(it.Implements, s)
				}
			case "references":
				refs, _ := v.([]any)
				for _, ref := range refs {
					m, _ := ref.(map[string]any)
					if t := str(m["type"]); t != "file" || str(m["path"]) == "" {
						r.unmapped(f.Name, "reference", "only references of type file map to implements (got type %q)", t)
						continue
					}
					it.Implements = append(it.Implements, str(m["path"]))
				}
			default:
				if s, ok := scalar(v); ok {
					it.Fields[k] = s
				} else {
					r.unmapped(f.Name, "attribute "+k, "not a string, number or boolean")
				}
			}
		}
		if it.Title == "" && !it.Normative && strings.HasSuffix(it.Level, ".0") {
			// A heading without a header: Doorstop shows the text's first
			// line as its heading.
			first, rest, _ := strings.Cut(strings.TrimSpace(it.Text), "\n")
			it.Title, it.Text = strings.TrimSpace(first), strings.TrimSpace(rest)
		}
		r.images(&it, f.Name)
		if !it.Normative || it.Title != "" && it.Text == "" {
			r.Sections++
		}
		if len(it.Fields) == 0 {
			it.Fields = nil
		}
		links, err := doorstopLinks(data["links"])
		if err != nil {
			r.unmapped(f.Name, "links", "%v", err)
		}
		raws = append(raws, raw{item: it, data: data, links: links, doc: d})
	}
	stamps := map[string][]string{}
	for _, x := range raws {
		stamps[x.item.ID] = doorstopStamps(x.item.ID, x.data, x.doc.reviewed)
	}
	for _, x := range raws {
		it := x.item
		for _, l := range x.links {
			for uid, stamp := range l {
				p := Parent{ID: uid}
				s := str(stamp)
				switch {
				case stamps[uid] == nil:
				case s == "":
					p.Suspect, p.Why = true, "the link was never reviewed in Doorstop"
				case !slices.Contains(stamps[uid], s):
					p.Suspect, p.Why = true, "Doorstop's fingerprint of the parent no longer matches the link"
				}
				it.Parents = append(it.Parents, p)
			}
		}
		slices.SortFunc(it.Parents, func(a, b Parent) int { return strings.Compare(a.ID, b.ID) })
		r.Items = append(r.Items, it)
	}
	r.finish()
	return r
}

// doorstopItem decodes a YAML item, or a Markdown item's frontmatter and
// returns its body as the text, and its level as written (a YAML float
// such as 2.0 would lose its ".0").
func doorstopItem(f File, ext string) (map[string]any, string, string, error) {
	data := map[string]any{}
	src, text := f.Data, ""
	if ext == ".md" {
		s := strings.ReplaceAll(string(f.Data), "\r\n", "\n")
		rest, ok := strings.CutPrefix(s, "---\n")
		fm, body, ok2 := strings.Cut(rest, "\n---\n")
		if !ok || !ok2 {
			return nil, "", "", fmt.Errorf("a Markdown item needs YAML frontmatter between --- lines")
		}
		src, text = []byte(fm), strings.TrimSpace(body)
	}
	if err := yaml.Unmarshal(src, &data); err != nil {
		return nil, "", "", fmt.Errorf("bad YAML: %v", err)
	}
	var lv struct {
		Level yaml.Node `yaml:"level"`
	}
	if err := yaml.Unmarshal(src, &lv); err == nil && lv.Level.Kind == yaml.ScalarNode {
		return data, text, strings.TrimSpace(lv.Level.Value), nil
	}
	return data, text, levelString(data["level"]), nil
}

// doorstopLinks reads links: a list of "UID" or {UID: stamp}.
func doorstopLinks(v any) ([]map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("links is not a list")
	}
	var out []map[string]any
	for _, l := range list {
		switch l := l.(type) {
		case string:
			out = append(out, map[string]any{l: nil})
		case map[string]any:
			out = append(out, l)
		default:
			return out, fmt.Errorf("a link is neither a UID nor {UID: stamp}")
		}
	}
	return out, nil
}

// doorstopStamps returns the fingerprints Doorstop may have recorded for
// the item: its stamp (links excluded) as current Doorstop computes it
// (sha256, urlsafe base64 of str() of uid, text, ref, references and the
// reviewed attributes) and as older Doorstop did (md5 hex of uid, text,
// ref), with text as written and stripped.
func doorstopStamps(uid string, data map[string]any, reviewed []string) []string {
	var out []string
	text := str(data["text"])
	for _, t := range []string{text, strings.TrimSpace(text), strings.TrimSpace(text) + "\n"} {
		values := []string{uid, t, str(data["ref"])}
		if refs, ok := data["references"].([]any); ok && len(refs) > 0 {
			values = append(values, pyRepr(refs))
		}
		for _, k := range reviewed {
			if v, ok := data[k]; ok {
				values = append(values, pyStr(v))
			}
		}
		h := sha256.New()
		m := md5.New()
		for _, v := range values {
			h.Write([]byte(v))
		}
		for _, v := range values[:3] {
			m.Write([]byte(v))
		}
		out = append(out, base64.URLEncoding.EncodeToString(h.Sum(nil)), hex.EncodeToString(m.Sum(nil)))
	}
	return out
}

// pyStr is Python's str() of a decoded YAML value; pyRepr its repr().
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

func pyRepr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case string:
		q := "'"
		if strings.Contains(v, "'") && !strings.Contains(v, `"`) {
			q = `"`
		}
		s := strings.ReplaceAll(v, `\`, `\\`)
		s = strings.ReplaceAll(s, "\n", `\n`)
		if q == "'" {
			s = strings.ReplaceAll(s, "'", `\'`)
		}
		return q + s + q
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = pyRepr(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		// yaml.v3 does not keep key order in a map; Doorstop writes
		// references as path, then type.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if len(keys) == 2 && keys[0] == "path" && keys[1] == "type" {
			keys = []string{"path", "type"}
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyRepr(k) + ": " + pyRepr(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

func str(v any) string {
	s, _ := scalar(v)
	return s
}

// scalar formats a YAML scalar as written, as near as the decoded value
// allows.
func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case bool:
		return fmt.Sprint(v), true
	case int, int64, uint64:
		return fmt.Sprint(v), true
	case float64:
		return fmt.Sprint(v), true
	}
	return "", false
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		s := strings.ToLower(strings.TrimSpace(v))
		return s == "yes" || s == "true" || s == "1" || s == "enabled"
	case int:
		return v != 0
	}
	return false
}

// levelString formats a Doorstop level: 1.1 (a YAML float), "1.1.1" or 2.
func levelString(v any) string {
	s, _ := scalar(v)
	s = strings.TrimSpace(s)
	if f, ok := v.(float64); ok {
		s = fmt.Sprintf("%g", f)
	}
	return s
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}
