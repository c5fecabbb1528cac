// Package graphsvg draws a node's neighborhood as an SVG: the node in the
// middle, what links to it on the left, what it links to on the right. It
// is pure layout: a neighborhood in, markup out, nothing read or written.
package graphsvg

import (
	"cmp"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// Layout of [Draw], in SVG user units, which are CSS pixels at the
// drawing's natural size: it is never drawn wider than that, so its text is
// never larger than fontSize; a narrow viewport gets the narrow drawing,
// shown at its natural size, so its text is never smaller.
const (
	// MaxSideNodes is the most neighbor boxes one side draws; the rest
	// collapse into one "+N more" box that links to the list of neighbors.
	MaxSideNodes = 14

	boxWidth     = 230 // wide layout: a box
	gap          = 110 // wide layout: between columns, where edges run
	narrowBox    = 292 // narrow layout: a box (the drawing is 340 wide)
	margin       = 24  // narrow layout: the margins edges run in
	boxHeight    = 38  // two lines: the label, then the relation
	row          = 48  // box height plus the gap between boxes
	headerHeight = 22  // a column's header line
	legend       = 30  // the legend below the drawing
	pad          = 8
	fontSize     = 12 // labels; the relation line and headers are 11

	// labelRunes is where a long label is cut and ends in "…";
	// staleLabelRunes leaves room for the stale badge.
	labelRunes      = 30
	staleLabelRunes = 24
)

// Draw draws the neighborhood nb of the node with id center as inline
// SVG, with href giving each node's link: two drawings, a wide one and a
// narrow one for phones (the stylesheet shows one of them). The same input
// gives the same bytes.
//
// The drawing is a star, so that no edge passes behind a box and none
// crosses another: the center in the middle, the nodes with an edge to it
// on the left ("in"), those it has an edge to on the right ("out"); in the
// narrow drawing "in" stands above the center and "out" below, and edges
// run in the margins. Each edge ends in an arrowhead, its style says its
// relation (a legend explains them), and each neighbor's box says the
// edge's kind ("implements", "calls"). A neighbor linked several ways is
// drawn once per side with every kind. On a file's page the file and its
// own symbols are the center: their neighbors are grouped, each once,
// saying through which symbols ("via Cart.Total"). Edges between two
// neighbors are not drawn (the list of neighbors below has them). A side
// draws at most [MaxSideNodes] boxes, stale ones first; the rest collapse
// into a "+N more" box linking to #neighbors.
//
// The output carries no colors: the site stylesheet matches these classes.
//
//	svg   tw-graph wide|narrow      a drawing (role="img", aria-label)
//	text  col-title                 a side's header: "links in (3)"
//	a     node node-TYPE            a node's link around its title, rect
//	                                and texts; TYPE is its type
//	      center                    the node of the page
//	      stale, unknown            its state (a stale one shows a badge)
//	text  label                     a node's label
//	text  rel                       the kinds of its edges to the center
//	text  badge                     the "stale" badge of a stale node
//	a     node more                 a "+N more" box, linking to #neighbors
//	path  edge rel-RELATION         an edge: rel-declared, rel-located or
//	                                rel-verified, plus stale and unknown
//	g     legend                    the legend of edge styles
//	text  empty                     the "no neighbors" text
//
// Links whose scheme is not http, https or mailto become "#ZgotmplZ", as
// html/template does.
func Draw(nb synth.Neighborhood, center synth.NodeID, href func(n synth.Node) string) template.HTML {
	st := starOf(nb, center)
	label := "Neighborhood of " + center.String() + ": " + count(len(nb.Nodes), "node") + ", " + count(len(nb.Edges), "edge")
	var b strings.Builder
	if len(st.in)+len(st.out) == 0 {
		w, h := boxWidth+2*pad, boxHeight+2*pad
		open(&b, "", w, h, label)
		b.WriteString(`<text class="empty" x="` + strconv.Itoa(w/2) + `" y="` + strconv.Itoa(h/2+fontSize/3) +
			`" text-anchor="middle">no neighbors</text></svg>`)
		return template.HTML(b.String())
	}
	b.Grow(2048 + 1200*(len(st.in)+len(st.out)))
	st.draw(&b, false, label, href)
	b.WriteString("\n")
	st.draw(&b, true, label, href)
	return template.HTML(b.String())
}

// star is a neighborhood seen from its center: the neighbors on each side.
type star struct {
	center              *synth.Node
	members             int // center nodes besides the center itself (a file's symbols)
	in, out             []*neighbor
	hiddenIn, hiddenOut int // neighbors past MaxSideNodes
}

// neighbor is one box: a neighbor and its edges with the center.
type neighbor struct {
	node     *synth.Node
	kinds    []string // sorted, unique
	via      []string // the center's members the edges attach to, sorted, unique
	relation string   // the strongest: verified, declared, located
	stale    bool     // an edge is stale
	unknown  bool     // an edge is unknown
	why      string   // the first stale or unknown edge's why
}

// starOf gathers the neighbors of center in nb. When center is a file,
// the file's own symbols and tests stand with it in the center.
func starOf(nb synth.Neighborhood, center synth.NodeID) star {
	byID := map[synth.NodeID]*synth.Node{}
	for i := range nb.Nodes {
		byID[nb.Nodes[i].ID] = &nb.Nodes[i]
	}
	st := star{center: byID[center]}
	if st.center == nil {
		n := nodeOf(center)
		st.center = &n
	}
	inCenter := func(id synth.NodeID) bool {
		if id == center {
			return true
		}
		n := byID[id]
		return st.center.Type == claims.NodeFile && n != nil && n.Path == st.center.Path && synth.KindOf(n.Type).Named
	}
	for _, n := range nb.Nodes {
		if n.ID != center && inCenter(n.ID) {
			st.members++
		}
	}
	in, out := map[synth.NodeID]*neighbor{}, map[synth.NodeID]*neighbor{}
	for _, e := range nb.Edges {
		var other, member synth.NodeID
		var side map[synth.NodeID]*neighbor
		switch {
		case inCenter(e.Src) && !inCenter(e.Dst):
			other, member, side = e.Dst, e.Src, out
		case inCenter(e.Dst) && !inCenter(e.Src):
			other, member, side = e.Src, e.Dst, in
		default:
			continue
		}
		nbr := side[other]
		if nbr == nil {
			n := byID[other]
			if n == nil {
				m := nodeOf(other)
				n = &m
			}
			nbr = &neighbor{node: n}
			side[other] = nbr
		}
		nbr.kinds = append(nbr.kinds, e.Kind)
		if member != center {
			nbr.via = append(nbr.via, strings.TrimPrefix(strings.TrimPrefix(member.Key, st.center.Path), "@"))
		}
		if relRank(e.Relation) < relRank(nbr.relation) || nbr.relation == "" {
			nbr.relation = e.Relation
		}
		if (e.Stale || e.State == "unknown") && nbr.why == "" {
			nbr.why = e.Why
		}
		nbr.stale = nbr.stale || e.Stale
		nbr.unknown = nbr.unknown || e.State == "unknown"
	}
	st.in, st.hiddenIn = side(in)
	st.out, st.hiddenOut = side(out)
	return st
}

// side orders one side's neighbors (stale and unknown first, then
// verified, declared and located links, then by kind in the kind table's
// order, then naturally by label and id) and keeps the first MaxSideNodes,
// returning how many it left out.
func side(m map[synth.NodeID]*neighbor) ([]*neighbor, int) {
	var out []*neighbor
	for _, n := range m {
		slices.Sort(n.kinds)
		n.kinds = slices.Compact(n.kinds)
		slices.Sort(n.via)
		n.via = slices.Compact(n.via)
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *neighbor) int {
		return cmp.Or(
			first(a.stale || a.node.Stale || a.unknown, b.stale || b.node.Stale || b.unknown),
			cmp.Compare(relRank(a.relation), relRank(b.relation)),
			cmp.Compare(synth.KindRank(a.node.Type), synth.KindRank(b.node.Type)),
			cmp.Compare(a.node.Type, b.node.Type),
			claims.CompareIDs(cmp.Or(a.node.Label, a.node.ID.String()), cmp.Or(b.node.Label, b.node.ID.String())),
			a.node.ID.Compare(b.node.ID),
		)
	})
	if len(out) > MaxSideNodes {
		return out[:MaxSideNodes], len(out) - MaxSideNodes
	}
	return out, 0
}

