package site

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/assets"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/render/graphsvg"
	"github.com/tracewiki/tracewiki/synth"
)

// An organisation's wiki (SPEC 1.8): a workspace whose config declares
// externals and whose content is empty builds one site over the
// externals' bundles, and from them alone: no git, no code parse. The
// computation is synth's ([synth.NewOrg]); this file reads the bundles
// (Load did) and writes the pages:
//
//	index.html          every repository: requirements by state, coverage, links; the total
//	requirements/       the combined matrix, grouped by repository
//	graph/              the cross-repository graph: each node with a link into another repository, and its neighbors
//	drift/              every cross-repository link, judged now against the other bundle
//	search/             search over every bundle (api/search.json, as a repository's wiki)
//	api/org.json        the above as data; api/graph.json the graph
//
// Each node links to its page in its repository's own wiki when its
// [[externals]] entry gives the url.

// MaxOrgGraphs caps the drawings of the graph page: one per node with a
// cross-repository link, most stale first.
const MaxOrgGraphs = 200

// IsOrganisation reports whether the workspace builds an organisation's
// wiki: it declares externals and has no content.
func (p *Project) IsOrganisation() bool { return p.organisation(p.Model) }

// organisation reports whether a workspace with content m builds an
// organisation's wiki.
func (p *Project) organisation(m *claims.Model) bool {
	return len(p.Config.Externals) > 0 && m != nil &&
		len(m.Requirements)+len(m.Pages)+len(m.Decisions)+len(m.Documents) == 0
}

// buildOrganisation builds the organisation's wiki: into opts.Sink when
// set, else into the site's Files.
func (p *Project) buildOrganisation(opts BuildOptions, notes io.Writer) (*Site, error) {
	repos, x := p.readOrgBundles(notes)
	urls := map[string]string{}
	for _, r := range repos {
		urls[r.Name] = r.URL
	}
	org := synth.NewOrg(synth.OrgInput{Repos: repos, Externals: x, Lang: p.Config.Language})
	texts := orgTexts(repos)
	repos, x = nil, nil // every link is judged: the bundles' code index is not needed by the pages
	s := &Site{Files: map[string][]byte{}, Graph: org.Graph, Check: org.Check()}
	w := &orgWriter{org: org, urls: urls, title: cmp.Or(p.Config.Title, "Organisation"), lang: p.Config.Language,
		texts: texts, put: opts.Sink, stream: opts.stream}
	if w.put == nil {
		w.put = func(name string, data []byte) error { s.Files[name] = data; return nil }
	}
	if err := w.write(); err != nil {
		return nil, err
	}
	s.Pages = w.pages
	return s, nil
}

// readOrgBundles reads every external's bundle (one that cannot be read
// is kept with its error, and said in notes), and indexes them for
// judging the links between them. Memory is the bound on an
// organisation's size, so each bundle keeps only what the wiki uses: of
// its code, the hashes of the targets other bundles link (a first pass
// reads every bundle's links), and none of its symbols.
func (p *Project) readOrgBundles(notes io.Writer) ([]synth.OrgRepo, codeanchors.Externals) {
	linked := p.orgLinkedTargets()
	var repos []synth.OrgRepo
	x := codeanchors.Externals{}
	for _, e := range p.Config.Externals {
		ext, b := p.readExternal(e.Name, e.Bundle)
		ext.URL = e.URL
		x[e.Name] = ext
		r := synth.OrgRepo{Name: e.Name, URL: e.URL, Bundle: b, Err: ext.Err}
		if r.Err != "" {
			fmt.Fprintf(notes, "tracewiki: external %s: %s\n", e.Name, r.Err)
		}
		if b != nil {
			if r.URL == "" {
				r.URL = b.URL // the url its own build published
			}
			slimOrgBundle(ext, b, linked[e.Name])
		}
		repos = append(repos, r)
	}
	return repos, x
}

// orgLinkedTargets are the targets each bundle's links name, by the
// external's name then its local ref (PATH@SYMBOL, PATH).
func (p *Project) orgLinkedTargets() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, e := range p.Config.Externals {
		data, err := p.WS.ReadFileLimit(e.Bundle, MaxBundleBytes)
		if err != nil {
			continue // said when read again
		}
		var links struct {
			Links []synth.BundleLink `json:"links"`
		}
		if json.Unmarshal(data, &links) != nil {
			continue
		}
		for _, l := range links.Links {
			t, err := claims.ParseTarget(l.To)
			if err != nil || t.External == "" || l.Kind == synth.KindParent {
				continue
			}
			if out[t.External] == nil {
				out[t.External] = map[string]bool{}
			}
			out[t.External][t.Local().String()] = true
		}
	}
	return out
}

