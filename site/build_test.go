package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/synth"
)

// fixtureEpoch is the SOURCE_DATE_EPOCH of fixture captures and evidence:
// 2026-01-01T00:00:00Z.
const fixtureEpoch = "1767225600"

// fixture makes the workspace of testdata/site/NAME.txtar in a temporary
// folder, as testdata/site/README.md describes: it writes the plain
// sections, captures every target, records gotest.json as evidence for run
// ci-1, then applies the after/ and delete/ sections. It returns the folder.
func fixture(tb testing.TB, name string) string {
	tb.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "site", name+".txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Setenv("SOURCE_DATE_EPOCH", fixtureEpoch)
	dir := tb.TempDir()
	var report []byte
	var later []txtar.File
	for _, f := range ar.Files {
		switch {
		case f.Name == "gotest.json":
			report = f.Data
		case strings.HasPrefix(f.Name, "after/"), strings.HasPrefix(f.Name, "delete/"):
			later = append(later, f)
		default:
			writeFixtureFile(tb, dir, f.Name, f.Data)
		}
	}
	p, err := Load(dir)
	if err != nil {
		tb.Fatalf("%s: load before capture: %v", name, err)
	}
	defer p.Close()
	var notes bytes.Buffer
	res, err := p.Capture(CaptureOptions{By: "alice@example.com"}, &notes)
	if err != nil {
		tb.Fatalf("%s: capture: %v\n%s", name, err, &notes)
	}
	if len(res.Failed) > 0 || len(res.Captured) == 0 {
		tb.Fatalf("%s: capture:\n%s", name, res)
	}
	if report != nil {
		ev, err := p.RecordEvidence("ci-1", "gotest.json", report, "ci", &notes)
		if err != nil {
			tb.Fatalf("%s: evidence: %v\n%s", name, err, &notes)
		}
		if len(ev.Skipped) > 0 || len(ev.Recorded) == 0 {
			tb.Fatalf("%s: evidence: recorded %d, skipped %q", name, len(ev.Recorded), ev.Skipped)
		}
	}
	for _, f := range later {
		if rest, ok := strings.CutPrefix(f.Name, "delete/"); ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rest))); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		writeFixtureFile(tb, dir, strings.TrimPrefix(f.Name, "after/"), f.Data)
	}
	return dir
}

func writeFixtureFile(tb testing.TB, dir, name string, data []byte) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	must(tb, os.MkdirAll(filepath.Dir(p), 0o755))
	must(tb, os.WriteFile(p, data, 0o644))
}

// buildSite loads dir and builds it frozen (nothing captured, the lock
// untouched) with the given workers (0: GOMAXPROCS).
func buildSite(tb testing.TB, dir string, opts BuildOptions, workers int) *Site {
	tb.Helper()
	p, err := Load(dir)
	if err != nil {
		tb.Fatalf("Load(%s): %v", dir, err)
	}
	defer p.Close()
	p.Workers = workers
	opts.Frozen = true
	s, err := p.Build(opts, io.Discard)
	if err != nil {
		tb.Fatalf("Build(%s): %v", dir, err)
	}
	return s
}

// buildPR42 builds dir frozen under the base URL /pr-42/. Tracewiki's own
// wiki ("..") is built once per test binary and shared: TestSchemas and
// TestLinks only read that build, and it takes seconds.
func buildPR42(t *testing.T, dir string) *Site {
	t.Helper()
	if dir != ".." {
		return buildSite(t, dir, BuildOptions{BaseURL: "/pr-42/"}, 0)
	}
	s, err := ownPR42()
	if err != nil {
		t.Fatalf("Build(..): %v", err)
	}
	return s
}

// ownPR42 is the build of buildPR42(t, "..").
var ownPR42 = sync.OnceValues(func() (*Site, error) {
	p, err := Load("..")
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Build(BuildOptions{BaseURL: "/pr-42/", Frozen: true}, io.Discard)
})

