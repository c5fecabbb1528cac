// Package interchange reads and writes requirements in the formats of other
// requirements tools: Doorstop trees, StrictDoc .sdoc documents, ReqIF
// (.reqif, .reqifz), OpenFastTrace Markdown specifications and XLSX
// workbooks for import; CSV, ReqIF, JSON and XLSX for export.
//
// Like the parsers of claims, it takes bytes and names and never opens a
// file: site reads the source tree, hands the files here, and writes what
// comes back. Every construct an importer cannot map is reported in
// [Result.Unmapped] with why; nothing is dropped silently.
package interchange

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"gopkg.in/yaml.v3"
)

// MaxDepth bounds how deep sections nest (StrictDoc [SECTION]s, ReqIF
// SPEC-HIERARCHY): far deeper than any document needs, and it keeps a
// level ("1.2.3…", one number per depth) short. Deeper nesting is an error
// naming the file and line (StrictDoc) or is reported (ReqIF).
const MaxDepth = 64

// File is one file of an import source: its slash path relative to the
// source's root, and its bytes.
type File struct {
	Name string
	Data []byte
}

// Item is one imported requirement (or heading, when not Normative).
type Item struct {
	ID       string
	Title    string // "" leaves the default (first heading, else the id)
	Text     string // Markdown body
	Document string // the document folder under requirements/
	Level    string
	Status   string // a tracewiki status, or ""
	Parents  []Parent
	// Implements are file paths (relative to the workspace) the source
	// names; site keeps those that exist.
	Implements []string
	// Tests are the code targets that test it (only xlsx carries them);
	// site keeps those whose file exists, as for Implements.
	Tests     []string
	Tags      []string
	Fields    map[string]string
	Normative bool
	Derived   bool
	// From is where the item was read: "doorstop:reqs/SRD001.yml".
	From string
}

// Parent is a parent link of an imported item.
type Parent struct {
	ID string
	// Suspect is true when the source tool says the link is suspect (its
	// fingerprint does not match the parent): the link is stamped so that
	// it stays parent_changed until reviewed.
	Suspect bool
	// Why explains a suspect link, for the report.
	Why string
}

// Document is an imported requirement document.
type Document struct {
	Path   string // folder under requirements/
	Title  string
	Prefix string
	Intro  string
	From   string
}

// Unmapped is an item, field or relation an importer could not map.
type Unmapped struct {
	Where string // file[:line] or the source's identifier
	What  string
	Why   string
}

// Asset is a file an item's text references (an image), to be copied
// beside the item's file.
type Asset struct {
	Source string // slash path relative to the source's root
	Dest   string // slash path relative to requirements/: <document>/<path as the text names it>
	From   string // the item that references it, for the report
}

// Result is what an importer read.
type Result struct {
	Format    string
	Documents []Document
	Items     []Item
	Sections  int // headings and sections imported as non-normative items
	Unmapped  []Unmapped
	Assets    []Asset // by Dest, each once
}

// imageRef finds the images of Markdown text: ![alt](path "title") and
// <img src="path">.
var imageRef = regexp.MustCompile(`!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']`)

// images records the images an item's text references as assets to copy
// beside the item's file, so the text's relative paths still lead to them.
// URLs and absolute paths stay as they are; a path that leaves the item's
// folder is reported, since the copy would land outside the document.
func (r *Result) images(it *Item, file string) {
	for _, m := range imageRef.FindAllStringSubmatch(it.Text, -1) {
		ref := cmp.Or(m[1], m[2])
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "#") {
			continue // a URL, an absolute path or an anchor: nothing to copy
		}
		rel := path.Clean(strings.SplitN(ref, "?", 2)[0])
		if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "\\") {
			r.unmapped(file, "image "+ref, "lies outside the item's folder; only images below it are copied")
			continue
		}
		a := Asset{Source: path.Join(path.Dir(file), rel), Dest: path.Join(it.Document, rel), From: it.From}
		if !slices.ContainsFunc(r.Assets, func(b Asset) bool { return b.Dest == a.Dest }) {
			r.Assets = append(r.Assets, a)
		}
	}
}

func (r *Result) unmapped(where, what, why string, args ...any) {
	r.Unmapped = append(r.Unmapped, Unmapped{Where: where, What: what, Why: fmt.Sprintf(why, args...)})
}

// Parents counts the parent links of the items.
func (r *Result) Parents() int {
	n := 0
	for _, it := range r.Items {
		n += len(it.Parents)
	}
	return n
}

