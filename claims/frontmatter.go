package claims

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"
)

// A value is a decoded YAML, TOML or JSON value with the position it was
// written at, so that a bad field is reported at its own line whatever the
// format.
type value struct {
	kind    valueKind
	s       string // a scalar, as written
	typ     string // a scalar's type: "string", "number", "bool" or "other"
	items   []*value
	entries []entry // a mapping's keys, in source order
	pos     Pos
}

type valueKind int

const (
	vNull valueKind = iota
	vScalar
	vList
	vMap
)

// entry is one key of a mapping.
type entry struct {
	key string
	pos Pos // of the key
	val *value
}

// describe names v's type for messages.
func (v *value) describe() string {
	switch v.kind {
	case vNull:
		return "nothing"
	case vList:
		return "a list"
	case vMap:
		return "a mapping"
	}
	if v.typ == "string" {
		return "a string"
	}
	return "a " + v.typ
}

// Limits on decoded structure: frontmatter and records are small, and
// YAML aliases can otherwise expand without bound.
const (
	maxValueDepth = 64
	maxValueNodes = 100_000
)

var errValueLimit = fmt.Errorf("nested deeper than %d levels or larger than %d values", maxValueDepth, maxValueNodes)

// fmDecoded is what the frontmatter formats decode into.
type fmDecoded struct {
	found  bool
	format string // "yaml" or "toml"
	raw    []byte // the frontmatter text between the delimiters
	yaml   yaml.Node
	toml   map[string]any
	err    error
}

// fmFormats are the frontmatter formats: YAML between "---" lines and TOML
// between "+++" lines. Decoding errors are kept in the fmDecoded instead of
// being returned, so that the body is still split off and parsed.
func fmFormats() []*frontmatter.Format {
	return []*frontmatter.Format{
		frontmatter.NewFormat("---", "---", func(data []byte, v any) error {
			d := v.(*fmDecoded)
			d.found, d.format, d.raw = true, "yaml", data
			d.err = unmarshalYAML(data, &d.yaml)
			return nil
		}),
		frontmatter.NewFormat("+++", "+++", func(data []byte, v any) error {
			d := v.(*fmDecoded)
			d.found, d.format, d.raw = true, "toml", data
			_, d.err = toml.Decode(string(data), &d.toml)
			return nil
		}),
	}
}

// splitFrontmatter splits data into its decoded frontmatter (nil when there
// is none) and its body, and returns the line of the file on which the body
// starts.
func splitFrontmatter(name string, data []byte, ds *Diagnostics) (root *value, body []byte, bodyLine int) {
	// The frontmatter opens at the first non-blank line, as the frontmatter
	// package detects it.
	openLine, open := 1, ""
	for rest := data; len(rest) > 0; openLine++ {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) > 0 {
			open = string(t)
			break
		}
		rest = after
	}

	var d fmDecoded
	rest, err := frontmatter.Parse(bytes.NewReader(data), &d, fmFormats()...)
	if err != nil || !d.found {
		if open == "---" || open == "+++" {
			ds.Add(Pos{File: name, Line: openLine}, CodeSyntax, "frontmatter opened with %s is never closed", open)
		}
		return nil, data, 1
	}
	bodyOff := len(data) - len(rest)
	body = data[bodyOff:]
	bodyLine = 1 + bytes.Count(data[:bodyOff], []byte("\n"))

	// Line n of the frontmatter text is line openLine+n of the file.
	if d.err != nil {
		ds.Add(fmErrorPos(name, d.err, openLine), CodeSyntax, "bad %s frontmatter: %s", strings.ToUpper(d.format), fmErrorMsg(d.err))
		return nil, body, bodyLine
	}
	switch d.format {
	case "yaml":
		c := yamlConv{file: name, lineOff: openLine, budget: maxValueNodes}
		root, err = c.conv(&d.yaml, 0)
	case "toml":
		root, err = tomlTree(name, d.toml, d.raw, openLine)
	}
	if err != nil {
		ds.Add(Pos{File: name, Line: openLine}, CodeSyntax, "frontmatter: %v", err)
		return nil, body, bodyLine
	}
	return root, body, bodyLine
}

