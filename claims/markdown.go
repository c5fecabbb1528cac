package claims

import (
	"bytes"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MarkdownParser returns a new goldmark parser for the Markdown dialect of
// content: CommonMark with the GitHub tables, strikethrough and task lists,
// and automatic heading ids. Claims, links and [HeadingIDs] are computed
// with it; a renderer should parse with it too, so that it sees the same
// tree and the same anchors.
func MarkdownParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			// Distinct priorities: goldmark sorts them unstably.
			util.Prioritized(extension.NewStrikethroughParser(), 510),
			util.Prioritized(extension.NewTaskCheckBoxParser(), 10),
		)...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200),
		)...),
		parser.WithASTTransformers(
			util.Prioritized(extension.NewTableASTTransformer(), 10),
		),
		parser.WithAutoHeadingID(),
	)
}

// mdParser is the parser [Parse] and [ParseMarkdown] share between
// goroutines: goldmark parsers keep per-document state in their parse
// context only.
var mdParser = sync.OnceValue(MarkdownParser)

// ParseMarkdown parses a Markdown body as [Parse] does, with a parser
// shared between goroutines (one is tens of kilobytes to make).
func ParseMarkdown(body []byte) ast.Node { return mdParser().Parse(text.NewReader(body)) }

// HeadingIDs returns the ids of the headings of a Markdown body in document
// order, as goldmark's automatic heading ids make them: ASCII letters and
// digits lowercased, spaces, '-' and '_' as '-', everything else dropped,
// "heading" for a heading with none of these, and "-1", "-2", ... appended
// to repeats.
func HeadingIDs(body []byte) []string {
	return headingIDs(ParseMarkdown(body))
}

func headingIDs(doc ast.Node) []string {
	var ids []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					ids = append(ids, string(b))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return ids
}

// mdResult is what a body declares.
type mdResult struct {
	claims   []Claim
	links    []Link
	images   []Image
	headings []string
	title    string   // plain text of the first level-1 heading
	doc      ast.Node // the body's tree, which a requirement's revision reads too
}

// mdWalker walks one body's tree.
type mdWalker struct {
	body    []byte
	loc     locator
	dir     string // root-relative directory of the file
	prefix  string // content directory prefix, "content/"
	ds      *Diagnostics
	res     mdResult
	titleOK bool
	self    []selfLink
	p       plain // reused from block to block
}

// parseMarkdown finds the claims, links, heading ids and title of a body.
func parseMarkdown(body []byte, loc locator, dir, prefix string, ds *Diagnostics) mdResult {
	w := &mdWalker{body: body, loc: loc, dir: dir, prefix: prefix, ds: ds}
	p := plains.Get().(*plain)
	defer plains.Put(p)
	w.p = *p
	defer func() { *p = w.p }() // grown, for the next body
	doc := ParseMarkdown(body)
	w.res.headings, w.res.doc = headingIDs(doc), doc
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if c := n.FirstChild(); c != nil && c.Type() == ast.TypeInline {
			w.block(n)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	w.checkSelfLinks()
	return w.res
}

// plain is the plain text of one block (a paragraph, list item text,
// heading or table cell): link text kept, markup dropped, escapes and
// entities resolved. Each byte remembers the body bytes it came from.
type plain struct {
	b   []byte
	src []srcSpan // parallel to b
}

// plains are blocks' plain text buffers, kept between bodies: a site's
// thousands of bodies would each make their own (a srcSpan per byte).
var plains = sync.Pool{New: func() any { return &plain{} }}

// srcSpan is where a plain byte came from: body offsets [start, end).
type srcSpan struct {
	start, end int
	brk        bool // may end a sentence: not in code spans or autolinks
	outer      bool // widened to an inline's delimiters
}

func (p *plain) reset() {
	p.b, p.src = p.b[:0], p.src[:0]
}

func (p *plain) push(c byte, start, end int, brk bool) {
	p.b = append(p.b, c)
	p.src = append(p.src, srcSpan{start: start, end: end, brk: brk})
}

// codeLink is a code: link met in a block.
type codeLink struct {
	node *ast.Link
	dest string
	at   int // index in plain of its first byte
}

// block collects the plain text of an inline-holding block, then makes a
// claim of the sentence around each code: link in it.
func (w *mdWalker) block(n ast.Node) {
	p := &w.p
	p.reset()
	var links []codeLink
	end := w.blockEnd(n)
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inline(c, n, end, p, &links)
	}
	if h, ok := n.(*ast.Heading); ok && h.Level == 1 && !w.titleOK {
		w.res.title = collapseSpace(string(p.b))
		w.titleOK = w.res.title != ""
	}
	if len(links) == 0 {
		return
	}
	sents := sentences(p)
	for _, l := range links {
		t, err := parseAnyTarget(l.dest)
		pos := w.loc.pos(l.node.Pos())
		if err != nil {
			w.ds.Add(pos, CodeBadTarget, "%v", err)
			continue
		}
		c := Claim{Target: t, HasTarget: true, Origin: OriginMarkdown, Pos: pos}
		c.Text, c.Start, c.End = w.sentence(p, sents, l)
		w.res.claims = append(w.res.claims, c)
	}
}

