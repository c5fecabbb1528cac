package site

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// orgConfig is the organisation's workspace: the three repositories as
// externals, no content, no code; svcgo and platform give their wikis.
const orgConfig = "title = \"Payments org\"\n" +
	"[[externals]]\nname = \"platform\"\nbundle = \".bundles/platform.json\"\nurl = \"https://wiki.example.com/platform/\"\n" +
	"[[externals]]\nname = \"svcgo\"\nbundle = \".bundles/svcgo.json\"\nurl = \"https://wiki.example.com/svcgo/\"\n" +
	"[[externals]]\nname = \"svcpy\"\nbundle = \".bundles/svcpy.json\"\n"

// publishOrg builds repo and copies its bundle into the organisation's
// .bundles/ only (the other repositories do not rebuild).
func (w *externalsWorld) publishOrg(repo string) {
	w.t.Helper()
	w.write("org", ".bundles/"+repo+".json", string(w.build(repo)))
}

// org builds the organisation's wiki and returns its files and api/org.json.
func (w *externalsWorld) org() (map[string][]byte, synth.OrgJSON) {
	w.t.Helper()
	p, err := Load(w.dir("org"))
	if err != nil {
		w.t.Fatal(err)
	}
	defer p.Close()
	if !p.IsOrganisation() {
		w.t.Fatal("the org workspace is not an organisation's")
	}
	if p.Externals != nil {
		w.t.Fatal("Load read the bundles: the organisation's build reads and slims them itself")
	}
	s, err := p.Build(BuildOptions{}, io.Discard)
	if err != nil {
		w.t.Fatal(err)
	}
	var o synth.OrgJSON
	if err := json.Unmarshal(s.Files[synth.OrgFile], &o); err != nil {
		w.t.Fatal(err)
	}
	return s.Files, o
}

// orgLinks is every cross-repository link of o: "repo from -> to" ->
// "state reason (at build: state reason)".
func orgLinks(o synth.OrgJSON) map[string]string {
	out := map[string]string{}
	for _, l := range o.Links {
		out[l.From.Key+" -> "+l.To.Key] = strings.TrimSpace(l.State+" "+l.Reason) + " / built " + strings.TrimSpace(l.BuiltState+" "+l.BuiltReason)
	}
	return out
}