// fmErrorPos finds the line of a YAML or TOML error in the file; lineOff
// is the line before the text that was parsed.
func fmErrorPos(name string, err error, lineOff int) Pos {
	var pe toml.ParseError
	if errors.As(err, &pe) && pe.Position.Line > 0 {
		return Pos{File: name, Line: lineOff + pe.Position.Line, Col: pe.Position.Col}
	}
	var ye *yamlError
	if errors.As(err, &ye) {
		return Pos{File: name, Line: lineOff + ye.line}
	}
	return Pos{File: name, Line: lineOff + yamlErrorLine(err)}
}

func fmErrorMsg(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Message
	}
	_, msg := splitYAMLError(err)
	return msg
}

// yamlParserProblems are the messages of yaml.v3's parser errors, which
// carry a 0-based line where its scanner errors carry a 1-based one.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlError is a yaml.v3 error with the 1-based line of the text it is
// on.
type yamlError struct {
	err  error
	line int
}

func (e *yamlError) Error() string { return e.err.Error() }
func (e *yamlError) Unwrap() error { return e.err }

// unmarshalYAML decodes data into n; a failure is a [*yamlError] that names
// the line where the construct at fault starts ("title: [x" with no
// closing bracket: the line of the "["). yaml.v3 names that line, unless
// it is the text's first: its marks are 0-based and it takes line 0 for
// "no context", so it names the line where it noticed the error instead,
// further down. Decoded again after one blank line, the first line is the
// second and the line named is one too many, whatever the error.
func unmarshalYAML(data []byte, n *yaml.Node) error {
	err := yaml.Unmarshal(data, n)
	if err == nil {
		return nil
	}
	line := yamlErrorLine(err)
	var again yaml.Node
	if err2 := yaml.Unmarshal(append([]byte("\n"), data...), &again); err2 != nil {
		line = max(yamlErrorLine(err2)-1, 1)
	}
	return &yamlError{err: err, line: line}
}

// yamlErrorLine returns the 1-based line of a yaml.v3 error, which carries
// it only in its text ("yaml: line 3: ..."); 1 when there is none.
func yamlErrorLine(err error) int {
	n, msg := splitYAMLError(err)
	if slices.Contains(yamlParserProblems, msg) {
		n++
	}
	return max(n, 1)
}

// splitYAMLError splits "yaml: line N: msg" into N (0 when absent) and msg.
func splitYAMLError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	rest, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return 0, msg
	}
	num, after, ok := strings.Cut(rest, ": ")
	n, err2 := strconv.Atoi(num)
	if !ok || err2 != nil {
		return 0, msg
	}
	return n, after
}

// yamlConv converts a yaml.v3 node tree into values. lineOff is added to
// every line (the line before the YAML text starts).
type yamlConv struct {
	file    string
	lineOff int
	budget  int
}

func (c *yamlConv) conv(n *yaml.Node, depth int) (*value, error) {
	c.budget--
	if depth > maxValueDepth || c.budget < 0 {
		return nil, errValueLimit
	}
	pos := Pos{File: c.file, Line: c.lineOff + n.Line, Col: n.Column}
	if n.Line == 0 {
		pos = Pos{File: c.file, Line: c.lineOff + 1}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &value{kind: vNull, pos: pos}, nil
		}
		return c.conv(n.Content[0], depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return &value{kind: vNull, pos: pos}, nil
		}
		v, err := c.conv(n.Alias, depth+1)
		if err != nil {
			return nil, err
		}
		cp := *v
		cp.pos = pos
		return &cp, nil
	case yaml.ScalarNode:
		v := &value{kind: vScalar, s: n.Value, pos: pos}
		switch n.ShortTag() {
		case "!!null":
			v.kind = vNull
		case "!!str":
			v.typ = "string"
		case "!!int", "!!float":
			v.typ = "number"
		case "!!bool":
			v.typ = "bool"
		default:
			v.typ = "other"
		}
		return v, nil
	case yaml.SequenceNode:
		v := &value{kind: vList, pos: pos}
		for _, item := range n.Content {
			iv, err := c.conv(item, depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, iv)
		}
		return v, nil
	case yaml.MappingNode:
		v := &value{kind: vMap, pos: pos}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			kv, err := c.conv(k, depth+1)
			if err != nil {
				return nil, err
			}
			if kv.kind != vScalar {
				return nil, fmt.Errorf("line %d: a mapping key must be a string, not %s", kv.pos.Line, kv.describe())
			}
			vv, err := c.conv(val, depth+1)
			if err != nil {
				return nil, err
			}
			v.entries = append(v.entries, entry{key: kv.s, pos: kv.pos, val: vv})
		}
		return v, nil
	}
	return &value{kind: vNull, pos: pos}, nil
}

