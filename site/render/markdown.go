package render

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"strings"
	"sync"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// BodyContext is what a document's body shows of the rest of the site:
// the state of the code its claims link, the pages its links lead to, and
// its fenced code highlighted. A build answers from its graph and drift
// ([Renderer]); an update of edited pages from the last build's answers
// (site's edit record).
type BodyContext interface {
	// ClaimShown is how a claim's link to t shows.
	ClaimShown(t claims.Target) ClaimShown
	// URLOf is the URL of the node id's page relative to the site root;
	// "" when the site has no such node.
	URLOf(id synth.NodeID) string
	// Fence is a fenced code block highlighted ([Highlighter.Fence]).
	Fence(lang string, code []byte) template.HTML
}

// ClaimShown is how a claim's link shows the code it links: the link's
// state and why, and the URL of the target's page relative to the site
// root ("" for none).
type ClaimShown struct{ State, Why, URL string }

// ClaimShown is how a claim's link to t shows on this site.
func (b *Renderer) ClaimShown(t claims.Target) ClaimShown {
	c := ClaimShown{State: string(codeanchors.Uncaptured.State()), Why: codeanchors.Uncaptured.Why(b.lang), URL: b.URLOf(b.graph.TargetNodeID(t))}
	if ts := b.targets[t.String()]; ts != nil {
		c.State, c.Why = string(ts.Verdict.State), ts.Verdict.Why(b.lang)
	}
	return c
}

// ShownClaim is a claim's link that a body showed, and how it showed.
type ShownClaim struct {
	Target claims.Target
	Shown  ClaimShown
}

// URLOf is the URL of the page of the node id, relative to the site root;
// "" when the graph has no such node.
func (b *Renderer) URLOf(id synth.NodeID) string { return b.relURL(id) }

// Fence is a fenced code block highlighted.
func (b *Renderer) Fence(lang string, code []byte) template.HTML { return b.hl.Fence(lang, code) }

// docRender is what rendering one document's Markdown needs: what it shows
// of the site, where the page is, and the links the parser found.
type docRender struct {
	ctx   BodyContext
	root  string              // relative prefix from the page to the site root
	links map[int]claims.Link // the document's links by byte offset in its body
	// images are the published URLs, relative to the site root, of the
	// document's relative images by byte offset in its body.
	images map[int]string
	title  string // the page's own heading: a first "# title" equal to it is not repeated
	// oneFile is set for a body rendered into one self-contained file
	// ([inliner]): an image it cannot inline is shown as text, not loaded.
	oneFile bool
}

// inliner is a [BodyContext] of one self-contained file (the HTML
// export): the content's images are inlined as data: URIs, not published.
type inliner interface {
	// inlineImage is the data: URI of the content image at the path; ""
	// when the content has no such image.
	inlineImage(contentPath string) string
}

// renderMarkdown renders a document body to HTML (see [renderBody]).
func (b *Renderer) renderMarkdown(d *claims.Doc, root, title string) (string, error) {
	return renderBody(b, d, root, title)
}

// RenderBody renders the body of the document d as the page at dir shows
// it (see [renderBody]): an edited page's body, in the context of the
// build that rendered its page.
func RenderBody(ctx BodyContext, d *claims.Doc, dir, title string) (string, error) {
	return renderBody(ctx, d, rel(dir), title)
}

// renderBody renders a document body to HTML with claims as linked
// sentences carrying their state, req:, dec: and page links made site
// links, fenced code highlighted, and raw HTML escaped, never passed
// through. When the body starts with a level-1 heading whose text is title
// (the page shows that heading itself), it is left out.
func renderBody(ctx BodyContext, d *claims.Doc, root, title string) (string, error) {
	if len(d.Body) == 0 {
		return "", nil
	}
	br := bodyRenderers.Get().(*bodyRenderer)
	defer bodyRenderers.Put(br)
	*br.doc = docRender{ctx: ctx, root: root, links: make(map[int]claims.Link, len(d.Links)), title: title}
	defer func() { *br.doc = docRender{} }() // a pooled renderer holds no page
	for _, l := range d.Links {
		br.doc.links[l.Off] = l
	}
	il, oneFile := ctx.(inliner)
	br.doc.oneFile = oneFile
	if len(d.Images) > 0 {
		br.doc.images = make(map[int]string, len(d.Images))
		for _, im := range d.Images {
			if oneFile {
				if u := il.inlineImage(im.To); u != "" {
					br.doc.images[im.Off] = u
				}
				continue
			}
			br.doc.images[im.Off] = imageURL(im.To)
		}
	}
	br.out.Reset()
	if err := br.html.Render(&br.out, d.Body, claims.ParseMarkdown(d.Body)); err != nil {
		return "", fmt.Errorf("%s: render: %w", d.File, err)
	}
	return br.out.String(), nil
}