// blockEnd is the body offset after the last non-space byte of a block.
func (w *mdWalker) blockEnd(n ast.Node) int {
	lines := n.Lines()
	if lines == nil || lines.Len() == 0 {
		return -1
	}
	return w.trimBack(min(lines.At(lines.Len()-1).Stop, len(w.body)), 0)
}

// trimBack moves offset e back over white space, not before floor.
func (w *mdWalker) trimBack(e, floor int) int {
	for e > floor && e <= len(w.body) && isSpace(w.body[e-1]) {
		e--
	}
	return e
}

// inline appends the plain text of inline node n to p.
func (w *mdWalker) inline(n, block ast.Node, blockEnd int, p *plain, links *[]codeLink) {
	switch n := n.(type) {
	case *ast.Text:
		w.segment(p, n.Segment, true, true)
		if n.SoftLineBreak() || n.HardLineBreak() {
			e := min(n.Segment.Stop, len(w.body))
			p.push(' ', e, e, true)
		}
		return
	case *ast.String:
		at := max(n.Pos(), 0)
		for _, c := range n.Value {
			p.push(c, at, at, !n.IsCode())
		}
		return
	case *ast.RawHTML, *east.TaskCheckBox:
		// Markup, not text; raw HTML is never read for links.
		return
	case *ast.AutoLink:
		w.container(n, block, blockEnd, p, func() {
			at := max(n.Pos(), 0)
			for _, c := range n.Label(w.body) {
				p.push(c, at, at, false)
			}
		})
		return
	case *ast.CodeSpan:
		w.container(n, block, blockEnd, p, func() {
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					w.segment(p, t.Segment, false, false)
				} else if s, ok := c.(*ast.String); ok {
					at := max(s.Pos(), 0)
					for _, b := range s.Value {
						p.push(b, at, at, false)
					}
				}
			}
		})
		return
	case *ast.Link:
		w.link(n, len(p.b), links)
	case *ast.Image:
		w.image(n)
	}
	w.container(n, block, blockEnd, p, func() {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			w.inline(c, block, blockEnd, p, links)
		}
	})
}

// container emits an inline container's text with emit, then widens the
// source spans of its first and last byte to its delimiters, so that a
// sentence that starts or ends with it covers its markup.
func (w *mdWalker) container(n, block ast.Node, blockEnd int, p *plain, emit func()) {
	first := len(p.b)
	emit()
	if len(p.b) == first {
		return
	}
	if s := n.Pos(); s >= 0 && s < p.src[first].start {
		p.src[first].start, p.src[first].outer = s, true
	}
	last := len(p.b) - 1
	if e := w.inlineEnd(n, block, blockEnd); e > p.src[last].end {
		p.src[last].end, p.src[last].outer = e, true
	}
}

// inlineStart is the body offset where inline n begins.
func inlineStart(n ast.Node) int {
	if t, ok := n.(*ast.Text); ok {
		return t.Segment.Start
	}
	if s := n.Pos(); s >= 0 {
		return s
	}
	if c := n.FirstChild(); c != nil {
		return inlineStart(c)
	}
	return -1
}

// inlineEnd is the body offset after inline n and its closing markup: where
// its next sibling starts (white space trimmed), else where its parent
// ends.
func (w *mdWalker) inlineEnd(n, block ast.Node, blockEnd int) int {
	for ; n != nil && n != block; n = n.Parent() {
		if next := n.NextSibling(); next != nil {
			if s := inlineStart(next); s >= 0 {
				return w.trimBack(min(s, len(w.body)), max(n.Pos(), 0))
			}
		}
	}
	return blockEnd
}

