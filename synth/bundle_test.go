package synth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// bundleFixture has a requirement with a parent, fields, Markdown text,
// an implements link to a type, a tests link and a line range; a parent;
// a wiki page that claims a symbol; and symbols nothing links.
var bundleFixture = map[string]string{
	"cart/cart.go": `package cart

type Cart struct{ n int }

func (c *Cart) Add() { c.n++ }

func Free() int { return 0 }
`,
	"cart/cart_test.go": `package cart

import "testing"

func TestAdd(t *testing.T) { (&Cart{}).Add() }
`,
	"util/util.go":                  "package util\n\nfunc Helper() {}\n\nfunc Unlinked() {}\n",
	"content/requirements/SYS-1.md": "---\ntitle: Carts\n---\nThe system keeps carts.\n",
	"content/requirements/REQ-2.md": "---\ntitle: Add to cart\nparent: [SYS-1]\nfields: {color: blue}\n" +
		"implements: [cart/cart.go@Cart, util/util.go#L3-L3, cart/cart.go@Cart]\ntests: [cart/cart_test.go@TestAdd]\n---\n" +
		"# Adding\n\nA **user** adds an *item* with `Add` ([docs](https://example.com)).\nSee <https://example.org>.\n\n" +
		"- one\n- two\n\n<div>raw html</div>\n",
	"content/guide.md": "# Guide\n\nFree carts ([code](code:cart/cart.go@Free)).\n",
}

// bundleWorld is a fixture parsed and judged: what a bundle is made from.
type bundleWorld struct {
	model   *claims.Model
	sources map[string]*codeanchors.Source
	files   []*codeanchors.File
}

// parseWorld parses the content and the code of files, in order.
func parseWorld(t *testing.T, files map[string]string, order []string) *bundleWorld {
	t.Helper()
	w := &bundleWorld{sources: map[string]*codeanchors.Source{}}
	var content []claims.File
	for _, name := range order {
		src := []byte(files[name])
		if strings.HasPrefix(name, "content/") {
			content = append(content, claims.File{Name: name, Data: src})
			continue
		}
		s := codeanchors.NewSource(codeanchors.Default, name, src)
		if s.File == nil {
			t.Fatalf("%s: %v", name, s.ParseErr)
		}
		w.sources[name] = s
		w.files = append(w.files, s.File)
	}
	m, diags := claims.Parse("content", content)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	w.model = m
	return w
}

// capture captures every target of the world into a new lock.
func (w *bundleWorld) capture(t *testing.T) *codeanchors.Lock {
	t.Helper()
	l := codeanchors.NewLock()
	for _, r := range codeanchors.Targets(w.model) {
		s := w.sources[r.Target.Path]
		a, err := codeanchors.Capture(r.Target, codeanchors.ResolveIn(r.Target, nil, s), s, "2026-01-01T00:00:00Z", "test")
		if err != nil {
			t.Fatal(err)
		}
		l.Anchors[r.Target.String()] = a
	}
	return l
}

// bundle judges the world against l and makes its bundle.
func (w *bundleWorld) bundle(l *codeanchors.Lock) BundleJSON {
	rep := codeanchors.Check(w.model, l, w.sources)
	ix := codeanchors.BuildIndex(codeanchors.IndexInput{Files: w.files, Project: map[string][]byte{"go.mod": []byte("module example.com/shop\n")}})
	g := Build(Input{ProjectID: "shop", Model: w.model, Lang: "en", Report: rep, Index: ix})
	cov := NewCoverage(CoverageInput{Graph: g})
	return NewBundle(BundleInput{Name: "shop", Revision: "0123456789abcdef0123456789abcdef01234567", URL: "https://wiki.example.com/shop/",
		Graph: g, Model: w.model, Report: rep, Code: codeanchors.Publish(rep, ix, w.sources), Coverage: cov.Totals})
}

