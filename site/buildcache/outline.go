package buildcache

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// The outline is what every page may read of the documents, the same for
// all pages of a build: it is in the pages' shared key (site's pagesKey),
// which keys the graph ([render.Output]), and a wiki page's own outline
// tells an edit of its text alone ([BuildEdited]). Pages are kept by
// their own model keys (see [render.PageStore]).
//
// Every node page reads the text of at most its own document (the home
// page the wiki's index page's; a requirement document's page also shows
// its requirements' text, whose revisions are in the outline), and the
// requirement matrix, the lists and the drift page read none: other
// documents reach them through the graph (titles, states, edges), their
// outline (frontmatter, claims, links) and the drift list, all in the
// shared part. The search page, whose index holds every text, is rendered
// every time.

// Outline is what [NewOutline] makes of a model.
type Outline struct {
	sum   []byte
	files map[string]bool              // the files its documents were read from
	pages map[string][sha256.Size]byte // each wiki page's [pageOutline], by its file
}

// NewOutline hashes every document of the model without its body (nor what
// only the body's own page shows: its headings' ids, its claims' offsets
// in it), and returns the files those documents were read from: a file
// that holds a document is, but for its body, all in its outline. Each
// document is encoded on its own into the hash, so no encoding of the
// whole model is ever held (tens of megabytes at 11,000 pages).
func NewOutline(m *claims.Model) (*Outline, error) {
	ol := &Outline{files: map[string]bool{}, pages: make(map[string][sha256.Size]byte, len(m.Pages))}
	note := func(d *claims.Doc) {
		if d.BodyLine > 0 {
			ol.files[d.File] = true
		}
	}
	h := sha256.New()
	enc := json.NewEncoder(h) // one value a line
	var err error
	add := func(kind string, v any) {
		if err == nil {
			fmt.Fprintf(h, "%s ", kind)
			err = enc.Encode(v)
		}
	}
	for _, r := range m.Requirements {
		note(&r.Doc)
		// Its LegacyRevision (the lines as written) is in: a re-wrap
		// keeps the Revision, but a document page shows the text as
		// written, so it must render again.
		c := *r
		c.Doc = strip(c.Doc)
		add("requirement", c)
	}
	for _, d := range m.Decisions {
		note(&d.Doc)
		// Not stripped: its file stays among the reads.
		add("decision", d)
	}
	for _, p := range m.Pages {
		note(&p.Doc)
		sum, perr := pageOutline(p)
		err = cmp.Or(err, perr)
		h.Write(sum[:])
		ol.pages[p.Doc.File] = sum
	}
	for _, d := range m.Documents {
		note(&d.Doc)
		c := *d
		c.Doc = strip(c.Doc)
		add("document", c)
	}
	ol.sum = h.Sum(nil)
	return ol, err
}

// Sum is the hash of the outline: of every document but its body.
func (ol *Outline) Sum() []byte { return ol.sum }

// Holds reports whether the file p holds a document of the outline: then
// all of it but its body is in the outline.
func (ol *Outline) Holds(p string) bool { return ol.files[p] }

// problemPlaces hashes the places of a document's claims whose link shows
// as a problem (state says how the link of its claim i shows), which
// [strip] leaves out of its outline: the drift list shows them. A claim
// whose link is linked shows its place nowhere, so text added above it or
// in its sentence moves it freely.
func problemPlaces(d *claims.Doc, state func(i int) string) [sha256.Size]byte {
	h := sha256.New()
	for i, c := range d.Claims {
		if c.HasTarget && state(i) != string(codeanchors.Linked) {
			fmt.Fprintf(h, "%s %s:%d:%d\n", c.Target, c.Pos.File, c.Pos.Line, c.Pos.Col)
		}
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// pageOutline hashes a wiki page without its body ([strip]).
func pageOutline(p *claims.Page) ([sha256.Size]byte, error) {
	c := *p
	c.Doc = strip(c.Doc)
	data, err := json.Marshal(c)
	return sha256.Sum256(data), err
}

// strip returns d without its body and what only the body's own page shows.
func strip(d claims.Doc) claims.Doc {
	// Another page's link to a heading is checked against the headings
	// when the content is parsed (a missing one fails the build), but
	// rendered as written: headings show only on their own page, and a
	// page's headings edit keeps the others.
	d.Body, d.Headings = nil, nil
	// Claims' byte offsets in the body serve the body's rendering, and so
	// do links' offsets and places (a link's place is only ever reported
	// by the parse, when it is broken): an edit that moves them shows
	// nowhere else. A claim's place shows in the drift list when its link
	// is a problem, which the shared key has as a whole. A Markdown
	// claim's text is a sentence of the body, shown on its own page (in
	// its body and its claims table) and in the search index only.
	d.Claims = slices.Clone(d.Claims)
	for i := range d.Claims {
		c := &d.Claims[i]
		c.Start, c.End, c.Pos = 0, 0, claims.Pos{}
		if c.Origin == claims.OriginMarkdown {
			c.Text = ""
		}
	}
	d.Links = slices.Clone(d.Links)
	for i := range d.Links {
		d.Links[i].Off, d.Links[i].Pos = 0, claims.Pos{}
	}
	d.Images = slices.Clone(d.Images)
	for i := range d.Images {
		d.Images[i].Off, d.Images[i].Pos = 0, claims.Pos{}
	}
	return d
}
