package site

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tracewiki/tracewiki/assets"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
	"github.com/tracewiki/tracewiki/templates"
)

// BuildOptions says how to build the site.
type BuildOptions struct {
	// BaseURL is the URL path the site is served under; "" means the
	// config's. Links are relative either way; the base URL is recorded
	// in the manifest and makes the JSON artifacts' URLs absolute.
	BaseURL string
	// Frozen builds without capturing: targets never captured are
	// reported as unknown (uncaptured), and [Site.Captured] has nothing
	// for the lock.
	Frozen bool
	// By names who vouches for captures of new targets; "" means git's
	// user.email.
	By string
	// Commit names the commit that forge links point at (repo_url); ""
	// means git's HEAD in the workspace.
	Commit string
	// Highlight, when set, keeps highlighted code from build to build, so
	// a rebuild only highlights what changed. Nil means a fresh cache.
	Highlight *render.HighlightCache
	// Cache, when set, is the persistent build cache (see [Cache]):
	// highlighted code is looked up there before it is lexed. Nil caches
	// nothing across processes.
	Cache *Cache
	// Sink, when set, receives every output file as soon as it is rendered
	// (called from several goroutines, each name once) instead of
	// [Site.Files], which then stays empty: memory grows with the pages
	// rendering at once, not with the site. Nil keeps the site in memory.
	// data is valid only during the call: the sink copies what it keeps.
	Sink func(name string, data []byte) error
	// Release lets the build drop what rendering does not need as soon
	// as drift is judged (the sources' hash tokens, see
	// [codeanchors.Source.ReleaseTokens]), for a caller that will not
	// judge the sources of [Site.Loaded] again: a one-shot build.
	Release bool

	// lazy renders nothing yet: the site's files are rendered when first
	// asked for ([Site.file]); serve's rebuilds.
	lazy bool
	// reuse, when set, is asked with the site key (see [Project.siteKey])
	// once the analysis is done; true means the output already holds this
	// site, and the build stops there ([Site.Reused]).
	reuse func(key []byte) bool
	// pages, when set, keeps the pages whose key did not change from the
	// last build into the same output folder (see [outputPages]).
	pages outputPages
	// stream, when set with Sink, writes the output file name with write
	// instead of taking its bytes: for the graph, tens of megabytes.
	stream func(name string, write func(io.Writer) error) error
}

// Site is a built site, in memory: every output file by slash-separated
// path, the drift it reports, and the value of every stage of the build
// (see pipeline.go), so that a caller reuses them instead of running a
// stage again.
type Site struct {
	Files  map[string][]byte
	Report *codeanchors.Report // Analysis.Report
	Check  *synth.CheckReport
	Pages  int // HTML pages
	// Graph is the graph the pages were drawn from, for neighborhood
	// queries without a second analysis.
	Graph *synth.Graph

	// Loaded is the load stage's value: the sources read and parsed.
	Loaded *Loaded
	// Captured is the lock the build judged against, with what it
	// captured; the caller writes it with [Project.WriteCapture].
	Captured *Captured
	// Analysis is the drift of every link and the code index.
	Analysis *Analysis
	// Findings is every judged link, whence Check, SARIF, GitHub
	// annotations and api/drift.json.
	Findings *synth.Findings

	// Reused says the output folder already held this very site: nothing
	// was rendered or written ([Project.BuildInto] with a cache).
	Reused bool
	// Linked counts the files hard-linked from the previous output instead
	// of written, their bytes unchanged ([Project.BuildInto]).
	Linked int
	// Kept counts the pages kept from the previous output without being
	// rendered, their inputs unchanged (see [outputPages]).
	Kept int

	key, digest []byte       // the site key and the read digest it was made from
	edits       *editRecord  // for [BuildEdited]; nil without a build cache
	forge       render.Forge // the forge links' commit
	historyRead bool         // the git history was searched for verified texts
	gitHead     string       // at this HEAD ("" in no repository)
	revision    string       // the commit built, which the bundle names ([bundleRevision])
	lazy        *lazyFiles   // a lazy build's files, rendered on demand
}