// finish drops parent links to items that were not imported (reporting
// them), sorts everything and checks ids.
func (r *Result) finish() {
	ids := map[string]bool{}
	var items []Item
	for _, it := range r.Items {
		if !validID(it.ID) {
			r.unmapped(it.From, "item "+it.ID, "%q is not a tracewiki id (ASCII letters, digits, '.', '_', '-', '~')", it.ID)
			continue
		}
		if ids[strings.ToLower(it.ID)] {
			r.unmapped(it.From, "item "+it.ID, "a second item with this id")
			continue
		}
		ids[strings.ToLower(it.ID)] = true
		items = append(items, it)
	}
	for i := range items {
		it := &items[i]
		it.Parents = slices.DeleteFunc(it.Parents, func(p Parent) bool {
			if !ids[strings.ToLower(p.ID)] {
				r.unmapped(it.From, "parent link "+it.ID+" -> "+p.ID, "the parent %q is not among the imported items", p.ID)
				return true
			}
			return false
		})
		slices.Sort(it.Implements)
		it.Implements = slices.Compact(it.Implements)
		slices.Sort(it.Tests)
		it.Tests = slices.Compact(it.Tests)
	}
	r.Items = items
	slices.SortFunc(r.Items, func(a, b Item) int { return claims.CompareIDs(a.ID, b.ID) })
	slices.SortFunc(r.Documents, func(a, b Document) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(r.Assets, func(a, b Asset) int { return cmp.Compare(a.Dest, b.Dest) })
	slices.SortStableFunc(r.Unmapped, func(a, b Unmapped) int {
		return cmp.Or(cmp.Compare(a.Where, b.Where), cmp.Compare(a.What, b.What))
	})
}

// maxIDLen bounds an id, as claims does: ids become file names and URL
// path segments.
const maxIDLen = 128

// validID is claims' rule for a requirement id: a letter or digit, then
// letters, digits, '.', '_', '-' and '~' (OpenFastTrace's
// type~name~revision), at most maxIDLen bytes.
func validID(s string) bool {
	if s == "" || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-' && c != '~') {
			return false
		}
	}
	return true
}

// Slug turns a name into a folder name: lower case letters, digits and '-'.
func Slug(s string) string { return claims.Slug(s, "document") }

// ImportedHash is the hash an imported file records in its imported:
// frontmatter: the sha256 of the file without its "imported:" line, so a
// later import can tell whether a person edited the file.
func ImportedHash(file []byte) string {
	var kept [][]byte
	for _, line := range bytes.SplitAfter(file, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("imported:")) {
			kept = append(kept, line)
		}
	}
	sum := sha256.Sum256(bytes.Join(kept, nil))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// frontmatter is the YAML frontmatter an imported file gets, in key order.
type frontmatter struct {
	ID         string            `yaml:"id"`
	Title      string            `yaml:"title,omitempty"`
	Status     string            `yaml:"status,omitempty"`
	Level      string            `yaml:"level,omitempty"`
	Parent     []string          `yaml:"parent,omitempty,flow"`
	Implements []string          `yaml:"implements,omitempty"`
	Tests      []string          `yaml:"tests,omitempty"`
	Tags       []string          `yaml:"tags,omitempty,flow"`
	Fields     map[string]string `yaml:"fields,omitempty"`
	Normative  *bool             `yaml:"normative,omitempty"`
	Derived    bool              `yaml:"derived,omitempty"`
}

// Render writes an item as a tracewiki requirement file: YAML frontmatter,
// the imported: record (from and hash), then the text.
func Render(it Item) []byte {
	fm := frontmatter{ID: it.ID, Title: it.Title, Status: it.Status, Level: it.Level, Implements: it.Implements,
		Tests: it.Tests, Tags: it.Tags, Fields: it.Fields, Derived: it.Derived}
	for _, p := range it.Parents {
		fm.Parent = append(fm.Parent, p.ID)
	}
	if !it.Normative {
		f := false
		fm.Normative = &f
	}
	return render(fm, it.From, it.Text)
}

// RenderDocument writes a document's _index.md.
func RenderDocument(d Document) []byte {
	type docFM struct {
		Title  string `yaml:"title"`
		Prefix string `yaml:"prefix,omitempty"`
	}
	return render(docFM{Title: d.Title, Prefix: d.Prefix}, d.From, d.Intro)
}

func render(fm any, from, text string) []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(fm); err != nil {
		panic(err) // plain structs of strings always encode
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	file := []byte("---\n" + buf.String() + "---\n" + text + "\n")
	if text == "" {
		file = []byte("---\n" + buf.String() + "---\n")
	}
	fromYAML, _ := yaml.Marshal(from)
	line := fmt.Sprintf("imported: {from: %s, hash: %q}\n", strings.TrimSpace(string(fromYAML)), ImportedHash(file))
	// The imported line goes last in the frontmatter.
	i := bytes.Index(file[4:], []byte("---\n")) + 4
	return slices.Concat(file[:i], []byte(line), file[i:])
}
