package claims

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// MaxIndent bounds the indentation of a body line, in columns (a tab
// reaches the next multiple of 4), outside code blocks. Lists nested
// deeper than that (some 50 levels) are refused: the Markdown parser's
// time grows with the cube of the depth. A code block's lines (fenced or
// indented) may be indented further: their text is not Markdown, so it
// nests nothing (see [deepCodeOnly]).
const MaxIndent = 100

// checkBody finds the first thing in a Markdown body that it cannot hold:
// invalid UTF-8 (refused as in frontmatter, not copied into UTF-8 HTML) or
// a line indented more than [MaxIndent] columns outside a code block. It
// returns the body relative position (line 1 is the body's first) and a
// message, or "".
func checkBody(body []byte) (Pos, string) {
	var deep []deepLine // lines indented past MaxIndent, before any invalid UTF-8
	var bad Pos         // the first invalid UTF-8
	scanned := body
	for n, rest := 1, body; len(rest) > 0; n++ {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		if !utf8.Valid(line) {
			bad = Pos{Line: n, Col: invalidCol(line)}
			scanned = body[:len(body)-len(rest)]
			break
		}
		if indent, ok := indentOf(line); ok && indent > MaxIndent {
			deep = append(deep, deepLine{n, indent})
		}
		rest = after
	}
	if len(deep) > 0 {
		if d, ok := deepCodeOnly(scanned, deep); !ok {
			return Pos{Line: d.line, Col: 1}, fmt.Sprintf("indented %d columns, more than the %d tracewiki reads: lists nested this deep are not rendered (only a code block's lines may be indented further)", d.indent, MaxIndent)
		}
	}
	if bad.Line > 0 {
		return bad, "invalid UTF-8: the file must be UTF-8 text"
	}
	return Pos{}, ""
}

// deepLine is a body line (1-based) indented indent columns.
type deepLine struct{ line, indent int }

// invalidCol is the 1-based byte column of the first invalid UTF-8 in line.
func invalidCol(line []byte) int {
	col := 1
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if r == utf8.RuneError && size <= 1 {
			break
		}
		line, col = line[size:], col+size
	}
	return col
}

// indentOf is the indentation of a line in columns (a tab reaches the next
// multiple of 4); ok is false for a line of white space only.
func indentOf(line []byte) (indent int, ok bool) {
	for _, c := range line {
		switch c {
		case ' ':
			indent++
		case '\t':
			indent += 4 - indent%4
		case '\r':
			return indent, false
		default:
			return indent, true
		}
	}
	return indent, false
}

// deepCodeOnly reports whether every deep line of body lies in a code
// block, and else the first that does not. It cannot ask the parser about
// body itself: that is the cubic parse the bound prevents. It parses
// instead a copy whose deep lines are indented exactly MaxIndent columns,
// which the bound lets through, and finds each deep line among the copy's
// code block lines.
//
// The copy's verdict holds for body: lines not deep are the same in both,
// and a deep line that the copy holds as code is code in body too, in the
// same block, by induction over the lines. Whether a line continues a
// code block in a list item depends on its indentation only through "at
// least the item's content column" (more indentation still continues it),
// a line indented more than MaxIndent cannot close a fence that one
// indented MaxIndent does not close, and blockquotes and fences take no
// lazy lines. So body's blocks are the copy's, no deeper.
func deepCodeOnly(body []byte, deep []deepLine) (deepLine, bool) {
	cut := make([]byte, 0, len(body))
	var starts []int // where each line of cut starts
	next := 0
	for n, rest := 1, body; len(rest) > 0; n++ {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		starts = append(starts, len(cut))
		if next < len(deep) && deep[next].line == n {
			cut = append(cut, bytes.Repeat([]byte(" "), MaxIndent)...)
			line = bytes.TrimLeft(line, " \t")
			next++
		}
		cut = append(cut, line...)
		if found {
			cut = append(cut, '\n')
		}
		rest = after
	}
	code := map[int]bool{} // lines of cut in a code block
	_ = ast.Walk(mdParser().Parse(text.NewReader(cut)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if entering {
				segs := n.Lines()
				for i := range segs.Len() {
					code[sort.SearchInts(starts, segs.At(i).Start+1)] = true
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, d := range deep {
		if !code[d.line] {
			return d, false
		}
	}
	return deepLine{}, true
}
