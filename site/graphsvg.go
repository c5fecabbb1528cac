package site

import (
	"cmp"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/synth"
)

// Layout of [GraphSVG], in SVG user units. Every box has the same size, so
// the drawing's size follows from the number of columns and the tallest
// column alone.
const (
	// MaxColumnNodes is the most node boxes a column draws; the rest of the
	// column collapses into one "+N more" box below them.
	MaxColumnNodes = 12

	svgColumnWidth = 240 // box width plus the gap the edges cross
	svgBoxWidth    = 200
	svgRowHeight   = 42 // box height plus the gap between boxes, wide enough to route edges in
	svgBoxHeight   = 26
	svgHeader      = 26 // height of a column's header line
	// svgBow lifts the control points of an edge that crosses a column, so
	// the curve's middle (3/4 of the lift up) runs in the gap above its
	// row: half a box and half a gap.
	svgBow      = (svgRowHeight/2)*4/3 + 1
	svgPad      = 8 // margin around the drawing
	svgFontSize = 12

	// svgLabelRunes is where a long label is cut and ends in "…";
	// svgStaleLabelRunes leaves room for the stale badge.
	svgLabelRunes      = 27
	svgStaleLabelRunes = 21
)

// svgColumnOrder is the SPEC 3 node type order, which is also the order of
// the columns from left to right.
var svgColumnOrder = []string{
	synth.TypeRequirement, synth.TypeDecision, synth.TypeSymbol, synth.TypeTest,
	synth.TypeRun, synth.TypePage, synth.TypeFile,
}

// svgPlural is the header word of each column.
var svgPlural = map[string]string{
	synth.TypeRequirement: "requirements", synth.TypeDecision: "decisions",
	synth.TypeSymbol: "symbols", synth.TypeTest: "tests", synth.TypeRun: "runs",
	synth.TypePage: "pages", synth.TypeFile: "files",
}