// relRank orders relations from the strongest.
func relRank(rel string) int {
	switch rel {
	case synth.Verified:
		return 0
	case synth.Declared:
		return 1
	case synth.Located:
		return 2
	}
	return 3
}

func nodeOf(id synth.NodeID) synth.Node {
	return synth.Node{ID: id, Type: id.Type, Label: id.Key}
}

// boxAt is a box's place: its top-left corner and width.
type boxAt struct{ x, y, w int }

// draw writes one drawing: wide (columns in, center, out) or narrow (one
// column: in, center, out, from the top).
func (st star) draw(b *strings.Builder, narrow bool, label string, href func(synth.Node) string) {
	rowsIn := len(st.in) + min(st.hiddenIn, 1)
	rowsOut := len(st.out) + min(st.hiddenOut, 1)
	var w, h int
	var centerAt boxAt
	var inAt, outAt func(i int) boxAt
	class := "wide"
	if narrow {
		class = "narrow"
		w = 2*margin + narrowBox
		top := pad
		if rowsIn > 0 {
			top += headerHeight + rowsIn*row
		}
		centerAt = boxAt{margin, top, narrowBox}
		inAt = func(i int) boxAt { return boxAt{margin, pad + headerHeight + i*row, narrowBox} }
		outTop := top + row + headerHeight
		outAt = func(i int) boxAt { return boxAt{margin, outTop + i*row, narrowBox} }
		h = top + row
		if rowsOut > 0 {
			h = outTop + rowsOut*row
		}
	} else {
		x := pad
		inX := x
		if rowsIn > 0 {
			x += boxWidth + gap
		}
		cx := x
		outX := cx + boxWidth + gap
		w = cx + boxWidth + pad
		if rowsOut > 0 {
			w = outX + boxWidth + pad
		}
		rows := max(rowsIn, rowsOut, 1)
		body := rows*row - (row - boxHeight)
		top := pad + headerHeight
		centerAt = boxAt{cx, top + (body-boxHeight)/2, boxWidth}
		inAt = func(i int) boxAt {
			return boxAt{inX, top + (body-(rowsIn*row-(row-boxHeight)))/2 + i*row, boxWidth}
		}
		outAt = func(i int) boxAt {
			return boxAt{outX, top + (body-(rowsOut*row-(row-boxHeight)))/2 + i*row, boxWidth}
		}
		h = top + body + pad
	}
	h += legend
	if narrow {
		h += 20 // the legend's second row
	}
	open(b, class, w, h, label)
	b.WriteString(`<defs>`)
	for _, m := range []string{"declared", "located", "verified", "stale", "unknown"} {
		b.WriteString(`<marker id="tw-arrow-` + class + `-` + m + `" class="arrow arrow-` + m +
			`" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker>`)
	}
	b.WriteString(`</defs>`)

	// Headers.
	colTitle := func(x, y int, text string) {
		b.WriteString(`<text class="col-title" x="` + strconv.Itoa(x) + `" y="` + strconv.Itoa(y) + `">`)
		escape(b, text)
		b.WriteString(`</text>`)
	}
	if rowsIn > 0 {
		a := inAt(0)
		colTitle(a.x, a.y-8, "links in ("+strconv.Itoa(len(st.in)+st.hiddenIn)+")")
	}
	if rowsOut > 0 {
		a := outAt(0)
		colTitle(a.x, a.y-8, "links out ("+strconv.Itoa(len(st.out)+st.hiddenOut)+")")
	}

	// Edges, before the boxes; every one runs between a box and the
	// center through empty space.
	edge := func(n *neighbor, from, to boxAt, inward bool) {
		var d string
		if narrow {
			// Along a margin: "in" on the left, "out" on the right.
			if inward {
				y1, y2 := from.y+boxHeight/2, to.y+boxHeight/2-6
				d = "M" + strconv.Itoa(from.x) + " " + strconv.Itoa(y1) + " C" + strconv.Itoa(from.x-20) + " " + strconv.Itoa(y1) +
					" " + strconv.Itoa(to.x-20) + " " + strconv.Itoa(y2) + " " + strconv.Itoa(to.x) + " " + strconv.Itoa(y2)
			} else {
				x := from.x + from.w
				y1, y2 := from.y+boxHeight/2+6, to.y+boxHeight/2
				d = "M" + strconv.Itoa(x) + " " + strconv.Itoa(y1) + " C" + strconv.Itoa(x+20) + " " + strconv.Itoa(y1) +
					" " + strconv.Itoa(x+20) + " " + strconv.Itoa(y2) + " " + strconv.Itoa(x) + " " + strconv.Itoa(y2)
			}
		} else {
			x1, y1 := from.x+from.w, from.y+boxHeight/2
			x2, y2 := to.x, to.y+boxHeight/2
			mid := (x1 + x2) / 2
			d = "M" + strconv.Itoa(x1) + " " + strconv.Itoa(y1) + " C" + strconv.Itoa(mid) + " " + strconv.Itoa(y1) +
				" " + strconv.Itoa(mid) + " " + strconv.Itoa(y2) + " " + strconv.Itoa(x2) + " " + strconv.Itoa(y2)
		}
		cls, marker := "edge rel-"+n.relation, n.relation
		if n.stale {
			cls, marker = cls+" stale", "stale"
		} else if n.unknown {
			cls, marker = cls+" unknown", "unknown"
		}
		if !slices.Contains([]string{"declared", "located", "verified", "stale", "unknown"}, marker) {
			marker = "declared"
		}
		b.WriteString(`<path class="`)
		escape(b, cls)
		b.WriteString(`" fill="none" marker-end="url(#tw-arrow-` + class + `-` + marker + `)" d="` + d + `"><title>`)
		src, dst := n.node.ID, st.center.ID
		if !inward {
			src, dst = dst, src
		}
		t := src.String() + " —" + strings.Join(n.kinds, ", ") + "→ " + dst.String()
		if n.why != "" {
			t += ": " + n.why
		}
		escape(b, t)
		b.WriteString(`</title></path>`)
	}
	for i, n := range st.in {
		edge(n, inAt(i), centerAt, true)
	}
	for i, n := range st.out {
		edge(n, centerAt, outAt(i), false)
	}

	// Boxes.
	c := st.center
	sub := string(c.Type)
	if st.members > 0 {
		sub = string(c.Type) + " and its " + count(st.members, "symbol")
	}
	box(b, centerAt, nodeClass(c, "center"), href(*c), nodeTitle(c, c.Why), boxLabel(c, centerAt.w), sub, c.Stale)
	for _, side := range []struct {
		ns     []*neighbor
		hidden int
		at     func(int) boxAt
	}{{st.in, st.hiddenIn, inAt}, {st.out, st.hiddenOut, outAt}} {
		for i, n := range side.ns {
			sub := strings.Join(n.kinds, ", ")
			if len(n.via) > 0 {
				sub += " via " + n.via[0]
				if len(n.via) > 1 {
					sub += " +" + strconv.Itoa(len(n.via)-1)
				}
			}
			sub = string(n.node.Type) + " · " + sub
			why := n.node.Why
			if why == "" {
				why = n.why
			}
			extra := ""
			if n.stale && !n.node.Stale {
				extra = "stale"
			} else if n.unknown && n.node.State != "unknown" {
				extra = "unknown"
			}
			box(b, side.at(i), nodeClass(n.node, extra), href(*n.node), nodeTitle(n.node, why), boxLabel(n.node, side.at(i).w), sub, n.node.Stale || n.stale)
		}
		if side.hidden > 0 {
			text := "+" + strconv.Itoa(side.hidden) + " more"
			box(b, side.at(len(side.ns)), "node more", "#neighbors", strconv.Itoa(side.hidden)+" more: see the list of neighbors", text, "in the list below", false)
		}
	}

	// Legend: one sample per edge style, in two rows on the narrow drawing.
	b.WriteString(`<g class="legend">`)
	y := h - legend + 12
	x := pad
	for i, l := range []struct{ rel, cls, text string }{
		{"declared", "edge rel-declared", "declared"},
		{"located", "edge rel-located", "located (found in code)"},
		{"verified", "edge rel-verified", "verified"},
		{"stale", "edge rel-declared stale", "stale"},
	} {
		if narrow && i == 2 {
			x, y = pad, y+20
		}
		b.WriteString(`<path class="` + l.cls + `" fill="none" marker-end="url(#tw-arrow-` + class + `-` + l.rel + `)" d="M` +
			strconv.Itoa(x) + " " + strconv.Itoa(y) + " L" + strconv.Itoa(x+22) + " " + strconv.Itoa(y) + `"/>`)
		b.WriteString(`<text class="rel" x="` + strconv.Itoa(x+28) + `" y="` + strconv.Itoa(y+4) + `">` + l.text + `</text>`)
		x += 40 + len(l.text)*6
	}
	b.WriteString(`</g></svg>`)
}

