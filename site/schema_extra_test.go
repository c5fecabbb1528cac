package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// shopBuilds builds the shop fixture twice in memory: new as the fixture
// leaves it (after/ and delete/ applied), old with its plain sections put
// back, under the same lock and evidence. It returns the snapshots of both
// and the workspace, left in its new state.
func shopBuilds(t *testing.T) (old, new *synth.Snapshot, dir string) {
	t.Helper()
	dir = fixture(t, "shop")
	newSite := buildSite(t, dir, BuildOptions{BaseURL: "/pr-42/"}, 0)
	ar, err := txtar.ParseFile(filepath.Join("testdata", "site", "shop.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	orig := map[string][]byte{}
	for _, f := range ar.Files {
		orig[f.Name] = f.Data
	}
	var restore []string
	for _, f := range ar.Files {
		name, ok := strings.CutPrefix(f.Name, "after/")
		if !ok {
			name, ok = strings.CutPrefix(f.Name, "delete/")
		}
		if !ok {
			continue
		}
		restore = append(restore, name)
		if data, ok := orig[name]; ok {
			writeFixtureFile(t, dir, name, data)
		} else {
			must(t, os.Remove(filepath.Join(dir, filepath.FromSlash(name))))
		}
	}
	oldSite := buildSite(t, dir, BuildOptions{}, 0)
	for _, f := range ar.Files { // back to the new state
		if name, ok := strings.CutPrefix(f.Name, "after/"); ok {
			writeFixtureFile(t, dir, name, f.Data)
		} else if name, ok := strings.CutPrefix(f.Name, "delete/"); ok {
			must(t, os.Remove(filepath.Join(dir, filepath.FromSlash(name))))
		}
	}
	if len(restore) == 0 {
		t.Fatal("shop.txtar has no after/ or delete/ sections")
	}
	return snapshot(t, oldSite, "old"), snapshot(t, newSite, "new"), dir
}

// snapshot reads a site built in memory as "tracewiki diff" reads a built
// folder.
func snapshot(t *testing.T, s *Site, name string) *synth.Snapshot {
	t.Helper()
	fsys := fstest.MapFS{}
	for n, data := range s.Files {
		fsys[n] = &fstest.MapFile{Data: data}
	}
	snap, err := synth.ReadSnapshot(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := synth.MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// shopImpacts answers impact on the shop fixture's new state: every file
// whole (with a page, a deleted file and a path outside the graph), some
// lines and a deletion, and nothing.
func shopImpacts(t *testing.T, dir string) map[string]synth.ImpactJSON {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		t.Fatal(err)
	}
	g := k.Graph()
	whole := []synth.Change{{Path: "content/guides/checkout.md"}, {Path: "pay/refund_test.go"}, {Path: "nowhere.txt"}}
	for _, n := range g.Nodes {
		if n.Type == claims.NodeFile {
			whole = append(whole, synth.Change{Path: n.Path})
		}
	}
	all := k.Impact(whole, synth.ImpactOptions{Base: "HEAD~1"})
	lines := k.Impact([]synth.Change{
		{Path: "cart/cart.go", Lines: []synth.LineRange{{Start: 17, End: 20}, {Start: 3, End: 3}}},
		{Path: "pay/pay.go", Lines: []synth.LineRange{{Start: 0, End: 1, Deleted: true}, {Start: 15, End: 16, Deleted: true}}},
		{Path: "./cart/../cart/cart_test.go", Lines: []synth.LineRange{}},
	}, synth.ImpactOptions{})
	return map[string]synth.ImpactJSON{
		"whole files": all, "lines": lines, "nothing": g.Impact(nil),
		"ample budget": k.Impact(whole, synth.ImpactOptions{Budget: 1 << 20}),
		"small budget": k.Impact(whole, synth.ImpactOptions{Budget: 10}),
	}
}

// TestSchemasDiffImpact validates the JSON of "tracewiki diff" and
// "tracewiki impact" against diff.schema.json and impact.schema.json: diffs
// between two builds of the shop fixture both ways and of a build with
// itself, and impact answers on its graph and on a corpus large enough to
// be truncated.
func TestSchemasDiffImpact(t *testing.T) {
	schemas := compileSchemas(t)
	old, new, dir := shopBuilds(t)

	forward := synth.Diff(old, new, "")
	back := synth.Diff(new, old, "https://preview.example/pr-42/")
	same := synth.Diff(new, new, "")
	if !same.Empty() {
		t.Errorf("a build diffed with itself: %+v", same.Counts)
	}
	for name, d := range map[string]synth.DiffJSON{"old→new": forward, "new→old": back, "new→new": same} {
		validate(t, schemas, "diff", "diff "+name, marshal(t, d))
	}
	// Every list and both shapes of a link change are exercised.
	var beforeNull, beforeSet, afterNull, afterLinked, run bool
	for _, d := range []synth.DiffJSON{forward, back} {
		for _, c := range d.Broken {
			beforeNull = beforeNull || c.Before == nil
			beforeSet = beforeSet || c.Before != nil
			run = run || strings.HasPrefix(c.Ref, "run:")
		}
		for _, c := range d.Fixed {
			afterNull = afterNull || c.After == nil
			afterLinked = afterLinked || c.After != nil
		}
	}
	for what, ok := range map[string]bool{
		"broken": len(forward.Broken) > 0, "fixed": len(back.Fixed) > 0,
		"requirements": len(forward.Requirements) > 0, "pages": len(forward.Pages) > 0,
		"claims_added": len(forward.ClaimsAdded) > 0, "claims_removed": len(back.ClaimsRemoved) > 0,
		"a new broken link": beforeNull, "a broken link that was there": beforeSet, "broken evidence": run,
		"a fixed link no longer referenced": afterNull, "a fixed link now linked": afterLinked,
	} {
		if !ok {
			t.Errorf("no diff of the shop fixture has %s; the schema goes untested there", what)
		}
	}

	impacts := shopImpacts(t, dir)
	all := impacts["whole files"]
	if len(all.Changed) == 0 || all.Relying.Claims == 0 || len(all.Relying.Tests) == 0 {
		t.Errorf("impact of every file: %d changed, relying %+v; want changed nodes, claims and tests", len(all.Changed), all.Relying)
	}
	if len(all.Relying.Pages) == 0 || all.Relying.Pages[0].Excerpt == "" || all.Relying.Pages[0].Path == "" {
		t.Errorf("impact of every file: relying pages %+v; want one with its file and an excerpt", all.Relying.Pages)
	}
	if b := impacts["small budget"].Budget; b == nil || b.Fits || len(b.Shed) < 2 {
		t.Errorf("impact within 10 tokens: budget %+v; want sections shed and fits false", b)
	}
	corpus := t.TempDir()
	writeCorpus(t, corpus, 150, 2) // 150 paths of 3 roots each: more than MaxImpactNodes
	p, err := Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g, _, err := p.Graph()
	if err != nil {
		t.Fatal(err)
	}
	var changes []synth.Change
	for _, n := range g.Nodes {
		if n.Type == claims.NodeFile {
			changes = append(changes, synth.Change{Path: n.Path})
		}
	}
	impacts["truncated"] = g.Impact(changes)
	if !impacts["truncated"].Truncated {
		t.Errorf("impact of %d files is not truncated", len(changes))
	}
	for name, im := range impacts {
		validate(t, schemas, "impact", "impact "+name, marshal(t, im))
	}
}

// TestSchemasRejectDiffImpact checks that diff.schema.json and
// impact.schema.json are not vacuous: valid answers made wrong in one place
// are refused.
func TestSchemasRejectDiffImpact(t *testing.T) {
	schemas := compileSchemas(t)
	old, new, dir := shopBuilds(t)
	docs := map[string][]byte{
		"diff":   marshal(t, synth.Diff(old, new, "")),
		"fixed":  marshal(t, synth.Diff(new, old, "")),
		"impact": marshal(t, shopImpacts(t, dir)["whole files"]),
	}
	// item returns the first element of list key whose field has the
	// value, or the first element at all for an empty field.
	item := func(d map[string]any, key, field string, value any) map[string]any {
		for _, x := range arr(d, key) {
			if x := x.(map[string]any); field == "" || x[field] == value {
				return x
			}
		}
		panic("no " + key + " with " + field)
	}
	withLocated := func(d map[string]any) map[string]any {
		for _, x := range arr(d, "changed") {
			if x := x.(map[string]any); len(arr(x, "located")) > 0 {
				return x
			}
		}
		panic("no changed node with located candidates")
	}
	for _, c := range []struct {
		doc, schema, what string
		change            func(d map[string]any)
	}{
		{"diff", "diff", "a missing schemaVersion", func(d map[string]any) { delete(d, "schemaVersion") }},
		{"diff", "diff", "an unknown field", func(d map[string]any) { d["extra"] = true }},
		{"diff", "diff", "a null list", func(d map[string]any) { d["fixed"] = nil }},
		{"diff", "diff", "a missing count", func(d map[string]any) { delete(obj(d, "counts"), "pages") }},
		{"diff", "diff", "a broken link now linked", func(d map[string]any) {
			item(d, "broken", "", nil)["after"] = map[string]any{"state": "linked", "reason": "", "why": ""}
		}},
		{"diff", "diff", "a wrong reason", func(d map[string]any) { obj(item(d, "broken", "", nil), "after")["reason"] = "changed" }},
		{"diff", "diff", "a stale link with an unknown reason", func(d map[string]any) {
			for _, x := range arr(d, "broken") {
				if a := obj(x.(map[string]any), "after"); a["state"] == "stale" {
					a["reason"] = "target_missing"
					return
				}
			}
			panic("no stale broken link")
		}},
		{"diff", "diff", "a broken link without claimed_by", func(d map[string]any) { delete(item(d, "broken", "", nil), "claimed_by") }},
		{"diff", "diff", "a requirement without before", func(d map[string]any) { delete(item(d, "requirements", "", nil), "before") }},
		{"diff", "diff", "a requirement neither before nor after", func(d map[string]any) {
			r := item(d, "requirements", "", nil)
			r["before"], r["after"] = nil, nil
		}},
		{"diff", "diff", "a claim of kind links", func(d map[string]any) { item(d, "claims_added", "", nil)["kind"] = "links" }},
		{"diff", "diff", "a claim without a state", func(d map[string]any) { delete(item(d, "claims_added", "", nil), "state") }},
		{"diff", "diff", "a page change of an unknown kind", func(d map[string]any) { item(d, "pages", "", nil)["changes"] = []any{"moved"} }},
		{"diff", "diff", "an added page with other changes", func(d map[string]any) {
			for _, x := range arr(d, "pages") {
				if x := x.(map[string]any); arr(x, "changes")[0] == "added" {
					x["changes"] = []any{"added", "title"}
					return
				}
			}
			panic("no added page")
		}},
		{"diff", "diff", "a page without changes", func(d map[string]any) { item(d, "pages", "", nil)["changes"] = []any{} }},
		{"fixed", "diff", "a fixed link still stale", func(d map[string]any) {
			f := item(d, "fixed", "", nil)
			f["after"] = f["before"]
		}},
		{"fixed", "diff", "a link gone with a url", func(d map[string]any) {
			for _, x := range arr(d, "fixed") {
				if x := x.(map[string]any); x["after"] == nil {
					x["url"] = "code/x/"
					return
				}
			}
			panic("no fixed link gone")
		}},
		{"impact", "impact", "a missing schemaVersion", func(d map[string]any) { delete(d, "schemaVersion") }},
		{"impact", "impact", "missing truncated", func(d map[string]any) { delete(d, "truncated") }},
		{"impact", "impact", "truncated with few nodes", func(d map[string]any) { d["truncated"] = true }},
		{"impact", "impact", "a changed requirement", func(d map[string]any) { item(d, "changed", "", nil)["type"] = "requirement" }},
		{"impact", "impact", "a missing located_total", func(d map[string]any) { delete(item(d, "changed", "", nil), "located_total") }},
		{"impact", "impact", "an unknown node field", func(d map[string]any) { item(d, "changed", "", nil)["color"] = "red" }},
		{"impact", "impact", "a declared located candidate", func(d map[string]any) {
			arr(withLocated(d), "located")[0].(map[string]any)["relation"] = "declared"
		}},
		{"impact", "impact", "a located defines edge", func(d map[string]any) {
			arr(withLocated(d), "located")[0].(map[string]any)["kind"] = "defines"
		}},
		{"impact", "impact", "a stale node without a reason", func(d map[string]any) {
			n := item(d, "changed", "type", "symbol")
			n["state"] = "stale"
			delete(n, "reason")
		}},
		{"impact", "impact", "a missing relying list", func(d map[string]any) { delete(obj(d, "relying"), "tests") }},
		{"impact", "impact", "a relying test that is a file", func(d map[string]any) {
			r := obj(d, "relying")
			r["tests"] = append(arr(r, "tests"), "file:cart/cart.go")
		}},
		{"impact", "impact", "a line 0", func(d map[string]any) {
			item(d, "paths", "", nil)["lines"] = []any{map[string]any{"start": 0.0, "end": 3.0}}
		}},
		{"impact", "impact", "a path without lines", func(d map[string]any) { delete(item(d, "paths", "", nil), "lines") }},
	} {
		var doc map[string]any
		if err := json.Unmarshal(docs[c.doc], &doc); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.schema].Validate(doc); err != nil {
			t.Fatalf("%s: the unchanged document is refused: %v", c.doc, err)
		}
		c.change(doc)
		if err := schemas[c.schema].Validate(doc); err == nil {
			t.Errorf("%s.schema.json accepts %s", c.schema, c.what)
		}
	}
}