// GraphSVG draws the neighborhood nb of the node with id center as an
// inline SVG, with href giving each node's link. The same input gives the
// same bytes.
//
// Nodes stand in typed columns, in the SPEC 3 order requirement, decision,
// symbol, test, run, page, file (empty columns left out, types outside the
// spec after them by name), each under a header naming its type and count.
// A column draws at most [MaxColumnNodes] boxes, the center first, then
// stale nodes, then by id; the others collapse into one "+N more" box that
// links to #neighbors, where the page lists every neighbor. Edges are drawn
// only between drawn boxes, except one faint edge from the center to a
// "+N more" box hiding a neighbor of the center. A neighborhood with no
// node but the center draws a small "no neighbors" picture.
//
// The output carries no colors: the site stylesheet matches these classes.
//
//	svg   tw-graph                  the drawing (role="img", aria-label)
//	text  col-title                 a column's header: "symbols (3)"
//	a     node node-TYPE            a node's link around its title, rect
//	                                and texts; TYPE is its type
//	      center                    the node of the page
//	      stale                     a stale node (also shows a badge)
//	      unknown                   a node whose state is unknown
//	text  label                     a node's label
//	text  badge                     the "stale" badge of a stale node
//	a     node more node-TYPE       a "+N more" box, linking to #neighbors
//	path  edge rel-RELATION         an edge: rel-declared, rel-located or
//	                                rel-verified, plus stale and unknown
//	path  edge more faint           the center's edge to a "+N more" box
//	text  empty                     the "no neighbors" text
//
// Links whose scheme is not http, https or mailto become "#ZgotmplZ", as
// html/template does.
func GraphSVG(nb synth.Neighborhood, center string, href func(n synth.Node) string) template.HTML {
	l := layoutGraph(nb, center)
	var b strings.Builder
	b.Grow(512 + 400*l.boxes + 200*len(nb.Edges))
	label := "Neighborhood of " + center + ": " + svgCount(len(nb.Nodes), "node") + ", " + svgCount(len(nb.Edges), "edge")
	if l.boxes == 0 {
		w, h := svgBoxWidth+2*svgPad, svgBoxHeight+2*svgPad
		svgOpen(&b, w, h, label)
		b.WriteString(`<text class="empty" x="`)
		b.WriteString(strconv.Itoa(w / 2))
		b.WriteString(`" y="`)
		b.WriteString(strconv.Itoa(h/2 + svgFontSize/3))
		b.WriteString(`" text-anchor="middle">no neighbors</text></svg>`)
		return template.HTML(b.String())
	}

	rows := 0
	for _, c := range l.cols {
		rows = max(rows, len(c.boxes))
	}
	w := 2*svgPad + (len(l.cols)-1)*svgColumnWidth + svgBoxWidth
	h := 2*svgPad + svgHeader + (rows-1)*svgRowHeight + svgBoxHeight
	svgOpen(&b, w, h, label)

	for _, c := range l.cols {
		x := svgPad + c.index*svgColumnWidth
		b.WriteString(`<text class="col-title" x="`)
		b.WriteString(strconv.Itoa(x))
		b.WriteString(`" y="`)
		b.WriteString(strconv.Itoa(svgPad + svgFontSize))
		b.WriteString(`">`)
		svgEscape(&b, svgHeaderText(c.typ, c.total))
		b.WriteString(`</text>`)
	}

	// Edges first, so the boxes cover their ends; in SPEC 3 order whatever
	// order they came in.
	edges := slices.Clone(nb.Edges)
	slices.SortStableFunc(edges, func(a, b synth.Edge) int {
		return cmp.Or(strings.Compare(a.Src, b.Src), strings.Compare(a.Dst, b.Dst),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Relation, b.Relation))
	})
	for _, e := range edges {
		s, okS := l.drawn[e.Src]
		d, okD := l.drawn[e.Dst]
		if !okS || !okD {
			continue
		}
		b.WriteString(`<path class="edge rel-`)
		svgEscape(&b, e.Relation)
		if e.Stale {
			b.WriteString(` stale`)
		}
		if e.State == "unknown" {
			b.WriteString(` unknown`)
		}
		b.WriteString(`" fill="none" d="`)
		b.WriteString(svgEdgePath(s, d))
		b.WriteString(`"><title>`)
		t := e.Src + " —" + e.Kind + "→ " + e.Dst
		if e.Why != "" {
			t += ": " + e.Why
		}
		svgEscape(&b, t)
		b.WriteString(`</title></path>`)
	}
	if c, ok := l.drawn[center]; ok {
		for _, col := range l.cols {
			if col.more == nil || !col.moreAdjacent {
				continue
			}
			b.WriteString(`<path class="edge more faint" fill="none" d="`)
			b.WriteString(svgEdgePath(c, *col.more))
			b.WriteString(`"><title>`)
			svgEscape(&b, center+" — "+strconv.Itoa(col.hidden)+" more "+svgPluralOf(col.typ)+", some of them its neighbors")
			b.WriteString(`</title></path>`)
		}
	}

	for _, col := range l.cols {
		for _, bx := range col.boxes {
			if bx.node == nil {
				title := strconv.Itoa(col.hidden) + " more " + svgPluralOf(col.typ) + ": see the list of neighbors"
				svgBox(&b, bx, "node more node-"+col.typ, "#neighbors", title, col.moreText, false)
				continue
			}
			n := bx.node
			class := "node node-" + n.Type
			if n.ID == center {
				class += " center"
			}
			if n.Stale {
				class += " stale"
			}
			if n.State == "unknown" {
				class += " unknown"
			}
			title := n.ID
			if n.Why != "" {
				title += "\n" + n.Why
			}
			text := cmp.Or(n.Label, n.ID)
			if n.Stale {
				text = svgTruncate(text, svgStaleLabelRunes)
			} else {
				text = svgTruncate(text, svgLabelRunes)
			}
			svgBox(&b, bx, class, href(*n), title, text, n.Stale)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// graphLayout is where [GraphSVG] puts the boxes.
type graphLayout struct {
	cols  []*svgColumn
	drawn map[string]svgPlace // node id → its box, for the drawn nodes
	boxes int                 // boxes drawn, "+N more" ones included
}

type svgColumn struct {
	typ          string
	index        int // position from the left among the drawn columns
	total        int // nodes of the type, drawn or not
	boxes        []svgPlace
	more         *svgPlace // the "+N more" box, or nil
	moreText     string
	hidden       int  // nodes in the "+N more" box
	moreAdjacent bool // a hidden node of the column is a neighbor of the center
}

// svgPlace is one box: its column, row and the node it shows (nil for a
// "+N more" box).
type svgPlace struct {
	col, row int
	node     *synth.Node
}

func layoutGraph(nb synth.Neighborhood, center string) graphLayout {
	l := graphLayout{drawn: map[string]svgPlace{}}
	if !slices.ContainsFunc(nb.Nodes, func(n synth.Node) bool { return n.ID != center }) {
		return l // nothing but the center: no neighbors to draw
	}
	rank := func(typ string) int {
		if i := slices.Index(svgColumnOrder, typ); i >= 0 {
			return i
		}
		return len(svgColumnOrder)
	}
	nodes := make([]*synth.Node, len(nb.Nodes))
	for i := range nb.Nodes {
		nodes[i] = &nb.Nodes[i]
	}
	// Within a column: the center, then stale nodes, then by id (unique).
	slices.SortStableFunc(nodes, func(a, b *synth.Node) int {
		return cmp.Or(
			cmp.Compare(rank(a.Type), rank(b.Type)),
			strings.Compare(a.Type, b.Type),
			svgFirst(a.ID == center, b.ID == center),
			svgFirst(a.Stale, b.Stale),
			strings.Compare(a.ID, b.ID),
		)
	})
	nodes = slices.CompactFunc(nodes, func(a, b *synth.Node) bool { return a.ID == b.ID })

	adjacent := map[string]bool{} // neighbors of the center
	for _, e := range nb.Edges {
		if e.Src == center {
			adjacent[e.Dst] = true
		}
		if e.Dst == center {
			adjacent[e.Src] = true
		}
	}
	for i := 0; i < len(nodes); {
		j := i + 1
		for j < len(nodes) && nodes[j].Type == nodes[i].Type {
			j++
		}
		col := &svgColumn{typ: nodes[i].Type, index: len(l.cols), total: j - i}
		for r, n := range nodes[i:j] {
			if r == MaxColumnNodes {
				more := svgPlace{col: col.index, row: r}
				col.more = &more
				col.boxes = append(col.boxes, more)
				col.hidden = j - i - r
				col.moreText = "+" + strconv.Itoa(col.hidden) + " more"
				for _, h := range nodes[i+r : j] {
					col.moreAdjacent = col.moreAdjacent || adjacent[h.ID]
				}
				break
			}
			p := svgPlace{col: col.index, row: r, node: n}
			col.boxes = append(col.boxes, p)
			l.drawn[n.ID] = p
		}
		l.boxes += len(col.boxes)
		l.cols = append(l.cols, col)
		i = j
	}
	return l
}

// svgCount returns "1 node", "2 nodes".
func svgCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// svgFirst orders true before false.
func svgFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func svgHeaderText(typ string, n int) string {
	return svgPluralOf(typ) + " (" + strconv.Itoa(n) + ")"
}

func svgPluralOf(typ string) string {
	if p, ok := svgPlural[typ]; ok {
		return p
	}
	return typ
}

// svgOrigin returns the top-left corner of a box.
func svgOrigin(p svgPlace) (x, y int) {
	return svgPad + p.col*svgColumnWidth, svgPad + svgHeader + p.row*svgRowHeight
}

// svgEdgePath returns the path data of a cubic curve from box s to box d:
// right side to left side when d's column is right of s's, left to right
// when it is left of it, and a bulge out of the right sides within one
// column.
func svgEdgePath(s, d svgPlace) string {
	sx, sy := svgOrigin(s)
	dx, dy := svgOrigin(d)
	sy += svgBoxHeight / 2
	dy += svgBoxHeight / 2
	var x1, x2, c1, c2 int
	cy1, cy2 := sy, dy
	switch {
	case d.col != s.col:
		x1, x2 = sx+svgBoxWidth, dx
		if d.col < s.col {
			x1, x2 = sx, dx+svgBoxWidth
		}
		c1, c2 = (x1+x2)/2, (x1+x2)/2
		if svgAbs(d.col-s.col) > 1 {
			// Across columns: run through the middle of the gap between
			// rows, above the row, or the bits visible between the boxes
			// it passes under would read as a chain of edges through them.
			// On the first row the gap above holds the column titles, so
			// such an edge runs below instead.
			c1, c2 = x1+(x2-x1)/4, x2-(x2-x1)/4
			bow := -svgBow
			if s.row == 0 && d.row == 0 {
				bow = svgBow
			}
			cy1, cy2 = sy+bow, dy+bow
		}
	case s.row == d.row: // a loop on one box
		x1, x2 = sx+svgBoxWidth, sx+svgBoxWidth
		sy, dy = sy-svgBoxHeight/4, dy+svgBoxHeight/4
		c1, c2 = x1+(svgColumnWidth-svgBoxWidth)/2, x1+(svgColumnWidth-svgBoxWidth)/2
		cy1, cy2 = sy, dy
	default:
		x1, x2 = sx+svgBoxWidth, dx+svgBoxWidth
		bulge := min(svgColumnWidth-svgBoxWidth-4, 10+svgAbs(d.row-s.row)*4)
		c1, c2 = x1+bulge, x2+bulge
	}
	return "M" + strconv.Itoa(x1) + " " + strconv.Itoa(sy) +
		" C" + strconv.Itoa(c1) + " " + strconv.Itoa(cy1) +
		" " + strconv.Itoa(c2) + " " + strconv.Itoa(cy2) +
		" " + strconv.Itoa(x2) + " " + strconv.Itoa(dy)
}

func svgAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func svgOpen(b *strings.Builder, w, h int, label string) {
	ws, hs := strconv.Itoa(w), strconv.Itoa(h)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="tw-graph" role="img" aria-label="`)
	svgEscape(b, label)
	b.WriteString(`" width="` + ws + `" height="` + hs + `" viewBox="0 0 ` + ws + ` ` + hs + `" font-size="` + strconv.Itoa(svgFontSize) + `">`)
}

// svgBox writes one linked box with its hover title and text.
func svgBox(b *strings.Builder, p svgPlace, class, href, title, text string, stale bool) {
	x, y := svgOrigin(p)
	xs, ys := strconv.Itoa(x), strconv.Itoa(y)
	b.WriteString(`<a class="`)
	svgEscape(b, class)
	b.WriteString(`" href="`)
	svgEscape(b, svgSafeURL(href))
	b.WriteString(`"><title>`)
	svgEscape(b, title)
	b.WriteString(`</title><rect x="` + xs + `" y="` + ys + `" width="` + strconv.Itoa(svgBoxWidth) +
		`" height="` + strconv.Itoa(svgBoxHeight) + `" rx="4"/><text class="label" x="` + strconv.Itoa(x+8) +
		`" y="` + strconv.Itoa(y+svgBoxHeight/2+svgFontSize/3) + `">`)
	svgEscape(b, text)
	b.WriteString(`</text>`)
	if stale {
		b.WriteString(`<text class="badge" x="` + strconv.Itoa(x+svgBoxWidth-6) + `" y="` +
			strconv.Itoa(y+svgBoxHeight/2+svgFontSize/3) + `" text-anchor="end">stale</text>`)
	}
	b.WriteString(`</a>`)
}

// svgTruncate cuts s to n runes, the last of them an ellipsis.
func svgTruncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n-1 {
			break
		}
		k++
	}
	return s[:i] + "…"
}

