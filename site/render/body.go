package render

import (
	"bytes"
	"html/template"
	"slices"
)

// BodySpan is where a page's body is in its index.html: how many bytes
// come before it and after it (see [findBody]).
type BodySpan struct{ Head, Tail int }

// The HTML around a node page's body ("node.html").
const (
	bodyOpen  = `<div class="body">`
	bodyClose = `</div>`
)

// findBody returns where the body is in a page's HTML: the one place the
// body appears between bodyOpen and bodyClose. False when it is empty or
// appears more than once: the template writes it once, so a body found
// once is the body.
func findBody(html []byte, body template.HTML) (BodySpan, bool) {
	if body == "" {
		return BodySpan{}, false
	}
	needle := []byte(bodyOpen + string(body) + bodyClose)
	i := bytes.Index(html, needle)
	if i < 0 || bytes.Contains(html[i+1:], needle) {
		return BodySpan{}, false
	}
	return BodySpan{Head: i + len(bodyOpen), Tail: len(html) - i - len(needle) + len(bodyClose)}, true
}

// SpliceBody returns the page's HTML old with body in place of its body at
// span; false when span does not fit old.
func SpliceBody(old []byte, span BodySpan, body string) ([]byte, bool) {
	end := len(old) - span.Tail
	if span.Head < len(bodyOpen) || span.Tail < len(bodyClose) || end < span.Head ||
		string(old[span.Head-len(bodyOpen):span.Head]) != bodyOpen || !bytes.HasPrefix(old[end:], []byte(bodyClose)) {
		return nil, false
	}
	return slices.Concat(old[:span.Head], []byte(body), old[end:]), true
}
