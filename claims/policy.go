package claims

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file holds the content side of SPEC 1.7: the typed custom fields
// and the policy rules of tracewiki.toml (decoded by site/workspace into
// these structs), the waivers of a requirement's front matter, and the
// checks that need both (a field's type, a waiver's rule). The policy's
// evaluation is synth's.

// FieldValue is a custom field as written in the front matter: a scalar
// with the type its syntax gave it, or a list of scalars.
type FieldValue struct {
	// Text is a scalar as written; a list's items joined by ", ".
	Text string
	// Type is a scalar's syntactic type: "string", "number", "bool" or
	// "other" (a YAML or TOML date or time); "list" for a list.
	Type  string
	Items []FieldValue
	Pos   Pos
}

// Waiver justifies the violation of one policy rule by one requirement:
// `waivers: [{rule, reason, by, date}]`. The lock records what it
// justified (the requirement's revision) when it is first seen; once
// that changes, the waiver has expired (SPEC 1.7).
type Waiver struct {
	Rule   string
	Reason string
	By     string // who granted it, as written; "" when not given
	Date   string // when, YYYY-MM-DD; "" when not given
	Pos    Pos
}

// The custom field types of SPEC 1.7, exactly these.
const (
	FieldString = "string"
	FieldNumber = "number"
	FieldBool   = "bool"
	FieldDate   = "date"
	FieldEnum   = "enum"
	FieldList   = "list"
)

// FieldTypes are the types a [FieldSpec] may name, in the order messages
// list them.
var FieldTypes = []string{FieldString, FieldNumber, FieldBool, FieldDate, FieldEnum, FieldList}

// FieldSpec is `[fields.NAME]` in tracewiki.toml: the type of a custom
// field. A list's items have the type Of (string when ""); an enum's (or
// a list of enums') allowed values are Values.
type FieldSpec struct {
	Type     string   `toml:"type"`
	Of       string   `toml:"of"`
	Values   []string `toml:"values"`
	Required bool     `toml:"required"`
}

// Invalid says what is wrong with the spec itself, or "".
func (s FieldSpec) Invalid() string {
	if !slices.Contains(FieldTypes, s.Type) {
		return fmt.Sprintf("type %q: want one of %s", s.Type, strings.Join(FieldTypes, ", "))
	}
	item := s.Type
	if s.Type == FieldList {
		item = cmpOr(s.Of, FieldString)
		if item == FieldList || !slices.Contains(FieldTypes, item) {
			return fmt.Sprintf("of %q: a list's items are one of string, number, bool, date, enum", s.Of)
		}
	} else if s.Of != "" {
		return fmt.Sprintf("of %q: only a list has items", s.Of)
	}
	if item == FieldEnum && len(s.Values) == 0 {
		return "an enum needs its values"
	}
	if item != FieldEnum && len(s.Values) > 0 {
		return "values are for an enum only"
	}
	return ""
}

// check says what is wrong with v as a value of the spec's type, or "".
func (s FieldSpec) check(v FieldValue) string {
	if s.Type != FieldList {
		if v.Type == FieldList {
			return fmt.Sprintf("want a %s, got a list", s.Type)
		}
		return s.checkScalar(s.Type, v)
	}
	// A lone scalar is a list of one, as for tags.
	items := v.Items
	if v.Type != FieldList {
		items = []FieldValue{v}
	}
	for _, it := range items {
		if msg := s.checkScalar(cmpOr(s.Of, FieldString), it); msg != "" {
			return "a list item: " + msg
		}
	}
	return ""
}

// checkScalar checks one scalar against a scalar type. Numbers and bools
// may be quoted: an import writes every field as a string.
func (s FieldSpec) checkScalar(typ string, v FieldValue) string {
	switch typ {
	case FieldNumber:
		if n, err := strconv.ParseFloat(v.Text, 64); err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return fmt.Sprintf("want a number, got %q", v.Text)
		}
	case FieldBool:
		if v.Text != "true" && v.Text != "false" {
			return fmt.Sprintf("want true or false, got %q", v.Text)
		}
	case FieldDate:
		if _, err := time.Parse(time.DateOnly, v.Text); err != nil {
			return fmt.Sprintf("want a date (YYYY-MM-DD), got %q", v.Text)
		}
	case FieldEnum:
		if !slices.Contains(s.Values, v.Text) {
			return fmt.Sprintf("%q is not one of %s", v.Text, strings.Join(s.Values, ", "))
		}
	}
	return ""
}

// CheckFields checks every requirement's custom fields against the
// declared types: a value of the wrong type is a content error at its own
// line, and a normative requirement without a required field one at its
// file. Fields not declared are free text.
func CheckFields(m *Model, specs map[string]FieldSpec) Diagnostics {
	var ds Diagnostics
	names := sortedKeys(specs)
	for _, r := range m.Requirements {
		for _, name := range names {
			spec := specs[name]
			v, ok := r.FieldValues[name]
			if !ok || v.Type != FieldList && v.Text == "" {
				if spec.Required && r.Normative {
					ds.Add(Pos{File: r.Doc.File, Line: 1}, CodeField, "%s: field %q is required (tracewiki.toml [fields.%s])", r.ID, name, name)
				}
				continue
			}
			if msg := spec.check(v); msg != "" {
				ds.Add(v.Pos, CodeField, "fields.%s: %s (tracewiki.toml [fields.%s] type %s)", name, msg, name, spec.describe())
			}
		}
	}
	return ds
}