// segment appends the bytes of a source segment to p. With unescape, a
// backslash escape gives its character and an entity reference its text.
func (w *mdWalker) segment(p *plain, seg text.Segment, brk, unescape bool) {
	start, stop := max(seg.Start, 0), min(seg.Stop, len(w.body))
	for i := start; i < stop; {
		c := w.body[i]
		if unescape && c == '\\' && i+1 < stop && util.IsPunct(w.body[i+1]) {
			p.push(w.body[i+1], i, i+2, brk)
			i += 2
			continue
		}
		if unescape && c == '&' {
			if j := bytes.IndexByte(w.body[i:min(stop, i+40)], ';'); j > 1 {
				ref := w.body[i : i+j+1]
				if r := util.ResolveNumericReferences(util.ResolveEntityNames(ref)); !bytes.Equal(r, ref) {
					for _, b := range r {
						p.push(b, i, i+j+1, brk)
					}
					i += j + 1
					continue
				}
			}
		}
		p.push(c, i, i+1, brk)
		i++
	}
}

// link records a link: a code: link to become a claim once its block's
// sentences are known, or a requirement, decision or page link.
func (w *mdWalker) link(n *ast.Link, at int, links *[]codeLink) {
	dest := string(util.ResolveNumericReferences(util.ResolveEntityNames(util.UnescapePunctuations(n.Destination))))
	pos := w.loc.pos(n.Pos())
	scheme, rest, hasScheme := splitScheme(dest)
	switch {
	case dest == "":
	case scheme == "code":
		*links = append(*links, codeLink{node: n, dest: dest, at: at})
	case scheme == "req" || scheme == "dec":
		kind, what := LinkRequirement, "requirement"
		if scheme == "dec" {
			kind, what = LinkDecision, "decision"
		}
		if !validID(rest) {
			w.ds.Add(pos, CodeBadLink, "%s link %q: %q is not a valid %s id", scheme, dest, rest, what)
			return
		}
		w.res.links = append(w.res.links, Link{Kind: kind, To: rest, Pos: pos, Off: n.Pos()})
	case hasScheme || strings.HasPrefix(dest, "//"):
		// External (http:, https:, mailto:, ...): not ours to check.
	default:
		w.pageLink(dest, pos, n.Pos())
	}
}

// splitScheme splits a URL scheme (letters, digits, '+', '-', '.', starting
// with a letter, at least two long so that "C:" is none) off dest,
// lowercased.
func splitScheme(dest string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(dest, ':')
	if i < 2 {
		return "", dest, false
	}
	for j := 0; j < i; j++ {
		c := dest[j]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", dest, false
		}
	}
	return strings.ToLower(dest[:i]), dest[i+1:], true
}

// selfLink is an in-page "#fragment" link, checked once the headings are
// known.
type selfLink struct {
	frag string
	pos  Pos
}

// pageLink records a relative link to a .md file as a page link, its
// target resolved against the file's directory (or, with a leading '/',
// against the root, as GitHub does) and made a content path without .md.
func (w *mdWalker) pageLink(dest string, pos Pos, off int) {
	p, frag, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	if p == "" {
		if frag != "" {
			w.self = append(w.self, selfLink{frag, pos})
		}
		return
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if !strings.HasSuffix(p, ".md") {
		return // an image, a source file, a directory: not a page
	}
	rel, ok := w.contentPath(p)
	if !ok {
		w.ds.Add(pos, CodeBadLink, "link %q leaves the content directory", dest)
		return
	}
	w.res.links = append(w.res.links, Link{Kind: LinkPage, To: strings.TrimSuffix(rel, ".md"), Fragment: frag, Pos: pos, Off: off})
}

// contentPath resolves p, a relative link's unescaped path, against the
// file's directory (or, with a leading '/', against the root, as GitHub
// does) and makes it a content path; false when it leaves the content
// directory. Page links and images resolve alike.
func (w *mdWalker) contentPath(p string) (string, bool) {
	var full string
	if rooted, ok := strings.CutPrefix(p, "/"); ok {
		full = path.Clean(rooted)
	} else {
		full = path.Join(w.dir, p)
	}
	rel, ok := strings.CutPrefix(full, w.prefix)
	if !ok || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return "", false
	}
	return rel, true
}

// imageExts are the extensions of the files a relative image may name:
// the site publishes these, and no other kind of file (see [Image]).
var imageExts = []string{".gif", ".jpeg", ".jpg", ".png", ".svg", ".webp"}

