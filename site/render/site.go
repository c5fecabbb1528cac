package render

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
	"github.com/tracewiki/tracewiki/synth"
)

// Page is one HTML page of the site, with its JSON twin.
type Page struct {
	dir  string // output folder relative to the site root; "" for the home page
	tmpl string // template name
	data func(b *Renderer, root string) (*pageData, any, error)
	// keyed pages are kept from the last build when their model key
	// ([Renderer.modelKey]) is the same; the others always render.
	keyed bool
	wiki  *claims.Page // the wiki page of a wiki page's node page
}

// Dir is the page's folder relative to the site root; "" for the home page.
func (pg Page) Dir() string { return pg.dir }

// Prefix is the page's folder as a prefix of its files' names: "" or
// "dir/".
func (pg Page) Prefix() string {
	if pg.dir == "" {
		return ""
	}
	return pg.dir + "/"
}

// Wiki is the wiki page whose node page this is; nil for another page.
func (pg Page) Wiki() *claims.Page { return pg.wiki }

// Editable reports whether the page is a wiki page's node page whose body
// can be replaced in its HTML ([SpliceBody]) when only its text changed:
// its text read from its own file, and not the home page's text, which
// the home page shows.
func (pg Page) Editable() bool {
	p := pg.wiki
	return p != nil && p.Path != "index" && !p.Synthesized && p.Doc.BodyLine > 0 && pg.tmpl == "node"
}

// PageStore is where a build keeps its pages from the last build's, in the
// output folder it writes again.
type PageStore interface {
	// ReuseFile keeps the output file name from the last build when it
	// was written from key, and reports whether it did.
	ReuseFile(name string, key []byte) bool
	// ReusePage puts the files of the page at prefix ("dir/") from the
	// last build into the new one when that page was built with key, and
	// reports whether it did.
	ReusePage(prefix string, key []byte) bool
	// KeyPage records that the page (or file) at prefix was just written
	// from key; a nil key records it as kept by none.
	KeyPage(prefix string, key []byte)
	// SpanBody records where the body is in the index.html of the
	// [Page.Editable] page at prefix just written, the rows its claims
	// table shows (nil for none), and how each claim's link its body
	// showed shows, in the body's order: an edit of the page's text
	// renders them again, and the render pass made them already.
	SpanBody(prefix string, b BodySpan, rows []ClaimRow, shown []ShownClaim)
}

// Output says where [Renderer.Site] puts the site's files.
type Output struct {
	// Sink, when set, receives every output file as soon as it is rendered
	// (called from several goroutines, each name once); data is valid only
	// during the call. Nil returns the files.
	Sink func(name string, data []byte) error
	// Stream, when set with Sink, writes the output file name with write
	// instead of taking its bytes: for the graph, tens of megabytes.
	Stream func(name string, write func(io.Writer) error) error
	// Store, with Sink, keeps the pages whose model key did not change
	// from the last build, and with Shared the graph.
	Store PageStore
	// Shared is the pages' shared key, what every page may read (site's
	// pagesKey), of which the graph is a function; nil keeps not the
	// graph.
	Shared []byte
}

