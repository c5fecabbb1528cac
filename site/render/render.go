package render

import (
	"errors"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"sync"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
	"github.com/tracewiki/tracewiki/templates"
)

// Input is what a site is rendered from: the synthesized site and the
// settings its pages show. All of it is values: rendering reads no disk,
// so a test renders a site in memory.
type Input struct {
	Graph    *synth.Graph
	Model    *claims.Model
	Report   *codeanchors.Report
	Findings *synth.Findings // every judged link: the drift list and the check report are its views
	Pages    *synth.Pages    // the typed page models
	// Sources are the code files read, by path: file pages and fragments
	// show their lines.
	Sources map[string]*codeanchors.Source
	// Index is the code index; the manifest says when it was truncated.
	Index *codeanchors.Index
	// Coverage is the code coverage by requirements (api/coverage.json and
	// its page); CoverageMin the configured minimum share, 0 for none.
	Coverage    synth.CoverageJSON
	CoverageMin float64
	// Bundle encodes the repository's bundle, api/bundle.json (SPEC 1.8),
	// when the artifacts are written; nil writes none.
	Bundle func() ([]byte, error)

	Title    string
	BaseURL  string // the URL path the site is served under, ending in "/"
	Language string // the content's language, for the page's lang and the verdicts' words
	Repo     string // the config title's slug, the <repo> of code:// URIs
	Content  string // the content folder, as a document page names it
	Forge    Forge  // links to the forge at the built commit; none without repo_url

	// Highlighter highlights code; nil highlights with a fresh cache.
	Highlighter *Highlighter
	// Images are the content's images by content path, published under
	// assets/content/.
	Images map[string][]byte
	// Verified is the text stale lock entries were recorded against, as
	// found in the git history; nil when none is stale.
	Verified map[VerifiedKey]*VerifiedText
	// Parallel runs fn(0) … fn(n-1) on the build's workers and joins their
	// errors; nil runs them one after the other.
	Parallel func(n int, fn func(i int) error) error
	// Baselines are the [baselines] tags with their changelogs (the
	// Releases page, api/changelog.json); nil without [baselines].
	Baselines *synth.Baselines
	// Externals are the urls of the externals' published wikis by name
	// ([[externals]] url; externals.go); an external without one is absent.
	Externals map[string]string
}

// Renderer renders one site: its pages and artifacts. It is read-only once
// made, so pages render concurrently.
type Renderer struct {
	graph    *synth.Graph
	model    *claims.Model
	report   *codeanchors.Report
	sources  map[string]*codeanchors.Source
	targets  map[string]*codeanchors.TargetStatus // by ref
	models   *synth.Pages                         // the typed page models
	lang     string
	repo     string // the config title's slug, the <repo> of code:// URIs
	title    string
	baseURL  string
	content  string
	hl       *Highlighter
	forge    Forge // links to the forge at the built commit; none without repo_url
	tmpl     map[string]*template.Template
	images   map[string][]byte
	parallel func(n int, fn func(i int) error) error
	// findings is every judged link, computed once; the check report and
	// drift (api/drift.json, the drift and home pages) are its views.
	findings   *synth.Findings
	drift      synth.DriftJSON
	driftJSON  func() ([]byte, error) // api/drift.json, encoded once
	codeCov    synth.CoverageJSON     // api/coverage.json (coverage.go)
	baselines  *synth.Baselines       // the Releases page (releases.go); nil without
	changed    map[string]string      // the baseline that last changed each requirement
	bundle     func() ([]byte, error) // api/bundle.json (bundle.go)
	covMin     float64
	driftStale bool // some drifted link is stale, not only unknown
	// searchJSON is api/search.json, made once (see [encodedJSON]).
	searchJSON func() ([]byte, error)
	// verified is the text stale lock entries were recorded against.
	verified map[VerifiedKey]*VerifiedText
	// externals are the externals' published wikis by name (externals.go).
	externals map[string]string

	all []Page // every page of the site

	// What the manifest reports, known before pages render.
	pageCount int
	artifacts []string
	truncated []string
}