func nodeClass(n *synth.Node, extra string) string {
	class := "node node-" + string(n.Type)
	if extra != "" {
		class += " " + extra
	}
	if n.Stale && extra != "stale" {
		class += " stale"
	}
	if n.State == "unknown" && extra != "unknown" {
		class += " unknown"
	}
	return class
}

func nodeTitle(n *synth.Node, why string) string {
	if why != "" {
		return n.ID.String() + "\n" + why
	}
	return n.ID.String()
}

// boxLabel is a node's label cut to fit a box of width w.
func boxLabel(n *synth.Node, w int) string {
	text := cmp.Or(n.Label, n.ID.String())
	runes := labelRunes * w / boxWidth
	if n.Stale {
		runes = staleLabelRunes * w / boxWidth
	}
	return truncate(text, runes)
}

// count returns "1 node", "2 nodes".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// first orders true before false.
func first(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// open starts a drawing: a viewBox and no fixed size, so the stylesheet
// fits it to the page, never wider than its natural width (max-width).
func open(b *strings.Builder, class string, w, h int, label string) {
	ws, hs := strconv.Itoa(w), strconv.Itoa(h)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="tw-graph`)
	if class != "" {
		b.WriteString(" " + class)
	}
	b.WriteString(`" role="img" aria-label="`)
	escape(b, label)
	b.WriteString(`" viewBox="0 0 ` + ws + ` ` + hs + `" style="max-width:` + ws + `px" font-size="` + strconv.Itoa(fontSize) + `">`)
}

// box writes one linked box with its hover title, label and relation
// line.
func box(b *strings.Builder, at boxAt, class, href, title, text, sub string, stale bool) {
	xs, ys := strconv.Itoa(at.x), strconv.Itoa(at.y)
	b.WriteString(`<a class="`)
	escape(b, class)
	b.WriteString(`" href="`)
	escape(b, safeURL(href))
	b.WriteString(`"><title>`)
	escape(b, title)
	b.WriteString(`</title><rect x="` + xs + `" y="` + ys + `" width="` + strconv.Itoa(at.w) +
		`" height="` + strconv.Itoa(boxHeight) + `" rx="4"/><text class="label" x="` + strconv.Itoa(at.x+8) +
		`" y="` + strconv.Itoa(at.y+16) + `">`)
	escape(b, text)
	b.WriteString(`</text><text class="rel" x="` + strconv.Itoa(at.x+8) + `" y="` + strconv.Itoa(at.y+31) + `">`)
	escape(b, truncate(sub, 40*at.w/boxWidth))
	b.WriteString(`</text>`)
	if stale {
		b.WriteString(`<text class="badge" x="` + strconv.Itoa(at.x+at.w-6) + `" y="` +
			strconv.Itoa(at.y+16) + `" text-anchor="end">stale</text>`)
	}
	b.WriteString(`</a>`)
}

// truncate cuts s to n runes, the last of them an ellipsis.
func truncate(s string, n int) string {
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

// safeURL keeps a relative URL or one with an http, https or mailto
// scheme and replaces any other (javascript:, data:) with the harmless
// marker html/template uses, so a bad href function cannot inject script.
func safeURL(u string) string {
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		switch strings.ToLower(u[:i]) {
		case "http", "https", "mailto":
		default:
			return "#ZgotmplZ"
		}
	}
	return u
}

// escape writes s escaped for both SVG text and a double- or
// single-quoted attribute. Characters XML forbids (most C0 controls,
// invalid UTF-8, U+FFFE, U+FFFF) become U+FFFD, so the output stays
// well-formed XML as well as HTML.
func escape(b *strings.Builder, s string) {
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
			r == utf8.RuneError && badRune(s[i:]):
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

// badRune reports whether s starts with invalid UTF-8 (rather than an
// encoded U+FFFD).
func badRune(s string) bool {
	_, size := utf8.DecodeRuneInString(s)
	return size == 1
}
