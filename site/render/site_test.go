package render

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// memoryInput is a small site to render in memory: two requirements, a
// decision and wiki pages that link them, and no code: the guide's one
// claim links a file that is not there.
func memoryInput(t *testing.T) Input {
	t.Helper()
	return memoryInputEdited(t, nil)
}

// memoryInputEdited is memoryInput with each file's text edited: edit's
// keys replaced by their values.
func memoryInputEdited(t *testing.T, edit map[string]string) Input {
	t.Helper()
	files := []claims.File{
		{Name: "content/index.md", Data: []byte("---\ntitle: Shop wiki\n---\n# Shop wiki\n\nThe shop keeps [cart totals](req:REQ-1) exact. Start with the [guide](guide.md).\n")},
		{Name: "content/guide.md", Data: []byte("---\ntitle: Guide\n---\nSee [payments](req:REQ-2) and [the gateway](dec:DEC-1), which [charges](code:pay.go@Charge).\n\n## Details\n\nMore text.\n")},
		{Name: "content/requirements/REQ-1.md", Data: []byte("---\ntitle: Cart totals\nstatus: accepted\n---\nA cart's total counts every item's quantity.\n")},
		{Name: "content/requirements/REQ-2.md", Data: []byte("---\ntitle: Payments\nstatus: proposed\n---\nCheckout charges the cart's total. See [cart totals](req:REQ-1).\n")},
		{Name: "content/decisions/DEC-1.md", Data: []byte("---\ntitle: One gateway\nstatus: accepted\ndate: 2026-02-01\n---\nWe charge through one gateway.\n")},
	}
	for i := range files {
		for old, new := range edit {
			files[i].Data = bytes.ReplaceAll(files[i].Data, []byte(old), []byte(new))
		}
	}
	m, diags := claims.Parse("content", files)
	if len(diags) > 0 {
		t.Fatalf("parse: %v", diags)
	}
	rep := &codeanchors.Report{}
	g := synth.Build(synth.Input{ProjectID: "shop", Model: m, Report: rep, Lang: "en"})
	return Input{
		Graph: g, Model: m, Report: rep, Findings: synth.NewFindings(rep, m, "en", "tracewiki.lock"),
		Pages: synth.NewPages(synth.PageInput{Graph: g, Model: m, Report: rep}),
		Title: "Shop", BaseURL: "/preview/", Language: "en", Repo: "shop", Content: "content",
		Images: map[string][]byte{"logo.png": []byte("png")},
	}
}

// TestSiteInMemory renders a site from values alone and checks that every
// node's URL is a page it wrote, relative and under the base URL, that
// each page has its JSON twin, and that the artifacts and images are there.
func TestSiteInMemory(t *testing.T) {
	r, err := New(memoryInput(t))
	if err != nil {
		t.Fatal(err)
	}
	files, kept, err := r.Site(Output{})
	if err != nil {
		t.Fatal(err)
	}
	if kept != 0 {
		t.Errorf("kept %d pages without a store", kept)
	}
	for _, pg := range r.Pages() {
		for _, name := range []string{pg.Prefix() + "index.html", pg.Prefix() + "index.json"} {
			if len(files[name]) == 0 {
				t.Errorf("page %q: no %s", pg.Dir(), name)
			}
		}
	}
	for _, n := range r.graph.Nodes {
		u := NodeURL(n)
		if r.relURL(n.ID) != u || r.absURL(n.ID) != "/preview/"+u {
			t.Errorf("%s: relURL %q, absURL %q, NodeURL %q", n.ID, r.relURL(n.ID), r.absURL(n.ID), u)
		}
		if page, _, _ := strings.Cut(u, "#"); files[page] == nil {
			t.Errorf("%s: URL %s names no page of the site", n.ID, u)
		}
	}
	for _, name := range []string{GraphFile, driftFile, manifestFile, SearchFile, SearchScriptFile, synth.CoverageFile, "assets/chroma.css", imageURL("logo.png")} {
		if files[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	if !bytes.Contains(files["pages/guide/index.html"], []byte(`href="../../requirements/REQ-2/index.html"`)) {
		t.Errorf("the guide's body does not link REQ-2's page:\n%s", files["pages/guide/index.html"])
	}
}

// TestSiteDeterministic checks that rendering on many workers gives the
// bytes of rendering on one, and that a sink receives what Site returns.
func TestSiteDeterministic(t *testing.T) {
	in := memoryInput(t)
	r, err := New(in)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := r.Site(Output{})
	if err != nil {
		t.Fatal(err)
	}
	in.Parallel = func(n int, fn func(i int) error) error {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { errs[i] = fn(i) })
		}
		wg.Wait()
		return joinAll(errs)
	}
	r, err = New(in)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string][]byte{}
	sink := func(name string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := got[name]; dup {
			t.Errorf("%s sunk twice", name)
		}
		got[name] = bytes.Clone(data)
		return nil
	}
	if _, _, err := r.Site(Output{Sink: sink}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("the sink got %d files, Site returned %d", len(got), len(want))
	}
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s differs between one worker and many", name)
		}
	}
}