// svgSafeURL keeps a relative URL or one with an http, https or mailto
// scheme and replaces any other (javascript:, data:) with the harmless
// marker html/template uses, so a bad href function cannot inject script.
func svgSafeURL(u string) string {
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		switch strings.ToLower(u[:i]) {
		case "http", "https", "mailto":
		default:
			return "#ZgotmplZ"
		}
	}
	return u
}

// svgEscape writes s escaped for both SVG text and a double- or
// single-quoted attribute. Characters XML forbids (most C0 controls,
// invalid UTF-8, U+FFFE, U+FFFF) become U+FFFD, so the output stays
// well-formed XML as well as HTML.
func svgEscape(b *strings.Builder, s string) {
	last := 0
	for i, r := range s {
		var rep string
		switch {
		case r == '&':
			rep = "&amp;"
		case r == '<':
			rep = "&lt;"
		case r == '>':
			rep = "&gt;"
		case r == '"':
			rep = "&#34;"
		case r == '\'':
			rep = "&#39;"
		case r == '\n' || r == '\t' || r == '\r':
			rep = "&#" + strconv.Itoa(int(r)) + ";" // survives attribute normalization
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF,
			r == utf8.RuneError && svgBadRune(s[i:]):
			rep = "\uFFFD"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		_, size := utf8.DecodeRuneInString(s[i:])
		last = i + size
	}
	b.WriteString(s[last:])
}

// svgBadRune reports whether s starts with invalid UTF-8 (rather than an
// encoded U+FFFD).
func svgBadRune(s string) bool {
	_, size := utf8.DecodeRuneInString(s)
	return size == 1
}