// bodyRenderer is a goldmark HTML renderer whose links, raw HTML, fences
// and headings doc renders; each render sets doc first, and writes into
// out, grown once to the largest body. They are pooled: one is tens of
// kilobytes to make, and a site renders thousands of bodies.
type bodyRenderer struct {
	doc  *docRender
	html renderer.Renderer
	out  bytes.Buffer
}

var bodyRenderers = sync.Pool{New: func() any {
	r := &docRender{}
	return &bodyRenderer{doc: r, html: renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(ghtml.NewRenderer(), 1000),
		util.Prioritized(extension.NewTableHTMLRenderer(), 500),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
		util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500),
		// Lower numbers register last and win: ours replace the default
		// renderers of links and raw HTML.
		util.Prioritized(r, 100),
	))}
}}

// RegisterFuncs implements goldmark's renderer.NodeRenderer.
func (r *docRender) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindFencedCodeBlock, r.fencedCode)
	reg.Register(ast.KindHeading, r.heading)
}

// heading renders headings as goldmark does, except a first "# Title" that
// repeats the page's heading.
func (r *docRender) heading(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	if n.Level == 1 && r.title != "" && n.PreviousSibling() == nil && n.Parent() != nil && n.Parent().Kind() == ast.KindDocument &&
		strings.TrimSpace(string(n.Lines().Value(src))) == r.title {
		return ast.WalkSkipChildren, nil
	}
	if entering {
		fmt.Fprintf(w, "<h%d", n.Level)
		if n.Attributes() != nil {
			ghtml.RenderAttributes(w, n, ghtml.HeadingAttributeFilter)
		}
		w.WriteString(">")
	} else {
		fmt.Fprintf(w, "</h%d>\n", n.Level)
	}
	return ast.WalkContinue, nil
}

// fencedCode renders a fenced code block highlighted (see
// [Highlighter.Fence]); its text is escaped by chroma's formatter.
func (r *docRender) fencedCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.FencedCodeBlock)
		var code bytes.Buffer
		for i := 0; i < n.Lines().Len(); i++ {
			s := n.Lines().At(i)
			code.Write(s.Value(src))
		}
		lang := ""
		if n.Info != nil {
			lang = string(n.Language(src))
		}
		w.WriteString(string(r.ctx.Fence(lang, code.Bytes())))
		w.WriteString("\n")
	}
	return ast.WalkSkipChildren, nil
}

