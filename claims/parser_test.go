package claims

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// TestParserReuse checks that a Parser's models and diagnostics are
// Parse's whatever it parsed before: every parse case after itself (every
// file reused), after every other case (some files reused, some changed,
// some new, some gone) and again after that. A linker that changed a kept
// parse (records appended to a page's claims, a page link turned into a
// requirement link) would show up in the calls that reuse it.
func TestParserReuse(t *testing.T) {
	cases := caseInputs(t)
	names := slices.Sorted(maps.Keys(cases))
	want := map[string][]byte{}
	models := map[string]*Model{}
	for _, name := range names {
		m, ds := Parse("content", cases[name])
		want[name] = append(renderModel(m), renderDiags(ds)...)
		models[name] = m
	}
	// Every model a Parser returned, with its case: a later call must not
	// change an earlier model (serve shows one while building the next).
	type returned struct {
		name string
		m    *Model
	}
	var kept []returned
	check := func(ps *Parser, name, after string) {
		t.Helper()
		m, ds := ps.Parse("content", cases[name])
		if got := append(renderModel(m), renderDiags(ds)...); !bytes.Equal(got, want[name]) {
			t.Fatalf("%s after %s: the Parser's model differs from Parse's:\n%s\nwant:\n%s", name, after, got, want[name])
		}
		if !reflect.DeepEqual(m, models[name]) {
			t.Fatalf("%s after %s: the Parser's model is not deeply equal to Parse's", name, after)
		}
		kept = append(kept, returned{name, m})
	}
	for _, name := range names {
		var ps Parser
		check(&ps, name, "nothing")
		if ps.Reused() != 0 {
			t.Errorf("%s: a first call reused %d files", name, ps.Reused())
		}
		check(&ps, name, "itself")
		if n := len(cases[name]); ps.Reused() != n {
			t.Errorf("%s: a second call reused %d of %d files", name, ps.Reused(), n)
		}
		check(&ps, name, "itself twice")
		for _, other := range names {
			check(&ps, other, name)
			check(&ps, name, other)
		}
	}
	for i, r := range kept {
		if !reflect.DeepEqual(r.m, models[r.name]) {
			t.Fatalf("model %d (%s) changed after later calls", i, r.name)
		}
	}
}

// TestParserEdit checks what a Parser parses again after edits: only the
// files whose bytes changed, while the model is linked anew (a heading
// removed from one page breaks another page's link to it; a requirement
// renamed breaks a link; records still land on the page they name).
func TestParserEdit(t *testing.T) {
	files := []File{
		{"content/a.md", []byte("# A\n\n## Errors\n\nSee [b](b.md) and [the spec](requirements/R-1.md).\n")},
		{"content/b.md", []byte("# B\n\nSee [errors](a.md#errors).\n")},
		{"content/requirements/R-1.md", []byte("---\nid: R-1\n---\n# One\n")},
		{"content/claims/c.json", []byte(`{"claims": [{"text": "A claims.", "target": {"ref": "x.go@F", "page_path": "a"}}]}`)},
	}
	var ps Parser
	parse := func(files []File) (*Model, Diagnostics) {
		t.Helper()
		m, ds := ps.Parse("content", files)
		wm, wds := Parse("content", files)
		if got, want := append(renderModel(m), renderDiags(ds)...), append(renderModel(wm), renderDiags(wds)...); !bytes.Equal(got, want) {
			t.Fatalf("the Parser's model differs from Parse's:\n%s\nwant:\n%s", got, want)
		}
		return m, ds
	}
	m, ds := parse(files)
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	a := m.Pages[0]
	if a.Path != "a" || len(a.Doc.Claims) != 1 || a.Doc.Links[1].Kind != LinkRequirement || a.Doc.Links[1].To != "R-1" {
		t.Fatalf("page a: claims %+v, links %+v", a.Doc.Claims, a.Doc.Links)
	}

	edited := slices.Clone(files)
	edited[0].Data = []byte("# A\n\nSee [b](b.md) and [the spec](requirements/R-1.md).\n")
	_, ds = parse(edited)
	if ps.Reused() != 3 {
		t.Errorf("after one edit: %d files reused, want 3", ps.Reused())
	}
	if len(ds) != 1 || ds[0].Pos.File != "content/b.md" || ds[0].Code != CodeUnknownRef {
		t.Errorf("after removing the heading: diagnostics %v, want b.md's link to a missing heading", ds)
	}

	_, ds = parse(files)
	if ps.Reused() != 3 || len(ds) != 0 {
		t.Errorf("after the undo: %d files reused (want 3), diagnostics %v", ps.Reused(), ds)
	}

	renamed := slices.Clone(files)
	renamed[2] = File{"content/requirements/R-2.md", []byte("---\nid: R-2\n---\n# Two\n")}
	_, ds = parse(renamed)
	if ps.Reused() != 3 || len(ds) != 1 || ds[0].Pos.File != "content/a.md" {
		t.Errorf("after renaming the requirement: %d files reused (want 3), diagnostics %v", ps.Reused(), ds)
	}
	m, _ = parse(files)
	if a := m.Pages[0]; len(a.Doc.Claims) != 1 || a.Doc.Links[1].Kind != LinkRequirement {
		t.Errorf("back to the start: page a has claims %+v, links %+v", a.Doc.Claims, a.Doc.Links)
	}
}