// assertLines checks that content holds every line of want as a substring,
// or, for a line starting with "! ", does not hold the rest (Hugo's
// AssertFileContent).
func assertLines(tb testing.TB, name string, content []byte, want ...string) {
	tb.Helper()
	for _, w := range want {
		if neg, ok := strings.CutPrefix(w, "! "); ok {
			if bytes.Contains(content, []byte(neg)) {
				tb.Errorf("%s holds %q; it must not", name, neg)
			}
		} else if !bytes.Contains(content, []byte(w)) {
			tb.Errorf("%s lacks %q", name, w)
		}
	}
}

// goldens are the output files of the shop fixture compared with
// testdata/site/golden, each with the lines that matter in it.
var goldens = []struct {
	name, file string
	lines      []string
}{
	{"home.html", "index.html", []string{
		`<h1 id="shop-wiki">Shop wiki</h1>`,
		`href="requirements/REQ-1/index.html"`,
		`href="pages/guides/checkout/index.html"`,
		`href="drift/index.html"`,
		`<code>pay/pay.go@Charge</code>`,
		`badge-stale`,
		`badge-unknown`,
		`! href="/`,
	}},
	{"requirements.html", "requirements/index.html", []string{
		// Coverage: counts and percentages of the four requirements.
		`<td>4</td><td>3 <span class="pct">(75%)</span></td><td>3 <span class="pct">(75%)</span></td><td>1 <span class="pct">(25%)</span></td>`,
		`href="../requirements/REQ-1/index.html"`,
		`href="../requirements/filter/unverified/index.html"`,
		// REQ-1: implemented and tested, its evidence expired; its code
		// and test with their states.
		`<tr id="REQ-1" data-order="0" data-status="accepted" data-stale="true" data-implemented="true" data-tested="true" data-verified="false" data-tags="" class="stale">`,
		// The states come right after the title; a ref may wrap at its joints.
		"<td>Cart totals</td>\n<td><span class=\"badge badge-yes\" title=\"implemented\">yes</span></td>\n<td><span class=\"badge badge-yes\" title=\"tested\">yes</span></td>\n<td><span class=\"badge badge-no\" title=\"not verified\">no</span></td>\n<td><span class=\"badge badge-stale\" title=\"evidence expired: the requirement changed after it was verified\">stale</span></td>\n<td>accepted</td>",
		`<td><ul class="refs"><li><a href="../code/cart/cart.go/index.html#sym-Cart.Total"><code>cart/<wbr>cart.go@<wbr>Cart.Total</code></a> <span class="badge badge-linked" title="">linked</span></li></ul></td>`,
		// REQ-3: its code is stale, so it is not implemented: a warning.
		`<td><ul class="refs"><li><a href="../code/pay/pay.go/index.html#sym-Charge"><code>pay/<wbr>pay.go@<wbr>Charge</code></a> <span class="badge badge-stale"`,
		`<td><span class="badge badge-warn" title="no implements link is linked">no</span></td>`,
		`<script src="../assets/matrix.js"></script>`,
		`<form class="matrix-filters" id="matrix-filters" hidden`,
	}},
	{"requirement-REQ-1.html", "requirements/REQ-1/index.html", []string{
		`REQ-1: Cart totals`,
		`empty cart totals zero`,
		// The evidence of run ci-1 was recorded against the first revision:
		// it expired when the body changed.
		`<a href="../../runs/ci-1/index.html">ci-1</a>`,
		`recorded against</th>`,
		`<td>revision `,
		`evidence expired: the requirement changed after it was verified`,
		`1 of 1 passed`,
		`<svg`,
		`<path class="edge rel-declared stale" fill="none"`,
		`<title>requirement:REQ-1 —evidences→ run:ci-1: evidence expired: the requirement changed after it was verified</title>`,
		`href="../../code/cart/cart.go/index.html#sym-Cart.Total"`,
	}},
	{"page-checkout.html", "pages/guides/checkout/index.html", []string{
		// The body's "# Checkout" is the page's heading, shown once.
		`<h1>Checkout <span class="badge badge-stale"`,
		`! <h1 id="checkout">Checkout</h1>`,
		`<title>Checkout · Shop</title>`,
		// A claim link written [code](code:…) shows its target.
		`<a class="claim state-linked" href="../../../code/pay/pay.go/index.html#sym-Refund" title="pay/pay.go@Refund"><code>pay/pay.go@Refund</code></a>`,
		// Fenced code: highlighted with chroma's classes; an unknown
		// language is plain, escaped text.
		`<pre class="chroma"><code><span class="line"><span class="cl"><span class="nx">total</span>`,
		`<span class="c1">// &#34;cents&#34; per item</span>`,
		`<pre class="chroma"><code><span class="line"><span class="cl">&lt;b&gt;kept as text&lt;/b&gt;`,
		`<span class="k">def</span> <span class="nf">charge</span>`,
		// The claims table shows the target as written; the URI is its title.
		`<a href="../../../code/pay/pay.go/index.html#sym-Charge" title="code://shop/pay/pay.go#symbol-Charge"><code>pay/pay.go@Charge</code></a>`,
		// The stale claim: a marker, a badge with the why, its code URI and
		// captured range.
		`<a class="claim state-stale" href="../../../code/pay/pay.go/index.html#sym-Charge"`,
		`<span class="badge badge-stale" title="the anchored code changed since the link was captured">stale</span>`,
		// The moved claim is linked and says where it moved.
		`<a class="claim state-linked" href="../../../code/cart/cart.go/index.html#sym-Cart.Validate"`,
		`moved to lines 31–38`,
		// The deleted test degrades: unknown, not stale.
		`<a class="claim state-unknown" href="../../../tests/pay/refund_test.go/TestRefund/index.html"`,
		`<span class="badge badge-unknown" title="the link&#39;s target no longer exists">unknown</span>`,
		`<tr class="state-unknown">`,
		`the link&#39;s target no longer exists`,
		// The claim record placed on this page.
		`Checkout validates before charging.`,
		`href="../../../requirements/REQ-1/index.html"`,
		`href="../../../decisions/DEC-2/index.html"`,
		// The graph marks the stale symbol and the degraded test.
		`class="node node-symbol stale" href="../../../code/pay/pay.go/index.html#sym-Charge"`,
		`class="node node-test unknown" href="../../../tests/pay/refund_test.go/TestRefund/index.html"`,
	}},
	{"file-cart.html", "code/cart/cart.go/index.html", []string{
		`<tr id="sym-Cart.Total"><td><a href="#code-sym-Cart.Total">`,
		`<tr id="sym-Cart.Empty"><td><code>Cart.Empty</code>`,
		`moved: captured at lines 26–33, now 31–38`,
		// The range claim's row links to its fragment.
		`<tr id="range-L5-L9"><td><a href="#code-range-L5-L9"><code>#L5-L9</code></a>`,
		`<figure class="fragment state-linked" id="code-range-L5-L9">`,
		`linked (moved)`,
		`<figure class="fragment state-linked" id="code-sym-Cart.Validate">`,
		`<svg`,
		`! class="fragment state-stale"`,
	}},
	{"drift.html", "drift/index.html", []string{
		`<h1>Out of date</h1>`,
		`id="content_changed"`,
		`id="requirement_changed_since_verification"`,
		`id="target_missing"`,
		`id="uncaptured"`,
		`<code>pay/pay.go@Charge</code>`,
		`<code>pay/refund_test.go@TestRefund</code>`,
		`<code>pay/pay.go@Receipt</code>`,
		`run:ci-1`,
		// The captured-versus-current diff of the stale symbol, and of the
		// deleted test (all lines gone).
		`<span class="del">-	return c.Total() * cents</span>`,
		`<span class="add">&#43;	return c.Total()*cents &#43; fee</span>`,
		`<span class="del">-func TestRefund(t *testing.T) {</span>`,
		`! id="symbol_not_found"`,
	}},
	{"api-drift.json", "api/drift.json", []string{
		`"ref": "pay/pay.go@Charge",`,
		`"reason": "content_changed",`,
		`"ref": "pay/pay.go@Receipt",`,
		`"reason": "uncaptured",`,
		`"ref": "pay/refund_test.go@TestRefund",`,
		`"reason": "target_missing",`,
		`"ref": "run:ci-1",`,
		`"reason": "requirement_changed_since_verification",`,
		`"url": "/requirements/REQ-1/index.html"`,
		`! "ref": "cart/cart.go@Cart.Validate"`,
	}},
	{"api-manifest.json", "api/manifest.json", []string{
		`"project_id": "shop",`,
		`"baseURL": "/",`,
		`"content_changed": 1,`,
		`"target_missing": 1,`,
		`"uncaptured": 1`,
		`"requirement_changed_since_verification": 1,`,
	}},
}

