package site

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// The three-repository fixture of issue 29: platform holds the system
// requirements and links the Go service's code; svcgo (a Go service)
// refines platform's requirements and implements them; svcpy (a Python
// service) refines platform's and svcgo's requirements and claims the Go
// service's code on a page. Each builds its bundle, which is copied into
// the others' .bundles/.
var externalsFixture = map[string]map[string]string{
	"platform": {
		"tracewiki.toml":                "title = \"Platform\"\nproject = \"platform\"\n[[externals]]\nname = \"svcgo\"\nbundle = \".bundles/svcgo.json\"\nurl = \"https://wiki.example.com/svcgo/\"\n",
		"content/requirements/SYS-1.md": "---\nid: SYS-1\ntitle: Charge cards\nimplements: [svcgo:src/charge.go@Charge]\n---\nThe system charges cards.\n",
		"content/requirements/SYS-2.md": "---\nid: SYS-2\ntitle: Pay out\n---\nThe system pays merchants.\n",
	},
	"svcgo": {
		"tracewiki.toml":               "title = \"Go service\"\nproject = \"svcgo\"\n[[externals]]\nname = \"platform\"\nbundle = \".bundles/platform.json\"\n",
		"content/requirements/SW-1.md": "---\nid: SW-1\ntitle: Charge\nparent: [platform:SYS-1]\nimplements: [src/charge.go@Charge]\ntests: [src/charge_test.go@TestCharge]\n---\nCharge calls the card network.\n",
		"src/charge.go":                "package src\n\n// Charge charges a card.\nfunc Charge(cents int) int {\n\treturn cents\n}\n\n// Refund refunds a charge.\nfunc Refund(cents int) int {\n\treturn -cents\n}\n",
		"src/charge_test.go":           "package src\n\nimport \"testing\"\n\nfunc TestCharge(t *testing.T) {\n\tif Charge(1) != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	},
	"svcpy": {
		"tracewiki.toml":               "title = \"Python service\"\nproject = \"svcpy\"\n[[externals]]\nname = \"platform\"\nbundle = \".bundles/platform.json\"\n[[externals]]\nname = \"svcgo\"\nbundle = \".bundles/svcgo.json\"\n",
		"content/requirements/PY-1.md": "---\nid: PY-1\ntitle: Pay out in Python\nparent: [platform:SYS-2, svcgo:SW-1]\nimplements: [pay.py@pay, svcgo:src/charge.go@Refund]\n---\nPayouts.\n",
		"content/guide.md":             "# Guide\n\nCards are charged by the Go service ([code](code:svcgo:src/charge.go@Charge)).\n",
		"pay.py":                       "def pay(cents):\n    return cents\n",
	},
}

// externalsWorld is the fixture on disk: a workspace per repository.
type externalsWorld struct {
	t    *testing.T
	root string
}

func newExternalsWorld(t *testing.T) *externalsWorld {
	w := &externalsWorld{t: t, root: t.TempDir()}
	for repo, files := range externalsFixture {
		for name, data := range files {
			w.write(repo, name, data)
		}
	}
	return w
}

func (w *externalsWorld) dir(repo string) string { return filepath.Join(w.root, repo) }

func (w *externalsWorld) write(repo, name, data string) {
	writeFixtureFile(w.t, w.dir(repo), name, []byte(data))
}

// build builds repo (capturing new targets, writing its lock) and returns
// its bundle.
func (w *externalsWorld) build(repo string) []byte {
	w.t.Helper()
	p, err := Load(w.dir(repo))
	if err != nil {
		w.t.Fatalf("Load(%s): %v", repo, err)
	}
	defer p.Close()
	s, err := p.Build(BuildOptions{}, io.Discard)
	if err != nil {
		w.t.Fatalf("Build(%s): %v", repo, err)
	}
	must(w.t, p.WriteCapture(s.Captured, io.Discard))
	return s.Files["api/bundle.json"]
}

// publish builds repo and copies its bundle into the others' .bundles/.
func (w *externalsWorld) publish(repo string) {
	w.t.Helper()
	b := w.build(repo)
	for other := range externalsFixture {
		if other != repo {
			w.write(other, ".bundles/"+repo+".json", string(b))
		}
	}
}

// capture runs capture in repo: it pins every external.
// settle runs CI over the three repositories: each publishes its bundle,
// platform again with the fresh bundles of the services that refine it,
// then each captures (pins) the bundles it links into.
func (w *externalsWorld) settle() {
	w.publish("platform")
	w.publish("svcgo")
	w.publish("svcpy")
	w.publish("platform")
	for _, repo := range []string{"platform", "svcgo", "svcpy"} {
		w.capture(repo)
	}
}

func (w *externalsWorld) capture(repo string, refs ...string) {
	w.t.Helper()
	p, err := Load(w.dir(repo))
	if err != nil {
		w.t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Capture(CaptureOptions{Refs: refs}, io.Discard); err != nil {
		w.t.Fatalf("capture %s: %v", repo, err)
	}
}

// states is every link of repo as check judges it: ref (with the child
// for a parent link) -> "state reason".
func (w *externalsWorld) states(repo string) map[string]string {
	w.t.Helper()
	p, err := Load(w.dir(repo))
	if err != nil {
		w.t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Findings("en")
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range f.Links {
		key := l.Ref
		if l.Kind == 2 { // a parent link: name its child
			key = l.ClaimedBy[0].String() + " -> " + l.Ref
		}
		out[key] = strings.TrimSpace(string(l.Verdict.State) + " " + string(l.Verdict.Reason))
	}
	return out
}

// expect checks the state of one link of repo.
func (w *externalsWorld) expect(repo string, got map[string]string, ref, want string) {
	w.t.Helper()
	if got[ref] != want {
		w.t.Errorf("%s: %s is %q, want %q", repo, ref, got[ref], want)
	}
}

func TestExternalsAcrossThreeRepositories(t *testing.T) {
	w := newExternalsWorld(t)
	w.settle()
	w.publish("svcgo")
	w.capture("svcpy")
	w.capture("platform")

	py, plat, gosvc := w.states("svcpy"), w.states("platform"), w.states("svcgo")
	w.expect("svcpy", py, "svcgo:src/charge.go@Charge", "linked")
	w.expect("svcpy", py, "svcgo:src/charge.go@Refund", "linked")
	w.expect("svcpy", py, "requirement:PY-1 -> requirement:platform:SYS-2", "linked")
	w.expect("svcpy", py, "requirement:PY-1 -> requirement:svcgo:SW-1", "linked")
	w.expect("svcpy", py, "external:svcgo", "linked")
	w.expect("platform", plat, "svcgo:src/charge.go@Charge", "linked")
	w.expect("svcgo", gosvc, "requirement:SW-1 -> requirement:platform:SYS-1", "linked")

	// The bundle lists this repository's links into its externals.
	b := string(w.build("svcpy"))
	for _, s := range []string{`"from": "requirement:PY-1"`, `"to": "svcgo:src/charge.go@Refund"`, `"to": "platform:SYS-2"`, `"from": "page:guide"`} {
		if !strings.Contains(b, s) {
			t.Errorf("svcpy's bundle links lack %s", s)
		}
	}

	// A code edit and a rename in the Go service.
	w.write("svcgo", "src/charge.go", "package src\n\n// Charge charges a card.\nfunc Charge(cents int) int {\n\treturn cents * 2\n}\n\n// RefundAll refunds a charge.\nfunc RefundAll(cents int) int {\n\treturn -cents\n}\n")
	w.publish("svcgo")
	py, plat = w.states("svcpy"), w.states("platform")
	w.expect("svcpy", py, "svcgo:src/charge.go@Charge", "stale content_changed")
	w.expect("svcpy", py, "svcgo:src/charge.go@Refund", "stale symbol_not_found")
	w.expect("svcpy", py, "external:svcgo", "unknown external_changed")
	w.expect("platform", plat, "svcgo:src/charge.go@Charge", "stale content_changed")
	w.expect("platform", plat, "external:svcgo", "unknown external_changed")
	// Pinning the new bundle settles the external, not the links: each is
	// judged by its own captured hashes.
	w.capture("svcpy", "external:svcgo")
	py = w.states("svcpy")
	w.expect("svcpy", py, "external:svcgo", "linked")
	w.expect("svcpy", py, "svcgo:src/charge.go@Charge", "stale content_changed")

	// A requirement edit in platform makes its children in both services
	// suspect.
	w.write("platform", "content/requirements/SYS-2.md", "---\nid: SYS-2\ntitle: Pay out\n---\nThe system pays merchants daily.\n")
	w.publish("platform")
	w.expect("svcpy", w.states("svcpy"), "requirement:PY-1 -> requirement:platform:SYS-2", "stale parent_changed")
	w.expect("svcgo", w.states("svcgo"), "requirement:SW-1 -> requirement:platform:SYS-1", "linked")

	// A tampered bundle: one hash changed by hand.
	tampered := strings.Replace(string(w.build("platform")), `"title": "Charge cards"`, `"title": "Charge all cards"`, 1)
	w.write("svcgo", ".bundles/platform.json", tampered)
	w.expect("svcgo", w.states("svcgo"), "external:platform", "unknown external_changed")
	// An unreadable one: every link into it is target_missing.
	w.write("svcgo", ".bundles/platform.json", "{not json")
	gosvc = w.states("svcgo")
	w.expect("svcgo", gosvc, "external:platform", "unknown target_missing")
	w.expect("svcgo", gosvc, "requirement:SW-1 -> requirement:platform:SYS-1", "unknown target_missing")
}

func TestExternalsStrict(t *testing.T) {
	w := newExternalsWorld(t)
	w.publish("platform")
	p, err := Load(w.dir("svcgo"))
	must(t, err)
	err = p.StrictExternals()
	p.Close()
	if err == nil || !strings.Contains(err.Error(), "external platform is not pinned") {
		t.Fatalf("unpinned external under --strict: %v", err)
	}
	w.capture("svcgo")
	p, err = Load(w.dir("svcgo"))
	must(t, err)
	must(t, p.StrictExternals())
	p.Close()
	w.write("platform", "content/requirements/SYS-1.md", "---\nid: SYS-1\ntitle: Charge cards\n---\nChanged.\n")
	w.publish("platform")
	p, err = Load(w.dir("svcgo"))
	must(t, err)
	defer p.Close()
	if err := p.StrictExternals(); err == nil || !strings.Contains(err.Error(), "changed since it was pinned") {
		t.Fatalf("changed external under --strict: %v", err)
	}
}

func TestExternalUndeclared(t *testing.T) {
	dir := t.TempDir()
	writeFixtureFile(t, dir, "content/requirements/SW-1.md", []byte("---\nid: SW-1\nparent: [platform:SYS-1]\n---\nBody.\n"))
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), `SW-1.md:3:`) || !strings.Contains(err.Error(), `unknown external "platform"`) {
		t.Fatalf("err = %v", err)
	}
	_ = os.Remove
}

// TestExternalsEvidenceExpiry: an external requirement shows its bundle's
// verified state. svcgo verifies SW-1 and publishes; svcpy, which refines
// svcgo:SW-1, sees it verified. Then SW-1's text changes on svcgo's side
// (its evidence expires there, requirement_changed_since_verification) and
// svcgo publishes again: svcpy, without building anything of its own again,
// sees svcgo:SW-1 unverified, its parent link to it suspect and the
// external changed.
func TestExternalsEvidenceExpiry(t *testing.T) {
	w := newExternalsWorld(t)
	w.write("svcgo", "go.mod", "module example.com/svcgo\n") // go test -json names packages by it
	w.publish("platform")
	w.publish("svcgo")
	for _, repo := range []string{"svcgo", "svcpy"} {
		w.capture(repo)
	}
	p, err := Load(w.dir("svcgo"))
	must(t, err)
	report := []byte(`{"Action":"run","Package":"example.com/svcgo/src","Test":"TestCharge"}
{"Action":"pass","Package":"example.com/svcgo/src","Test":"TestCharge","Elapsed":0}
`)
	ev, err := p.RecordEvidence("ci-1", "gotest.json", report, "ci", io.Discard)
	p.Close()
	if err != nil || len(ev.Recorded) != 1 {
		t.Fatalf("svcgo's evidence: %v, recorded %v", err, ev)
	}
	w.publish("svcgo")
	w.capture("svcpy")
	verified := func() bool {
		t.Helper()
		p, err := Load(w.dir("svcpy"))
		must(t, err)
		defer p.Close()
		g, _, err := p.Graph()
		must(t, err)
		id, err := claims.ParseNodeID("requirement:svcgo:SW-1")
		must(t, err)
		n, ok := g.Node(id)
		if !ok || n.Verified == nil {
			t.Fatalf("svcpy's graph has no verified state for %s: %+v", id, n)
		}
		return *n.Verified
	}
	if !verified() {
		t.Fatal("svcgo:SW-1 is verified in svcgo's bundle, but not in svcpy's graph")
	}
	w.expect("svcpy", w.states("svcpy"), "requirement:PY-1 -> requirement:svcgo:SW-1", "linked")

	w.write("svcgo", "content/requirements/SW-1.md", "---\nid: SW-1\ntitle: Charge\nparent: [platform:SYS-1]\nimplements: [src/charge.go@Charge]\ntests: [src/charge_test.go@TestCharge]\n---\nCharge calls the card network twice.\n")
	w.expect("svcgo", w.states("svcgo"), "run:ci-1", "stale requirement_changed_since_verification")
	w.publish("svcgo")
	if verified() {
		t.Error("svcgo:SW-1's evidence expired in svcgo, but svcpy still shows it verified")
	}
	py := w.states("svcpy")
	w.expect("svcpy", py, "requirement:PY-1 -> requirement:svcgo:SW-1", "stale parent_changed")
	w.expect("svcpy", py, "external:svcgo", "unknown external_changed")
}