// describe names the spec's type for messages: "enum", "list of date".
func (s FieldSpec) describe() string {
	if s.Type == FieldList {
		return "list of " + cmpOr(s.Of, FieldString)
	}
	return s.Type
}

// CheckWaivers checks that every waiver names a rule of the policy (rules
// lists their names): a waiver for a rule that does not exist would
// silently justify nothing.
func CheckWaivers(m *Model, rules []string) Diagnostics {
	var ds Diagnostics
	for _, r := range m.Requirements {
		for _, w := range r.Waivers {
			if !slices.Contains(rules, w.Rule) {
				known := "the config declares none"
				if len(rules) > 0 {
					known = "known rules: " + strings.Join(rules, ", ")
				}
				ds.Add(w.Pos, CodeField, "waivers: rule %q is not a policy rule (%s)", w.Rule, known)
			}
		}
	}
	return ds
}

// Rule is `[[policy.rules]]` in tracewiki.toml: what every requirement it
// applies to must have (SPEC 1.7).
type Rule struct {
	Name string `toml:"name"`
	// Applies selects the requirements ([ParseSelector]); "" is every
	// normative requirement.
	Applies string `toml:"applies"`
	// ParentType asks for a parent whose `type` field has this value.
	ParentType string `toml:"parent_type"`
	// Implements, Tests and Verified ask for the requirement's derived
	// field of that name (SPEC 2): a linked implements link, a linked
	// tests link, live evidence.
	Implements bool `toml:"implements"`
	Tests      bool `toml:"tests"`
	Verified   bool `toml:"verified"`
	// Fields are custom fields that must have a value.
	Fields []string `toml:"fields"`
	// MinChildren asks for at least this many requirements refining it.
	MinChildren int `toml:"min_children"`
	// Needs lists the artifact types of an OpenFastTrace `needs` field,
	// for the built-in rule [NeedsRule] only (impl, utest, itest or a
	// child's type); never read from the config.
	Needs []string `toml:"-"`
}

// NeedsRule is the name of the built-in rule that reads an imported
// OpenFastTrace item's `needs` field (SPEC 5): impl needs an implements
// link, utest and itest a tests link, any other type T a child whose
// `type` field is T. A config rule may not take its name.
const NeedsRule = "needs"

// NeedsField is the custom field the built-in rule reads.
const NeedsField = "needs"

// Empty reports whether the rule requires nothing.
func (r Rule) Empty() bool {
	return r.ParentType == "" && !r.Implements && !r.Tests && !r.Verified && len(r.Fields) == 0 && r.MinChildren == 0 && len(r.Needs) == 0
}

// Requires says what the rule requires, for people: "implements, tests".
func (r Rule) Requires() string {
	var out []string
	if r.ParentType != "" {
		out = append(out, "a parent of type "+r.ParentType)
	}
	if r.Implements {
		out = append(out, "implements")
	}
	if r.Tests {
		out = append(out, "tests")
	}
	if r.Verified {
		out = append(out, "verified")
	}
	for _, f := range r.Fields {
		out = append(out, "field "+f)
	}
	if r.MinChildren > 0 {
		out = append(out, fmt.Sprintf("%d child%s", r.MinChildren, map[bool]string{true: "ren"}[r.MinChildren > 1]))
	}
	if len(r.Needs) > 0 {
		out = append(out, "what its needs field names")
	}
	return strings.Join(out, ", ")
}

// NeedsOf returns the artifact types of r's `needs` field ("impl, utest"),
// trimmed, without blanks or repeats, in the order written.
func NeedsOf(r *Requirement) []string {
	var out []string
	for t := range strings.SplitSeq(r.Fields[NeedsField], ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// Selector is a parsed `applies`: which requirements a rule applies to.
type Selector struct {
	// Key is "" (every normative requirement), "document" (Value is a
	// glob of document paths, ** for any folders), "level" (a level
	// prefix: "2" selects 2, 2.1, 2.1.3), "tag", or a custom field's name
	// (Value is the field's value: "type=sw").
	Key, Value string
}

// ParseSelector parses an `applies` string: "", "KEY=VALUE".
func ParseSelector(s string) (Selector, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Selector{}, nil
	}
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return Selector{}, fmt.Errorf("applies %q: want KEY=VALUE (type=sw, document=system/**, level=2, tag=safety) or \"\" for every normative requirement", s)
	}
	switch k {
	case "document":
		if _, err := path.Match(strings.ReplaceAll(v, "**", "*"), ""); err != nil {
			return Selector{}, fmt.Errorf("applies %q: bad glob %q", s, v)
		}
	case "level":
		if !validLevel(v) {
			return Selector{}, fmt.Errorf("applies %q: %q is not a level (numbers joined by dots)", s, v)
		}
	}
	return Selector{Key: k, Value: v}, nil
}