func (r *docRender) link(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest := string(n.Destination)
	if t, ok := codeTarget(dest); ok {
		// A link written as [code](code:PATH@SYMBOL) shows the target the
		// author wrote, not the word "code".
		plain := strings.EqualFold(strings.TrimSpace(plainText(n, src)), "code")
		r.claimLink(w, t, entering, plain)
		if plain && entering {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	}
	href := dest
	if l, ok := r.links[n.Pos()]; ok {
		href = r.linkURL(l)
	} else if scheme, _, _ := strings.Cut(strings.ToLower(dest), ":"); scheme == "javascript" || scheme == "vbscript" || scheme == "data" {
		href = "#" // never emit a script URL from content
	}
	if entering {
		fmt.Fprintf(w, `<a href="%s"`, html.EscapeString(href))
		if len(n.Title) > 0 {
			fmt.Fprintf(w, ` title="%s"`, html.EscapeString(string(n.Title)))
		}
		w.WriteString(">")
	} else {
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// imagesDir is the site folder the content's images are published in, at
// their content paths: pages are published at other paths than their
// Markdown, so an image cannot sit beside its page as it does beside the
// Markdown.
const imagesDir = "assets/content/"

// imageURL is the URL, relative to the site root, of the image at the
// content path.
func imageURL(contentPath string) string { return imagesDir + contentPath }

// defaultImage is goldmark's own image renderer, which [docRender.image]
// hands every image to.
var defaultImage = func() renderer.NodeRendererFunc {
	var c imageRendererOf
	ghtml.NewRenderer().RegisterFuncs(&c)
	return c.f
}()

// imageRendererOf keeps the renderer a NodeRenderer registers for images.
type imageRendererOf struct{ f renderer.NodeRendererFunc }

func (c *imageRendererOf) Register(k ast.NodeKind, f renderer.NodeRendererFunc) {
	if k == ast.KindImage {
		c.f = f
	}
}

// image renders an image as goldmark does, a relative one (see
// [claims.Image]) with its src made the published image's URL from this
// page, as page links are. The tree is the render's own: changing the
// node's destination changes nothing else.
func (r *docRender) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Image)
	u, ok := r.images[n.Pos()]
	if r.oneFile && !ok {
		// One file loads nothing from elsewhere: the image is named.
		if entering {
			fmt.Fprintf(w, `<span class="image-omitted">[image: %s, %s]</span>`, html.EscapeString(plainText(n, src)), html.EscapeString(string(n.Destination)))
		}
		return ast.WalkSkipChildren, nil
	}
	if r.oneFile {
		// Inlined: goldmark would blank an SVG data: URI, which an <img>
		// shows without running anything in it.
		if entering {
			fmt.Fprintf(w, `<img src="%s" alt="%s"`, html.EscapeString(u), html.EscapeString(plainText(n, src)))
			if len(n.Title) > 0 {
				fmt.Fprintf(w, ` title="%s"`, html.EscapeString(string(n.Title)))
			}
			w.WriteString(">")
		}
		return ast.WalkSkipChildren, nil
	}
	if ok && entering {
		n.Destination = []byte(r.root + u)
	}
	return defaultImage(w, src, node, entering)
}

// linkURL is the site URL of a requirement, decision or page link.
func (r *docRender) linkURL(l claims.Link) string {
	u := r.ctx.URLOf(synth.LinkNodeID(l))
	if u == "" {
		return "#"
	}
	u = r.root + u
	if l.Fragment != "" && !strings.HasPrefix(u, "#") {
		u += "#" + l.Fragment
	}
	return u
}

// codeTarget parses a code: link destination (or a code:// URI).
func codeTarget(dest string) (claims.Target, bool) {
	low := strings.ToLower(dest)
	switch {
	case strings.HasPrefix(low, "code://"):
		_, t, err := claims.ParseCodeURI("code://" + dest[len("code://"):])
		return t, err == nil
	case strings.HasPrefix(low, "code:"):
		t, err := claims.ParseTarget(dest[len("code:"):])
		return t, err == nil
	}
	return claims.Target{}, false
}

// claimLink renders a claim's link: its text links to the anchored code,
// followed by a marker with the link's state and, when stale or unknown, a
// badge that says why.
func (r *docRender) claimLink(w util.BufWriter, t claims.Target, entering, showRef bool) {
	c := r.ctx.ClaimShown(t)
	state, why := c.State, c.Why
	title := t.String()
	if why != "" {
		title += " · " + state + ": " + why
	}
	if entering {
		href := "#"
		if c.URL != "" {
			href = r.root + c.URL
		}
		fmt.Fprintf(w, `<a class="claim state-%s" href="%s" title="%s">`, state, html.EscapeString(href), html.EscapeString(title))
		if showRef {
			fmt.Fprintf(w, "<code>%s</code>", html.EscapeString(t.String()))
		}
		return
	}
	w.WriteString("</a>")
	mark := map[string]string{"linked": "✓", "stale": "!", "unknown": "?"}[state]
	fmt.Fprintf(w, `<sup class="claim-state state-%s" title="%s">%s</sup>`, state, html.EscapeString(title), mark)
	if state != "linked" {
		fmt.Fprintf(w, ` <span class="badge badge-%s" title="%s">%s</span>`, state, html.EscapeString(why), state)
	}
}

// rawHTML and htmlBlock escape raw HTML: it is shown as text, never run.
func (r *docRender) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := 0; i < n.Segments.Len(); i++ {
			s := n.Segments.At(i)
			w.WriteString(html.EscapeString(string(s.Value(src))))
		}
	}
	return ast.WalkSkipChildren, nil
}

func (r *docRender) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.HTMLBlock)
		w.WriteString(`<pre class="raw-html">`)
		for i := 0; i < n.Lines().Len(); i++ {
			s := n.Lines().At(i)
			w.WriteString(html.EscapeString(string(s.Value(src))))
		}
		if n.HasClosure() {
			w.WriteString(html.EscapeString(string(n.ClosureLine.Value(src))))
		}
		w.WriteString("</pre>\n")
	}
	return ast.WalkSkipChildren, nil
}

// plainText is the text of an inline node's descendants, as written
// (goldmark's Node.Text, which it deprecates).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		switch c := c.(type) {
		case *ast.Text:
			if entering {
				b.Write(c.Segment.Value(src))
			}
		case *ast.String:
			if entering {
				b.Write(c.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