// TestGolden compares a handful of output files of the shop fixture with
// their goldens, and checks the lines that matter in each.
func TestGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("-update is refused when CI is set: goldens are written by people, not by CI")
	}
	s := buildSite(t, fixture(t, "shop"), BuildOptions{}, 0)
	dir := filepath.Join("testdata", "site", "golden")
	produced := map[string]bool{}
	for _, g := range goldens {
		produced[g.name] = true
		got, ok := s.Files[g.file]
		if !ok {
			t.Errorf("%s: not built", g.file)
			continue
		}
		assertLines(t, g.file, got, g.lines...)
		name := filepath.Join(dir, g.name)
		if *update {
			must(t, os.MkdirAll(dir, 0o755))
			must(t, os.WriteFile(name, got, 0o644))
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%v (run go test ./site -run TestGolden -update)", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s at line %d; run with -update and review the diff", g.file, name, firstDiffLine(got, want))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !produced[e.Name()] {
			t.Errorf("%s: no test produces this golden file; delete it", filepath.Join(dir, e.Name()))
		}
	}
}

// firstDiffLine is the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestFixtureStates checks that the shop fixture really has the states its
// comment promises, so the goldens show what they are meant to show.
func TestFixtureStates(t *testing.T) {
	s := buildSite(t, fixture(t, "shop"), BuildOptions{}, 0)
	got := map[string]string{}
	for _, c := range s.Check.Targets {
		st := []string{c.State}
		if c.Reason != "" {
			st = append(st, c.Reason)
		}
		if c.Moved {
			st = append(st, "moved")
		}
		if c.Passed != nil && !*c.Passed {
			st = append(st, "failed")
		}
		got[c.Ref+" "+joinTestIDs(c.ClaimedBy)] = strings.Join(st, " ")
	}
	want := map[string]string{
		"pay/pay.go@Charge decision:DEC-2,page:guides/checkout,requirement:REQ-3": "stale content_changed",
		"cart/cart.go@Cart.Validate page:guides/checkout,requirement:REQ-2":       "linked moved",
		"pay/refund_test.go@TestRefund page:guides/checkout,requirement:REQ-4":    "unknown target_missing",
		"pay/pay.go@Receipt page:guides/receipts":                                 "unknown uncaptured",
		"cart/cart.go@Cart.Total page:cart/overview,requirement:REQ-1":            "linked",
		"cart/cart.go#L5-L9 page:cart/overview":                                   "linked",
		"run:ci-1 requirement:REQ-1":                                              "stale requirement_changed_since_verification",
		"run:ci-1 requirement:REQ-2":                                              "linked",
		"run:ci-1 requirement:REQ-3":                                              "stale tests_failed failed",
		"run:ci-1 requirement:REQ-4":                                              "stale code_changed_since_verification",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("check: %s: got %q, want %q", k, got[k], w)
		}
	}
	req := map[string]synth.CheckRequirement{}
	for _, r := range s.Check.Requirements {
		req[r.ID] = r
	}
	for id, w := range map[string][3]bool{
		"REQ-1": {true, true, false}, // evidence expired
		"REQ-2": {true, true, true},
		"REQ-3": {false, true, false}, // stale code, failed test (tests_failed)
		"REQ-4": {true, false, false}, // the test is gone: the run vouched for code that no longer exists
	} {
		r := req[id]
		if g := [3]bool{r.Implemented, r.Tested, r.Verified}; g != w {
			t.Errorf("%s: implemented, tested, verified = %v, want %v", id, g, w)
		}
	}
}