// image records a relative image, resolved like a page link: against the
// file's directory (or, with a leading '/', the root) and made a content
// path. One that leaves the content directory or is not an image file is
// reported; external ones (a scheme, "//") are not ours to check.
func (w *mdWalker) image(n *ast.Image) {
	dest := string(util.ResolveNumericReferences(util.ResolveEntityNames(util.UnescapePunctuations(n.Destination))))
	if _, _, hasScheme := splitScheme(dest); dest == "" || hasScheme || strings.HasPrefix(dest, "//") {
		return
	}
	pos := w.loc.pos(n.Pos())
	p, _, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if p == "" {
		return
	}
	rel, ok := w.contentPath(p)
	if !ok {
		w.ds.Add(pos, CodeBadLink, "image %q leaves the content directory", dest)
		return
	}
	if !slices.Contains(imageExts, strings.ToLower(path.Ext(rel))) {
		w.ds.Add(pos, CodeBadLink, "image %q is not a %s file", dest, strings.Join(imageExtNames(), ", "))
		return
	}
	w.res.images = append(w.res.images, Image{To: rel, Pos: pos, Off: n.Pos()})
}

// imageExtNames are [imageExts] without their dots, for messages.
func imageExtNames() []string {
	names := make([]string, len(imageExts))
	for i, e := range imageExts {
		names[i] = e[1:]
	}
	return names
}

func (w *mdWalker) checkSelfLinks() {
	for _, s := range w.self {
		if !slices.Contains(w.res.headings, s.frag) {
			w.ds.Add(s.pos, CodeUnknownRef, "link to missing heading %q", "#"+s.frag)
		}
	}
}

// sentence is a range [start, end) of indexes into a plain text.
type sentence struct{ start, end int }

// sentences splits a block's plain text into sentences. A sentence ends
// after a run of '.', '!' or '?' (and any closing ')', ']', quotes) that is
// followed by white space or the end of the block; terminators in code spans
// and autolinks, and one followed directly by another character ("3.5",
// "a.go"), end nothing. The sentences cover the text with no gaps.
func sentences(p *plain) []sentence {
	var out []sentence
	start, n := 0, len(p.b)
	for i := 0; i < n; i++ {
		if !p.src[i].brk || !isTerminator(p.b[i]) {
			continue
		}
		j := i + 1
		for j < n && p.src[j].brk && isTerminator(p.b[j]) {
			j++
		}
		for j < n && p.src[j].brk {
			k := closerLen(p.b[j:])
			if k == 0 {
				break
			}
			j += k
		}
		if j == n || isSpace(p.b[j]) {
			out = append(out, sentence{start, j})
			start = j
		}
		i = j - 1
	}
	if start < n || len(out) == 0 {
		out = append(out, sentence{start, n})
	}
	return out
}

func isTerminator(c byte) bool { return c == '.' || c == '!' || c == '?' }

// closerLen is the length of a closing bracket or quote at the start of b,
// or 0.
func closerLen(b []byte) int {
	for _, c := range []string{")", "]", `"`, "'", "\u2019", "\u201D", "\u00BB"} {
		if bytes.HasPrefix(b, []byte(c)) {
			return len(c)
		}
	}
	return 0
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// sentence returns the text of the sentence that holds link l and its body
// offsets.
func (w *mdWalker) sentence(p *plain, sents []sentence, l codeLink) (string, int, int) {
	i, _ := slices.BinarySearchFunc(sents, l.at, func(x sentence, at int) int {
		if x.end <= at {
			return -1
		}
		return 1
	})
	s := sents[min(i, len(sents)-1)]
	a, b := s.start, s.end
	for a < b && isSpace(p.b[a]) {
		a++
	}
	for b > a && isSpace(p.b[b-1]) {
		b--
	}
	if a == b {
		// Only an empty link: the link itself is the claim's place.
		at := min(max(l.node.Pos(), 0), len(w.body))
		return "", at, at
	}
	start, end := p.src[a].start, p.src[b-1].end
	// Delimiters of an inline that starts or ends in the trimmed space
	// belong to the sentence too.
	for k := s.start; k < a; k++ {
		if p.src[k].outer {
			start = min(start, p.src[k].start)
		}
	}
	for k := b; k < s.end; k++ {
		if p.src[k].outer {
			end = max(end, p.src[k].end)
		}
	}
	start = min(max(start, 0), len(w.body))
	end = min(max(end, start), len(w.body))
	return collapseSpace(string(p.b[a:b])), start, end
}
