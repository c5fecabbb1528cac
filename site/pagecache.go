package site

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
)

// A build into an output folder it wrote before renders again only the
// pages whose inputs changed; the others are hard-linked from the last
// build (see [outputWriter.ReusePage]). A page's inputs are named by its
// key ([render.PageKey]): what every page may read, the same for all pages
// of a build ([siteBuild.pagesKey]), and the page's own Markdown body.
//
// Every node page reads the text of at most its own document (the home
// page the wiki's index page's; a requirement document's page also shows
// its requirements' text, whose revisions are in the outline), and the
// requirement matrix, the lists and the drift page read none: other
// documents reach them through the graph (titles, states, edges), their
// outline (frontmatter, claims, links) and the drift list, all in the
// shared part. The search page, whose index holds every text, is rendered
// every time.

// pagesKey is the shared part of every page's key: the site's inputs
// ([Project.siteKey]) but for the bodies of the wiki pages, requirements
// and requirement documents, which are in their own page's key, and what
// the build made of the bodies that a page may show: the documents'
// outline (a requirement's with its revision, the hash of its body) and
// the drift list. A decision's file stays among the reads whole: the
// paths its text mentions are graph edges. The graph is a function of
// all this, so it is kept by the same key (see [render.Output]).
// Nil when the outline cannot be encoded; then no page is reused.
func (b *siteBuild) pagesKey(driftJSON []byte) []byte {
	ol, err := outline(b.p.Model)
	if err != nil {
		return nil
	}
	b.outlined = ol
	lock := judgedLock(b.captured)
	// A document's file that is also code (a target names it) is read
	// for its lines too: it stays in.
	reads := b.p.WS.ReadDigestWithout(func(p string) bool { return b.bodyOnly(p) })
	return cacheKey([]byte("pages"), reads, ol.sum, driftJSON, lock, b.verifiedSum, []byte(b.baseURL),
		[]byte(b.forge.Kind), []byte(b.forge.Repo), []byte(b.forge.Commit), []byte(b.p.Config.Language), []byte(b.p.Config.Title))
}

// bodyOnly reports whether the file p is among the pages' shared key
// only through the outline of the document it holds: its body is in its
// own page's key.
func (b *siteBuild) bodyOnly(p string) bool { return b.outlined.files[p] && b.a.Sources[p] == nil }

// outlined is what [outline] makes of a model.
type outlined struct {
	sum   []byte
	files map[string]bool              // the files its documents were read from
	pages map[string][sha256.Size]byte // each wiki page's [pageOutline], by its file
}

// outline hashes every document of the model without its body (nor what
// only the body's own page shows: its headings' ids, its claims' offsets
// in it), and returns the files those documents were read from: a file
// that holds a document is, but for its body, all in its outline. Each
// document is encoded on its own into the hash, so no encoding of the
// whole model is ever held (tens of megabytes at 11,000 pages).
func outline(m *claims.Model) (*outlined, error) {
	ol := &outlined{files: map[string]bool{}, pages: make(map[string][sha256.Size]byte, len(m.Pages))}
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

// claimSums hashes what [strip] leaves out of a document's outline of its
// claims: their places, and the texts of its Markdown claims (sentences
// of its body).
func claimSums(d *claims.Doc) (places, texts [sha256.Size]byte) {
	ph, th := sha256.New(), sha256.New()
	for _, c := range d.Claims {
		fmt.Fprintf(ph, "%s:%d:%d\n", c.Pos.File, c.Pos.Line, c.Pos.Col)
		if c.Origin == claims.OriginMarkdown {
			fmt.Fprintf(th, "%q\n", c.Text)
		}
	}
	return [sha256.Size]byte(ph.Sum(nil)), [sha256.Size]byte(th.Sum(nil))
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