// TestDeterminism builds the shop fixture and tracewiki's own wiki twice,
// with GOMAXPROCS 1 and one worker, then GOMAXPROCS 2 and eight workers,
// and compares every output file byte for byte.
func TestDeterminism(t *testing.T) {
	for _, c := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"shop", func(t *testing.T) string { return fixture(t, "shop") }},
		// A snapshot, so that an edit to the repository between the two
		// builds does not pass for nondeterminism.
		{"own", snapshotRepo},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			build := func(procs, workers int) *Site {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				return buildSite(t, dir, BuildOptions{BaseURL: "/pr-42/"}, workers)
			}
			a, b := build(1, 1), build(2, 8)
			if diff := firstDiffFile(a.Files, b.Files); diff != "" {
				t.Fatalf("builds differ (GOMAXPROCS 1, 1 worker vs GOMAXPROCS 2, 8 workers): %s", diff)
			}
			if a.Pages != b.Pages || a.Pages == 0 {
				t.Errorf("pages: %d vs %d", a.Pages, b.Pages)
			}
		})
	}
}

// snapshotRepo copies the repository (its regular files, without hidden
// folders, public/ and test binaries) into a temporary folder.
func snapshotRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", p)
		switch {
		case rel == ".":
			return nil
		case d.IsDir() && (strings.HasPrefix(d.Name(), ".") || rel == "public"):
			return filepath.SkipDir
		case !d.Type().IsRegular() || strings.HasSuffix(d.Name(), ".test"):
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFixtureFile(t, dst, filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// firstDiffFile describes the first file, in path order, that differs
// between two builds; "" when none does.
func firstDiffFile(a, b map[string][]byte) string {
	names := slices.Compact(slices.Sorted(slices.Values(append(sortedKeys(a), sortedKeys(b)...))))
	for _, n := range names {
		x, okA := a[n]
		y, okB := b[n]
		switch {
		case !okA:
			return n + ": only in the second build"
		case !okB:
			return n + ": only in the first build"
		case !bytes.Equal(x, y):
			return fmt.Sprintf("%s: differs at line %d", n, firstDiffLine(x, y))
		}
	}
	return ""
}

// treeHash hashes every file and folder under dir: relative path, mode and
// contents.
func treeHash(tb testing.TB, dir string) string {
	tb.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v\n", filepath.ToSlash(rel), info.Mode())
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d\n", len(data))
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// buildAndWrite does what "tracewiki build --frozen --out out" does: load,
// build, write, stopping at the first error.
func buildAndWrite(dir, out string) error {
	p, err := Load(dir)
	if err != nil {
		return err
	}
	defer p.Close()
	o, err := p.Output(out)
	if err != nil {
		return err
	}
	_, err = p.BuildInto(o, BuildOptions{Frozen: true}, io.Discard, nil)
	return err
}

// TestBuildIntoMatchesMemory checks that the streamed build, which writes
// each page into the new output folder as it is rendered, writes exactly the
// files of the in-memory build, byte for byte, and nothing else.
func TestBuildIntoMatchesMemory(t *testing.T) {
	dir := fixture(t, "shop")
	want := buildSite(t, dir, BuildOptions{}, 4).Files
	out := filepath.Join(t.TempDir(), "public")
	if err := buildAndWrite(dir, out); err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(out, p)
		got[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 20 {
		t.Fatalf("the in-memory build has %d files", len(want))
	}
	if diff := firstDiffFile(want, got); diff != "" {
		t.Errorf("streamed output differs from the in-memory build: %s", diff)
	}
}

// TestBuildReleaseSameOutput checks that a build that releases the
// sources' tokens once drift is judged (as tracewiki build does) writes the
// same site as one that keeps them, and that the released sources refuse
// to be judged again instead of giving wrong hashes.
func TestBuildReleaseSameOutput(t *testing.T) {
	dir := fixture(t, "shop")
	want := buildSite(t, dir, BuildOptions{}, 2)
	got := buildSite(t, dir, BuildOptions{Release: true}, 2)
	if len(want.Files) < 20 {
		t.Fatalf("the build has %d files", len(want.Files))
	}
	if diff := firstDiffFile(want.Files, got.Files); diff != "" {
		t.Errorf("a releasing build differs: %s", diff)
	}
	released := 0
	for _, s := range got.Loaded.Sources {
		if s.Absent != "" {
			continue
		}
		released++
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: judged after its tokens were released", s.Path)
				}
			}()
			codeanchors.Resolve(claims.Target{Path: s.Path}, nil, s)
		}()
	}
	if released == 0 {
		t.Error("the fixture has no source to release")
	}
}

// TestFailedBuildKeepsOutput checks that a build that fails, on bad content
// or while writing, leaves the previous output exactly as it was and no
// temporary folder beside it.
func TestFailedBuildKeepsOutput(t *testing.T) {
	dir := fixture(t, "shop")
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	if err := buildAndWrite(dir, out); err != nil {
		t.Fatal(err)
	}
	want := treeHash(t, out)
	unchanged := func(t *testing.T) {
		t.Helper()
		if got := treeHash(t, out); got != want {
			t.Errorf("the previous output changed")
		}
		entries, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if !slices.Equal(names, []string{"public"}) {
			t.Errorf("beside the output: %q, want only public", names)
		}
	}
	for _, c := range []struct{ name, file, data string }{
		{"bad-field", "content/requirements/REQ-9.md", "---\ntitle: Broken\nstatus: maybe\n---\nBody.\n"},
		{"unknown-ref", "content/requirements/REQ-9.md", "---\ntitle: Broken\n---\nSee [nothing](req:REQ-404).\n"},
		{"unknown-key", "content/guides/broken.md", "---\nimplement: [pay/pay.go@Charge]\n---\nBody.\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := filepath.Join(dir, filepath.FromSlash(c.file))
			writeFixtureFile(t, dir, c.file, []byte(c.data))
			defer os.Remove(name)
			if err := buildAndWrite(dir, out); err == nil {
				t.Fatal("the build succeeded; want a content error")
			} else if !strings.Contains(err.Error(), c.file) {
				t.Errorf("error %q does not name %s", err, c.file)
			}
			unchanged(t)
		})
	}
	t.Run("write", func(t *testing.T) {
		s := buildSite(t, dir, BuildOptions{}, 0)
		// A NUL byte makes the name invalid on every OS; it sorts after
		// every other file, so the rest is written before it fails.
		s.Files["zz/bad\x00name.html"] = []byte("x")
		if err := s.Write(&Output{Folder: output.Folder{Dir: out, Name: out}}, nil); err == nil {
			t.Fatal("Write succeeded; want an error")
		}
		unchanged(t)
	})
	// And a good build still replaces the output.
	writeFixtureFile(t, dir, "content/guides/new.md", []byte("# New\n\nA new page.\n"))
	if err := buildAndWrite(dir, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "pages", "guides", "new", "index.html")); err != nil {
		t.Errorf("a good build after failed ones: %v", err)
	}
}