// file returns one file of the site by slash path; false when there is
// none. A lazy build renders it now (once).
func (s *Site) file(name string) ([]byte, bool, error) {
	if s.lazy != nil {
		return s.lazy.file(name)
	}
	data, ok := s.Files[name]
	return data, ok, nil
}

// Build builds the site in memory. Unless opts.Frozen, targets never
// captured are captured first, into [Site.Captured]: Build writes nothing,
// the caller writes the lock with [Project.WriteCapture]. Pages are rendered in parallel; the result depends only on the
// inputs.
func (p *Project) Build(opts BuildOptions, notes io.Writer) (*Site, error) {
	if opts.BaseURL != "" {
		if err := workspace.CheckBaseURL(opts.BaseURL); err != nil {
			return nil, fmt.Errorf("--base-url: %w", err)
		}
	}
	// Load, capture, analyze: each file is read and parsed once, and drift
	// is judged once, against the lock as captured.
	ld, err := p.load()
	if err != nil {
		return nil, err
	}
	c, err := p.capture(ld, opts.Frozen, opts.By)
	if err != nil {
		return nil, err
	}
	if !opts.Frozen {
		p.removeContentTemps(notes)
	}
	if c.Result != nil {
		for _, err := range c.Result.Failed {
			fmt.Fprintf(notes, "tracewiki: not captured: %v\n", err)
		}
	}
	a := p.analyzeLoaded(ld, c.Lock)
	g := p.draw(a)
	code := publishedCode(a, opts.Release) // before the tokens go
	if opts.Release {
		for _, s := range ld.Sources {
			s.ReleaseTokens()
		}
	}
	for _, err := range a.Unparsed {
		fmt.Fprintf(notes, "tracewiki: %v\n", err)
	}
	for _, s := range a.Skipped {
		fmt.Fprintf(notes, "tracewiki: %s\n", s)
	}
	baseURL := opts.BaseURL
	if baseURL == "" {
		baseURL = p.Config.BaseURL
	}
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	forge, err := newForgeLinks(p.Config, opts.Commit, p.WS.Dir)
	if err != nil {
		return nil, err
	}
	b := &builder{
		forge: forge,
		p:     p, graph: g, a: a, lang: p.Config.Language, repo: p.Config.Slug(), title: p.Config.Title,
		baseURL: baseURL, hl: opts.Highlight.Highlighter(opts.Cache.fragments()),
		lazy: opts.lazy, kept: opts.pages, stream: opts.stream, captured: c,
		code: code, revision: bundleRevision(forge, opts.Commit, p.WS.Dir),
	}
	b.models = synth.NewPages(synth.PageInput{Graph: g, Model: p.Model, Report: a.Report})
	b.targets = b.models.Targets
	b.searchJSON = sync.OnceValues(func() ([]byte, error) {
		return synth.MarshalJSON(synth.NewSearch(b.graph, b.p.Model, b.relURL))
	})
	if b.tmpl, err = parseTemplates(); err != nil {
		return nil, err
	}
	// Before the site key: the git history is not among the workspace's
	// reads, so what it gave is in the key.
	b.verified, b.verifiedSum, b.gitHead = b.recoverVerified()
	var key, digest []byte
	if opts.Cache != nil && !opts.lazy {
		key, digest = p.siteKey(c, baseURL, forge, b.revision, b.verifiedSum), p.WS.ReadDigest()
	}
	var s *Site
	if opts.reuse != nil && opts.reuse(key) {
		s = b.reusedSite()
	} else if s, err = b.build(opts.Sink); err != nil {
		return nil, err
	}
	s.Loaded, s.Captured, s.Analysis = ld, c, a
	s.key, s.digest, s.forge = key, digest, forge
	s.historyRead, s.gitHead, s.revision = b.verified != nil, b.gitHead, b.revision
	if s.edits != nil {
		s.edits.siteKey = key
	}
	return s, nil
}

