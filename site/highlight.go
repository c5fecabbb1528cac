package site

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html/template"
	pathpkg "path"
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

// highlighter renders highlighted fragments. Each distinct fragment (its
// lines' bytes, first line number and anchor) is lexed and formatted once,
// however many pages show it, and each file extension's lexer is looked up
// once. Safe for concurrent use.
//
// A [HighlightCache] keeps the highlighter across builds, so a rebuild
// after an edit only highlights fragments whose code changed.
type highlighter struct {
	mu        sync.Mutex
	gen       int // the current build; entries not used by it are dropped
	fragments map[fragmentKey]*rendered
	lexers    map[string]chroma.Lexer
}

// HighlightCache carries highlighted fragments from one build to the next
// (tracewiki serve). The zero value is ready to use.
type HighlightCache struct {
	mu sync.Mutex
	h  *highlighter
}

// highlighter returns the cache's highlighter for a new build, dropping the
// fragments the previous build did not use.
func (c *HighlightCache) highlighter() *highlighter {
	if c == nil {
		return newHighlighter()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == nil {
		c.h = newHighlighter()
		return c.h
	}
	h := c.h
	h.mu.Lock()
	for k, r := range h.fragments {
		if r.gen != h.gen {
			delete(h.fragments, k)
		}
	}
	h.gen++
	h.mu.Unlock()
	return h
}

type fragmentKey struct {
	ext    string
	sum    [sha256.Size]byte // of the fragment's lines
	start  int
	anchor string
}

type rendered struct {
	once sync.Once
	gen  int
	html template.HTML
}

func newHighlighter() *highlighter {
	return &highlighter{fragments: map[fragmentKey]*rendered{}, lexers: map[string]chroma.Lexer{}}
}

// fragment returns lines start..end of the file as highlighted HTML with
// their real line numbers, each linkable as #<anchor>-L<n>, and how many
// lines past MaxFragmentLines were left out.
//
// Only the fragment's lines are lexed, not the whole file: anchored ranges
// start at a declaration, where a lexer's state is the initial one, and
// lexing whole files dominated the build time of large sites.
func (h *highlighter) fragment(path string, lines [][]byte, start, end int, anchor string) (template.HTML, int) {
	if start < 1 || end < start || start > len(lines) {
		return "", 0
	}
	end = min(end, len(lines))
	more := 0
	if end-start+1 > MaxFragmentLines {
		more = end - start + 1 - MaxFragmentLines
		end = start + MaxFragmentLines - 1
	}
	sum := sha256.New()
	for _, l := range lines[start-1 : end] {
		sum.Write(l)
		sum.Write([]byte{'\n'})
	}
	key := fragmentKey{ext: strings.ToLower(pathpkg.Ext(path)), start: start, anchor: anchor}
	sum.Sum(key.sum[:0])
	h.mu.Lock()
	r := h.fragments[key]
	if r == nil {
		r = &rendered{}
		h.fragments[key] = r
	}
	r.gen = h.gen
	h.mu.Unlock()
	r.once.Do(func() { r.html = h.render(path, lines[start-1:end], start, anchor) })
	return r.html, more
}

func (h *highlighter) render(path string, lines [][]byte, start int, anchor string) template.HTML {
	src := string(bytes.Join(lines, []byte("\n"))) + "\n"
	f := chtml.New(chtml.WithClasses(true), chtml.WithLineNumbers(true), chtml.BaseLineNumber(start),
		chtml.WithLinkableLineNumbers(true, anchor+"-L"))
	it, err := chroma.Coalesce(h.lexer(path)).Tokenise(nil, src)
	var buf bytes.Buffer
	if err == nil {
		err = f.Format(&buf, styles.Get(lightStyle), it)
	}
	if err != nil {
		return template.HTML(fmt.Sprintf("<pre>%s</pre>", template.HTMLEscapeString(src)))
	}
	return template.HTML(buf.String())
}

// lexer returns chroma's lexer for a file name, by extension, cached.
func (h *highlighter) lexer(p string) chroma.Lexer {
	ext := strings.ToLower(pathpkg.Ext(p))
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.lexers[ext]
	if !ok {
		l = lexers.Match(pathpkg.Base(p))
		if l == nil {
			l = lexers.Fallback
		}
		h.lexers[ext] = l
	}
	return l
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
