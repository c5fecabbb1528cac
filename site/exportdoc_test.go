package site

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// exportHTML exports the workspace in dir as one HTML file.
func exportHTML(t *testing.T, dir string, opts DocumentOptions) []byte {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out, err := p.ExportHTML(opts, io.Discard)
	if err != nil {
		t.Fatalf("ExportHTML(%+v): %v", opts, err)
	}
	return out
}

// reqState is what a requirement shows: its id and states.
type reqState struct {
	ID                                   string
	Implemented, Tested, Verified, Stale bool
}

// exportedStates reads the requirements of an HTML export, in order, with
// the states their headings show.
var exportedItem = regexp.MustCompile(`(?s)<section class="req doc-item depth-\d( doc-heading)?( stale)?" id="req-([^"]+)">\n<h\d class="doc-title">(.*?)</h\d>`)

func exportedStates(html []byte) (normative []reqState, all []string) {
	for _, m := range exportedItem.FindAllSubmatch(html, -1) {
		all = append(all, string(m[3]))
		if len(m[1]) > 0 {
			continue // a heading: no states
		}
		h := string(m[4])
		normative = append(normative, reqState{ID: string(m[3]), Stale: len(m[2]) > 0,
			Implemented: strings.Contains(h, `badge-yes">implemented`), Tested: strings.Contains(h, `badge-yes">tested`),
			Verified: strings.Contains(h, `badge-yes">verified`)})
	}
	return normative, all
}

// matrixRow is a row of the site's requirements matrix with its states.
var matrixRow = regexp.MustCompile(`<tr id="([^"]+)" data-order="\d+" data-status="[^"]*" data-stale="(\w+)" data-implemented="(\w+)" data-tested="(\w+)" data-verified="(\w+)"`)

// TestExportHTMLAgreesWithSite exports the reqs and shop fixtures (the
// documents with a suspect parent link; requirements outside documents
// with stale, moved and deleted code and expired and failing evidence) and
// checks that the file shows the very requirements, in the same order as
// the site's document pages, with the states the site's matrix shows.
func TestExportHTMLAgreesWithSite(t *testing.T) {
	for _, name := range []string{"reqs", "shop"} {
		t.Run(name, func(t *testing.T) {
			dir := fixture(t, name)
			s := buildSite(t, dir, BuildOptions{Frozen: true}, 0)
			html := exportHTML(t, dir, DocumentOptions{})
			got, all := exportedStates(html)
			var want []reqState
			for _, m := range matrixRow.FindAllSubmatch(s.Files["requirements/index.html"], -1) {
				want = append(want, reqState{ID: string(m[1]), Stale: string(m[2]) == "true", Implemented: string(m[3]) == "true",
					Tested: string(m[4]) == "true", Verified: string(m[5]) == "true"})
			}
			if len(want) == 0 {
				t.Fatal("the site's matrix lists no requirement: the pattern is out of date")
			}
			sortStates := func(xs []reqState) []reqState {
				xs = slices.Clone(xs)
				slices.SortFunc(xs, func(a, b reqState) int { return strings.Compare(a.ID, b.ID) })
				return xs
			}
			var normative []reqState // the matrix lists headings too; they have no states to show
			for _, w := range want {
				if slices.ContainsFunc(got, func(g reqState) bool { return g.ID == w.ID }) || !slices.Contains(all, w.ID) {
					normative = append(normative, w)
				}
			}
			if g, w := sortStates(got), sortStates(normative); !slices.Equal(g, w) {
				t.Errorf("export shows\n%+v\nthe site's matrix\n%+v", g, w)
			}
			if len(all) != len(want) {
				t.Errorf("export holds %d requirements %v; the site %d", len(all), all, len(want))
			}
			// Within a document, the order of its printable page.
			for path, page := range s.Files {
				if !strings.HasPrefix(path, "documents/") || !strings.HasSuffix(path, "/index.html") {
					continue
				}
				var order []string
				for _, m := range regexp.MustCompile(`<section class="doc-item[^"]*" id="req-([^"]+)">`).FindAllSubmatch(page, -1) {
					order = append(order, string(m[1]))
				}
				if i := slices.Index(all, order[0]); i < 0 || !slices.Equal(all[i:i+len(order)], order) {
					t.Errorf("%s lists %v; the export %v", path, order, all)
				}
			}
			checkOneFile(t, html)
			if again := exportHTML(t, dir, DocumentOptions{}); !bytes.Equal(html, again) {
				t.Error("two exports of the same workspace differ")
			}
		})
	}
}