// TestRawHTMLEscaped checks that raw HTML in Markdown is shown as text and
// that the only script elements of the site are the search page's own.
func TestRawHTMLEscaped(t *testing.T) {
	s := buildSite(t, fixture(t, "shop"), BuildOptions{}, 0)
	page := s.Files["pages/notes/raw/index.html"]
	body := page
	if _, after, ok := bytes.Cut(page, []byte("<main>")); ok {
		body, _, _ = bytes.Cut(after, []byte("</main>"))
	} else {
		t.Fatalf("pages/notes/raw/index.html has no <main>:\n%s", page)
	}
	assertLines(t, "pages/notes/raw/ <main>", body,
		`&lt;script&gt;alert(1)&lt;/script&gt;`,
		`&lt;img src=x onerror=&#34;alert(2)&#34;&gt;`,
		`! <script`,
		`! <img`,
		`! javascript:`,
		`! onerror="`,
	)
	// Scripts are tracewiki's own files, never inline and never from
	// content: the theme toggle on every page, the search and matrix
	// scripts on their pages.
	scriptRE := regexp.MustCompile(`<script src="(?:\.\./)*([^"]+)"[^>]*></script>`)
	for _, name := range sortedKeys(s.Files) {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		var got []string
		for _, m := range scriptRE.FindAllSubmatch(s.Files[name], -1) {
			got = append(got, string(m[1]))
		}
		if n := bytes.Count(s.Files[name], []byte("<script")); n != len(got) {
			t.Errorf("%s: %d script elements, %d of them tracewiki's script files", name, n, len(got))
		}
		want := []string{"assets/theme.js"}
		switch {
		case name == "search/index.html":
			want = append(want, "api/search.js", "assets/search.js")
		case name == "requirements/index.html" || strings.HasPrefix(name, "requirements/filter/"):
			want = append(want, "assets/sorttable.js", "assets/matrix.js")
		case name == "coverage/index.html":
			want = append(want, "assets/sorttable.js")
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: scripts %q, want %q", name, got, want)
		}
	}
}