// tomlTree converts decoded TOML into values. TOML decoders do not report
// where keys are, so positions are found by scanning the text: a key's line
// is the first line of its table's section that assigns it ("key =",
// "\"key\" =", "key.sub ="), a table's is its "[header]" line, the n-th
// element of an array of tables is at the n-th "[[header]]" line of its
// section, and a list element is at the first line from its key's on that
// holds it quoted. What is not found gets its parent's position.
func tomlTree(file string, m map[string]any, raw []byte, lineOff int) (*value, error) {
	t := &tomlConv{
		file:    file,
		lineOff: lineOff,
		lines:   strings.Split(string(raw), "\n"),
		budget:  maxValueNodes,
		headers: map[string][]int{},
		keys:    map[string][]int{},
	}
	t.isHeader = make([]bool, len(t.lines))
	for i, l := range t.lines {
		if isTOMLHeader(l) {
			t.isHeader[i] = true
			h, _ := headerName(l)
			t.headers[h] = append(t.headers[h], i)
		} else if k := lineKey(l); k != "" {
			t.keys[k] = append(t.keys[k], i)
		}
	}
	all := span{0, len(t.lines)}
	return t.conv(m, nil, Pos{File: file, Line: lineOff + 1}, span{0, t.nextHeader(0)}, all, 0)
}

type tomlConv struct {
	file     string
	lineOff  int
	lines    []string
	budget   int
	isHeader []bool
	headers  map[string][]int // table name → its header lines, ascending
	keys     map[string][]int // first key of a "key = ..." line → lines, ascending
}

// span is a range [from, to) of lines of the TOML text.
type span struct{ from, to int }

// first returns the first of the ascending lines within s.
func (s span) first(lines []int) (int, bool) {
	i, _ := slices.BinarySearch(lines, s.from)
	if i < len(lines) && lines[i] < s.to {
		return lines[i], true
	}
	return 0, false
}

func isTOMLHeader(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "[")
}

// lineKey returns the first key of a "key = value" or "key.sub = value"
// line, unquoted; "" for other lines.
func lineKey(line string) string {
	t := strings.TrimLeft(line, " \t")
	var k string
	switch {
	case strings.HasPrefix(t, `"`) || strings.HasPrefix(t, "'"):
		end := strings.IndexByte(t[1:], t[0])
		if end < 0 {
			return ""
		}
		k, t = t[1:1+end], t[2+end:]
	default:
		end := strings.IndexAny(t, " \t=.")
		if end <= 0 {
			return ""
		}
		k, t = t[:end], t[end:]
	}
	t = strings.TrimLeft(t, " \t")
	if strings.HasPrefix(t, "=") || strings.HasPrefix(t, ".") {
		return k
	}
	return ""
}

// headerName returns the table name of a "[a.b]" or "[[a.b]]" line, spaces
// around dots and quotes removed, and whether it is an array header.
func headerName(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	array := strings.HasPrefix(t, "[[") && strings.HasSuffix(t, "]]")
	t = strings.Trim(t, "[]")
	parts := strings.Split(t, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, "."), array
}