// slimOrgBundle drops from a bundle and its index what an organisation's
// wiki does not use: the code hashes of targets no link names, the
// symbols, and the anchors' hashes and claims (their states stay).
func slimOrgBundle(ext *codeanchors.External, b *synth.BundleJSON, linked map[string]bool) {
	code := make(map[string]codeanchors.ExternalCode, len(linked))
	for ref := range linked {
		if c, ok := ext.Code[ref]; ok {
			code[ref] = c
		}
	}
	ext.Code = code
	b.Symbols = nil
	for i := range b.Anchors {
		a := &b.Anchors[i]
		a.Hash, a.TokenHash, a.BodyHash, a.ClaimedBy = "", "", "", nil
	}
}

// orgTexts are the requirements' texts of every bundle, by node, for
// search.
func orgTexts(repos []synth.OrgRepo) map[synth.NodeID]string {
	out := map[synth.NodeID]string{}
	for _, r := range repos {
		if r.Bundle == nil {
			continue
		}
		for _, req := range r.Bundle.Requirements {
			out[claims.RequirementNode(r.Name+":"+req.ID)] = req.Text
		}
	}
	return out
}

// orgWriter renders an organisation's wiki into files.
type orgWriter struct {
	org   *synth.Org
	urls  map[string]string       // each repository's wiki, by name
	texts map[synth.NodeID]string // the requirements' texts, for search
	title string
	lang  string
	// put writes an output file as soon as it is made (the build's sink,
	// or the site's Files); stream, when set, writes one from a writer.
	put    func(name string, data []byte) error
	stream func(name string, write func(io.Writer) error) error
	pages  int
}

// nodeURL is the page of an organisation's node in its repository's
// wiki; "" when that repository gives no url.
func (w *orgWriter) nodeURL(id synth.NodeID) string {
	name, rest, ok := claims.CutExternal(id.Key)
	if !ok || w.urls[name] == "" {
		return ""
	}
	local := synth.Node{ID: synth.NodeID{Type: id.Type, Key: rest}, Type: id.Type}
	if _, n, ok := synth.ExternalLocal(id); ok {
		local = n
	}
	if synth.KindOf(id.Type).Code && !synth.KindOf(id.Type).Named && local.Path == "" {
		local.Path = rest
	}
	return render.ExternalPageURL(w.urls[name], local)
}

func (w *orgWriter) write() error {
	steps := []func() error{w.home, w.matrix, w.drift, w.graph, w.search, w.data, w.assets, w.manifest}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// page renders one page of the wiki into dir/index.html.
func (w *orgWriter) page(dir, title, content string, data any) error {
	t, err := template.New("layout").Funcs(template.FuncMap{"url": w.nodeURL, "pct": pct}).Parse(orgLayout)
	if err == nil {
		_, err = t.New("content").Parse(content)
	}
	if err != nil {
		return err
	}
	root := ""
	if dir != "" {
		root = strings.Repeat("../", strings.Count(dir, "/")+1)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, map[string]any{"Root": root, "Title": title, "Site": w.title, "Lang": cmp.Or(w.lang, "en"), "D": data}); err != nil {
		return err
	}
	name := "index.html"
	if dir != "" {
		name = dir + "/index.html"
	}
	w.pages++
	return w.put(name, buf.Bytes())
}

// pct is a share as a percentage with one decimal ("–" for none).
func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func (w *orgWriter) home() error {
	return w.page("", w.title, orgHome, w.org.JSON)
}

// orgSection is one repository's part of the combined matrix.
type orgSection struct {
	Repo         synth.OrgRepository
	Requirements []synth.OrgRequirement
}

func (w *orgWriter) matrix() error {
	var sections []orgSection
	for _, r := range w.org.JSON.Repositories {
		sec := orgSection{Repo: r}
		for _, req := range w.org.JSON.Requirements {
			if req.Repository == r.Name {
				sec.Requirements = append(sec.Requirements, req)
			}
		}
		sections = append(sections, sec)
	}
	return w.page("requirements", "Requirements", orgMatrix, sections)
}

// driftOrder lists the links stale first, then unknown, then linked,
// each in the artifact's order.
func driftOrder(links []synth.OrgLink) []synth.OrgLink {
	rank := map[string]int{string(codeanchors.Stale): 0, string(codeanchors.Unknown): 1}
	out := slices.Clone(links)
	slices.SortStableFunc(out, func(x, y synth.OrgLink) int {
		rx, okx := rank[x.State]
		ry, oky := rank[y.State]
		if !okx {
			rx = 2
		}
		if !oky {
			ry = 2
		}
		return cmp.Compare(rx, ry)
	})
	return out
}

func (w *orgWriter) drift() error {
	return w.page("drift", "Cross-repository drift", orgDrift, driftOrder(w.org.JSON.Links))
}

// orgDrawing is one node's neighborhood on the graph page.
type orgDrawing struct {
	ID  synth.NodeID
	SVG template.HTML
}

func (w *orgWriter) graph() error {
	var ids []synth.NodeID
	for _, l := range driftOrder(w.org.JSON.Links) {
		if !slices.Contains(ids, l.From) {
			ids = append(ids, l.From)
		}
	}
	total := len(ids)
	ids = ids[:min(len(ids), MaxOrgGraphs)]
	href := func(n synth.Node) string { return w.nodeURL(n.ID) }
	var drawings []orgDrawing
	for _, id := range ids {
		nb := w.org.Graph.NeighborhoodOf([]synth.NodeID{id}, 1)
		drawings = append(drawings, orgDrawing{ID: id, SVG: graphsvg.Draw(nb, id, href)})
	}
	return w.page("graph", "Cross-repository graph", orgGraph, map[string]any{"Drawings": drawings, "Total": total, "Max": MaxOrgGraphs})
}

func (w *orgWriter) search() error {
	s := synth.NewSearch(w.org.Graph, &claims.Model{}, w.nodeURL)
	for i := range s.Entries {
		s.Entries[i].Text = w.texts[s.Entries[i].ID]
	}
	data, err := synth.MarshalJSON(s)
	if err != nil {
		return err
	}
	if err := w.put(render.SearchFile, data); err != nil {
		return err
	}
	data = nil
	scripts, err := render.SearchScriptsOf(s.Entries, w.lang)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(scripts)) {
		if err := w.put(name, scripts[name]); err != nil {
			return err
		}
	}
	return w.page(render.SearchDir, "Search", orgSearch, nil)
}

