package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
	"golang.org/x/tools/txtar"
)

// shopWithHistory is the shop fixture after a second run, ci-2, recorded
// a minute after ci-1 with the same report: REQ-1 (whose ci-1 evidence
// expired) is verified again, REQ-3's tests fail again, and every ci-1
// entry is superseded.
func shopWithHistory(t *testing.T) string {
	t.Helper()
	dir := fixture(t, "shop")
	ar, err := txtar.ParseFile(filepath.Join("testdata", "site", "shop.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var report []byte
	for _, f := range ar.Files {
		if f.Name == "gotest.json" {
			report = f.Data
		}
	}
	epoch, _ := strconv.Atoi(fixtureEpoch)
	t.Setenv("SOURCE_DATE_EPOCH", strconv.Itoa(epoch+60))
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.RecordEvidence("ci-2", "gotest.json", report, "ci", io.Discard); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSiteCountsAgreeWithCheck checks that every count the site shows (the
// header's "Out of date" badge, the home page's stale requirements, stale
// links and unknown links, the drift page, api/manifest.json) is check's
// own count, with superseded evidence counted nowhere but apart (SPEC 1.5).
func TestSiteCountsAgreeWithCheck(t *testing.T) {
	dir := shopWithHistory(t)
	s := buildSite(t, dir, BuildOptions{}, 0)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Findings("")
	if err != nil {
		t.Fatal(err)
	}
	c := synth.NewCheckReport(f)
	stale, unknown, superseded := c.Count(codeanchors.Stale), c.Count(codeanchors.Unknown), c.Count(codeanchors.Superseded)
	if superseded == 0 {
		t.Fatal("check: no superseded entry; want every ci-1 entry")
	}
	for _, tg := range c.Targets {
		if (tg.State == string(codeanchors.Superseded)) != (tg.Ref == "run:ci-1") || tg.State == string(codeanchors.Superseded) && tg.SupersededBy != "run:ci-2" {
			t.Errorf("check: %s %s superseded_by %q; want every ci-1 entry superseded by run:ci-2, nothing else", tg.Ref, tg.State, tg.SupersededBy)
		}
	}
	// A requirement is stale when it makes a stale link.
	staleReqs := map[synth.NodeID]bool{}
	for _, tg := range c.Targets {
		for _, by := range tg.ClaimedBy {
			if tg.State == string(codeanchors.Stale) && by.Type == claims.NodeRequirement {
				staleReqs[by] = true
			}
		}
	}

	home := s.Files["index.html"]
	card := func(text string) int {
		m := regexp.MustCompile(`<span class="num">(\d+)</span> ` + text + `</a>`).FindSubmatch(home)
		if m == nil {
			t.Fatalf("home page has no %q card", text)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	header := regexp.MustCompile(`Out of date <span class="badge badge-[a-z]+">(\d+)</span>`)
	for _, page := range []string{"index.html", "drift/index.html", "requirements/REQ-1/index.html"} {
		m := header.FindSubmatch(s.Files[page])
		if m == nil || string(m[1]) != strconv.Itoa(stale+unknown) {
			t.Errorf("%s: header's out of date count %q, want check's %d stale + %d unknown", page, m, stale, unknown)
		}
	}
	for text, want := range map[string]int{"stale links": stale, "unknown links": unknown, "stale requirements": len(staleReqs)} {
		if got := card(text); got != want {
			t.Errorf("home: %d %s, check says %d", got, text, want)
		}
	}
	// REQ-1 is verified by ci-2 and makes no stale link: its expired ci-1
	// entry no longer counts it stale.
	if staleReqs[claims.RequirementNode("REQ-1")] || bytes.Contains(s.Files["requirements/filter/stale/index.html"], []byte(">REQ-1<")) {
		t.Error("REQ-1 counted stale; its only stale evidence is superseded")
	}
	if !bytes.Contains(s.Files["requirements/filter/stale/index.html"], []byte(">REQ-3<")) {
		t.Error("REQ-3, whose newest run failed, is not on the stale requirements page")
	}
	drift := s.Files["drift/index.html"]
	if n := bytes.Count(drift, []byte(`<div class="drift-link">`)); n != stale+unknown {
		t.Errorf("drift page lists %d links, check %d", n, stale+unknown)
	}
	if !bytes.Contains(drift, []byte(fmt.Sprintf("<p>%d links are stale or unknown.", stale+unknown))) {
		t.Errorf("drift page's count is not check's %d", stale+unknown)
	}
	var man synth.ManifestJSON
	must(t, json.Unmarshal(s.Files["api/manifest.json"], &man))
	if man.Links["stale"] != stale || man.Links["unknown"] != unknown || man.Superseded != superseded || man.Links["linked"] != c.Count(codeanchors.Linked) {
		t.Errorf("manifest links %v, superseded %d; check %v", man.Links, man.Superseded, c.Totals)
	}

	// REQ-1's page shows both runs, newest first: ci-2 deciding, ci-1
	// grey and superseded by ci-2.
	req := s.Files["requirements/REQ-1/index.html"]
	assertLines(t, "requirements/REQ-1/index.html", req,
		`<h2>Evidence history</h2>`,
		`<tr><td><a href="../../runs/ci-2/index.html">ci-2</a></td><td>2026-01-01T00:01:00Z</td><td>the current revision</td><td>1 of 1 passed</td><td><span class="badge badge-linked" title="">linked · deciding</span></td></tr>`,
		`<tr class="superseded"><td><a href="../../runs/ci-1/index.html">ci-1</a></td><td>2026-01-01T00:00:00Z</td>`,
		`<span class="badge badge-superseded" title="superseded by run:ci-2">superseded by ci-2</span>`,
		`! Out of date: evidence expired`,
	)
	if i, j := bytes.Index(req, []byte("runs/ci-2/")), bytes.Index(req, []byte("runs/ci-1/")); i < 0 || j < i {
		t.Errorf("REQ-1's history: ci-2 at %d, ci-1 at %d; want the newest first", i, j)
	}
	// The run page of ci-1 is history: it lists its entries, superseded.
	assertLines(t, "runs/ci-1/index.html", s.Files["runs/ci-1/index.html"], `<tr class="superseded">`, `superseded by ci-2`)

	// Both documents with superseded entries are valid by their schemas.
	schemas := compileSchemas(t)
	data, err := synth.MarshalJSON(c)
	must(t, err)
	validate(t, schemas, "check", "check with superseded entries", data)
	validate(t, schemas, "manifest", "api/manifest.json with superseded entries", s.Files["api/manifest.json"])

	var g synth.GraphJSON
	must(t, json.Unmarshal(s.Files["api/graph.json"], &g))
	for _, e := range g.Edges {
		if e.Kind == synth.KindEvidences && e.Dst == claims.RunNode("ci-1") {
			t.Errorf("graph: evidences edge %s -> %s of a superseded run", e.Src, e.Dst)
		}
	}
}