// builder holds one build's state; it is read-only while pages render.
type builder struct {
	p       *Project
	graph   *synth.Graph
	a       *Analysis
	targets map[string]*codeanchors.TargetStatus // by ref
	models  *synth.Pages                         // the typed page models
	lang    string
	repo    string // the config title's slug, the <repo> of code:// URIs
	title   string
	baseURL string
	hl      *render.Highlighter
	lazy    bool         // render on demand (see [lazyFiles])
	forge   render.Forge // links to the forge at the built commit; none without repo_url
	tmpl    map[string]*template.Template
	// findings is every judged link, computed once; the check report and
	// drift (api/drift.json, the drift and home pages) are its views.
	findings   *synth.Findings
	drift      synth.DriftJSON
	codeCov    synth.CoverageJSON // api/coverage.json (coverage.go)
	driftStale bool               // some drifted link is stale, not only unknown
	kept       outputPages        // the last build's pages; nil renders every page
	// searchJSON is api/search.json, made once (see [encodedJSON]).
	searchJSON func() ([]byte, error)
	outlined   *outlined                                            // the outline of the shared key; nil without one
	stream     func(name string, write func(io.Writer) error) error // see [BuildOptions]
	captured   *Captured                                            // the capture stage's value
	// verified is the text stale lock entries were recorded against, from
	// the git history ([builder.recoverVerified]), made once per build;
	// verifiedSum its digest, in the site's and the pages' keys; gitHead
	// the HEAD it was read at.
	verified    map[verifiedKey]*verifiedText
	verifiedSum []byte
	gitHead     string
	// code is the current hashes of the code, for the bundle; revision
	// the commit built (see bundle.go).
	code     func() *codeanchors.Published
	revision string

	// What the manifest reports, known before pages render.
	pageCount int
	artifacts []string
	truncated []string
}

// page is one HTML page to render, with its JSON twin.
type page struct {
	dir  string // output folder relative to the site root; "" for the home page
	tmpl string // template name
	data func(b *builder, root string) (*pageData, any, error)
	// keyed pages are kept from the last build when their key
	// ([pageKey]) is the same; the others always render.
	keyed bool
	doc   *claims.Doc  // the document whose body a keyed page shows, if any
	wiki  *claims.Page // the wiki page of a wiki page's node page
}

