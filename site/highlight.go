package site

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Highlighting themes: one light, one dark, switched by the stylesheet with
// prefers-color-scheme.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// MaxFragmentLines caps a highlighted fragment; the rest is counted, not
// shown.
const MaxFragmentLines = 200

// highlighter lexes each source file once and cuts fragments from its
// token lines. Safe for concurrent use.
type highlighter struct {
	mu    sync.Mutex
	files map[string]*lexed
}

type lexed struct {
	once  sync.Once
	lines [][]chroma.Token
}

func newHighlighter() *highlighter { return &highlighter{files: map[string]*lexed{}} }

// fragment returns lines start..end of the file as highlighted HTML with
// their real line numbers, and how many lines past MaxFragmentLines were
// left out.
func (h *highlighter) fragment(path string, lines [][]byte, start, end int) (template.HTML, int) {
	if start < 1 || end < start || start > len(lines) {
		return "", 0
	}
	end = min(end, len(lines))
	more := 0
	if end-start+1 > MaxFragmentLines {
		more = end - start + 1 - MaxFragmentLines
		end = start + MaxFragmentLines - 1
	}
	h.mu.Lock()
	l := h.files[path]
	if l == nil {
		l = &lexed{}
		h.files[path] = l
	}
	h.mu.Unlock()
	l.once.Do(func() { l.lines = lex(path, lines) })

	var toks []chroma.Token
	for _, line := range l.lines[start-1 : min(end, len(l.lines))] {
		toks = append(toks, line...)
	}
	f := chtml.New(chtml.WithClasses(true), chtml.WithLineNumbers(true), chtml.BaseLineNumber(start),
		chtml.WithLinkableLineNumbers(true, "L"))
	var buf bytes.Buffer
	if err := f.Format(&buf, styles.Get(lightStyle), chroma.Literator(toks...)); err != nil {
		return template.HTML(fmt.Sprintf("<pre>%s</pre>", template.HTMLEscapeString(err.Error()))), more
	}
	return template.HTML(buf.String()), more
}

// lex tokenizes a whole file, so a fragment is highlighted in the context
// of the file (a line inside a long string stays a string), and splits the
// tokens into lines. A file chroma cannot lex is plain text.
func lex(path string, lines [][]byte) [][]chroma.Token {
	src := string(bytes.Join(lines, []byte("\n"))) + "\n"
	lexer := lexers.Match(path)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
	if err != nil {
		out := make([][]chroma.Token, len(lines))
		for i, l := range lines {
			out[i] = []chroma.Token{{Type: chroma.Text, Value: string(l) + "\n"}}
		}
		return out
	}
	out := chroma.SplitTokensIntoLines(it.Tokens())
	for len(out) < len(lines) {
		out = append(out, nil)
	}
	return out
}

// chromaCSS is the highlighting stylesheet: the light theme, and the dark
// one inside a prefers-color-scheme media query. WriteCSS sorts its rules,
// so the bytes are stable.
func chromaCSS() ([]byte, error) {
	f := chtml.New(chtml.WithClasses(true), chtml.WithLineNumbers(true))
	var buf bytes.Buffer
	if err := f.WriteCSS(&buf, styles.Get(lightStyle)); err != nil {
		return nil, err
	}
	var dark bytes.Buffer
	if err := f.WriteCSS(&dark, styles.Get(darkStyle)); err != nil {
		return nil, err
	}
	buf.WriteString("@media (prefers-color-scheme: dark) {\n")
	for line := range strings.SplitSeq(strings.TrimRight(dark.String(), "\n"), "\n") {
		buf.WriteString("  " + line + "\n")
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}