func (w *orgWriter) data() error {
	org, err := synth.MarshalJSON(w.org.JSON)
	if err != nil {
		return err
	}
	if err := w.put(synth.OrgFile, org); err != nil {
		return err
	}
	if w.stream != nil {
		return w.stream(render.GraphFile, w.org.Graph.WriteJSON)
	}
	g, err := synth.MarshalJSON(w.org.Graph.JSON())
	if err != nil {
		return err
	}
	return w.put(render.GraphFile, g)
}

// orgManifestFile is a wiki's manifest: the output folder is known as
// tracewiki's by it, so the next build may replace it.
const orgManifestFile = "api/manifest.json"

// manifest writes the manifest: the graph's nodes, the pages, the
// artifacts and the cross-repository links by state and reason.
func (w *orgWriter) manifest() error {
	artifacts := []string{render.GraphFile, orgManifestFile, synth.OrgFile, render.SearchFile}
	slices.Sort(artifacts)
	m := synth.NewManifest(w.org.Graph, &codeanchors.Report{}, w.title, "", w.pages, artifacts, nil)
	for _, l := range w.org.JSON.Links {
		m.Links[l.State]++
		if l.Reason != "" {
			m.Reasons[l.Reason]++
		}
	}
	data, err := synth.MarshalJSON(m)
	if err != nil {
		return err
	}
	return w.put(orgManifestFile, data)
}

// assets copies the stylesheets and scripts (not the schemas), as a
// repository's wiki has them.
func (w *orgWriter) assets() error {
	return fs.WalkDir(assets.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(name, "schemas/") {
			return err
		}
		data, err := fs.ReadFile(assets.FS, name)
		if err != nil {
			return err
		}
		return w.put("assets/"+name, data)
	})
}

const orgLayout = `<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · {{.Site}}</title>
<link rel="stylesheet" href="{{.Root}}assets/style.css">
<script src="{{.Root}}assets/theme.js"></script>
</head>
<body>
<header class="site"><a href="{{.Root}}index.html">{{.Site}}</a>
<nav><a href="{{.Root}}requirements/index.html">Requirements</a> <a href="{{.Root}}graph/index.html">Graph</a> <a href="{{.Root}}drift/index.html">Drift</a> <a href="{{.Root}}search/index.html">Search</a></nav></header>
<main>
{{template "content" .}}
</main>
<script src="{{.Root}}assets/sorttable.js"></script>
</body>
</html>
`

