package claims

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse parses archives of content files (the txtar format of the parse
// cases, which seed it) and checks that Parse does not panic, that every
// position lies inside its file, that claim offsets lie inside their body,
// and that the result does not depend on the order of the files.
func FuzzParse(f *testing.F) {
	cases := caseInputs(f)
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		var a txtar.Archive
		for _, file := range cases[name] {
			a.Files = append(a.Files, txtar.File{Name: file.Name, Data: file.Data})
		}
		f.Add(txtar.Format(&a))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if emptyMarker.Match(data) {
			t.Skip(`txtar.Parse panics on a "-- --" line`)
		}
		var files []File
		lines := map[string]int{} // file name → number of lines
		dup := false
		for _, af := range txtar.Parse(data).Files {
			if _, ok := lines[af.Name]; ok {
				dup = true
			}
			files = append(files, File{Name: af.Name, Data: af.Data})
			lines[af.Name] = max(lines[af.Name], bytes.Count(af.Data, []byte("\n"))+1)
		}
		m, ds := Parse("content", files)

		checkPos := func(what string, p Pos) {
			t.Helper()
			n, ok := lines[p.File]
			if !ok {
				t.Fatalf("%s at %s: no such input file", what, p)
			}
			if p.Line < 0 || p.Line > n || p.Col < 0 {
				t.Fatalf("%s at %s: outside the file's %d lines", what, p, n)
			}
		}
		for _, d := range ds {
			checkPos("diagnostic "+d.Code, d.Pos)
		}
		checkDoc := func(d *Doc) {
			t.Helper()
			for _, c := range d.Claims {
				checkPos("claim", c.Pos)
				if c.Start < 0 || c.Start > c.End || c.End > len(d.Body) {
					t.Fatalf("claim at %s: span [%d, %d) outside body of %d bytes", c.Pos, c.Start, c.End, len(d.Body))
				}
			}
			for _, l := range d.Links {
				checkPos("link", l.Pos)
			}
			if d.BodyLine > 0 && !dup {
				data := dataOf(files, d.File)
				data = bytes.TrimPrefix(data, utf8BOM)
				if !bytes.HasSuffix(data, d.Body) {
					t.Fatalf("%s: body is not the end of the file", d.File)
				}
				if want := 1 + bytes.Count(data[:len(data)-len(d.Body)], []byte("\n")); d.BodyLine != want {
					t.Fatalf("%s: BodyLine %d, want %d", d.File, d.BodyLine, want)
				}
			}
		}
		for _, r := range m.Requirements {
			checkDoc(&r.Doc)
			for _, x := range r.Implements {
				checkPos("implements", x.Pos)
			}
			for _, x := range r.Tests {
				checkPos("tests", x.Pos)
			}
			for _, x := range r.Issues {
				checkPos("issues", x.Pos)
			}
		}
		for _, d := range m.Decisions {
			checkDoc(&d.Doc)
			for _, x := range d.Supersedes {
				checkPos("supersedes", x.Pos)
			}
		}
		for _, p := range m.Pages {
			checkDoc(&p.Doc)
		}

		want := append(renderModel(m), renderDiags(ds)...)
		slices.Reverse(files)
		m2, ds2 := Parse("content", files)
		if got := append(renderModel(m2), renderDiags(ds2)...); !bytes.Equal(got, want) {
			t.Fatalf("Parse on reversed files differs:\n%s\nwant:\n%s", got, want)
		}
	})
}

// emptyMarker matches a line "-- --", on which go-internal v1.16.0's
// txtar.Parse panics (slice bounds out of range [3:2]).
var emptyMarker = regexp.MustCompile(`(?m)^-- --\r?$`)

func dataOf(files []File, name string) []byte {
	for _, f := range files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}