// checkOneFile checks that html is one self-contained file: no script,
// no stylesheet, image or frame loaded from elsewhere, and links only
// within the file.
func checkOneFile(t *testing.T, html []byte) {
	t.Helper()
	h := string(html)
	for _, bad := range []string{"<script", "<link rel=\"stylesheet\"", "<iframe", "<object", "<embed", "@import", "javascript:"} {
		if strings.Contains(strings.ToLower(h), bad) {
			t.Errorf("the file holds %q", bad)
		}
	}
	for _, m := range regexp.MustCompile(`\b(src|href)="([^"]*)"`).FindAllStringSubmatch(h, -1) {
		attr, u := m[1], m[2]
		switch {
		case attr == "src" && strings.HasPrefix(u, "data:image/"):
		case attr == "href" && (strings.HasPrefix(u, "#") || u == "data:,"):
		default:
			t.Errorf("%s=%q leads out of the file", attr, u)
		}
	}
	for _, m := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(h, -1) {
		if !strings.HasPrefix(m[1], "#") {
			t.Errorf("url(%s) leads out of the file", m[1])
		}
	}
	for _, want := range []string{"<style>", "@page", "counter(page)", `<nav class="toc">`, `class="title-page"`, "<svg"} {
		if !strings.Contains(h, want) {
			t.Errorf("the file lacks %q", want)
		}
	}
}

// TestExportHTMLDocument exports one document with its nested ones: the
// title page names it, only its requirements are in, its parent links to
// requirements outside show as text, and an unknown document is an error
// that lists the documents there are.
func TestExportHTMLDocument(t *testing.T) {
	dir := fixture(t, "reqs")
	html := exportHTML(t, dir, DocumentOptions{Document: "software"})
	_, all := exportedStates(html)
	if want := []string{"SW-1", "SW-2", "SW-3"}; !slices.Equal(all, want) {
		t.Errorf("software exports %v, want %v", all, want)
	}
	assertLines(t, "software.html", html,
		`<h1>Software requirements</h1>`, `<dt>document</dt><dd>software</dd>`,
		`<dt>date</dt><dd>2026-01-01</dd>`, `<dt>revision</dt><dd><code>not in git</code></dd>`,
		`id="doc-software~2fbrakes"`, `@page doc-2 {`, `.page-doc-2 { page: doc-2; }`,
		// SYS-1 is outside the file: named, not linked; its link is suspect, and says why.
		`<dt>parents</dt><dd>SYS-1 The car stops <span class="badge badge-stale">changed</span> <span class="why-text">SW-1 is suspect: its parent SYS-1 changed after SW-1 was reviewed</span>`,
		`<td>implements</td><td><code>brake/brake.go@Apply</code></td>`,
		`! id="req-SYS-1"`)
	checkOneFile(t, html)

	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.ExportHTML(DocumentOptions{Document: "hardware"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--document hardware: no such requirement document (have: software, software/brakes, software/ui, system)") {
		t.Errorf("unknown document: %v", err)
	}
}

// TestExportHTMLImages checks that the file inlines the content's images
// as data: URIs (an SVG too) and names an external image instead of
// loading it.
func TestExportHTMLImages(t *testing.T) {
	// The workspace shows them on a wiki page; the file holds requirements.
	dir := imageWorkspace(t)
	writeFixtureFile(t, dir, "content/requirements/REQ-1.md", []byte("---\ntitle: Logo\n---\n"+
		"The logo: ![logo](../guides/setup/assets/logo.png \"Logo\").\n\n"+
		"The flow: ![flow](/content/shared/flow%20chart.svg).\n\n"+
		"External: ![badge](https://example.com/badge.png).\n"))
	html := exportHTML(t, dir, DocumentOptions{})
	assertLines(t, "export.html", html,
		`<img src="data:image/png;base64,`+base64.StdEncoding.EncodeToString([]byte("PNG-1"))+`" alt="logo" title="Logo">`,
		`<img src="data:image/svg+xml;base64,`+base64.StdEncoding.EncodeToString([]byte("<svg/>"))+`" alt="flow">`,
		`<span class="image-omitted">[image: badge, https://example.com/badge.png]</span>`)
	checkOneFile(t, html)
}

// TestExportPDFNoBrowser checks that export pdf without a Chromium on
// PATH says so, naming what it looked for and --browser, before it
// renders anything.
func TestExportPDFNoBrowser(t *testing.T) {
	dir := fixture(t, "reqs")
	t.Setenv("PATH", t.TempDir())
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.ExportPDF(DocumentOptions{}, io.Discard)
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "looked for chromium, chromium-browser, google-chrome") || !strings.Contains(err.Error(), "--browser PATH") {
		t.Errorf("no browser: %v", err)
	}
	_, err = p.ExportPDF(DocumentOptions{Browser: "/nonexistent/chromium"}, io.Discard)
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "--browser /nonexistent/chromium") {
		t.Errorf("a missing --browser: %v", err)
	}
}