// nextHeader returns the first header line at or after from.
func (t *tomlConv) nextHeader(from int) int {
	for i := from; i < len(t.lines); i++ {
		if t.isHeader[i] {
			return i
		}
	}
	return len(t.lines)
}

// sectionEnd returns the first header line at or after from that does not
// open a sub-table of name, or len(lines).
func (t *tomlConv) sectionEnd(from int, name string) int {
	for i := from; i < len(t.lines); i++ {
		if !t.isHeader[i] {
			continue
		}
		if h, array := headerName(t.lines[i]); h == name && array || !strings.HasPrefix(h, name+".") {
			return i
		}
	}
	return len(t.lines)
}

func (t *tomlConv) pos(line int, col int) Pos {
	return Pos{File: t.file, Line: t.lineOff + 1 + line, Col: col}
}

// findKey finds the line in keys that assigns key, and its column.
func (t *tomlConv) findKey(key string, keys span) (int, int, bool) {
	i, ok := keys.first(t.keys[key])
	if !ok {
		return 0, 0, false
	}
	l := t.lines[i]
	return i, len(l) - len(strings.TrimLeft(l, " \t")) + 1, true
}

// conv converts v, written at pos. keys is the section where v's own keys
// are assigned; headers is where the headers of its sub-tables may be.
func (t *tomlConv) conv(v any, path []string, pos Pos, keys, headers span, depth int) (*value, error) {
	t.budget--
	if depth > maxValueDepth || t.budget < 0 {
		return nil, errValueLimit
	}
	switch v := v.(type) {
	case map[string]any:
		out := &value{kind: vMap, pos: pos}
		for _, k := range sortedKeys(v) {
			sub := append(slices.Clone(path), k)
			name := strings.Join(sub, ".")
			var cv *value
			var err error
			kpos, ckeys, cheaders := pos, span{}, span{}
			header, found := headers.first(t.headers[name])
			if found {
				kpos = t.pos(header, 1)
				ckeys = span{header + 1, t.nextHeader(header + 1)}
				cheaders = span{header + 1, t.sectionEnd(header+1, name)}
			} else if line, col, ok := t.findKey(k, keys); ok {
				kpos, ckeys = t.pos(line, col), span{line, keys.to}
			}
			if arr, ok := v[k].([]map[string]any); ok && found {
				cv, err = t.tableArray(arr, name, kpos, headers, depth+1)
			} else {
				cv, err = t.conv(v[k], sub, kpos, ckeys, cheaders, depth+1)
			}
			if err != nil {
				return nil, err
			}
			out.entries = append(out.entries, entry{key: k, pos: kpos, val: cv})
		}
		slices.SortStableFunc(out.entries, func(a, b entry) int {
			return cmpPos(a.pos, b.pos)
		})
		return out, nil
	case []map[string]any:
		out := &value{kind: vList, pos: pos}
		for _, e := range v {
			cv, err := t.conv(e, path, pos, span{}, span{}, depth+1)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, cv)
		}
		return out, nil
	case []any:
		out := &value{kind: vList, pos: pos}
		for _, e := range v {
			epos := pos
			if s, ok := e.(string); ok {
				epos = t.findString(s, pos, keys.to)
			}
			cv, err := t.conv(e, path, epos, span{}, span{}, depth+1)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, cv)
		}
		return out, nil
	case string:
		return &value{kind: vScalar, typ: "string", s: v, pos: pos}, nil
	case int64:
		return &value{kind: vScalar, typ: "number", s: strconv.FormatInt(v, 10), pos: pos}, nil
	case float64:
		return &value{kind: vScalar, typ: "number", s: strconv.FormatFloat(v, 'g', -1, 64), pos: pos}, nil
	case bool:
		return &value{kind: vScalar, typ: "bool", s: strconv.FormatBool(v), pos: pos}, nil
	case time.Time:
		return &value{kind: vScalar, typ: "other", s: formatTOMLTime(v), pos: pos}, nil
	}
	return &value{kind: vScalar, typ: "other", s: fmt.Sprint(v), pos: pos}, nil
}