func (b *builder) build(sink func(name string, data []byte) error) (*Site, error) {
	b.findings = b.newFindings()
	b.drift = synth.NewDrift(b.findings, b.graph, b.absURL)
	var err error
	if b.codeCov, err = b.p.codeCoverage(b.graph, b.a.Lock); err != nil {
		return nil, err
	}
	b.driftStale = slices.ContainsFunc(b.drift.Links, func(l synth.DriftLink) bool { return l.State == string(codeanchors.Stale) })
	pages := b.pages()
	b.pageCount = len(pages)
	b.artifacts = []string{synth.BundleFile, synth.CoverageFile, "api/drift.json", "api/graph.json", "api/manifest.json", "api/search.json"}
	if ix := b.a.Index; ix.UnresolvedTotal > len(ix.Unresolved) {
		b.truncated = append(b.truncated, fmt.Sprintf("code index: %d unresolved imports, %d listed", ix.UnresolvedTotal, len(ix.Unresolved)))
	}
	s := &Site{Files: map[string][]byte{}, Report: b.a.Report, Check: synth.NewCheckReport(b.findings), Findings: b.findings, Pages: len(pages), Graph: b.graph}
	prefixes := make([]string, len(pages))
	seen := make(map[string]bool, len(pages))
	for i, pg := range pages {
		prefix := pg.dir
		if prefix != "" {
			prefix += "/"
		}
		if seen[prefix] {
			return nil, fmt.Errorf("two pages would be written to %sindex.html", prefix)
		}
		seen[prefix], prefixes[i] = true, prefix
	}
	if b.lazy {
		s.lazy = b.lazyFiles(pages, prefixes)
		return s, nil
	}
	driftJSON, err := synth.MarshalJSON(b.drift)
	if err != nil {
		return nil, err
	}
	var shared []byte // the pages' shared key; nil keeps no page
	if b.kept != nil && sink != nil {
		shared = b.pagesKey(driftJSON)
	}
	var filesMu sync.Mutex // put is called from three goroutines
	put := func(name string, data []byte) error {
		if sink != nil {
			return sink(name, data)
		}
		filesMu.Lock()
		defer filesMu.Unlock()
		s.Files[name] = data
		return nil
	}
	// The graph and the search index, each made on one core, are written
	// while the rest renders.
	graphDone, searchDone := make(chan error, 1), make(chan error, 1)
	go func() { graphDone <- b.writeGraph(put, shared) }()
	go func() { searchDone <- b.writeSearch(put) }()
	// The other artifacts go first: written out, their bytes are not held
	// while the pages render.
	err = b.addStatic(put, driftJSON)
	if err == nil {
		err = b.addImages(put)
	}
	if err != nil {
		<-graphDone
		<-searchDone
		return nil, err
	}
	driftJSON = nil
	var out [][2][]byte
	if sink == nil {
		out = make([][2][]byte, len(pages))
	}
	var kept atomic.Int64
	err = b.p.parallel(len(pages), func(i int) error {
		var key []byte
		if shared != nil && pages[i].keyed {
			key = pageKey(shared, pages[i])
			if b.kept.reusePage(prefixes[i], key) {
				kept.Add(1)
				return nil
			}
		}
		if sink == nil {
			html, js, err := b.render(pages[i], newRenderBuffers())
			out[i] = [2][]byte{html, js}
			return err
		}
		// The sink keeps nothing: the buffers serve the next page.
		bufs := renderPool.Get().(*renderBuffers)
		defer bufs.release()
		html, js, err := b.render(pages[i], bufs)
		if err != nil {
			return err
		}
		if err := sink(prefixes[i]+"index.html", html); err != nil {
			return err
		}
		if err := sink(prefixes[i]+"index.json", js); err != nil {
			return err
		}
		if key != nil {
			b.kept.keyPage(prefixes[i], key)
			if span, ok := findBody(html, bufs.body); ok && b.editable(pages[i]) {
				b.kept.spanBody(prefixes[i], span)
			}
		}
		return nil
	})
	if gerr, serr := <-graphDone, <-searchDone; err == nil {
		err = errors.Join(gerr, serr)
	}
	if err != nil {
		return nil, err
	}
	s.Kept = int(kept.Load())
	if shared != nil {
		s.edits = b.editRecord(pages, shared)
	}
	for i := range out {
		s.Files[prefixes[i]+"index.html"] = out[i][0]
		s.Files[prefixes[i]+"index.json"] = out[i][1]
	}
	return s, nil
}

// renderBuffers hold a page's HTML and JSON twin while they render.
type renderBuffers struct {
	html, twin bytes.Buffer
	enc        *synth.JSONEncoder // into twin
	body       template.HTML      // the page's body, in html
}

func newRenderBuffers() *renderBuffers {
	r := &renderBuffers{}
	r.enc = synth.NewJSONEncoder(&r.twin)
	return r
}

// renderPool keeps render buffers from page to page: pages run to hundreds
// of kilobytes, and growing a new buffer for each was a tenth of a build.
var renderPool = sync.Pool{New: func() any { return newRenderBuffers() }}

// maxPooledBuffer is the largest buffer kept for the next page. The few
// pages that list every node (the requirement matrix, megabytes at 11,000
// pages) would otherwise leave every pooled buffer that large for the rest
// of the build: 34 MB more live heap, twice that in peak memory.
const maxPooledBuffer = 1 << 20

// release returns the buffers to renderPool, unless a large page grew them.
func (r *renderBuffers) release() {
	if r.html.Cap() > maxPooledBuffer || r.twin.Cap() > maxPooledBuffer {
		return // the encoder's own buffer grew as large as twin
	}
	renderPool.Put(r)
}