// New makes the renderer of the site in: it lists the site's pages and
// makes the drift list, so that a page renders on its own.
func New(in Input) (*Renderer, error) {
	b := &Renderer{
		graph: in.Graph, model: in.Model, report: in.Report, sources: in.Sources, models: in.Pages,
		lang: in.Language, repo: in.Repo, title: in.Title, baseURL: in.BaseURL, content: in.Content,
		hl: in.Highlighter, forge: in.Forge, images: in.Images, parallel: in.Parallel,
		findings: in.Findings, codeCov: in.Coverage, covMin: in.CoverageMin, verified: in.Verified, bundle: in.Bundle,
		baselines: in.Baselines, changed: in.Baselines.ChangedIn(), externals: in.Externals,
	}
	if b.hl == nil {
		b.hl = (*HighlightCache)(nil).Highlighter(nil)
	}
	if b.parallel == nil {
		b.parallel = sequential
	}
	b.targets = b.models.Targets
	b.searchJSON = sync.OnceValues(func() ([]byte, error) {
		return synth.MarshalJSON(synth.NewSearch(b.graph, b.model, func(id synth.NodeID) string { return b.idHref("", id) }))
	})
	var err error
	if b.tmpl, err = templateSet(); err != nil {
		return nil, err
	}
	b.drift = synth.NewDrift(b.findings, b.graph, b.absURL)
	b.driftJSON = sync.OnceValues(func() ([]byte, error) { return synth.MarshalJSON(b.drift) })
	b.driftStale = slices.ContainsFunc(b.drift.Links, func(l synth.DriftLink) bool { return l.State == string(codeanchors.Stale) })
	b.all = b.pages()
	seen := make(map[string]bool, len(b.all))
	for _, pg := range b.all {
		if seen[pg.Prefix()] {
			return nil, fmt.Errorf("two pages would be written to %sindex.html", pg.Prefix())
		}
		seen[pg.Prefix()] = true
	}
	b.pageCount = len(b.all)
	b.artifacts = []string{synth.CoverageFile, driftFile, GraphFile, manifestFile, SearchFile}
	if b.bundle != nil {
		b.artifacts = append(b.artifacts, synth.BundleFile)
	}
	if b.baselines != nil {
		b.artifacts = append(b.artifacts, synth.ChangelogFile)
	}
	slices.Sort(b.artifacts)
	if ix := in.Index; ix != nil && ix.UnresolvedTotal > len(ix.Unresolved) {
		b.truncated = append(b.truncated, fmt.Sprintf("code index: %d unresolved imports, %d listed", ix.UnresolvedTotal, len(ix.Unresolved)))
	}
	return b, nil
}

// sequential is [Input.Parallel] on one core.
func sequential(n int, fn func(i int) error) error {
	var errs []error
	for i := range n {
		errs = append(errs, fn(i))
	}
	return errors.Join(errs...)
}

// Pages lists every page of the site, in the order they render.
func (b *Renderer) Pages() []Page { return b.all }

// DriftJSON is api/drift.json, encoded once: the pages' shared key holds
// it (the drift list is the one place that shows a claim's line).
func (b *Renderer) DriftJSON() ([]byte, error) { return b.driftJSON() }

// relURL is [NodeURL] of the node with the id, relative to the site root;
// "" when the graph has no such node.
func (b *Renderer) relURL(id synth.NodeID) string {
	if synth.IsExternal(id) {
		return "" // its page is in its own repository's wiki: see idHref
	}
	n, ok := b.graph.Node(id)
	if !ok {
		return ""
	}
	return NodeURL(n)
}

// absURL is [NodeURL] of the node with the id, under the base URL; ""
// when the graph has no such node.
func (b *Renderer) absURL(id synth.NodeID) string {
	if synth.IsExternal(id) {
		return b.externalURL(id)
	}
	u := b.relURL(id)
	if u == "" {
		return ""
	}
	return b.baseURL + u
}

// templateSet is the parsed templates, parsed once per process: a
// template set is read-only once parsed and safe for concurrent use, and
// serve makes a renderer per rebuild.
var templateSet = sync.OnceValues(parseTemplates)

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