// tableArray converts an array of tables written as "[[name]]" sections
// within headers.
func (t *tomlConv) tableArray(arr []map[string]any, name string, pos Pos, headers span, depth int) (*value, error) {
	out := &value{kind: vList, pos: pos}
	var lines []int
	for _, i := range t.headers[name] {
		if _, array := headerName(t.lines[i]); array && headers.from <= i && i < headers.to {
			lines = append(lines, i)
		}
	}
	path := strings.Split(name, ".")
	for i, e := range arr {
		epos, keys, sub := pos, span{}, span{}
		if i < len(lines) {
			h := lines[i]
			epos = t.pos(h, 1)
			keys = span{h + 1, t.nextHeader(h + 1)}
			sub = span{h + 1, t.sectionEnd(h+1, name)}
		}
		cv, err := t.conv(e, path, epos, keys, sub, depth+1)
		if err != nil {
			return nil, err
		}
		out.items = append(out.items, cv)
	}
	return out, nil
}

// findString finds the first line from pos's on (before line to) that holds
// s quoted.
func (t *tomlConv) findString(s string, pos Pos, to int) Pos {
	from := pos.Line - t.lineOff - 1
	for i := max(from, 0); i < min(max(to, from+1), len(t.lines)); i++ {
		for _, q := range []string{`"` + s + `"`, `'` + s + `'`} {
			if j := strings.Index(t.lines[i], q); j >= 0 {
				return t.pos(i, j+1)
			}
		}
	}
	return pos
}

func formatTOMLTime(v time.Time) string {
	switch v.Location().String() {
	case "date-local":
		return v.Format("2006-01-02")
	case "time-local":
		return v.Format("15:04:05.999999999")
	case "datetime-local":
		return v.Format("2006-01-02T15:04:05.999999999")
	}
	return v.Format(time.RFC3339Nano)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func cmpPos(a, b Pos) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Col - b.Col
}

// fields are the decoded frontmatter fields of a requirement, decision or
// page. Each kind uses its own.
type fields struct {
	id         string
	idPos      Pos
	title      string
	status     string
	date       string
	typ        string
	sources    []string
	implements []TargetRef
	tests      []TargetRef
	issues     []IDRef
	supersedes []IDRef
	claims     []Claim

	level     string
	parents   []IDRef
	tags      []string
	fields    map[string]string
	fieldVals map[string]FieldValue
	waivers   []Waiver
	normative *bool
	derived   bool
	imported  *Imported
	prefix    string
}

// knownKeys are the frontmatter keys of each kind, sorted.
var knownKeys = map[fileKind][]string{
	kindRequirement: {"claims", "derived", "fields", "id", "implements", "imported", "issues", "level", "normative", "params", "parent", "status", "tags", "tests", "title", "waivers"},
	kindDocument:    {"imported", "params", "prefix", "title"},
	kindDecision:    {"claims", "date", "id", "params", "status", "supersedes", "title"},
	kindPage:        {"claims", "params", "sources", "title", "type"},
}

// statuses are the allowed status values of each kind.
var statuses = map[fileKind][]string{
	kindRequirement: {"proposed", "accepted", "rejected", "deprecated"},
	kindDecision:    {"open", "accepted", "superseded", "rejected", "closed"},
}