// render executes a page's template and encodes its JSON twin into bufs,
// and returns their bytes, valid until bufs is used again.
func (b *builder) render(pg page, bufs *renderBuffers) (html, twin []byte, err error) {
	root := rel(pg.dir)
	data, js, err := pg.data(b, root)
	if err != nil {
		return nil, nil, err
	}
	data.Lang, data.SiteTitle, data.Root, data.JSON = b.lang, b.title, root, "index.json"
	data.DriftCount, data.DriftStale = len(b.drift.Links), b.driftStale
	bufs.html.Reset()
	bufs.body = data.Body
	if err := b.tmpl[pg.tmpl].ExecuteTemplate(&bufs.html, "layout", data); err != nil {
		return nil, nil, fmt.Errorf("render %s/: %w", pg.dir, err)
	}
	if enc, ok := js.(encodedJSON); ok {
		return bufs.html.Bytes(), enc, nil
	}
	bufs.twin.Reset()
	if err := bufs.enc.Encode(js); err != nil {
		return nil, nil, err
	}
	return bufs.html.Bytes(), bufs.twin.Bytes(), nil
}

// encodedJSON is a page's JSON twin encoded already: the search page's is
// the search index, megabytes, encoded once for both.
type encodedJSON []byte

// graphFile is the whole graph's artifact.
const graphFile = "api/graph.json"

// writeGraph writes api/graph.json: streamed into the output when the
// build writes one, and kept from the last build when the pages' shared
// key, of which the graph is a function, is the same.
func (b *builder) writeGraph(put func(name string, data []byte) error, shared []byte) error {
	if b.stream == nil {
		data, err := synth.MarshalJSON(b.graph.JSON())
		if err != nil {
			return err
		}
		return put(graphFile, data)
	}
	var key []byte
	if shared != nil {
		key = cacheKey([]byte(graphFile), shared)
		if b.kept.reuseFile(graphFile, key) {
			return nil
		}
	}
	if err := b.stream(graphFile, b.graph.WriteJSON); err != nil {
		return err
	}
	if key != nil {
		b.kept.keyPage(graphFile, key)
	}
	return nil
}

// writeSearch writes the search index, api/search.json, and the script
// that sets it.
func (b *builder) writeSearch(put func(name string, data []byte) error) error {
	searchJSON, err := b.searchJSON()
	if err != nil {
		return err
	}
	if err := put(searchFile, searchJSON); err != nil {
		return err
	}
	return putSearchScripts(put, searchJSON, b.lang)
}

// The search index, and the script that sets the search page's ranking
// index (see searchindex.go).
const (
	searchFile       = "api/search.json"
	searchScriptFile = "api/search.js"
)

// addStatic adds the stylesheets, scripts, JSON artifacts and schemas
// but the graph and the search index; the drift artifact comes encoded.
func (b *builder) addStatic(put func(name string, data []byte) error, driftJSON []byte) error {
	err := fs.WalkDir(assets.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets.FS, name)
		if err != nil {
			return err
		}
		if strings.HasPrefix(name, "schemas/") {
			return put("api/"+name, data)
		}
		return put("assets/"+name, data)
	})
	if err != nil {
		return err
	}
	css, err := render.ChromaCSS()
	if err != nil {
		return err
	}
	if err := put("assets/chroma.css", css); err != nil {
		return err
	}
	if err := b.writeCoverage(put); err != nil {
		return err
	}
	if err := b.writeBundle(put); err != nil {
		return err
	}
	manifest, err := synth.MarshalJSON(synth.NewManifest(b.graph, b.a.Report, b.title, b.baseURL, b.pageCount, b.artifacts, b.truncated))
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"api/drift.json", driftJSON}, {"api/manifest.json", manifest}} {
		if err := put(f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// relURL is [nodeURL] of the node with the id, relative to the site root;
// "" when the graph has no such node.
func (b *builder) relURL(id synth.NodeID) string {
	n, ok := b.graph.Node(id)
	if !ok {
		return ""
	}
	return nodeURL(n)
}

// absURL is [nodeURL] of the node with the id, under the base URL; ""
// when the graph has no such node.
func (b *builder) absURL(id synth.NodeID) string {
	u := b.relURL(id)
	if u == "" {
		return ""
	}
	return b.baseURL + u
}

func parseTemplates() (map[string]*template.Template, error) {
	base, err := template.New("").Funcs(rowFuncs).ParseFS(templates.FS, "layout.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, name := range []string{"home", "node", "list", "drift", "search", "matrix", "document", "codecov"} {
		t, err := template.Must(base.Clone()).ParseFS(templates.FS, name+".html")
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