// TestBaseURL checks that --base-url reaches the JSON artifacts, and only
// them: every page links relatively, so the HTML does not change.
func TestBaseURL(t *testing.T) {
	dir := fixture(t, "shop")
	root := buildSite(t, dir, BuildOptions{}, 0)
	for _, base := range []string{"/pr-42/", "/pr-42"} {
		s := buildSite(t, dir, BuildOptions{BaseURL: base}, 0)
		var m synth.ManifestJSON
		must(t, json.Unmarshal(s.Files["api/manifest.json"], &m))
		if m.BaseURL != "/pr-42/" {
			t.Errorf("base %q: manifest baseURL = %q, want /pr-42/", base, m.BaseURL)
		}
		var d synth.DriftJSON
		must(t, json.Unmarshal(s.Files["api/drift.json"], &d))
		if len(d.Links) == 0 {
			t.Fatal("api/drift.json: no links")
		}
		for _, l := range d.Links {
			if !strings.HasPrefix(l.URL, "/pr-42/") {
				t.Errorf("base %q: api/drift.json: %s: url %q is not under /pr-42/", base, l.Ref, l.URL)
			}
		}
		if !bytes.Equal(s.Files["drift/index.json"], s.Files["api/drift.json"]) {
			t.Errorf("base %q: drift/index.json differs from api/drift.json", base)
		}
		for _, name := range sortedKeys(s.Files) {
			if strings.HasSuffix(name, ".html") && !bytes.Equal(s.Files[name], root.Files[name]) {
				t.Errorf("base %q: %s differs from the build under /: pages must not depend on the base URL", base, name)
			}
		}
	}
}