func requirementIn(t *testing.T, b BundleJSON, id string) BundleRequirement {
	t.Helper()
	for _, r := range b.Requirements {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no requirement %s in the bundle", id)
	return BundleRequirement{}
}

func anchorIn(t *testing.T, b BundleJSON, ref string) BundleAnchor {
	t.Helper()
	for _, a := range b.Anchors {
		if a.Ref == ref {
			return a
		}
	}
	t.Fatalf("no anchor %s in the bundle", ref)
	return BundleAnchor{}
}

// lineHash is the text hash of lines start..end of src (SPEC 1.3),
// computed apart from the code under test; src has no trailing spaces.
func lineHash(src string, start, end int) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Split(src, "\n")[start-1:end], "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestBundleSections checks every section of a bundle of a captured
// fixture: requirements by id with their plain text, links and states;
// one anchor per target with the hashes of its current lines and who
// claims it; every symbol of the code index, linked or not; no links;
// the coverage totals.
func TestBundleSections(t *testing.T) {
	w := parseWorld(t, bundleFixture, slices.Sorted(maps.Keys(bundleFixture)))
	b := w.bundle(w.capture(t))
	if b.SchemaVersion != SchemaVersion || b.Name != "shop" || b.Revision == "" || b.URL != "https://wiki.example.com/shop/" {
		t.Errorf("header = %d %q %q %q", b.SchemaVersion, b.Name, b.Revision, b.URL)
	}

	var ids []string
	for _, r := range b.Requirements {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"REQ-2", "SYS-1"}) {
		t.Errorf("requirements = %v, want by id", ids)
	}
	r := requirementIn(t, b, "REQ-2")
	wantText := "Adding A user adds an item with Add (docs). See https://example.org. one two"
	if r.Text != wantText {
		t.Errorf("text = %q, want %q", r.Text, wantText)
	}
	if !slices.Equal(r.Parents, []string{"SYS-1"}) || !slices.Equal(r.Implements, []string{"cart/cart.go@Cart", "util/util.go#L3-L3"}) ||
		!slices.Equal(r.Tests, []string{"cart/cart_test.go@TestAdd"}) {
		t.Errorf("links = %v %v %v (each once, as written)", r.Parents, r.Implements, r.Tests)
	}
	if r.Fields["color"] != "blue" || r.Title != "Add to cart" || !r.Normative || r.Revision != w.model.Requirements[slices.IndexFunc(w.model.Requirements, func(q *claims.Requirement) bool { return q.ID == "REQ-2" })].Revision {
		t.Errorf("requirement = %+v", r)
	}
	if !r.Implemented || !r.Tested || r.Verified || r.Stale {
		t.Errorf("states = implemented %v tested %v verified %v stale %v, want true true false false", r.Implemented, r.Tested, r.Verified, r.Stale)
	}
	if s := requirementIn(t, b, "SYS-1"); s.Fields == nil || s.Parents == nil || s.Implements == nil || s.Tests == nil {
		t.Errorf("empty lists and fields must be [] and {}: %+v", s)
	}

	var refs []string
	for _, a := range b.Anchors {
		refs = append(refs, a.Ref)
	}
	if want := []string{"cart/cart.go@Cart", "cart/cart.go@Free", "cart/cart_test.go@TestAdd", "util/util.go#L3-L3"}; !slices.Equal(refs, want) {
		t.Errorf("anchors = %v, want %v", refs, want)
	}
	cart := anchorIn(t, b, "cart/cart.go@Cart")
	if cart.Start != 3 || cart.End != 3 || cart.Hash != lineHash(bundleFixture["cart/cart.go"], 3, 3) || cart.State != "linked" || cart.Reason != "" ||
		cart.Parser != "go/ast@1" || cart.TokenHash == "" || cart.BodyHash == "" || cart.BodyHash == cart.TokenHash {
		t.Errorf("cart anchor = %+v", cart)
	}
	if !slices.Equal(cart.ClaimedBy, []NodeID{claims.RequirementNode("REQ-2")}) {
		t.Errorf("cart claimed by %v, want REQ-2 once", cart.ClaimedBy)
	}
	if free := anchorIn(t, b, "cart/cart.go@Free"); !slices.Equal(free.ClaimedBy, []NodeID{claims.PageNode("guide")}) {
		t.Errorf("Free claimed by %v, want the guide", free.ClaimedBy)
	}
	if rng := anchorIn(t, b, "util/util.go#L3-L3"); rng.BodyHash != "" || rng.Hash != lineHash(bundleFixture["util/util.go"], 3, 3) {
		t.Errorf("a line range has no body hash and its lines' hash: %+v", rng)
	}

	var syms []string
	for _, s := range b.Symbols {
		syms = append(syms, s.Ref+" "+s.Kind)
		if s.Start < 1 || s.End < s.Start || !strings.HasPrefix(s.Hash, "sha256:") || !strings.HasPrefix(s.TokenHash, "sha256:") {
			t.Errorf("symbol %+v", s)
		}
	}
	want := []string{"cart/cart.go@Cart type", "cart/cart.go@Cart.Add method", "cart/cart.go@Free func", "cart/cart_test.go@TestAdd test",
		"util/util.go@Helper func", "util/util.go@Unlinked func"}
	if !slices.Equal(syms, want) {
		t.Errorf("symbols = %v, want every symbol by path and line: %v", syms, want)
	}
	for _, s := range b.Symbols {
		if s.Ref == cart.Ref && (s.Hash != cart.Hash || s.TokenHash != cart.TokenHash) {
			t.Errorf("symbol %s and its anchor disagree: %+v %+v", s.Ref, s, cart)
		}
	}

	if b.Links == nil || len(b.Links) != 0 || b.Evidence == nil || len(b.Evidence) != 0 {
		t.Errorf("links = %v, evidence = %v: want [] and []", b.Links, b.Evidence)
	}
	// Cart, Cart.Add (a member) and TestAdd are covered; Free is only
	// claimed by a page; Helper by the range; Unlinked by nothing.
	if b.Coverage != (BundleCoverage{Covered: 4, Total: 6}) {
		t.Errorf("coverage = %+v, want 4 of 6", b.Coverage)
	}
}

