package render

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// writeChromaHTML writes tokens as chroma's HTML formatter writes them with
// CSS classes (chtml.WithClasses), in lines; when numbered, each line is
// numbered from start and linkable as #<anchor>-L<n> (chtml.WithLineNumbers,
// chtml.BaseLineNumber and chtml.WithLinkableLineNumbers). The bytes are
// the formatter's (TestChromaHTML compares them); the formatter makes them
// with a fmt call or more per token, which was most of the time spent
// highlighting a site's anchored code. anchor must be HTML-safe, as the
// formatter writes it unescaped: it is a symbol's anchor ([symbolAnchor]).
func writeChromaHTML(b *bytes.Buffer, tokens []chroma.Token, numbered bool, start int, anchor string) {
	lines := chroma.SplitTokensIntoLines(tokens)
	digits := len(strconv.Itoa(start + len(lines) - 1))
	c := chromaClasses()
	b.WriteString(`<pre class="` + c.pre + `"><code>`)
	for i, line := range lines {
		b.WriteString(`<span class="` + c.line + `">`)
		if numbered {
			n := strconv.Itoa(start + i)
			id := anchor + "-L" + n
			b.WriteString(`<span class="` + c.number + `" id="` + id + `"><a class="` + c.link + `" href="#` + id + `">`)
			for range digits - len(n) {
				b.WriteByte(' ')
			}
			b.WriteString(n + "</a></span>")
		}
		b.WriteString(`<span class="` + c.code + `">`)
		for _, t := range line {
			cls := c.of(t.Type)
			if cls != "" {
				b.WriteString(`<span class="` + cls + `">`)
			}
			chromaEscaper.WriteString(b, t.Value)
			if cls != "" {
				b.WriteString("</span>")
			}
		}
		b.WriteString("</span></span>")
	}
	b.WriteString("</code></pre>")
}

// chromaEscaper escapes a token's text as the formatter does
// (html.EscapeString), writing it without a copy.
var chromaEscaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// chromaClassNames are the CSS classes of chroma's token types and of the
// parts of its HTML.
type chromaClassNames struct {
	pre, line, number, link, code string
	tokens                        map[chroma.TokenType]string
}

var chromaClasses = sync.OnceValue(func() *chromaClassNames {
	c := &chromaClassNames{tokens: map[chroma.TokenType]string{}}
	for t := range chroma.StandardTypes {
		c.tokens[t] = chromaClass(t)
	}
	c.pre, c.line, c.number = chromaClass(chroma.PreWrapper), chromaClass(chroma.Line), chromaClass(chroma.LineNumbers)
	c.link, c.code = chromaClass(chroma.LineLink), chromaClass(chroma.CodeLine)
	return c
})

// of is the class of a token type, "" for none.
func (c *chromaClassNames) of(t chroma.TokenType) string {
	if cls, ok := c.tokens[t]; ok {
		return cls
	}
	return chromaClass(t)
}

// chromaClass is the class the formatter gives a token type: the standard
// class of the type or its nearest parent that has an entry.
func chromaClass(t chroma.TokenType) string {
	for ; t != 0; t = t.Parent() {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
	}
	return chroma.StandardTypes[t]
}