// Site renders every page and artifact of the site into out, and returns
// the files when out has no sink, and how many pages were kept from the
// last build.
func (b *Renderer) Site(out Output) (files map[string][]byte, kept int, err error) {
	sink, shared := out.Sink, out.Shared
	if sink == nil || out.Store == nil {
		shared = nil
	}
	files = map[string][]byte{}
	var filesMu sync.Mutex // put is called from three goroutines
	put := func(name string, data []byte) error {
		if sink != nil {
			return sink(name, data)
		}
		filesMu.Lock()
		defer filesMu.Unlock()
		files[name] = data
		return nil
	}
	var stream func(name string, write func(io.Writer) error) error
	if sink != nil {
		stream = out.Stream
	}
	// The graph and the search index, each made on one core, are written
	// while the rest renders.
	graphDone, searchDone := make(chan error, 1), make(chan error, 1)
	go func() { graphDone <- b.writeGraph(put, stream, out.Store, shared) }()
	go func() { searchDone <- b.writeSearch(put) }()
	// The other artifacts go first: written out, their bytes are not held
	// while the pages render.
	err = b.addStatic(put)
	if err == nil {
		err = b.addImages(put)
	}
	if err != nil {
		<-graphDone
		<-searchDone
		return nil, 0, err
	}
	pages := b.all
	var rendered [][2][]byte
	if sink == nil {
		rendered = make([][2][]byte, len(pages))
	}
	var keptN atomic.Int64
	err = b.parallel(len(pages), func(i int) error {
		pg := pages[i]
		if sink == nil {
			html, js, err := b.render(pg, newRenderBuffers())
			rendered[i] = [2][]byte{html, js}
			return err
		}
		// The sink keeps nothing: the buffers serve the next page.
		bufs := renderPool.Get().(*renderBuffers)
		defer bufs.release()
		d, compact, err := b.pageModel(pg, bufs)
		if err != nil {
			return err
		}
		var key []byte
		if out.Store != nil && pg.keyed {
			if key, err = b.modelKey(pg, d, compact); err != nil {
				return err
			}
			if out.Store.ReusePage(pg.Prefix(), key) {
				keptN.Add(1)
				return nil
			}
		}
		html, exact, err := b.execute(pg, d, bufs)
		if err != nil {
			return err
		}
		js, err := bufs.twinBytes()
		if err != nil {
			return err
		}
		if err := sink(pg.Prefix()+"index.html", html); err != nil {
			return err
		}
		if err := sink(pg.Prefix()+"index.json", js); err != nil {
			return err
		}
		if key != nil {
			if !exact {
				key = nil // its key does not describe it: it is never kept by one
			}
			out.Store.KeyPage(pg.Prefix(), key)
			if pg.Editable() { // only an editable page's body is ever spliced
				if span, ok := findBody(html, bufs.body); ok {
					out.Store.SpanBody(pg.Prefix(), span, bufs.claims, bufs.shown)
				}
			}
		}
		return nil
	})
	if gerr, serr := <-graphDone, <-searchDone; err == nil {
		err = errors.Join(gerr, serr)
	}
	if err != nil {
		return nil, 0, err
	}
	for i, pg := range pages[:len(rendered)] {
		files[pg.Prefix()+"index.html"] = rendered[i][0]
		files[pg.Prefix()+"index.json"] = rendered[i][1]
	}
	return files, int(keptN.Load()), nil
}

// RenderPage renders one page: its HTML and its JSON twin.
func (b *Renderer) RenderPage(pg Page) (html, twin []byte, err error) {
	return b.render(pg, newRenderBuffers())
}

// WriteArtifacts puts every file of the site but its pages: the
// stylesheets, scripts, schemas, images and JSON artifacts.
func (b *Renderer) WriteArtifacts(put func(name string, data []byte) error) error {
	return errors.Join(b.writeGraph(put, nil, nil, nil), b.addStatic(put), b.addImages(put), b.writeSearch(put))
}