// TestBundleStates: edited code makes its anchor stale with the new lines'
// hashes and the requirement stale; evidence recorded against the
// current revision verifies, a newer failing run un-verifies, and an
// edited requirement expires it; superseded entries are left out.
func TestBundleStates(t *testing.T) {
	order := slices.Sorted(maps.Keys(bundleFixture))
	w := parseWorld(t, bundleFixture, order)
	l := w.capture(t)
	rev := requirementIn(t, w.bundle(l), "REQ-2").Revision
	record := func(run, at, outcome string) {
		l.RecordEvidence(codeanchors.Evidence{Req: "REQ-2", Run: run, Revision: rev, RecordedAt: at,
			Tests: []codeanchors.EvidenceTest{{Name: "cart.TestAdd", Outcome: outcome, Target: "cart/cart_test.go@TestAdd"}}})
	}
	record("ci-1", "2026-01-02T00:00:00Z", "pass")
	b := w.bundle(l)
	if r := requirementIn(t, b, "REQ-2"); !r.Verified || r.Stale {
		t.Errorf("verified %v stale %v, want a passing run to verify", r.Verified, r.Stale)
	}
	if want := []BundleEvidence{{Req: "REQ-2", Run: "ci-1", State: "linked"}}; !slices.Equal(b.Evidence, want) {
		t.Errorf("evidence = %v, want %v", b.Evidence, want)
	}

	record("ci-2", "2026-01-03T00:00:00Z", "fail")
	b = w.bundle(l)
	if r := requirementIn(t, b, "REQ-2"); r.Verified || !r.Stale {
		t.Errorf("verified %v stale %v, want a newer failing run to un-verify", r.Verified, r.Stale)
	}
	if want := []BundleEvidence{{Req: "REQ-2", Run: "ci-2", State: "stale"}}; !slices.Equal(b.Evidence, want) {
		t.Errorf("evidence = %v, want the live entry only: %v", b.Evidence, want)
	}

	// The code changes, and the requirement's text.
	edited := maps.Clone(bundleFixture)
	edited["cart/cart.go"] = strings.Replace(edited["cart/cart.go"], "type Cart struct{ n int }", "type Cart struct{ n, m int }", 1)
	edited["content/requirements/REQ-2.md"] += "\nAnd more.\n"
	w = parseWorld(t, edited, order)
	b = w.bundle(l)
	cart := anchorIn(t, b, "cart/cart.go@Cart")
	if cart.State != "stale" || cart.Reason != "content_changed" || cart.Hash != lineHash(edited["cart/cart.go"], 3, 3) || cart.Hash == l.Anchors["cart/cart.go@Cart"].Hash {
		t.Errorf("edited Cart = %+v, want stale content_changed with the new lines' hash", cart)
	}
	r := requirementIn(t, b, "REQ-2")
	if !r.Stale || r.Verified || r.Implemented != true || r.Revision == rev {
		t.Errorf("edited REQ-2 = %+v, want stale, not verified, implemented by the range, a new revision", r)
	}
	if want := []BundleEvidence{{Req: "REQ-2", Run: "ci-2", State: "stale"}}; !slices.Equal(b.Evidence, want) {
		t.Errorf("evidence = %v, want %v", b.Evidence, want)
	}

	// The symbol is gone: not found, no lines, no hashes.
	edited["cart/cart.go"] = strings.Replace(edited["cart/cart.go"], "type Cart struct{ n, m int }", "type Basket struct{ n, m int }", 1)
	edited["cart/cart.go"] = strings.ReplaceAll(edited["cart/cart.go"], "*Cart", "*Basket")
	w = parseWorld(t, edited, order)
	gone := anchorIn(t, w.bundle(l), "cart/cart.go@Cart")
	if gone.State != "stale" || gone.Reason != "symbol_not_found" || gone.Start != 0 || gone.End != 0 || gone.Hash != "" || gone.TokenHash != "" || gone.BodyHash != "" || gone.Parser != "go/ast@1" {
		t.Errorf("lost Cart = %+v, want symbol_not_found without lines or hashes", gone)
	}
}

