package synth

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata goldens")

// archiveFile is one file of a txtar archive.
type archiveFile struct {
	name string
	data []byte
}

// parseTxtar splits a txtar archive ("-- name --" lines) into its comment
// and sections.
func parseTxtar(data []byte) (comment []byte, files []archiveFile) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	cur := -1
	for _, l := range lines {
		t := bytes.TrimRight(l, "\n")
		if bytes.HasPrefix(t, []byte("-- ")) && bytes.HasSuffix(t, []byte(" --")) && len(t) > 6 {
			files = append(files, archiveFile{name: string(t[3 : len(t)-3])})
			cur = len(files) - 1
			continue
		}
		if cur < 0 {
			comment = append(comment, l...)
		} else {
			files[cur].data = append(files[cur].data, l...)
		}
	}
	return comment, files
}

func formatTxtar(comment []byte, files []archiveFile) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, f := range files {
		fmt.Fprintf(&b, "-- %s --\n", f.name)
		b.Write(f.data)
		if len(f.data) > 0 && f.data[len(f.data)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// deleted marks a file an old/ or new/ section removes.
const deleted = "(deleted)\n"

// snapshot builds a site's artifacts in memory from files (content and Go
// code), judging drift against lock.
func snapshot(t testing.TB, files map[string]string, lock *codeanchors.Lock) *Snapshot {
	t.Helper()
	s, _ := buildSite(t, files, lock)
	return s
}

// buildSite builds the graph of files and the artifacts of its site.
func buildSite(t testing.TB, files map[string]string, lock *codeanchors.Lock) (*Snapshot, *Graph) {
	t.Helper()
	g, rep, m := buildGraph(t, files, slices.Sorted(maps.Keys(files)), lock)
	// A stand-in for the site's URL scheme: the id with its type as the
	// folder.
	rel := func(id NodeID) string {
		if _, ok := g.Node(id); !ok {
			return ""
		}
		return string(id.Type) + "/" + id.Key + "/index.html"
	}
	abs := func(id NodeID) string {
		if u := rel(id); u != "" {
			return "/" + u
		}
		return ""
	}
	return &Snapshot{
		Manifest: NewManifest(g, rep, "shop", "/", 0, nil, nil),
		Graph:    g.JSON(),
		Drift:    NewDrift(NewFindings(rep, m, "en", "tracewiki.lock"), nil, abs),
		Search:   NewSearch(g, m, rel),
	}, g
}

// capture records an anchor for every target of files that resolves.
func capture(t testing.TB, files map[string]string) *codeanchors.Lock {
	t.Helper()
	var content []claims.File
	for name, src := range files {
		if strings.HasPrefix(name, "content/") {
			content = append(content, claims.File{Name: name, Data: []byte(src)})
		}
	}
	slices.SortFunc(content, func(a, b claims.File) int { return strings.Compare(a.Name, b.Name) })
	m, diags := claims.Parse("content", content)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	l := codeanchors.NewLock()
	for _, ref := range codeanchors.Targets(m) {
		tg := ref.Target
		src, ok := files[tg.Path]
		if !ok {
			continue
		}
		s := codeanchors.NewSource(codeanchors.Default, tg.Path, []byte(src))
		if a, err := codeanchors.Capture(tg, codeanchors.ResolveIn(tg, nil, s), s, "2026-01-01T00:00:00Z", "test"); err == nil {
			l.Anchors[tg.String()] = a
		}
	}
	return l
}

// TestDiffGolden runs the cases of testdata/diff: each txtar holds base/
// files (every target captured from them), old/ and new/ files laid over
// the base (a file reading "(deleted)" is removed), then the expected
// diff.md and diff.json, with preview.md when a "preview" section gives a
// preview URL. -update rewrites the expected sections.
func TestDiffGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("refusing -update with CI set")
	}
	names, err := filepath.Glob("testdata/diff/*.txtar")
	if err != nil || len(names) == 0 {
		t.Fatalf("no cases in testdata/diff: %v", err)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseTxtar(data)
			base, old, new := map[string]string{}, map[string]string{}, map[string]string{}
			preview := ""
			for _, f := range files {
				switch dir, rest, _ := strings.Cut(f.name, "/"); dir {
				case "base":
					base[rest] = string(f.data)
				case "old":
					old[rest] = string(f.data)
				case "new":
					new[rest] = string(f.data)
				case "preview":
					preview = strings.TrimSpace(string(f.data))
				}
			}
			lock := capture(t, base)
			over := func(m map[string]string) map[string]string {
				out := map[string]string{}
				for k, v := range base {
					out[k] = v
				}
				for k, v := range m {
					out[k] = v
					if v == deleted {
						delete(out, k)
					}
				}
				return out
			}
			d := Diff(snapshot(t, over(old), lock), snapshot(t, over(new), lock), "")
			js, err := MarshalJSON(d)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]byte{"diff.md": []byte(d.Markdown()), "diff.json": js}
			if preview != "" {
				dp := Diff(snapshot(t, over(old), lock), snapshot(t, over(new), lock), preview)
				got["preview.md"] = []byte(dp.Markdown())
			}
			seen := map[string]bool{}
			for i, f := range files {
				want, ok := got[f.name]
				if !ok {
					if !strings.Contains(f.name, "/") && f.name != "preview" {
						t.Errorf("section %s: no output of the test has that name", f.name)
					}
					continue
				}
				seen[f.name] = true
				if *update {
					files[i].data = want
				} else if !bytes.Equal(f.data, want) {
					t.Errorf("%s differs; got:\n%s", f.name, want)
				}
			}
			for _, n := range slices.Sorted(maps.Keys(got)) {
				if !seen[n] {
					if !*update {
						t.Errorf("no %s section; run go test ./synth -update", n)
					}
					files = append(files, archiveFile{name: n, data: got[n]})
				}
			}
			if *update {
				if err := os.WriteFile(name, formatTxtar(comment, files), 0o666); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// driftLink builds a drift link for hand-made snapshots.
func driftLink(ref, state, reason string, by ...string) DriftLink {
	return DriftLink{Ref: ref, State: state, Reason: reason, Why: codeanchors.Reason(reason).Why("en"), ClaimedBy: nids(by...), ClaimedAt: []string{}}
}

func emptySnapshot() *Snapshot {
	return &Snapshot{
		Manifest: ManifestJSON{SchemaVersion: SchemaVersion, BaseURL: "/"},
		Graph:    GraphJSON{SchemaVersion: GraphSchemaVersion, Nodes: []Node{}, Edges: []Edge{}},
		Drift:    DriftJSON{SchemaVersion: SchemaVersion, Links: []DriftLink{}},
		Search:   SearchJSON{SchemaVersion: SchemaVersion, Entries: []SearchEntry{}},
	}
}

// TestDiffLinks checks the link rules one by one: a new reason is broken,
// the same reason is no change, evidence is keyed by its requirement too,
// and a fixed link says whether it is linked or gone.
func TestDiffLinks(t *testing.T) {
	old, new := emptySnapshot(), emptySnapshot()
	old.Drift.Links = []DriftLink{
		driftLink("a.go@A", "stale", "content_changed", "page:p"),
		driftLink("b.go@B", "stale", "content_changed", "page:p"),
		driftLink("c.go@C", "unknown", "uncaptured", "page:p"),
		driftLink("d.go@D", "unknown", "target_missing", "page:p"),
		driftLink("run:r1", "stale", "requirement_changed_since_verification", "requirement:R1"),
	}
	old.Graph.Nodes = []Node{{ID: nid("symbol:e.go@E"), Type: claims.NodeSymbol, Path: "e.go", Symbol: "E", State: "linked"}}
	new.Drift.Links = []DriftLink{
		driftLink("a.go@A", "stale", "content_changed", "page:p", "page:q"), // same reason, more claims: no change
		driftLink("b.go@B", "unknown", "target_missing", "page:p"),          // other reason: broken
		driftLink("e.go@E", "stale", "content_changed", "page:p"),           // was linked: broken
		driftLink("run:r1", "stale", "requirement_changed_since_verification", "requirement:R1"),
		driftLink("run:r1", "stale", "requirement_changed_since_verification", "requirement:R2"), // another requirement
	}
	new.Graph.Nodes = []Node{{ID: nid("symbol:c.go@C"), Type: claims.NodeSymbol, Path: "c.go", Symbol: "C", State: "linked"}}
	new.Search.Entries = []SearchEntry{{ID: nid("symbol:c.go@C"), URL: "code/c.go/index.html#sym-C"}, {ID: nid("requirement:R2"), URL: "requirements/R2/index.html"}}
	d := Diff(old, new, "https://x.example/pr-1")
	var broken, fixed []string
	for _, c := range d.Broken {
		b := "null"
		if c.Before != nil {
			b = c.Before.State + "/" + c.Before.Reason
		}
		broken = append(broken, fmt.Sprintf("%s %s %s->%s/%s %s", c.Ref, joinIDs(c.ClaimedBy, ","), b, c.After.State, c.After.Reason, c.URL))
	}
	for _, c := range d.Fixed {
		a := "null"
		if c.After != nil {
			a = c.After.State
		}
		fixed = append(fixed, fmt.Sprintf("%s %s->%s %s", c.Ref, c.Before.Reason, a, c.URL))
	}
	wantBroken := []string{
		"b.go@B page:p stale/content_changed->unknown/target_missing ",
		"e.go@E page:p linked/->stale/content_changed ",
		"run:r1 requirement:R2 null->stale/requirement_changed_since_verification https://x.example/pr-1/requirements/R2/index.html",
	}
	wantFixed := []string{
		"c.go@C uncaptured->linked https://x.example/pr-1/code/c.go/index.html#sym-C",
		"d.go@D target_missing->null ",
	}
	if !slices.Equal(broken, wantBroken) {
		t.Errorf("broken:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(wantBroken, "\n"))
	}
	if !slices.Equal(fixed, wantFixed) {
		t.Errorf("fixed:\n%s\nwant:\n%s", strings.Join(fixed, "\n"), strings.Join(wantFixed, "\n"))
	}
	if d.Counts.Broken != 3 || d.Counts.Fixed != 2 {
		t.Errorf("counts = %+v", d.Counts)
	}
}

// TestDiffURLs: drift URLs lose the base URL, the preview URL is joined with
// one slash.
func TestDiffURLs(t *testing.T) {
	for _, preview := range []string{"", "https://x.example/pr-7", "https://x.example/pr-7/"} {
		old, new := emptySnapshot(), emptySnapshot()
		new.Manifest.BaseURL = "/pr-7/"
		l := driftLink("f.go", "unknown", "target_missing", "page:p")
		l.URL = "/pr-7/code/f.go/index.html"
		new.Drift.Links = []DriftLink{l}
		d := Diff(old, new, preview)
		want := "code/f.go/index.html"
		if preview != "" {
			want = "https://x.example/pr-7/" + want
		}
		if got := d.Broken[0].URL; got != want {
			t.Errorf("preview %q: url = %q, want %q", preview, got, want)
		}
	}
}

// TestDiffMarkdownCap: a section lists at most MaxDiffItems items and counts
// the rest; titles are escaped.
func TestDiffMarkdownCap(t *testing.T) {
	old, new := emptySnapshot(), emptySnapshot()
	for i := range MaxDiffItems + 5 {
		new.Drift.Links = append(new.Drift.Links, driftLink(fmt.Sprintf("f%02d.go", i), "unknown", "target_missing", "page:p"))
	}
	new.Graph.Nodes = []Node{{ID: nid("page:p"), Type: claims.NodePage, Title: "A *bold* [title]"}}
	d := Diff(old, new, "")
	md := d.Markdown()
	for _, want := range []string{
		"### Traceability: 25 links went stale or unknown, 1 page changed\n",
		"\n#### Went stale or unknown (25)\n\n- `f00.go` **unknown**",
		"- `f19.go` **unknown**",
		"- … and 5 more\n",
		"- `page:p` A \\*bold\\* \\[title\\]: added\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "f20.go") {
		t.Errorf("markdown lists more than %d items:\n%s", MaxDiffItems, md)
	}
}

// TestDiffEmpty: equal builds give the one line, and an empty JSON with
// every list present.
func TestDiffEmpty(t *testing.T) {
	files := map[string]string{
		"a/a.go":           "package a\n\nfunc A() {}\n",
		"content/guide.md": "# Guide\n\nA ([code](code:a/a.go@A)).\n",
	}
	lock := capture(t, files)
	d := Diff(snapshot(t, files, lock), snapshot(t, files, lock), "")
	if md := d.Markdown(); md != "No traceability changes.\n" {
		t.Errorf("Markdown() = %q", md)
	}
	js, _ := MarshalJSON(d)
	for _, list := range []string{"broken", "fixed", "requirements", "claims_added", "claims_removed", "pages"} {
		if !bytes.Contains(js, []byte(`"`+list+`": []`)) {
			t.Errorf("JSON lacks an empty %s list:\n%s", list, js)
		}
	}
}

// TestDiffOrderIndependent: shuffled artifacts give the same diff.
func TestDiffOrderIndependent(t *testing.T) {
	base := map[string]string{
		"a/a.go": "package a\n\nfunc A() int { return 1 }\n\nfunc B() int { return 2 }\n\nfunc C() int { return 3 }\n",
		"content/guide.md": "# Guide\n\nA ([code](code:a/a.go@A)). B ([code](code:a/a.go@B)). C ([code](code:a/a.go@C)).\n" +
			"D ([code](code:a/d.go)).\n",
		"content/requirements/R-1.md": "---\nimplements: [a/a.go@A]\n---\nA.\n",
	}
	lock := capture(t, base)
	changed := map[string]string{}
	for k, v := range base {
		changed[k] = v
	}
	changed["a/a.go"] = "package a\n\nfunc A() int { return 10 }\n\nfunc B() int { return 20 }\n"
	changed["content/other.md"] = "# Other\n\nB ([code](code:a/a.go@B)).\n"
	old, new := snapshot(t, base, lock), snapshot(t, changed, lock)
	want, _ := MarshalJSON(Diff(old, new, ""))
	rng := rand.New(rand.NewPCG(1, 2))
	shuffle := func(s *Snapshot) {
		rng.Shuffle(len(s.Graph.Nodes), func(i, j int) { s.Graph.Nodes[i], s.Graph.Nodes[j] = s.Graph.Nodes[j], s.Graph.Nodes[i] })
		rng.Shuffle(len(s.Graph.Edges), func(i, j int) { s.Graph.Edges[i], s.Graph.Edges[j] = s.Graph.Edges[j], s.Graph.Edges[i] })
		rng.Shuffle(len(s.Drift.Links), func(i, j int) { s.Drift.Links[i], s.Drift.Links[j] = s.Drift.Links[j], s.Drift.Links[i] })
		rng.Shuffle(len(s.Search.Entries), func(i, j int) {
			s.Search.Entries[i], s.Search.Entries[j] = s.Search.Entries[j], s.Search.Entries[i]
		})
	}
	for i := range 10 {
		o, n := snapshot(t, base, lock), snapshot(t, changed, lock)
		shuffle(o)
		shuffle(n)
		if got, _ := MarshalJSON(Diff(o, n, "")); !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d: diff differs:\n%s\nwant:\n%s", i, got, want)
		}
	}
}

// TestReadSnapshot: the four artifacts are read; a missing, broken or
// foreign one is an error naming the file.
func TestReadSnapshot(t *testing.T) {
	files := map[string]string{"a/a.go": "package a\n\nfunc A() {}\n", "content/guide.md": "# G\n\nA ([code](code:a/a.go@A)).\n"}
	s := snapshot(t, files, capture(t, files))
	fsys := fstest.MapFS{}
	for name, v := range map[string]any{"api/manifest.json": s.Manifest, "api/graph.json": s.Graph, "api/drift.json": s.Drift, "api/search.json": s.Search} {
		data, err := MarshalJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	got, err := ReadSnapshot(fsys, "out")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Graph.Nodes) != len(s.Graph.Nodes) || got.Search.Entries[0].URL == "" {
		t.Errorf("ReadSnapshot lost data: %d nodes, want %d", len(got.Graph.Nodes), len(s.Graph.Nodes))
	}
	for _, tc := range []struct {
		file, data, want string
	}{
		{"api/drift.json", "", "out/api/drift.json: file does not exist"},
		{"api/graph.json", "{", "out/api/graph.json: unexpected end of JSON input"},
		{"api/search.json", `{"schemaVersion": 9}`, "out/api/search.json: schemaVersion 9, want 1"},
		{"api/manifest.json", `{}`, "out/api/manifest.json: schemaVersion 0, want 1"},
	} {
		broken := fstest.MapFS{}
		for k, v := range fsys {
			broken[k] = v
		}
		if tc.data == "" {
			delete(broken, tc.file)
		} else {
			broken[tc.file] = &fstest.MapFile{Data: []byte(tc.data)}
		}
		_, err := ReadSnapshot(broken, "out")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s = %q: ReadSnapshot error %v, want prefix %q", tc.file, tc.data, err, tc.want)
		}
	}
}

// TestDiffMarkdownMentions: an @mention in a title reaches the PR comment
// broken by a zero-width space, so it pings no one.
func TestDiffMarkdownMentions(t *testing.T) {
	old, new := emptySnapshot(), emptySnapshot()
	new.Graph.Nodes = []Node{{ID: nid("page:p"), Type: claims.NodePage, Title: "Ping @acme/security-team and @bob"}}
	d := Diff(old, new, "")
	md := d.Markdown()
	if want := "Ping @&#8203;acme/security-team and @&#8203;bob"; !strings.Contains(md, want) {
		t.Errorf("markdown lacks %q:\n%s", want, md)
	}
	if strings.Contains(md, "@acme") || strings.Contains(md, "@bob") {
		t.Errorf("markdown keeps a live mention:\n%s", md)
	}
}