// joinAll is the first error of errs.
func joinAll(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// memoryStore is a [PageStore] in memory: it reuses the pages whose key it
// holds, and records the keys and body spans given.
type memoryStore struct {
	mu    sync.Mutex
	keys  map[string][]byte
	spans map[string]BodySpan
	rows  map[string][]ClaimRow
	shown map[string][]ShownClaim
}

func (s *memoryStore) ReuseFile(name string, key []byte) bool { return s.ReusePage(name, key) }

func (s *memoryStore) ReusePage(prefix string, key []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys[prefix] != nil && bytes.Equal(s.keys[prefix], key)
}

func (s *memoryStore) KeyPage(prefix string, key []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[prefix] = key
}

func (s *memoryStore) SpanBody(prefix string, b BodySpan, rows []ClaimRow, shown []ShownClaim) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spans[prefix] = b
	s.rows[prefix] = rows
	s.shown[prefix] = shown
}

// TestSiteKeepsPages checks the page loop with a store: a second render
// of the same site keeps every keyed page, also by another renderer (a key
// is of values), a wiki page's body span lets its body be replaced in its
// HTML, and a render of an edited site keeps exactly the pages whose
// bytes the edit leaves as they were; a setting every page shows keeps
// none.
func TestSiteKeepsPages(t *testing.T) {
	r, err := New(memoryInput(t))
	if err != nil {
		t.Fatal(err)
	}
	store := &memoryStore{keys: map[string][]byte{}, spans: map[string]BodySpan{}, rows: map[string][]ClaimRow{},
		shown: map[string][]ShownClaim{}}
	written := map[string][]byte{}
	var mu sync.Mutex
	sink := func(name string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		written[name] = bytes.Clone(data)
		return nil
	}
	out := Output{Sink: sink, Store: store, Shared: []byte("shared")}
	if _, kept, err := r.Site(out); err != nil || kept != 0 {
		t.Fatalf("first render: kept %d, %v", kept, err)
	}
	keyed := len(store.keys)
	if keyed == 0 || keyed > len(r.Pages()) {
		t.Fatalf("%d pages keyed of %d", keyed, len(r.Pages()))
	}
	span, ok := store.spans["pages/guide/"]
	if !ok {
		t.Fatalf("no body span for the guide page; spans: %v", store.spans)
	}
	// The rows of its claims table and how its claim's link showed come
	// with the span: what an edit renders again without the renderer.
	i := slices.IndexFunc(r.Pages(), func(pg Page) bool { return pg.Dir() == "pages/guide" })
	if want := r.ClaimRows(r.Pages()[i]); len(want) != 1 || !slices.Equal(store.rows["pages/guide/"], want) {
		t.Errorf("the guide's claims table: given %+v, want %+v (one row)", store.rows["pages/guide/"], want)
	}
	charge := claims.Target{Path: "pay.go", Symbol: "Charge"}
	if want := []ShownClaim{{charge, r.ClaimShown(charge)}}; !slices.Equal(store.shown["pages/guide/"], want) {
		t.Errorf("the guide's claim links: given %+v, want %+v", store.shown["pages/guide/"], want)
	}
	html, _, ok := SpliceBody(written["pages/guide/index.html"], span, "<p>New text.</p>", nil)
	if !ok || !bytes.Contains(html, []byte(`<div class="body"><p>New text.</p></div>`)) || bytes.Contains(html, []byte("More text.")) {
		t.Errorf("SpliceBody: ok %v, page:\n%s", ok, html)
	}
	if _, kept, err := r.Site(out); err != nil || kept != keyed {
		t.Errorf("second render under the same key: kept %d of %d keyed pages, %v", kept, keyed, err)
	}
	again, err := New(memoryInput(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, kept, err := again.Site(out); err != nil || kept != keyed {
		t.Errorf("render by another renderer of the same site: kept %d of %d keyed pages, %v", kept, keyed, err)
	}
	// REQ-2's title shows on its page, on the pages that link to it (in
	// their twins' neighborhoods) and on the indexes; its text only on its
	// page.
	for _, edit := range []map[string]string{
		{"title: Payments": "title: Card payments"},
		{"Checkout charges the cart's total.": "Checkout charges the total."},
	} {
		in := memoryInputEdited(t, edit)
		edited, err := New(in)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := edited.Site(Output{})
		if err != nil {
			t.Fatal(err)
		}
		changed := 0 // keyed pages whose bytes the edit changes
		for _, pg := range edited.Pages() {
			if pg.keyed && (!bytes.Equal(written[pg.Prefix()+"index.html"], want[pg.Prefix()+"index.html"]) ||
				!bytes.Equal(written[pg.Prefix()+"index.json"], want[pg.Prefix()+"index.json"])) {
				changed++
			}
		}
		_, kept, err := edited.Site(out) // the sink writes what it renders into written
		if err != nil {
			t.Fatal(err)
		}
		if changed == 0 || kept != keyed-changed {
			t.Errorf("edit %v changes %d keyed pages' bytes; %d of %d kept, want %d", edit, changed, kept, keyed, keyed-changed)
		}
		if diff := firstDiff(want, written); diff != "" {
			t.Errorf("edit %v: the kept and rendered pages differ from a render without a store: %s", edit, diff)
		}
	}
	in := memoryInput(t)
	in.Title = "Another shop"
	retitled, err := New(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, kept, err := retitled.Site(out); err != nil || kept != 0 {
		t.Errorf("render with another site title, which every page shows: kept %d, %v", kept, err)
	}
}

// firstDiff names the first file of want that got lacks or holds other
// bytes of; "" when none.
func firstDiff(want, got map[string][]byte) string {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if !bytes.Equal(want[name], got[name]) {
			return name
		}
	}
	return ""
}

// TestModelKeyTwin checks what a node page's model key takes from its
// twin rather than from its data: the node (pageData.Node, left out of the
// data's hash) and the node and neighborhood its graph is drawn from are
// the twin's own.
func TestModelKeyTwin(t *testing.T) {
	r, err := New(memoryInput(t))
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, pg := range r.Pages() {
		d, js, err := pg.data(r, rel(pg.dir))
		if err != nil {
			t.Fatal(err)
		}
		if d.graph == nil && d.Node.ID == (synth.NodeID{}) {
			continue
		}
		nodes++
		twin, ok := js.(synth.NodeJSON)
		if !ok {
			t.Errorf("page %q shows a node but its twin is a %T", pg.dir, js)
			continue
		}
		if !reflect.DeepEqual(d.Node, twin.Node) {
			t.Errorf("page %q: its node is not its twin's:\n%+v\n%+v", pg.dir, d.Node, twin.Node)
		}
		if d.graph == nil || !reflect.DeepEqual(d.graph.n, twin.Node) || !reflect.DeepEqual(d.graph.nb, twin.Neighborhood) {
			t.Errorf("page %q: its graph is not drawn from its twin's node and neighborhood", pg.dir)
		}
	}
	if nodes == 0 {
		t.Fatal("no node page: the test proves nothing")
	}
}
