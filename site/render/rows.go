package render

import (
	"html/template"
	"strconv"
	"strings"
)

// The rows of the tables most pages show (a node's neighbors, a page's
// claims, the link and symbol tables) and of the requirements matrix are
// written here rather than by the templates. html/template evaluates every
// value of every cell through reflection and then an escaper, also called
// through reflection; in an 11,000-page site that was most of the
// templates' time, the largest single cost of a cold build. The markup and the escaping are exactly the
// templates' (TestRowsAsTemplates renders both and compares them, and
// FuzzRowsAsTemplates looks for a value they escape apart).
var rowFuncs = template.FuncMap{
	"neighborRows": neighborRows,
	"claimRows":    claimRows,
	"tableRows":    tableRows,
	"matrixRows":   matrixRows,
}

// neighborRows is the body of a node's neighbors table.
func neighborRows(rows []neighborRow) template.HTML {
	var w htmlWriter
	w.b.Grow(rowBytes * len(rows))
	for _, r := range rows {
		w.markup("<tr")
		if r.Node.Stale || r.Edge.Stale {
			w.markup(` class="stale"`)
		}
		w.markup(">\n<td>")
		w.anchor(r.URL, r.Node.Label, false)
		w.markup("</td>\n<td>")
		w.text(string(r.Node.Type))
		w.markup("</td>\n<td>")
		w.text(r.Dir)
		w.markup(" ")
		w.text(r.Edge.Kind)
		if r.Via != "" {
			w.markup(" <code>")
			w.text(r.Via)
			w.markup("</code>")
		}
		w.markup("</td>\n<td>")
		w.text(r.Edge.Relation)
		w.markup("</td>\n<td>")
		switch {
		case r.Edge.Stale:
			w.badge("stale", r.Edge.Why, "stale")
			w.markup(" ")
			w.text(r.Edge.Why)
		case r.Edge.State == "unknown":
			w.markup(`<span class="badge badge-unknown">unknown</span> `)
			w.text(r.Edge.Why)
		case r.Node.Stale:
			w.badge("stale", r.Node.Why, "stale")
			w.markup(" ")
			w.text(r.Node.Why)
		case r.Edge.Why != "":
			w.markup(`<span class="hint">`)
			w.text(r.Edge.Why)
			w.markup("</span>")
		}
		w.markup("</td>\n</tr>\n")
	}
	return w.html()
}

// claimRows is the body of a page's claims table.
func claimRows(rows []ClaimRow) template.HTML {
	var w htmlWriter
	w.b.Grow(rowBytes * len(rows))
	for _, r := range rows {
		w.markup(`<tr class="state-`)
		w.text(r.State)
		w.markup("\">\n<td>")
		w.text(r.Text)
		w.markup("</td>\n<td>")
		if r.URL != "" {
			w.markup(`<a href="`)
			w.url(r.URL)
			w.markup(`" title="`)
			w.text(r.URI)
			w.markup(`"><code>`)
			w.text(r.Ref)
			w.markup("</code></a>")
		} else {
			w.markup(`<span class="hint">no code target</span>`)
		}
		w.markup("</td>\n<td>")
		w.text(r.Captured)
		w.markup("</td>\n<td>")
		if r.State != "" {
			w.badge(r.State, r.Why, r.State)
		}
		w.markup(" ")
		w.text(r.Detail)
		w.markup("</td>\n</tr>\n")
	}
	return w.html()
}

// tableRows is the body of a links or symbols table.
func tableRows(rows []row) template.HTML {
	var w htmlWriter
	if len(rows) > 0 {
		w.b.Grow(rowBytes / 2 * len(rows) * max(len(rows[0].Cells), 1))
	}
	for _, r := range rows {
		w.markup("<tr")
		if r.ID != "" {
			w.markup(` id="`)
			w.text(r.ID)
			w.markup(`"`)
		}
		switch {
		case r.Stale:
			w.markup(` class="stale"`)
		case r.Superseded:
			w.markup(` class="superseded"`)
		}
		w.markup(">")
		for _, c := range r.Cells {
			w.markup("<td>")
			switch {
			case c.URL != "":
				w.anchor(c.URL, c.Text, c.Code)
			case c.Badge != "":
				w.badge(c.Badge, c.Title, c.Text)
			default:
				w.code(c.Text, c.Code)
			}
			w.markup("</td>")
		}
		w.markup("</tr>\n")
	}
	return w.html()
}