// renderBuffers hold a page's HTML and JSON twin while they render.
type renderBuffers struct {
	html, twin bytes.Buffer
	enc        *synth.JSONEncoder // into twin
	body       template.HTML      // the page's body, in html
	claims     []ClaimRow         // the rows of the page's claims table
	shown      []ShownClaim       // how the claims' links in body showed
	encoded    encodedJSON        // the page's twin when its data made it encoded
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
func (b *Renderer) render(pg Page, bufs *renderBuffers) (html, twin []byte, err error) {
	d, _, err := b.pageModel(pg, bufs)
	if err != nil {
		return nil, nil, err
	}
	if html, _, err = b.execute(pg, d, bufs); err != nil {
		return nil, nil, err
	}
	twin, err = bufs.twinBytes()
	return html, twin, err
}

// pageModel makes a page's data, with the settings every page shows, and
// encodes its JSON twin compact: what its model key is made of
// ([Renderer.modelKey]). The twin, valid until bufs is used again, is
// written out indented by [renderBuffers.twinBytes].
func (b *Renderer) pageModel(pg Page, bufs *renderBuffers) (d *pageData, twin []byte, err error) {
	root := rel(pg.dir)
	d, js, err := pg.data(b, root)
	if err != nil {
		return nil, nil, err
	}
	d.Lang, d.SiteTitle, d.Root, d.JSON = b.lang, b.title, root, "index.json"
	d.DriftCount, d.DriftStale = len(b.drift.Links), b.driftStale
	if enc, ok := js.(encodedJSON); ok {
		bufs.encoded = enc
		return d, enc, nil
	}
	bufs.encoded = nil
	if twin, err = bufs.enc.Compact(js); err != nil {
		return nil, nil, err
	}
	return d, twin, nil
}

// twinBytes is the JSON twin [Renderer.pageModel] last made, as the page
// publishes it, valid until bufs is used again.
func (bufs *renderBuffers) twinBytes() ([]byte, error) {
	if bufs.encoded != nil {
		return bufs.encoded, nil
	}
	bufs.twin.Reset()
	if err := bufs.enc.WriteIndented(); err != nil {
		return nil, err
	}
	return bufs.twin.Bytes(), nil
}

// execute makes the rest of the page's data d ([Renderer.finish]) and
// executes its template into bufs; exact is false when the page's model
// key does not describe it.
func (b *Renderer) execute(pg Page, d *pageData, bufs *renderBuffers) (html []byte, exact bool, err error) {
	if exact, err = b.finish(d, d.Root); err != nil {
		return nil, false, err
	}
	bufs.html.Reset()
	bufs.body, bufs.claims, bufs.shown = d.Body, d.Claims, d.shown
	if err := b.tmpl[pg.tmpl].ExecuteTemplate(&bufs.html, "layout", d); err != nil {
		return nil, false, fmt.Errorf("render %s/: %w", pg.dir, err)
	}
	return bufs.html.Bytes(), exact, nil
}

// encodedJSON is a page's JSON twin encoded already: the search page's is
// the search index, megabytes, encoded once for both.
type encodedJSON []byte

// The site's JSON artifacts.
const (
	// GraphFile is the whole graph's artifact.
	GraphFile    = "api/graph.json"
	driftFile    = "api/drift.json"
	manifestFile = "api/manifest.json"
)

// writeGraph writes api/graph.json: streamed into the output when the
// build writes one, and kept from the last build when the pages' shared
// key, of which the graph is a function, is the same.
func (b *Renderer) writeGraph(put func(name string, data []byte) error, stream func(name string, write func(io.Writer) error) error, store PageStore, shared []byte) error {
	if stream == nil {
		data, err := synth.MarshalJSON(b.graph.JSON())
		if err != nil {
			return err
		}
		return put(GraphFile, data)
	}
	var key []byte
	if shared != nil {
		key = Key([]byte(GraphFile), shared)
		if store.ReuseFile(GraphFile, key) {
			return nil
		}
	}
	if err := stream(GraphFile, b.graph.WriteJSON); err != nil {
		return err
	}
	if key != nil {
		store.KeyPage(GraphFile, key)
	}
	return nil
}

// writeSearch writes the search index, api/search.json, and the script
// that sets it.
func (b *Renderer) writeSearch(put func(name string, data []byte) error) error {
	searchJSON, err := b.searchJSON()
	if err != nil {
		return err
	}
	if err := put(SearchFile, searchJSON); err != nil {
		return err
	}
	return putSearchScripts(put, searchJSON, b.lang)
}

// The search index, and the script that sets the search page's ranking
// index (see searchindex.go).
const (
	SearchFile       = "api/search.json"
	SearchScriptFile = "api/search.js"
)

// addStatic adds the stylesheets, scripts, JSON artifacts and schemas
// but the graph and the search index.
func (b *Renderer) addStatic(put func(name string, data []byte) error) error {
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
	css, err := ChromaCSS()
	if err != nil {
		return err
	}
	if err := put("assets/chroma.css", css); err != nil {
		return err
	}
	if err := b.writeCoverage(put); err != nil {
		return err
	}
	if err := b.writeChangelog(put); err != nil {
		return err
	}
	if err := b.writeBundle(put); err != nil {
		return err
	}
	manifest, err := synth.MarshalJSON(synth.NewManifest(b.graph, b.report, b.title, b.baseURL, b.pageCount, b.artifacts, b.truncated))
	if err != nil {
		return err
	}
	driftJSON, err := b.driftJSON()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{driftFile, driftJSON}, {manifestFile, manifest}} {
		if err := put(f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// addImages publishes the content's images.
func (b *Renderer) addImages(put func(name string, data []byte) error) error {
	for _, name := range slices.Sorted(maps.Keys(b.images)) {
		if err := put(imageURL(name), b.images[name]); err != nil {
			return err
		}
	}
	return nil
}