// decodeFields decodes the frontmatter of a file of the given kind,
// reporting unknown keys and bad values. A nil or empty frontmatter gives
// the zero fields.
func decodeFields(kind fileKind, root *value, file string, ds *Diagnostics) fields {
	var f fields
	if root == nil || root.kind == vNull {
		return f
	}
	if root.kind != vMap {
		ds.Add(root.pos, CodeSyntax, "frontmatter is %s, want a mapping of keys", root.describe())
		return f
	}
	d := decoder{ds: ds}
	for _, e := range d.entries(root) {
		if !slices.Contains(knownKeys[kind], e.key) {
			ds.Add(e.pos, CodeUnknownKey, "unknown key %q in %s frontmatter (known keys: %s)", e.key, kind, strings.Join(knownKeys[kind], ", "))
			continue
		}
		switch e.key {
		case "params":
			// Free data for templates; not ours to check.
		case "title":
			f.title = strings.TrimSpace(d.str(e))
		case "id":
			f.id, f.idPos = d.str(e), e.val.pos
			if f.id != "" && !validID(f.id) {
				ds.Add(e.val.pos, CodeField, "id %q is not a valid id (a letter or digit, then letters, digits, '.', '_', '-', '~'; at most %d bytes)", f.id, maxIDLen)
			}
		case "status":
			s := d.str(e)
			if s != "" && !slices.Contains(statuses[kind], s) {
				ds.Add(e.val.pos, CodeField, "status %q is not one of %s", s, strings.Join(statuses[kind], ", "))
				s = ""
			}
			f.status = s
		case "date":
			f.date = d.str(e)
		case "prefix":
			f.prefix = d.str(e)
		case "level":
			f.level = d.str(e)
			if f.level != "" && !validLevel(f.level) {
				ds.Add(e.val.pos, CodeField, "level %q is not a level (numbers joined by dots: 1, 1.2, 2.0.1)", f.level)
				f.level = ""
			}
		case "parent":
			seen := map[string]bool{}
			for _, v := range d.strList(e, true) {
				switch {
				case !validParentID(v.s):
					ds.Add(v.pos, CodeField, "parent: %q is not a valid requirement id", v.s)
				case seen[v.s]:
					ds.Add(v.pos, CodeField, "parent: %q is listed twice", v.s)
				default:
					seen[v.s] = true
					f.parents = append(f.parents, IDRef{ID: v.s, Pos: v.pos})
				}
			}
		case "tags":
			for _, v := range d.strList(e, true) {
				if t := strings.TrimSpace(v.s); t != "" && !slices.Contains(f.tags, t) {
					f.tags = append(f.tags, t)
				}
			}
		case "fields":
			f.fields, f.fieldVals = d.fieldMap(e)
		case "waivers":
			f.waivers = d.waivers(e)
		case "normative":
			b := d.boolean(e, true)
			f.normative = &b
		case "derived":
			f.derived = d.boolean(e, false)
		case "imported":
			f.imported = d.imported(e)
		case "type":
			f.typ = d.str(e)
		case "sources":
			for _, v := range d.strList(e, false) {
				if strings.HasPrefix(strings.ToLower(v.s), "code:") {
					ds.Add(v.pos, CodeField, "sources are documents, never code: state %q as a claim", v.s)
					continue
				}
				f.sources = append(f.sources, v.s)
			}
		case "implements", "tests":
			var refs []TargetRef
			for _, v := range d.strList(e, false) {
				t, err := parseAnyTarget(v.s)
				if err != nil {
					ds.Add(v.pos, CodeBadTarget, "%s: %v", e.key, err)
					continue
				}
				refs = append(refs, TargetRef{Target: t, Pos: v.pos})
			}
			if e.key == "implements" {
				f.implements = refs
			} else {
				f.tests = refs
			}
		case "issues", "supersedes":
			var refs []IDRef
			for _, v := range d.strList(e, e.key == "supersedes") {
				if !validID(v.s) {
					ds.Add(v.pos, CodeField, "%s: %q is not a valid decision id", e.key, v.s)
					continue
				}
				refs = append(refs, IDRef{ID: v.s, Pos: v.pos})
			}
			if e.key == "issues" {
				f.issues = refs
			} else {
				f.supersedes = refs
			}
		case "claims":
			if e.val.kind == vNull {
				continue
			}
			if e.val.kind != vList {
				ds.Add(e.val.pos, CodeField, "claims: want a list of claims, got %s", e.val.describe())
				continue
			}
			for _, item := range e.val.items {
				c, ok := d.claim(item, false)
				if ok {
					c.claim.Origin = OriginFrontmatter
					f.claims = append(f.claims, c.claim)
				}
			}
		}
	}
	return f
}

