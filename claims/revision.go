package claims

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Revision returns the revision of a requirement with the given title and
// body: "sha256:" + the lowercase hex SHA-256 of the normalized title, two
// newlines, and the normalized body, where the body's paragraphs are
// unwrapped first ([unwrapParagraphs]). So a formatter that re-wraps the
// paragraphs keeps the revision, as a token hash keeps a reformatted
// function's, while a changed word, list item, heading, code block or table
// makes a new one. New lock entries record this form.
func Revision(title string, body []byte) string {
	if pos, _ := checkBody(body); pos.Line != 0 {
		// A body checkBody refuses is not parsed (the file is an error):
		// its revision is of its lines as written.
		return revisionOf(title, body)
	}
	return parsedRevision(title, body, ParseMarkdown(body))
}

// parsedRevision is [Revision] of a body parsed into doc by
// [ParseMarkdown] ([Parse] has parsed it already); nil doc: not parsed.
func parsedRevision(title string, body []byte, doc ast.Node) string {
	if doc == nil {
		return revisionOf(title, body)
	}
	return revisionOf(title, unwrapParagraphs(body, doc))
}

// LegacyRevision is the earlier form of [Revision], which kept every line
// as written. Entries recorded against it in a lock stay valid while it
// still gives their value for the current text (see [Revisions]).
func LegacyRevision(title string, body []byte) string {
	return revisionOf(title, body)
}

// Revisions is a requirement's current revision in both forms.
type Revisions struct {
	Current string // [Revision]: what new lock entries record
	Legacy  string // [LegacyRevision]: what locks recorded before it
}

// Matches reports whether recorded, a revision some lock entry was
// recorded against, is this text's revision in either form.
func (v Revisions) Matches(recorded string) bool {
	return recorded != "" && (recorded == v.Current || recorded == v.Legacy)
}

// revisionOf hashes the trimmed title and the normalized body.
func revisionOf(title string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(strings.TrimSpace(title)))
	h.Write([]byte("\n\n"))
	h.Write(normalizeBody(body))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// normalizeBody turns each CRLF into LF, strips trailing spaces and tabs
// from each line, and drops leading and trailing empty lines (the lines are
// joined by LF, with no final LF): line endings and trailing white space
// never change a revision.
func normalizeBody(body []byte) []byte {
	lines := bytes.Split(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t")
	}
	for len(lines) > 0 && len(lines[0]) == 0 {
		lines = lines[1:]
	}
	for len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return bytes.Join(lines, []byte("\n"))
}

// unwrapParagraphs returns body, parsed into doc, with the text of every
// paragraph, as Markdown parses it ([ParseMarkdown]: list items' text,
// block quotes' and lazy continuation lines included), on one line: a soft
// line break, with the indentation or "> " markers of the next line, is one
// space, and a run of spaces and tabs is one space. A hard line break (two
// trailing spaces or a backslash) stays a line break, written "\\\n" for
// both spellings, which Markdown does not tell apart. Everything else (code
// blocks, tables, headings, HTML, list markers, blank lines) is kept as
// written. A line may end in CRLF: the CR is white space at a line's end,
// and [normalizeBody] turns the CRLFs left into LFs.
func unwrapParagraphs(body []byte, doc ast.Node) []byte {
	var edits []edit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			if entering {
				edits = unwrapLines(body, n, edits)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if len(edits) == 0 {
		return body
	}
	out := make([]byte, 0, len(body))
	at := 0
	for _, e := range edits {
		out = append(out, body[at:e.start]...)
		out = append(out, e.with...)
		at = e.stop
	}
	return append(out, body[at:]...)
}

// edit replaces body[start:stop] with with.
type edit struct {
	start, stop int
	with        string
}

// unwrapLines appends the edits that put paragraph n's lines on one line.
func unwrapLines(body []byte, n ast.Node, edits []edit) []edit {
	hard := hardBreaks(n)
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		end := seg.Stop
		for end > seg.Start && isBlank(body[end-1]) {
			end--
		}
		edits = collapseSpaces(body, seg.Start, end, edits)
		if i == lines.Len()-1 {
			break
		}
		next := lines.At(i + 1).Start
		switch {
		case !breaksHard(hard, seg.Start, seg.Stop):
			edits = append(edits, edit{end, next, " "})
		case bytes.HasPrefix(body[end:seg.Stop], []byte("  ")):
			edits = append(edits, edit{end, next, "\\\n"}) // the spaces' spelling
		default: // the backslash's, which stays
			edits = append(edits, edit{end, next, "\n"})
		}
	}
	return edits
}

// collapseSpaces appends an edit for each run of spaces and tabs in
// body[start:end] that is not a single space.
func collapseSpaces(body []byte, start, end int, edits []edit) []edit {
	for i := start; i < end; i++ {
		if !isSpaceOrTab(body[i]) {
			continue
		}
		j := i + 1
		for j < end && isSpaceOrTab(body[j]) {
			j++
		}
		if j-i > 1 || body[i] != ' ' {
			edits = append(edits, edit{i, j, " "})
		}
		i = j
	}
	return edits
}

// hardBreaks returns where the text nodes under n that end in a hard line
// break end.
func hardBreaks(n ast.Node) []int {
	var at []int
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && t.HardLineBreak() {
			at = append(at, t.Segment.Stop)
		}
		return ast.WalkContinue, nil
	})
	return at
}

// breaksHard reports whether one of the hard breaks ends in [start, stop].
func breaksHard(hard []int, start, stop int) bool {
	for _, h := range hard {
		if h >= start && h <= stop {
			return true
		}
	}
	return false
}

func isBlank(c byte) bool      { return isSpaceOrTab(c) || c == '\n' || c == '\r' }
func isSpaceOrTab(c byte) bool { return c == ' ' || c == '\t' }