const orgHome = `<h1>{{.Site}}</h1>
<p>One wiki over {{len .D.Repositories}} repositories, built from their bundles.</p>
<table class="sortable">
<thead><tr><th>repository</th><th>revision</th><th>requirements</th><th>implemented</th><th>tested</th><th>verified</th><th>stale</th><th>code coverage</th><th>links out</th><th>drifted</th></tr></thead>
<tbody>
{{range .D.Repositories}}<tr><td>{{if .URL}}<a href="{{.URL}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}{{if .Error}} <span class="badge badge-unknown" title="{{.Error}}">unreadable</span>{{end}}</td><td><code>{{.Revision}}</code></td>{{template "counts" .Counts}}</tr>
{{end}}</tbody>
<tfoot><tr><th>total</th><th></th>{{template "counts" .D.Total}}</tr></tfoot>
</table>
{{define "counts"}}<td>{{.Requirements}}</td><td>{{.Implemented}} ({{pct .Implemented .Requirements}})</td><td>{{.Tested}} ({{pct .Tested .Requirements}})</td><td>{{.Verified}} ({{pct .Verified .Requirements}})</td><td>{{.Stale}}</td><td>{{.Coverage.Covered}} of {{.Coverage.Total}} ({{pct .Coverage.Covered .Coverage.Total}})</td><td>{{.Links}}</td><td>{{.StaleLinks}}</td>{{end}}`

const orgMatrix = `<h1>Requirements</h1>
{{range .D}}<h2 id="repo-{{.Repo.Name}}">{{.Repo.Name}}</h2>
<table class="sortable">
<thead><tr><th>requirement</th><th>title</th><th>status</th><th>implemented</th><th>tested</th><th>verified</th><th>parents</th></tr></thead>
<tbody>
{{range .Requirements}}<tr{{if .Stale}} class="stale"{{end}}><td>{{with url .ID}}<a href="{{.}}">{{end}}{{.ID.Key}}{{if url .ID}}</a>{{end}}{{if .Stale}} <span class="badge badge-stale">stale</span>{{end}}</td><td>{{.Title}}</td><td>{{.Status}}</td><td>{{if .Implemented}}yes{{else}}no{{end}}</td><td>{{if .Tested}}yes{{else}}no{{end}}</td><td>{{if .Verified}}yes{{else}}no{{end}}</td><td>{{range $i, $p := .Parents}}{{if $i}}, {{end}}{{$p}}{{end}}</td></tr>
{{else}}<tr><td colspan="7">no requirements</td></tr>
{{end}}</tbody>
</table>
{{end}}`

const orgDrift = `<h1>Cross-repository drift</h1>
<p>Each repository's links into the others, judged now against the other repository's bundle by what the link captured; "at its build" is the state the linking repository's own build gave it.</p>
<table class="sortable">
<thead><tr><th>repository</th><th>from</th><th>kind</th><th>to</th><th>state</th><th>why</th><th>at its build</th></tr></thead>
<tbody>
{{range .D}}<tr{{if eq .State "stale"}} class="stale"{{end}}><td>{{.Repository}}</td><td>{{with url .From}}<a href="{{.}}">{{end}}<code>{{.From.Key}}</code>{{if url .From}}</a>{{end}}</td><td>{{.Kind}}</td><td>{{with url .To}}<a href="{{.}}">{{end}}<code>{{.To.Key}}</code>{{if url .To}}</a>{{end}}</td><td><span class="badge badge-{{.State}}">{{.State}}</span> {{.Reason}}</td><td>{{.Why}}</td><td>{{.BuiltState}} {{.BuiltReason}}</td></tr>
{{else}}<tr><td colspan="7">no cross-repository links</td></tr>
{{end}}</tbody>
</table>`

const orgGraph = `<h1>Cross-repository graph</h1>
<p>Every node with a link into another repository, with its neighbors{{if gt .D.Total .D.Max}} (the first {{.D.Max}} of {{.D.Total}}, drifted first; api/graph.json holds them all){{end}}.</p>
{{range .D.Drawings}}<section><h2><code>{{.ID.Key}}</code></h2>
{{.SVG}}
</section>
{{end}}`

const orgSearch = `<h1>Search</h1>
<form class="search" role="search" onsubmit="return false">
<input id="q" type="search" placeholder="Requirement id, title, symbol…" autocomplete="off" autofocus aria-label="Search">
</form>
<p id="status" class="hint">Type to search every repository's requirements and code.</p>
<ol id="results" class="results"></ol>
<script src="{{.Root}}api/search.js"></script>
<script src="{{.Root}}assets/search.js" data-root="{{.Root}}"></script>`