// writeSiteCorpus writes a synthetic workspace of docs documents, half
// requirements and half wiki pages, each with claims claims on functions of
// generated Go files (10 functions a file, each claimed once). The seed is
// fixed, so every run measures the same corpus.
func writeSiteCorpus(tb testing.TB, dir string, docs, claims int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	const funcs = 10
	files := (docs*claims + funcs - 1) / funcs
	for f := range files {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\n", f/50)
		for g := range funcs {
			fmt.Fprintf(&src, "// F%d_%d does things.\nfunc F%d_%d(x int) int {\n", f, g, f, g)
			for range 3 + rng.IntN(10) {
				fmt.Fprintf(&src, "\tx = x*%d + %d\n", rng.IntN(100), rng.IntN(100))
			}
			src.WriteString("\treturn x\n}\n\n")
		}
		writeFixtureFile(tb, dir, fmt.Sprintf("pkg/p%d/f%04d.go", f/50, f), []byte(src.String()))
	}
	target := func(i int) string {
		f := i / funcs
		return fmt.Sprintf("pkg/p%d/f%04d.go@F%d_%d", f/50, f, f, i%funcs)
	}
	for d := range docs {
		var b strings.Builder
		name := fmt.Sprintf("content/pages/page%04d.md", d)
		if d%2 == 0 {
			name = fmt.Sprintf("content/requirements/REQ-%d.md", d)
			fmt.Fprintf(&b, "---\ntitle: Requirement %d\nstatus: accepted\nimplements: [%s]\n---\n", d, target(d*claims))
		} else {
			fmt.Fprintf(&b, "---\ntitle: Page %d\ntype: overview\n---\n# Page %d\n\n", d, d)
		}
		for c := range claims {
			i := d*claims + c
			fmt.Fprintf(&b, "Function %d computes a value ([F](code:%s)).\n", i, target(i))
		}
		if d > 1 {
			fmt.Fprintf(&b, "\nSee [the previous requirement](req:REQ-%d).\n", (d-1)/2*2)
		}
		writeFixtureFile(tb, dir, name, []byte(b.String()))
	}
}

