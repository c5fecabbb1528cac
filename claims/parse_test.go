package claims

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/parse/*.txtar")

// Output sections of a parse case; every other section is an input file.
const (
	sectionModel = "model.json"
	sectionDiags = "diagnostics"
)

// TestParse runs the cases in testdata/parse (format: testdata/README.md).
func TestParse(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("refusing -update with CI set: goldens are written by people")
	}
	entries, err := os.ReadDir("testdata/parse")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".txtar" {
			t.Errorf("testdata/parse/%s: not a .txtar case; no test reads it", e.Name())
			continue
		}
		t.Run(strings.TrimSuffix(e.Name(), ".txtar"), func(t *testing.T) {
			file := filepath.Join("testdata/parse", e.Name())
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			files := inputs(t, ar)
			m, ds := Parse("content", files)
			got := map[string][]byte{
				sectionModel: renderModel(m),
				sectionDiags: renderDiags(ds),
			}
			if *update {
				writeGolden(t, file, ar, got)
				return
			}
			for _, name := range []string{sectionModel, sectionDiags} {
				want, ok := section(ar, name)
				if !ok {
					t.Errorf("%s: no %q section (run go test ./claims -update)", file, name)
					continue
				}
				if !bytes.Equal(got[name], want) {
					t.Errorf("%s: %s differs (run go test ./claims -update and review the diff)\ngot:\n%s\nwant:\n%s", file, name, got[name], want)
				}
			}
		})
	}
}

// inputs returns the input files of a case, failing on repeated sections.
func inputs(t testing.TB, ar *txtar.Archive) []File {
	seen := map[string]bool{}
	var files []File
	for _, f := range ar.Files {
		if seen[f.Name] {
			t.Fatalf("section %q repeated", f.Name)
		}
		seen[f.Name] = true
		if f.Name == sectionModel || f.Name == sectionDiags {
			continue
		}
		files = append(files, File{Name: f.Name, Data: unescapeCRLF(f.Data)})
	}
	return files
}

// unescapeCRLF lets a case hold CRLF input, which txtar cannot keep
// reliably in a checked-out file: a line ending in the two characters
// "\r" stands for a line ending in CRLF.
func unescapeCRLF(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(`\r`+"\n"), []byte("\r\n"))
}

func section(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// writeGolden replaces or appends the output sections, writes the case and
// reads it back, so that what is on disk is what the next run compares.
func writeGolden(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	var out []txtar.File
	for _, f := range ar.Files {
		if f.Name != sectionModel && f.Name != sectionDiags {
			out = append(out, f)
		}
	}
	out = append(out,
		txtar.File{Name: sectionModel, Data: got[sectionModel]},
		txtar.File{Name: sectionDiags, Data: got[sectionDiags]})
	ar.Files = out
	if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
		t.Fatal(err)
	}
	back, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range got {
		if b, _ := section(back, name); !bytes.Equal(b, want) {
			t.Errorf("%s: section %s does not read back as written", file, name)
		}
	}
}

func renderDiags(ds Diagnostics) []byte {
	var b bytes.Buffer
	for _, d := range ds {
		fmt.Fprintln(&b, d)
	}
	return b.Bytes()
}

// The JSON rendering of a model in goldens. It shows what later stages
// read, plus the text of each claim's Start:End span so that a reviewer
// sees what the offsets cover.
type (
	jsonModel struct {
		Requirements []jsonRequirement `json:"requirements"`
		Decisions    []jsonDecision    `json:"decisions"`
		Pages        []jsonPage        `json:"pages"`
		Documents    []jsonDocument    `json:"documents,omitempty"`
	}
	jsonDocument struct {
		Path   string  `json:"path"`
		Title  string  `json:"title"`
		Prefix string  `json:"prefix,omitempty"`
		Doc    jsonDoc `json:"doc"`
	}
	jsonRequirement struct {
		ID           string            `json:"id"`
		Title        string            `json:"title"`
		Status       string            `json:"status,omitempty"`
		Implements   []jsonTarget      `json:"implements,omitempty"`
		Tests        []jsonTarget      `json:"tests,omitempty"`
		Issues       []jsonID          `json:"issues,omitempty"`
		Revision     string            `json:"revision"`
		Document     string            `json:"document,omitempty"`
		Level        string            `json:"level,omitempty"`
		Parents      []jsonID          `json:"parents,omitempty"`
		Tags         []string          `json:"tags,omitempty"`
		Fields       map[string]string `json:"fields,omitempty"`
		NotNormative bool              `json:"not_normative,omitempty"`
		Derived      bool              `json:"derived,omitempty"`
		Imported     *Imported         `json:"imported,omitempty"`
		Doc          jsonDoc           `json:"doc"`
	}
	jsonDecision struct {
		ID         string   `json:"id"`
		Title      string   `json:"title"`
		Status     string   `json:"status,omitempty"`
		Date       string   `json:"date,omitempty"`
		Supersedes []jsonID `json:"supersedes,omitempty"`
		Doc        jsonDoc  `json:"doc"`
	}
	jsonPage struct {
		Path        string   `json:"path"`
		Title       string   `json:"title"`
		Type        string   `json:"type,omitempty"`
		Sources     []string `json:"sources,omitempty"`
		Synthesized bool     `json:"synthesized,omitempty"`
		Doc         jsonDoc  `json:"doc"`
	}
	jsonDoc struct {
		File     string      `json:"file"`
		BodyLine int         `json:"body_line"`
		BodyLen  int         `json:"body_len"`
		Headings []string    `json:"headings,omitempty"`
		Claims   []jsonClaim `json:"claims,omitempty"`
		Links    []jsonLink  `json:"links,omitempty"`
	}
	jsonClaim struct {
		Text       string  `json:"text"`
		Kind       string  `json:"kind,omitempty"`
		Origin     string  `json:"origin"`
		Source     string  `json:"source,omitempty"`
		Confidence float64 `json:"confidence,omitempty"`
		Target     string  `json:"target,omitempty"`
		Pos        string  `json:"pos"`
		Span       string  `json:"span,omitempty"` // Body[Start:End]
	}
	jsonLink struct {
		Kind     LinkKind `json:"kind"`
		To       string   `json:"to"`
		Fragment string   `json:"fragment,omitempty"`
		Pos      string   `json:"pos"`
	}
	jsonTarget struct {
		Target string `json:"target"`
		Pos    string `json:"pos"`
	}
	jsonID struct {
		ID  string `json:"id"`
		Pos string `json:"pos"`
	}
)

func renderModel(m *Model) []byte {
	out := jsonModel{
		Requirements: []jsonRequirement{},
		Decisions:    []jsonDecision{},
		Pages:        []jsonPage{},
	}
	for _, r := range m.Requirements {
		out.Requirements = append(out.Requirements, jsonRequirement{
			ID: r.ID, Title: r.Title, Status: r.Status,
			Implements: targets(r.Implements), Tests: targets(r.Tests), Issues: ids(r.Issues),
			Revision: r.Revision, Doc: doc(r.Doc),
			Document: r.Document, Level: r.Level, Parents: ids(r.Parents), Tags: r.Tags, Fields: r.Fields,
			NotNormative: !r.Normative, Derived: r.Derived, Imported: r.Imported,
		})
	}
	for _, d := range m.Decisions {
		out.Decisions = append(out.Decisions, jsonDecision{
			ID: d.ID, Title: d.Title, Status: d.Status, Date: d.Date,
			Supersedes: ids(d.Supersedes), Doc: doc(d.Doc),
		})
	}
	for _, p := range m.Pages {
		out.Pages = append(out.Pages, jsonPage{
			Path: p.Path, Title: p.Title, Type: p.Type, Sources: p.Sources,
			Synthesized: p.Synthesized, Doc: doc(p.Doc),
		})
	}
	for _, d := range m.Documents {
		out.Documents = append(out.Documents, jsonDocument{Path: d.Path, Title: d.Title, Prefix: d.Prefix, Doc: doc(d.Doc)})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func doc(d Doc) jsonDoc {
	out := jsonDoc{File: d.File, BodyLine: d.BodyLine, BodyLen: len(d.Body), Headings: d.Headings}
	for _, c := range d.Claims {
		jc := jsonClaim{
			Text: c.Text, Kind: c.Kind, Origin: c.Origin, Source: c.Source,
			Confidence: c.Confidence, Pos: c.Pos.String(),
		}
		if c.HasTarget {
			jc.Target = c.Target.String()
		}
		if c.End > c.Start {
			jc.Span = string(d.Body[c.Start:c.End])
		}
		out.Claims = append(out.Claims, jc)
	}
	for _, l := range d.Links {
		out.Links = append(out.Links, jsonLink{Kind: l.Kind, To: l.To, Fragment: l.Fragment, Pos: l.Pos.String()})
	}
	return out
}

func targets(refs []TargetRef) []jsonTarget {
	var out []jsonTarget
	for _, r := range refs {
		out = append(out, jsonTarget{Target: r.Target.String(), Pos: r.Pos.String()})
	}
	return out
}

func ids(refs []IDRef) []jsonID {
	var out []jsonID
	for _, r := range refs {
		out = append(out, jsonID{ID: r.ID, Pos: r.Pos.String()})
	}
	return out
}

// caseInputs returns the inputs of every parse case, for the fuzzer and the
// order test.
func caseInputs(t testing.TB) map[string][]File {
	paths, err := filepath.Glob("testdata/parse/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no parse cases: %v", err)
	}
	out := map[string][]File{}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = inputs(t, ar)
	}
	return out
}

// TestParseOrder checks that the model and diagnostics do not depend on the
// order of the files.
func TestParseOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := caseInputs(t)
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		files := cases[name]
		m, ds := Parse("content", files)
		want := append(renderModel(m), renderDiags(ds)...)
		for range 5 {
			shuffled := slices.Clone(files)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			m, ds := Parse("content", shuffled)
			if got := append(renderModel(m), renderDiags(ds)...); !bytes.Equal(got, want) {
				t.Fatalf("%s: Parse on shuffled files differs:\n%s\nwant:\n%s", name, got, want)
			}
		}
	}
}
