package site

import (
	"net/url"
	"strings"
	"sync"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// The repository's bundle, api/bundle.json (SPEC 1.8), made by
// [synth.NewBundle]: a build writes it among its artifacts (render's
// [render.Input.Bundle]), and
// `tracewiki export bundle` writes the same bytes.

// publishedCode returns the current hashes of the analysis's code index
// and targets ([codeanchors.Publish]), computed once, when first asked
// for: now when the build is about to release the sources' tokens, which
// they are computed from.
func publishedCode(a *Analysis, releasing bool) func() *codeanchors.Published {
	f := sync.OnceValue(func() *codeanchors.Published { return codeanchors.Publish(a.Report, a.Index, a.Sources) })
	if releasing {
		f()
	}
	return f
}

// bundleFunc is [render.Input.Bundle]: the bundle of a drawn graph and
// its analysis, encoded when the artifacts are written. code gives the
// code's hashes ([publishedCode]).
func (p *Project) bundleFunc(g *synth.Graph, a *Analysis, code func() *codeanchors.Published, cov synth.CoverageCount, revision, baseURL string) func() ([]byte, error) {
	return func() ([]byte, error) { return p.bundleJSON(g, a, code(), cov, revision, baseURL) }
}

// bundleJSON encodes the bundle of a drawn graph and its analysis.
func (p *Project) bundleJSON(g *synth.Graph, a *Analysis, code *codeanchors.Published, cov synth.CoverageCount, revision, baseURL string) ([]byte, error) {
	return synth.MarshalJSON(synth.NewBundle(synth.BundleInput{
		Name: p.Config.Slug(), Revision: revision, URL: bundleURL(baseURL),
		Graph: g, Model: p.Model, Report: a.Report, Code: code, Coverage: cov,
	}))
}

// Bundle is api/bundle.json as a frozen build with the config's base URL,
// at git's HEAD, would write it: `tracewiki export bundle`.
func (p *Project) Bundle() ([]byte, error) {
	g, a, err := p.Graph()
	if err != nil {
		return nil, err
	}
	cov, err := p.codeCoverage(g, a.Lock)
	if err != nil {
		return nil, err
	}
	baseURL := p.Config.BaseURL
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	return p.bundleJSON(g, a, publishedCode(a, false)(), cov.Totals, bundleRevision(render.Forge{}, "", p.WS.Dir), baseURL)
}

// bundleRevision is the commit a build is of: the forge links' when they
// have one, else the --commit given (a hash as given, else resolved by
// git), else git's HEAD; "" outside git.
func bundleRevision(f render.Forge, commit, dir string) string {
	switch {
	case f.Commit != "":
		return f.Commit
	case len(commit) >= 7 && len(commit) <= 64 && strings.Trim(commit, "0123456789abcdef") == "":
		return commit
	case commit != "":
		return workspace.GitRev(dir, commit)
	}
	return workspace.GitRev(dir, "HEAD")
}

// bundleURL is the published wiki's URL of a build's base URL: the base
// URL when it is an absolute http(s) URL, else "" (a path alone does not
// say where the wiki is published).
func bundleURL(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return baseURL
}