// captureAll captures every target of the workspace at dir: a benchmark's
// corpus, made ready.
func captureAll(tb testing.TB, dir string) {
	tb.Helper()
	p, err := Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Capture(CaptureOptions{By: "bench"}, io.Discard); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkBuild measures a frozen build (load, analyze, render every page
// and artifact, in memory) of 1,000 documents with 5 claims each over 500
// generated Go files.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	writeSiteCorpus(b, dir, 1000, 5)
	b.Setenv("SOURCE_DATE_EPOCH", fixtureEpoch)
	captureAll(b, dir)
	b.ReportAllocs()
	pages := 0
	for b.Loop() {
		p, err := Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		s, err := p.Build(BuildOptions{Frozen: true}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
		if s.Check.Count("linked") != len(s.Check.Targets) {
			b.Fatalf("%d of %d links linked", s.Check.Count("linked"), len(s.Check.Targets))
		}
		pages += s.Pages
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
}

// TestBuildParsesEachFileOnce: a build (with capture of new targets) reads,
// parses and hashes every source file exactly once.
func TestBuildParsesEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	writeCorpus(t, dir, 20, 5) // 100 claims over 20 files, none captured yet
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var mu sync.Mutex
	parses := map[string]int{}
	testHookParse = func(name string) {
		mu.Lock()
		parses[name]++
		mu.Unlock()
	}
	defer func() { testHookParse = nil }()
	s, err := p.Build(BuildOptions{By: "test"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Check.Count(codeanchors.Linked) != 100 {
		t.Errorf("%d links linked after capture, want 100", s.Check.Count(codeanchors.Linked))
	}
	if len(parses) != 20 {
		t.Errorf("parsed %d files, want 20", len(parses))
	}
	for name, n := range parses {
		if n != 1 {
			t.Errorf("%s parsed %d times in one build", name, n)
		}
	}
}

// joinTestIDs writes node ids comma-separated.
func joinTestIDs(ids []synth.NodeID) string {
	var out []string
	for _, id := range ids {
		out = append(out, id.String())
	}
	return strings.Join(out, ",")
}