// matrixRows is the body of the requirements matrix.
func matrixRows(rows []matrixRow) template.HTML {
	var w htmlWriter
	w.b.Grow(4 * rowBytes * len(rows))
	for _, r := range rows {
		w.markup(`<tr id="`)
		w.text(r.Node.Label)
		w.markup(`" data-order="`)
		w.markup(strconv.Itoa(r.Order))
		w.markup(`" data-status="`)
		w.text(r.Node.Status)
		w.markup(`" data-stale="` + strconv.FormatBool(r.Node.Stale))
		w.markup(`" data-implemented="` + strconv.FormatBool(r.Implemented))
		w.markup(`" data-tested="` + strconv.FormatBool(r.Tested))
		w.markup(`" data-verified="` + strconv.FormatBool(r.Verified))
		w.markup(`" data-tags="`)
		w.text(r.Tags)
		w.markup(`"`)
		if r.Node.Stale {
			w.markup(` class="stale"`)
		}
		w.markup(">\n<td>")
		w.anchor(r.URL, r.Node.Label, false)
		w.markup("</td>\n<td>")
		w.text(r.Node.Title)
		// The states come right after the title, so that they stay in view
		// however long the lists of code and tests are.
		w.markup("</td>\n<td>")
		w.yesNo(r.Implemented, "implemented", "warn", "no implements link is linked")
		w.markup("</td>\n<td>")
		w.yesNo(r.Tested, "tested", "no", "no tests link is linked")
		w.markup("</td>\n<td>")
		w.yesNo(r.Verified, "verified", "no", "not verified")
		w.markup("</td>\n<td>")
		if r.Node.Stale {
			w.badge("stale", r.Node.Why, "stale")
		} else {
			w.markup(noneHint)
		}
		w.markup("</td>\n<td>")
		w.text(r.Node.Status)
		w.markup("</td>\n<td>")
		if r.Document.Text != "" {
			w.link(r.Document.Text, r.Document.URL)
		} else {
			w.markup(noneHint)
		}
		w.markup("</td>\n<td>")
		for i, p := range r.Parents {
			if i > 0 {
				w.markup(", ")
			}
			w.link(p.Text, p.URL)
		}
		if len(r.Parents) == 0 {
			w.markup(noneHint)
		}
		w.markup("</td>\n<td>")
		if r.Tags != "" || len(r.Fields) > 0 {
			if len(r.Node.Tags) > 0 {
				w.markup(`<span class="tags">`)
				for _, t := range r.Node.Tags {
					w.markup(`<span class="badge tag">`)
					w.text(t)
					w.markup("</span> ")
				}
				w.markup("</span>")
			}
			for _, f := range r.Fields {
				w.markup(`<div class="field"><span class="hint">`)
				w.text(f.Name)
				w.markup(":</span> ")
				w.text(f.Value)
				w.markup("</div>")
			}
		} else {
			w.markup(noneHint)
		}
		w.markup("</td>\n<td>")
		w.refs(r.Code)
		w.markup("</td>\n<td>")
		w.refs(r.Tests)
		w.markup("</td>\n</tr>\n")
	}
	return w.html()
}

// noneHint fills a matrix cell with nothing to show.
const noneHint = `<span class="hint">–</span>`

// link writes text, linked to url when there is one.
func (w *htmlWriter) link(text, url string) {
	if url == "" {
		w.text(text)
		return
	}
	w.anchor(url, text, false)
}

// matrixRefsShown is how many of a matrix cell's code or tests links show;
// the rest fold into a <details> ("3 more"), so that a requirement with
// many links keeps its row short. The matrix lists a cell's links that are
// not linked first (refStates), so the fold hides a problem only when the
// links shown are problems too.
const matrixRefsShown = 4

// refs writes a matrix cell's linked code or tests with their states,
// folding those past matrixRefsShown.
func (w *htmlWriter) refs(refs []refState) {
	if len(refs) == 0 {
		w.markup(`<span class="hint">none</span>`)
		return
	}
	shown, folded := foldRefs(refs)
	w.refList(shown)
	if len(folded) > 0 {
		w.markup(`<details class="refs-more"><summary>`)
		w.markup(strconv.Itoa(len(folded)))
		w.markup(" more</summary>")
		w.refList(folded)
		w.markup("</details>")
	}
}

// foldRefs splits a cell's links into those shown and those folded.
func foldRefs(refs []refState) (shown, folded []refState) {
	if len(refs) <= matrixRefsShown {
		return refs, nil
	}
	return refs[:matrixRefsShown], refs[matrixRefsShown:]
}

