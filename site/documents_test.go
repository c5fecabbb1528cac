package site

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// TestDocuments builds the reqs fixture (requirement documents with parent
// links, one gone suspect, one never stamped) and checks the document
// pages, the requirement pages' parents and children, the graph and the
// coverage.
func TestDocuments(t *testing.T) {
	dir := fixture(t, "reqs")
	s := buildSite(t, dir, BuildOptions{}, 0)

	// The printable page of a document: intro, requirements in level order
	// (SYS-0 heading before SYS-1 before SYS-2), badges and links.
	sys := s.Files["documents/system/index.html"]
	assertLines(t, "documents/system/index.html", sys,
		`<h1>System requirements</h1>`,
		`What the car as a whole must do.`,
		`<dt>prefix</dt><dd>SYS</dd>`,
		`id="req-SYS-0"`,
		`<h2 class="doc-title"><span class="level">1.0</span> <a href="../../requirements/SYS-0/index.html">SYS-0</a> Braking`,
		`<h3 class="doc-title"><span class="level">1.1</span>`,
		`<dt>children</dt><dd><a href="../../requirements/SW-1/index.html">SW-1</a></dd>`,
		`<dt>asil</dt><dd>D</dd>`,
		`2 normative: 0 implemented, 0 tested, 0 verified, 0 suspect`,
	)
	// A state a requirement lacks says so ("not verified", a dashed badge),
	// never the bare name of the state it lacks.
	assertLines(t, "documents/system/index.html", sys,
		`<span class="badge badge-not">not implemented</span> <span class="badge badge-not">not tested</span> <span class="badge badge-not">not verified</span>`,
		`! badge-no">`)
	h := string(sys)
	if a, b, c := strings.Index(h, `id="req-SYS-0"`), strings.Index(h, `id="req-SYS-1"`), strings.Index(h, `id="req-SYS-2"`); !(a < b && b < c) {
		t.Errorf("documents/system: requirements not in level order: SYS-0 at %d, SYS-1 at %d, SYS-2 at %d", a, b, c)
	}
	// A parent document lists its nested documents as sections.
	sw := s.Files["documents/software/index.html"]
	assertLines(t, "documents/software/index.html", sw,
		`<h2 class="doc-section"><a href="../../documents/software/brakes/index.html">brakes</a></h2>`,
		`<h2 class="doc-section"><a href="../../documents/software/ui/index.html">ui</a></h2>`,
		`id="req-SW-1"`, `id="req-SW-3"`,
		// SW-1's parent SYS-1 changed: the badge by the parent says so, and
		// its title that the child is suspect (not the parent).
		`<a href="../../requirements/SYS-1/index.html">SYS-1</a> <span class="badge badge-stale" title="SW-1 is suspect: its parent SYS-1 changed after SW-1 was reviewed">changed</span>`,
	)
	// SW-1 is implemented: that state keeps its positive badge.
	assertLines(t, "documents/software/brakes/index.html", s.Files["documents/software/brakes/index.html"],
		`<span class="badge badge-yes">implemented</span> <span class="badge badge-not">not tested</span>`)
	// The child's page shows its parents with their state; the parent's its children.
	assertLines(t, "requirements/SW-1/index.html", s.Files["requirements/SW-1/index.html"],
		`<h2>Parents</h2>`, `suspect`, `SYS-2`, `reviewed`,
		`href="../../documents/software/brakes/index.html#req-SW-1"`)
	assertLines(t, "requirements/SYS-2/index.html", s.Files["requirements/SYS-2/index.html"],
		`<h2>Children</h2>`, `href="../../requirements/SW-3/index.html"`)
	assertLines(t, "requirements/SW-2/index.html", s.Files["requirements/SW-2/index.html"],
		`<dt>derived</dt>`, `! <h2>Parents</h2>`)

	// The matrix shows the hierarchy: each row's document, parents, tags
	// and fields, and coverage per document of normative requirements
	// only (SYS-0 is a heading, so system counts 2, not 3).
	assertLines(t, "requirements/index.html", s.Files["requirements/index.html"],
		`<tr id="SYS-1" data-order="4" data-status="" data-stale="false" data-implemented="false" data-tested="false" data-verified="false" data-tags="safety">`,
		`<td><a href="../documents/system/index.html">System requirements</a></td>`,
		`<td><a href="../requirements/SYS-1/index.html">SYS-1</a>, <a href="../requirements/SYS-2/index.html">SYS-2</a></td>`,
		`<span class="badge tag">safety</span>`,
		`<div class="field"><span class="hint">asil:</span> D</div>`,
		`<tr><td><a href="../documents/system/index.html">System requirements</a></td><td>2</td>`,
	)

	var g synth.GraphJSON
	if err := json.Unmarshal(s.Files["api/graph.json"], &g); err != nil {
		t.Fatal(err)
	}
	edges := map[string]synth.Edge{}
	for _, e := range g.Edges {
		edges[e.Src.String()+" "+e.Kind+" "+e.Dst.String()] = e
	}
	for key, want := range map[string]string{
		"requirement:SW-1 parent requirement:SYS-1":           "stale parent_changed",
		"requirement:SW-1 parent requirement:SYS-2":           "linked ",
		"requirement:SW-3 parent requirement:SYS-2":           "unknown uncaptured",
		"document:software contains document:software/brakes": " ",
		"document:software/brakes contains requirement:SW-1":  " ",
		"document:system contains requirement:SYS-0":          " ",
	} {
		e, ok := edges[key]
		if !ok {
			t.Errorf("graph: no edge %s", key)
			continue
		}
		if got := e.State + " " + e.Reason; got != want {
			t.Errorf("graph: edge %s is %q, want %q", key, got, want)
		}
	}
	nodes := map[string]synth.Node{}
	for _, n := range g.Nodes {
		nodes[n.ID.String()] = n
	}
	if n := nodes["requirement:SW-1"]; !n.Stale || !strings.Contains(n.Why, "suspect") {
		t.Errorf("SW-1: stale %t why %q; want stale and suspect", n.Stale, n.Why)
	}
	if n := nodes["requirement:SYS-1"]; n.Stale {
		t.Errorf("SYS-1 (the parent that changed) is stale: %q; only its child is suspect", n.Why)
	}
	if n := nodes["requirement:SYS-0"]; n.Normative == nil || *n.Normative != false || n.Level != "1.0" || n.Document != "system" {
		t.Errorf("SYS-0 = %+v; want not normative, level 1.0, document system", n)
	}
	if n := nodes["document:software/brakes"]; n.Title != "brakes" || n.Type != claims.NodeDocument {
		t.Errorf("document:software/brakes = %+v", n)
	}

	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rep, err := p.Check()
	if err != nil {
		t.Fatal(err)
	}
	// Coverage, counted once in the page models: all requirements, and
	// each document with the documents nested in it.
	graph, _, err := p.Graph()
	if err != nil {
		t.Fatal(err)
	}
	pages := synth.NewPages(synth.PageInput{Graph: graph, Model: p.Model, Report: rep})
	if got, want := pages.Coverage, (synth.DocumentCoverage{Normative: 5, Implemented: 1, Suspect: 1}); got != want {
		t.Errorf("coverage of all requirements = %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		folder string
		want   synth.DocumentCoverage
	}{
		{"software", synth.DocumentCoverage{Document: "software", Normative: 3, Implemented: 1, Suspect: 1}},
		{"software/ui", synth.DocumentCoverage{Document: "software/ui", Normative: 1}},
		{"system", synth.DocumentCoverage{Document: "system", Normative: 2}},
	} {
		if got := pages.Documents[c.folder].Coverage; got != c.want {
			t.Errorf("coverage of %q = %+v, want %+v", c.folder, got, c.want)
		}
	}
	// The JSON export holds the hierarchy and the states, and matches its schema.
	x, err := p.Export()
	if err != nil {
		t.Fatal(err)
	}
	js, err := x.JSON()
	if err != nil {
		t.Fatal(err)
	}
	validate(t, compileSchemas(t), "export", "export json", js)
	var order []string
	for _, r := range x.Requirements {
		order = append(order, r.ID)
	}
	if got := strings.Join(order, " "); got != "SW-1 SW-2 SW-3 SYS-0 SYS-1 SYS-2" {
		t.Errorf("export order = %s, want by document then level", got)
	}
	if sw1 := x.Requirements[0]; !sw1.Stale || strings.Join(sw1.Reasons, ",") != "parent_changed" || len(sw1.Parents) != 2 || sw1.Parents[0].Reason != "parent_changed" || !sw1.Implemented {
		t.Errorf("export SW-1 = %+v", sw1)
	}
	var states []string
	for _, ps := range rep.Parents {
		states = append(states, ps.Child+"->"+ps.Parent+" "+string(ps.Verdict.Reason))
	}
	if got, want := strings.Join(states, ", "), "SW-1->SYS-1 parent_changed, SW-1->SYS-2 , SW-3->SYS-2 uncaptured"; got != want {
		t.Errorf("parent links: %s\nwant %s", got, want)
	}
	// A build that is not frozen stamps the new link, and only that one.
	built, err := p.Build(BuildOptions{By: "bob"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WriteCapture(built.Captured, &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	l, err := p.ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Parents[codeanchors.ParentKey("SW-3", "SYS-2")]; !ok {
		t.Error("build did not stamp the new parent link SW-3->SYS-2")
	}
	if rep2 := codeanchors.CheckParents(p.Model, l); rep2[0].Verdict.Reason != codeanchors.ParentChanged {
		t.Errorf("build re-stamped the suspect link SW-1->SYS-1: %+v", rep2[0])
	}
}
