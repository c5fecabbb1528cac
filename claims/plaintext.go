package claims

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// PlainText is a Markdown body as plain text, for readers that show no
// Markdown (a bundle's requirement text, SPEC 1.8): the words of its
// paragraphs, headings, lists, tables and code as written, without the
// marks of emphasis, code spans, links and headings, and without raw
// HTML; blocks and lines are separated by single spaces.
func PlainText(body []byte) string {
	var b strings.Builder
	space := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
	}
	ast.Walk(ParseMarkdown(body), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				space()
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(body))
				space()
			}
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(n.Segment.Value(body))
			if n.SoftLineBreak() || n.HardLineBreak() {
				space()
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.AutoLink:
			b.Write(n.Label(body))
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}
