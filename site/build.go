package site

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/buildcache"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
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
	// asked for ([Site.File]); a [Session]'s builds.
	lazy bool
	// reuse, when set, is asked with the site key (see [Project.siteKey])
	// once the analysis is done; true means the output already holds this
	// site, and the build stops there ([Site.Reused]).
	reuse func(key []byte) bool
	// pages, when set, keeps the pages whose key did not change from the
	// last build into the same output folder (see [render.PageStore]),
	// and hands the edit record what the render pass made of the editable
	// pages: their claims tables' rows and their claims shown.
	pages *buildcache.Writer
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
	// rendered, their inputs unchanged (see [render.PageStore]).
	Kept int

	key, digest []byte            // the site key and the read digest it was made from
	edits       *buildcache.Edits // for [buildcache.BuildEdited]; nil without a build cache
	forge       render.Forge      // the forge links' commit
	historyRead bool              // the git history was searched for verified texts
	gitHead     string            // at this HEAD ("" in no repository)
	revision    string            // the commit built, which the bundle names ([bundleRevision])
	lazy        *lazyFiles        // a lazy build's files, rendered on demand
}

// File returns one file of the site by slash path; false when there is
// none. A lazy build ([Session.Build]) renders it now (once), and an
// error says it could not.
func (s *Site) File(name string) ([]byte, bool, error) {
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
	if p.IsOrganisation() {
		return p.buildOrganisation(opts, notes) // from the bundles alone (orgwiki.go)
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
	revision := bundleRevision(forge, opts.Commit, p.WS.Dir)
	b := &siteBuild{p: p, a: a, graph: g, captured: c, baseURL: baseURL, forge: forge, revision: revision}
	// Before the site key: the git history is not among the workspace's
	// reads, so what it gave is in the key.
	verified, verifiedSum, gitHead := p.recoverVerified(a.Report)
	baselines, baselinesSum, err := p.baselines(opts.Cache)
	if err != nil {
		return nil, err
	}
	verifiedSum = append(verifiedSum, baselinesSum...)
	b.verifiedSum = verifiedSum
	var key, digest []byte
	if opts.Cache != nil && !opts.lazy {
		key, digest = p.siteKey(c, baseURL, forge, revision, verifiedSum), p.WS.ReadDigest()
	}
	b.key = key
	findings := p.newFindings(a)
	in := render.Input{
		Graph: g, Model: p.Model, Report: a.Report, Findings: findings,
		Pages:   synth.NewPages(synth.PageInput{Graph: g, Model: p.Model, Report: a.Report}),
		Sources: a.Sources, Index: a.Index, CoverageMin: p.Config.Coverage.Min,
		Title: p.Config.Title, BaseURL: baseURL, Language: p.Config.Language, Repo: p.Config.Slug(),
		Content: p.Config.Content, Forge: forge, Highlighter: opts.Highlight.Highlighter(opts.Cache.Fragments()),
		Images: p.images, Verified: verified, Parallel: p.parallel, Baselines: baselines,
		Externals: p.externalURLs(),
	}
	s := &Site{Files: map[string][]byte{}, Report: a.Report, Check: synth.NewCheckReport(findings), Findings: findings, Graph: g}
	if opts.reuse != nil && opts.reuse(key) {
		if b.r, err = render.New(in); err != nil {
			return nil, err
		}
		s.Reused = true
	} else {
		if in.Coverage, err = p.codeCoverage(g, a.Lock); err != nil {
			return nil, err
		}
		in.Bundle = p.bundleFunc(g, a, code, in.Coverage.Totals, revision, baseURL)
		if b.r, err = render.New(in); err != nil {
			return nil, err
		}
		if err := b.build(s, opts); err != nil {
			return nil, err
		}
	}
	s.Pages = len(b.r.Pages())
	s.Loaded, s.Captured, s.Analysis = ld, c, a
	s.key, s.digest, s.forge = key, digest, forge
	s.historyRead, s.gitHead, s.revision = verified != nil, gitHead, revision
	return s, nil
}

// siteBuild is what one build keeps beside its renderer: what the pages'
// keys and the edit record are made from.
type siteBuild struct {
	p        *Project
	r        *render.Renderer
	a        *Analysis
	graph    *synth.Graph
	captured *Captured // the capture stage's value
	baseURL  string
	forge    render.Forge
	// verifiedSum is the digest of the texts read from the git history
	// ([Project.recoverVerified]), in the site's and the pages' keys.
	verifiedSum []byte
	revision    string              // the commit built, in the site key (see bundle.go)
	key         []byte              // the site's key; nil without a build cache
	outlined    *buildcache.Outline // the outline of the shared key; nil without one
}

// build renders the site into s: lazily (see [lazyFiles]), into the sink
// of opts, or into s.Files; with a page store, it keeps the pages whose
// key did not change and records the editable ones.
func (b *siteBuild) build(s *Site, opts BuildOptions) error {
	if opts.lazy {
		s.lazy = newLazyFiles(b.r, b.p.parallel)
		return nil
	}
	var shared []byte // the pages' shared key; nil keeps no page
	if opts.pages != nil && opts.Sink != nil {
		driftJSON, err := b.r.DriftJSON()
		if err != nil {
			return err
		}
		shared = b.pagesKey(driftJSON)
	}
	out := render.Output{Sink: opts.Sink, Stream: opts.stream, Shared: shared}
	if opts.pages != nil {
		out.Store = opts.pages
	}
	files, kept, err := b.r.Site(out)
	if err != nil {
		return err
	}
	if opts.Sink == nil {
		s.Files = files
	}
	s.Kept = kept
	if shared != nil {
		s.edits = buildcache.NewEdits(b.r, opts.pages, b.graph, b.outlined, b.editable, buildcache.EditsSite{
			SiteKey: b.key, Shared: shared, Content: b.p.Config.Content, BaseURL: b.baseURL, Forge: b.forge, History: b.verifiedSum,
			Revision: b.revision,
		})
	}
	return nil
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