// TestBundleDeterministic: the same files listed in shuffled orders give
// byte-identical bundles.
func TestBundleDeterministic(t *testing.T) {
	order := slices.Sorted(maps.Keys(bundleFixture))
	w := parseWorld(t, bundleFixture, order)
	l := w.capture(t)
	want, err := MarshalJSON(w.bundle(l))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		got, err := MarshalJSON(parseWorld(t, bundleFixture, order).bundle(l))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("order %v gives another bundle:\n%s\nwant\n%s", order, got, want)
		}
	}
}

// TestBundleText: a requirement's text is capped at MaxBundleText
// characters (not bytes), and a cut text says so with an ellipsis.
func TestBundleText(t *testing.T) {
	for _, c := range []struct {
		name, body string
		cut        bool
	}{
		{"short", "Short *text*.", false},
		{"exactly the cap", strings.Repeat("é", MaxBundleText), false},
		{"one over", strings.Repeat("é", MaxBundleText+1), true},
		{"many words", strings.Repeat("word ", 1000), true},
		{"markdown", strings.Repeat("**bold** [link](x) ", 300), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := BundleText([]byte(c.body))
			n := utf8.RuneCountInString(got)
			if n > MaxBundleText {
				t.Errorf("%d characters, want at most %d", n, MaxBundleText)
			}
			if strings.HasSuffix(got, bundleEllipsis) != c.cut {
				t.Errorf("ends with an ellipsis: %v, want %v (%q...)", !c.cut, c.cut, got[max(0, len(got)-20):])
			}
			if !utf8.ValidString(got) || strings.Contains(got, "**") || strings.Contains(got, "](") {
				t.Errorf("not plain, valid text: %q", got[:min(len(got), 60)])
			}
			if c.cut && n < MaxBundleText-20 {
				t.Errorf("cut to %d characters, want close to %d", n, MaxBundleText)
			}
		})
	}
}
