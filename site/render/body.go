package render

import (
	"bytes"
	"html/template"
	"slices"
)

// BodySpan is where a page's body is in its index.html: how many bytes
// come before it and after it (see [findBody]); and where the rows of its
// claims table are, the same way (both 0 when it has none).
type BodySpan struct{ Head, Tail, RowsHead, RowsTail int }

// The HTML around a node page's body ("node.html") and the rows of its
// claims table ("claims" in layout.html, rows.go's claimRows).
const (
	bodyOpen  = `<div class="body">`
	bodyClose = `</div>`
	rowsOpen  = "<thead><tr><th>claim</th><th>code</th><th>captured</th><th>state</th></tr></thead>\n<tbody>\n"
	rowsClose = `</tbody>`
)

// findBody returns where the body is in a page's HTML: the one place the
// body appears between bodyOpen and bodyClose. False when it is empty or
// appears more than once: the template writes it once, so a body found
// once is the body. The claims table's rows are after the body: between
// the first rowsOpen there and the next rowsClose. Nothing the template
// writes between the body and the claims table (the tables, the changed
// texts) has the claims table's head, and the rows escape every text, so
// none holds a tag.
func findBody(html []byte, body template.HTML) (BodySpan, bool) {
	if body == "" {
		return BodySpan{}, false
	}
	// Every place the body is starts with bodyOpen, which a page holds
	// about once: the body is compared there, instead of searched for
	// through the page, twice, as a needle of kilobytes.
	at := -1
	for i := 0; ; i++ {
		j := bytes.Index(html[i:], []byte(bodyOpen))
		if j < 0 {
			break
		}
		i += j
		if bodyAt(html, i, body) {
			if at >= 0 {
				return BodySpan{}, false
			}
			at = i
		}
	}
	if at < 0 {
		return BodySpan{}, false
	}
	after := at + len(bodyOpen) + len(body) + len(bodyClose)
	span := BodySpan{Head: at + len(bodyOpen), Tail: len(html) - after + len(bodyClose)}
	if j := bytes.Index(html[after:], []byte(rowsOpen)); j >= 0 {
		head := after + j + len(rowsOpen)
		end := bytes.Index(html[head:], []byte(rowsClose))
		if end < 0 {
			return BodySpan{}, false
		}
		span.RowsHead, span.RowsTail = head, len(html)-head-end
	}
	return span, true
}

// bodyAt reports whether body and bodyClose follow the bodyOpen at i of
// html.
func bodyAt(html []byte, i int, body template.HTML) bool {
	rest := html[i:]
	n := len(bodyOpen) + len(body)
	return len(rest) >= n+len(bodyClose) && string(rest[len(bodyOpen):n]) == string(body) &&
		string(rest[n:n+len(bodyClose)]) == bodyClose
}

// SpliceBody returns the page's HTML old with body in place of its body at
// span and, unless rows is nil, rows as its claims table's rows, and where
// they are in it; false when span does not fit old.
func SpliceBody(old []byte, span BodySpan, body string, rows []ClaimRow) ([]byte, BodySpan, bool) {
	end := len(old) - span.Tail
	if span.Head < len(bodyOpen) || span.Tail < len(bodyClose) || end < span.Head ||
		string(old[span.Head-len(bodyOpen):span.Head]) != bodyOpen || !bytes.HasPrefix(old[end:], []byte(bodyClose)) {
		return nil, BodySpan{}, false
	}
	grown := len(body) - (end - span.Head) // how much longer the body is
	if span.RowsHead > 0 {
		span.RowsHead += grown
	}
	if rows == nil {
		return slices.Concat(old[:span.Head], []byte(body), old[end:]), span, true
	}
	rowsEnd := len(old) - span.RowsTail
	oldHead := span.RowsHead - grown
	if oldHead < end+len(rowsOpen) || span.RowsTail < len(rowsClose) || rowsEnd < oldHead ||
		string(old[oldHead-len(rowsOpen):oldHead]) != rowsOpen || !bytes.HasPrefix(old[rowsEnd:], []byte(rowsClose)) {
		return nil, BodySpan{}, false
	}
	html := []byte(claimRows(rows))
	span.Tail += len(html) - (rowsEnd - oldHead)
	return slices.Concat(old[:span.Head], []byte(body), old[end:oldHead], html, old[rowsEnd:]), span, true
}
