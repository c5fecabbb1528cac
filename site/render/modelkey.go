package render

import (
	"html/template"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// A keyed page is kept from the last build when its model key is the one
// the last build recorded for it: the hash of everything its template
// and its JSON twin are made from. A page is a function of its model
// (its *pageData and twin) and of the templates, which are the tool's
// (the build cache is per tool version): so an equal key means equal
// bytes, whatever the edit was, and an edit renders again exactly the
// pages whose models changed.
//
// The costly parts of a node's page are made only when it renders: its
// body (Markdown, a tenth of a build), its neighborhood's drawing and
// table (another tenth) and its code fragments' highlighting. Its key
// holds what they are made of instead: the body's text, links and images
// with what the site answers for its claims and links; the neighborhood,
// which the twin holds, with each external neighbor's link; each
// fragment's source lines. The node itself is hashed from the twin too
// (pageData.Node is left out of the data's JSON).

// bodyInput is what a node page's body is rendered from: its document and
// the heading the page shows; shown is how each of its claims shows (by
// claim, for those with a target), asked once for its key and its
// rendering.
type bodyInput struct {
	doc   *claims.Doc
	title string
	shown []ClaimShown
}

// answer is how the document's claim of t shows as its key has it; false
// when its key has none (no key was made, or t is no claim of it).
func (in *bodyInput) answer(t claims.Target) (ClaimShown, bool) {
	if in.shown == nil {
		return ClaimShown{}, false
	}
	i := 0
	for _, c := range in.doc.Claims {
		if !c.HasTarget {
			continue
		}
		if c.Target == t {
			return in.shown[i], true
		}
		i++
	}
	return ClaimShown{}, false
}

// graphInput is what a node page's neighborhood is drawn from: the node
// and its neighborhood, both in the page's twin ([synth.NodeJSON]).
type graphInput struct {
	n  synth.Node
	nb synth.Neighborhood
}

// fragmentInput is what a fragment's HTML is highlighted from
// ([Highlighter.Fragment]), with its anchor.
type fragmentInput struct {
	path       string
	lines      [][]byte
	start, end int
}

// modelKey is the key of the page pg whose data d (with the settings
// every page shows) and twin, compact, were just made ([Renderer.pageModel]).
// d is hashed as JSON: every exported field (which is all a template
// reads) but Node, which the twin holds.
func (b *Renderer) modelKey(pg Page, d *pageData, twin []byte) ([]byte, error) {
	k := newKeyHash()
	k.str("model")
	k.str(pg.tmpl)
	k.str(pg.dir)
	k.part(twin)
	if err := k.enc.Encode(d); err != nil { // self-delimiting: a JSON value and a newline
		return nil, err
	}
	k.str("fragments")
	for _, f := range d.Fragments {
		if c := f.code; c != nil {
			k.str(c.path)
			k.num(c.start)
			shown, _ := fragmentLines(c.lines, c.start, c.end)
			k.num(len(shown))
			for _, l := range shown {
				k.part(l)
			}
		}
	}
	if in := d.body; in != nil {
		k.str("body")
		b.bodyKey(k, in)
	}
	if in := d.graph; in != nil {
		// A neighbor's link is its URL from the page (a function of
		// the neighbor, in the twin), but an external's, which its
		// wiki's URL makes.
		k.str("graph")
		root := rel(pg.dir)
		for _, m := range in.nb.Nodes {
			if synth.IsExternal(m.ID) {
				k.str(m.ID.String())
				k.str(b.href(root, m))
			}
		}
	}
	return k.h.Sum(nil), nil
}

// bodyKey adds to k what the body in renders from ([renderBody]) besides
// the page's place: its text, its links (where each leads) and images,
// and how each of its claims shows. The fences' highlighting is the
// tool's.
func (b *Renderer) bodyKey(k *keyHash, in *bodyInput) {
	d := in.doc
	k.str(in.title)
	k.part(d.Body)
	for _, l := range d.Links {
		k.num(l.Off)
		id := synth.LinkNodeID(l)
		k.str(id.String())
		k.str(l.Fragment)
		k.str(b.URLOf(id))
	}
	k.str("images")
	for _, im := range d.Images {
		k.num(im.Off)
		k.str(im.To)
	}
	k.str("claims")
	in.shown = in.shown[:0]
	for _, c := range d.Claims {
		if !c.HasTarget {
			continue
		}
		s := b.ClaimShown(c.Target)
		in.shown = append(in.shown, s)
		k.str(c.Target.String())
		k.str(s.State)
		k.str(s.Why)
		k.str(s.URL)
	}
}

// finish makes the parts of d made only when the page renders: its body
// and its neighborhood. exact is false when the body asked the site
// something its key does not hold (a code link that is no claim): the
// page's key does not describe it, and it is not kept by it.
func (b *Renderer) finish(d *pageData, root string) (exact bool, err error) {
	exact = true
	if in := d.graph; in != nil {
		b.addGraph(d, in.n, in.nb, root)
	}
	for i := range d.Fragments {
		f := &d.Fragments[i]
		if c := f.code; c != nil {
			f.HTML, _ = b.hl.Fragment(c.path, c.lines, c.start, c.end, f.Anchor)
		}
	}
	if in := d.body; in != nil {
		ctx := &keyedBody{Renderer: b, in: in}
		s, err := renderBody(ctx, in.doc, root, in.title)
		if err != nil {
			return false, err
		}
		d.Body, d.shown, exact = template.HTML(s), ctx.shown, !ctx.unkeyed
	}
	return exact, nil
}

// keyedBody is the [BodyContext] of a body whose key [Renderer.bodyKey]
// made: it answers for the document's claims as the key has them, and
// notes a code link that is no claim, whose state the key does not hold.
// It keeps how each claim's link it showed shows, in order: the edit
// record needs them of every editable page, and asking again costs as
// much as the first time.
type keyedBody struct {
	*Renderer
	in      *bodyInput
	shown   []ShownClaim
	unkeyed bool
}

// ClaimShown is how a claim's link to t shows, asked once for the link's
// start and its end.
func (c *keyedBody) ClaimShown(t claims.Target) ClaimShown {
	if n := len(c.shown); n > 0 && c.shown[n-1].Target == t {
		return c.shown[n-1].Shown
	}
	s, ok := c.in.answer(t)
	if !ok {
		c.unkeyed = true
		s = c.Renderer.ClaimShown(t)
	}
	c.shown = append(c.shown, ShownClaim{Target: t, Shown: s})
	return s
}