func TestOrganisationWiki(t *testing.T) {
	w := newExternalsWorld(t)
	w.write("org", "tracewiki.toml", orgConfig)
	// Each repository publishes and captures the others, then publishes
	// its bundle (with what it captured) to the organisation.
	w.settle()
	for _, repo := range []string{"platform", "svcgo", "svcpy"} {
		w.publishOrg(repo)
	}
	files, o := w.org()

	// The combined matrix: every bundle's requirements, by repository.
	var ids []string
	for _, r := range o.Requirements {
		ids = append(ids, r.ID.Key)
	}
	if got, want := strings.Join(ids, " "), "platform:SYS-1 platform:SYS-2 svcgo:SW-1 svcpy:PY-1"; got != want {
		t.Errorf("requirements %q, want %q", got, want)
	}
	matrix := string(files["requirements/index.html"])
	for _, s := range []string{`<h2 id="repo-platform">platform</h2>`, `<h2 id="repo-svcpy">svcpy</h2>`,
		`<a href="https://wiki.example.com/svcgo/requirements/SW-1/index.html">svcgo:SW-1</a>`, `<td>svcpy:PY-1</td>`} {
		if !strings.Contains(matrix, s) {
			t.Errorf("matrix lacks %s", s)
		}
	}
	// Coverage per repository is its bundle's; the total their sum.
	var total synth.BundleCoverage
	for _, r := range o.Repositories {
		data, err := os.ReadFile(w.dir("org") + "/.bundles/" + r.Name + ".json")
		must(t, err)
		var b synth.BundleJSON
		must(t, json.Unmarshal(data, &b))
		if r.Counts.Coverage != b.Coverage {
			t.Errorf("%s: coverage %+v, its bundle says %+v", r.Name, r.Counts.Coverage, b.Coverage)
		}
		total.Covered, total.Total = total.Covered+b.Coverage.Covered, total.Total+b.Coverage.Total
	}
	if o.Total.Coverage != total || total.Total == 0 {
		t.Errorf("total coverage %+v, want %+v (not empty)", o.Total.Coverage, total)
	}
	if o.Total.Requirements != 4 || o.Repositories[1].Counts.Implemented != 1 {
		t.Errorf("counts: total %+v, svcgo %+v", o.Total, o.Repositories[1].Counts)
	}

	// Every cross-repository link, linked both here and at its build.
	links := orgLinks(o)
	want := map[string]string{
		"svcpy:PY-1 -> svcgo:src/charge.go@Refund":     "linked / built linked",
		"svcpy:guide -> svcgo:src/charge.go@Charge":    "linked / built linked",
		"svcpy:PY-1 -> platform:SYS-2":                 "linked / built linked",
		"svcpy:PY-1 -> svcgo:SW-1":                     "linked / built linked",
		"svcgo:SW-1 -> platform:SYS-1":                 "linked / built linked",
		"platform:SYS-1 -> svcgo:src/charge.go@Charge": "linked / built linked",
	}
	for k, v := range want {
		if links[k] != v {
			t.Errorf("link %s: %q, want %q", k, links[k], v)
		}
	}
	if len(links) != len(want) {
		t.Errorf("links %v, want %d", links, len(want))
	}
	// The graph page draws the cross links, each node linking to its wiki.
	if g := string(files["graph/index.html"]); !strings.Contains(g, `href="https://wiki.example.com/svcgo/code/src/charge.go/index.html#sym-Refund"`) {
		t.Errorf("graph page lacks the link to Refund's page in svcgo's wiki")
	}
	// Search covers every bundle, the requirements' text included.
	if s := string(files["api/search.json"]); !strings.Contains(s, `"requirement:svcgo:SW-1"`) || !strings.Contains(s, "Charge calls the card network.") {
		t.Errorf("search index lacks svcgo's requirement or its text")
	}

	// A change on one side: the Go service edits Charge and renames
	// Refund, and publishes; platform and svcpy do not rebuild. The
	// organisation's wiki judges their links against the new bundle.
	w.write("svcgo", "src/charge.go", "package src\n\n// Charge charges a card.\nfunc Charge(cents int) int {\n\treturn cents * 2\n}\n\n// RefundAll refunds a charge.\nfunc RefundAll(cents int) int {\n\treturn -cents\n}\n")
	w.publishOrg("svcgo")
	// And platform edits SYS-2, which svcpy's PY-1 refines.
	w.write("platform", "content/requirements/SYS-2.md", "---\nid: SYS-2\ntitle: Pay out\n---\nThe system pays merchants daily.\n")
	w.publishOrg("platform")
	files, o = w.org()
	links = orgLinks(o)
	for k, v := range map[string]string{
		"svcpy:guide -> svcgo:src/charge.go@Charge":    "stale content_changed / built linked",
		"platform:SYS-1 -> svcgo:src/charge.go@Charge": "stale content_changed / built linked",
		"svcpy:PY-1 -> svcgo:src/charge.go@Refund":     "stale symbol_not_found / built linked",
		"svcpy:PY-1 -> platform:SYS-2":                 "stale parent_changed / built linked",
		"svcgo:SW-1 -> platform:SYS-1":                 "linked / built linked",
	} {
		if links[k] != v {
			t.Errorf("after the change, link %s: %q, want %q", k, links[k], v)
		}
	}
	if o.Total.StaleLinks != 4 {
		t.Errorf("total drifted links %d, want 4", o.Total.StaleLinks)
	}
	drift := string(files["drift/index.html"])
	if i, j := strings.Index(drift, "symbol_not_found"), strings.Index(drift, `badge-linked`); i < 0 || j < 0 || i > j {
		t.Errorf("drift page does not list the drifted links first")
	}
}