// Matches reports whether the selector selects r. It does not look at
// r.Normative: the policy skips what is not normative.
func (s Selector) Matches(r *Requirement) bool {
	switch s.Key {
	case "":
		return true
	case "document":
		return matchGlob(s.Value, r.Document)
	case "level":
		return r.Level == s.Value || strings.HasPrefix(r.Level, s.Value+".")
	case "tag":
		return slices.Contains(r.Tags, s.Value)
	}
	v, ok := r.FieldValues[s.Key]
	if ok && v.Type == FieldList {
		return slices.ContainsFunc(v.Items, func(it FieldValue) bool { return it.Text == s.Value })
	}
	return r.Fields[s.Key] == s.Value
}

// matchGlob matches a slash path against a glob whose "**" segments match
// any number of folders, and whose other segments are [path.Match]
// patterns.
func matchGlob(pattern, name string) bool {
	var names []string
	if name != "" {
		names = strings.Split(name, "/")
	}
	return matchSegments(strings.Split(pattern, "/"), names)
}

func matchSegments(pat, names []string) bool {
	if len(pat) == 0 {
		return len(names) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(names); i++ {
			if matchSegments(pat[1:], names[i:]) {
				return true
			}
		}
		return false
	}
	if len(names) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], names[0])
	return ok && matchSegments(pat[1:], names[1:])
}

// cmpOr is a, or b when a is "".
func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// fieldMap decodes `fields`: a mapping of names to scalars or lists of
// scalars, as text (a list's items joined by ", ") and as written.
func (d decoder) fieldMap(e entry) (map[string]string, map[string]FieldValue) {
	switch e.val.kind {
	case vNull:
		return nil, nil
	case vMap:
		text, vals := map[string]string{}, map[string]FieldValue{}
		for _, x := range d.entries(e.val) {
			switch x.val.kind {
			case vNull:
				text[x.key] = ""
				vals[x.key] = FieldValue{Type: FieldString, Pos: x.val.pos}
			case vScalar:
				text[x.key] = x.val.s
				vals[x.key] = FieldValue{Text: x.val.s, Type: x.val.typ, Pos: x.val.pos}
			case vList:
				v := FieldValue{Type: FieldList, Pos: x.val.pos}
				var parts []string
				for _, it := range x.val.items {
					if it.kind != vScalar {
						d.ds.Add(it.pos, CodeField, "%s.%s: want a string, got %s", e.key, x.key, it.describe())
						continue
					}
					v.Items = append(v.Items, FieldValue{Text: it.s, Type: it.typ, Pos: it.pos})
					parts = append(parts, it.s)
				}
				v.Text = strings.Join(parts, ", ")
				text[x.key], vals[x.key] = v.Text, v
			default:
				d.ds.Add(x.val.pos, CodeField, "%s.%s: want a string or a list of strings, got %s", e.key, x.key, x.val.describe())
			}
		}
		return text, vals
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want a mapping of names to values, got %s", e.key, e.val.describe())
	return nil, nil
}

// waiverKeys are the keys of a waiver, sorted.
var waiverKeys = []string{"by", "date", "reason", "rule"}

// waivers decodes `waivers: [{rule, reason, by, date}]`. A waiver needs
// its rule and its reason (a justification nobody wrote down is none),
// and names a rule once.
func (d decoder) waivers(e entry) []Waiver {
	if e.val.kind == vNull {
		return nil
	}
	if e.val.kind != vList {
		d.ds.Add(e.val.pos, CodeField, "waivers: want a list of {rule, reason, by, date}, got %s", e.val.describe())
		return nil
	}
	var out []Waiver
	for _, item := range e.val.items {
		if item.kind != vMap {
			d.ds.Add(item.pos, CodeField, "waivers: want a mapping {rule, reason, by, date}, got %s", item.describe())
			continue
		}
		w := Waiver{Pos: item.pos}
		for _, x := range d.entries(item) {
			if !slices.Contains(waiverKeys, x.key) {
				d.ds.Add(x.pos, CodeUnknownKey, "waivers: unknown key %q (known keys: %s)", x.key, strings.Join(waiverKeys, ", "))
				continue
			}
			s := strings.TrimSpace(d.str(x))
			switch x.key {
			case "rule":
				w.Rule = s
			case "reason":
				w.Reason = s
			case "by":
				w.By = s
			case "date":
				w.Date = s
				if _, err := time.Parse(time.DateOnly, s); s != "" && err != nil {
					d.ds.Add(x.val.pos, CodeField, "waivers: date %q is not a date (YYYY-MM-DD)", s)
				}
			}
		}
		switch {
		case w.Rule == "":
			d.ds.Add(item.pos, CodeField, "waivers: a waiver names its rule")
		case w.Reason == "":
			d.ds.Add(item.pos, CodeField, "waivers: the waiver of %q gives no reason", w.Rule)
		case slices.ContainsFunc(out, func(o Waiver) bool { return o.Rule == w.Rule }):
			d.ds.Add(item.pos, CodeField, "waivers: rule %q is waived twice", w.Rule)
		default:
			out = append(out, w)
		}
	}
	return out
}