// refList writes links with their states as a list.
func (w *htmlWriter) refList(refs []refState) {
	w.markup(`<ul class="refs">`)
	for _, r := range refs {
		w.markup("<li>")
		if r.URL != "" {
			w.markup(`<a href="`)
			w.url(r.URL)
			w.markup(`">`)
		}
		w.markup("<code>")
		w.breakable(r.Ref)
		w.markup("</code>")
		if r.URL != "" {
			w.markup("</a>")
		}
		w.markup(" ")
		w.badge(r.State, r.Why, r.State)
		if r.Marker != "" {
			w.markup(` <span class="hint">marker `)
			w.text(r.Marker)
			w.markup("</span>")
		}
		w.markup("</li>")
	}
	w.markup("</ul>")
}

// breakable writes a target ref with a line-break opportunity (<wbr>) at
// each of its joints (refParts): a long ref wraps there rather than
// widening its column and pushing the matrix's last columns off-screen.
func (w *htmlWriter) breakable(ref string) {
	for i, part := range refParts(ref) {
		if i > 0 {
			w.markup("<wbr>")
		}
		w.text(part)
	}
}

// refParts cuts a target ref after each '/' and '@' and before a '#'
// ("a/b.go@T.M" → "a/", "b.go@", "T.M"); joined, the parts are the ref.
func refParts(ref string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(ref); i++ {
		switch ref[i] {
		case '/', '@':
			parts = append(parts, ref[start:i+1])
			start = i + 1
		case '#':
			if i > start {
				parts = append(parts, ref[start:i])
				start = i
			}
		}
	}
	if start < len(ref) || len(parts) == 0 {
		parts = append(parts, ref[start:])
	}
	return parts
}

// yesNo writes a matrix verdict: a "yes" badge titled yes, or a "no" badge
// of class no titled why.
func (w *htmlWriter) yesNo(ok bool, yes, no, why string) {
	if ok {
		w.markup(`<span class="badge badge-yes" title="` + yes + `">yes</span>`)
		return
	}
	w.markup(`<span class="badge badge-` + no + `" title="` + why + `">no</span>`)
}

// rowBytes is about the length of a neighbor's or a claim's row, and of
// two cells of a table, on the bench's sites (150-400 bytes): the rows are
// written into a string grown once rather than doubled from nothing.
const rowBytes = 256

// htmlWriter writes HTML, escaping values as html/template escapes a
// string in the same place.
type htmlWriter struct{ b strings.Builder }

func (w *htmlWriter) html() template.HTML { return template.HTML(w.b.String()) }

// markup writes s as it is.
func (w *htmlWriter) markup(s string) { w.b.WriteString(s) }

// text writes s in text or in a quoted attribute other than a URL.
func (w *htmlWriter) text(s string) {
	written := 0
	for i, c := range []byte(s) {
		var repl string
		switch c {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		w.b.WriteString(s[written:i])
		w.b.WriteString(repl)
		written = i + 1
	}
	w.b.WriteString(s[written:])
}

// url writes s as the whole value of a quoted href: a URL whose scheme is
// not http, https or mailto is replaced (as html/template's "#ZgotmplZ"),
// bytes outside URLs are percent-encoded (a '%' that starts an escape is
// kept), and the result is escaped for the attribute.
func (w *htmlWriter) url(s string) {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		s = "#ZgotmplZ"
	}
	written := 0
	for i, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case strings.IndexByte("!#$*,/:;=?@[]-._~", c) >= 0:
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue // an escape already
		case c == '&':
			w.b.WriteString(s[written:i])
			w.b.WriteString("&amp;")
		case c == '+':
			w.b.WriteString(s[written:i])
			w.b.WriteString("&#43;")
		default:
			w.b.WriteString(s[written:i])
			w.b.WriteByte('%')
			w.b.WriteByte(hexDigits[c>>4])
			w.b.WriteByte(hexDigits[c&15])
		}
		written = i + 1
	}
	w.b.WriteString(s[written:])
}

const hexDigits = "0123456789abcdef"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// code writes text, in a code element when code is set.
func (w *htmlWriter) code(text string, code bool) {
	if code {
		w.markup("<code>")
		w.text(text)
		w.markup("</code>")
		return
	}
	w.text(text)
}

// anchor writes text, in a code element when code is set, linked to url
// (also when url is "", as the templates did).
func (w *htmlWriter) anchor(url, text string, code bool) {
	w.markup(`<a href="`)
	w.url(url)
	w.markup(`">`)
	w.code(text, code)
	w.markup("</a>")
}

// badge writes a badge of the class badge-<kind> titled title, showing
// text: for a state, the state and why it holds.
func (w *htmlWriter) badge(kind, title, text string) {
	w.markup(`<span class="badge badge-`)
	w.text(kind)
	w.markup(`" title="`)
	w.text(title)
	w.markup(`">`)
	w.text(text)
	w.markup("</span>")
}