// parseAnyTarget parses a target in the notation (with or without code:)
// or as a canonical code:// resource URI.
func parseAnyTarget(s string) (Target, error) {
	if len(s) >= len("code://") && strings.EqualFold(s[:len("code://")], "code://") {
		_, t, err := ParseCodeURI("code://" + s[len("code://"):])
		return t, err
	}
	if len(s) >= len("code:") && strings.EqualFold(s[:len("code:")], "code:") {
		s = s[len("code:"):]
	}
	return ParseTarget(s)
}

// decoder decodes values into fields, reporting what does not fit.
type decoder struct {
	ds *Diagnostics
}

// entries returns the keys of mapping v, reporting and skipping repeats.
func (d decoder) entries(v *value) []entry {
	seen := map[string]Pos{}
	var out []entry
	for _, e := range v.entries {
		if first, ok := seen[e.key]; ok {
			d.ds.Add(e.pos, CodeField, "key %q repeated (first at line %d)", e.key, first.Line)
			continue
		}
		seen[e.key] = e.pos
		out = append(out, e)
	}
	return out
}

// str decodes a scalar as written; nothing (null) gives "".
func (d decoder) str(e entry) string {
	switch e.val.kind {
	case vNull:
		return ""
	case vScalar:
		return e.val.s
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want a string, got %s", e.key, e.val.describe())
	return ""
}

// strList decodes a list of scalars; nothing gives none. With single, a
// lone scalar counts as a list of one.
func (d decoder) strList(e entry, single bool) []*value {
	switch e.val.kind {
	case vNull:
		return nil
	case vScalar:
		if single {
			return []*value{e.val}
		}
	case vList:
		var out []*value
		for _, item := range e.val.items {
			if item.kind != vScalar {
				d.ds.Add(item.pos, CodeField, "%s: want a string, got %s", e.key, item.describe())
				continue
			}
			out = append(out, item)
		}
		return out
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want a list of strings, got %s", e.key, e.val.describe())
	return nil
}

// boolean decodes true or false; nothing gives def.
func (d decoder) boolean(e entry, def bool) bool {
	switch {
	case e.val.kind == vNull:
		return def
	case e.val.kind == vScalar && e.val.typ == "bool":
		return e.val.s == "true"
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want true or false, got %s", e.key, e.val.describe())
	return def
}

// stringMap decodes a mapping of names to scalars, taken as written.
func (d decoder) stringMap(e entry) map[string]string {
	switch e.val.kind {
	case vNull:
		return nil
	case vMap:
		out := map[string]string{}
		for _, x := range d.entries(e.val) {
			switch x.val.kind {
			case vNull:
				out[x.key] = ""
			case vScalar:
				out[x.key] = x.val.s
			default:
				d.ds.Add(x.val.pos, CodeField, "%s.%s: want a string, got %s", e.key, x.key, x.val.describe())
			}
		}
		return out
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want a mapping of names to strings, got %s", e.key, e.val.describe())
	return nil
}

// imported decodes {from, hash}, written by tracewiki import.
func (d decoder) imported(e entry) *Imported {
	m := d.stringMap(e)
	if m == nil {
		return nil
	}
	im := &Imported{From: m["from"], Hash: m["hash"]}
	for k := range m {
		if k != "from" && k != "hash" {
			d.ds.Add(e.val.pos, CodeUnknownKey, "imported: unknown key %q (known keys: from, hash)", k)
		}
	}
	if im.Hash == "" {
		d.ds.Add(e.val.pos, CodeField, "imported: want a hash")
	}
	return im
}

// number decodes a finite number.
func (d decoder) number(e entry) float64 {
	switch e.val.kind {
	case vNull:
		return 0
	case vScalar:
		n, err := strconv.ParseFloat(e.val.s, 64)
		if err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
			return n
		}
	}
	d.ds.Add(e.val.pos, CodeField, "%s: want a number, got %s", e.key, e.val.describe())
	return 0
}
