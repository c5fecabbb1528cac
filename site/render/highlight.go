package render

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	"html/template"
	"math"
	pathpkg "path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/tracewiki/tracewiki/site/render/golex"
)

// Highlighting themes: one light, one dark, switched by the theme toggle
// or, until the reader chooses, by prefers-color-scheme.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// MaxFragmentLines caps a highlighted fragment; the rest is counted, not
// shown.
const MaxFragmentLines = 200

// Highlighter renders highlighted fragments. Each distinct fragment (its
// lines' bytes, first line number and anchor) is lexed and formatted once,
// however many pages show it, and each file extension's lexer is looked up
// once. Safe for concurrent use.
//
// A [HighlightCache] keeps the highlighter across builds, so a rebuild
// after an edit only highlights fragments whose code changed.
type Highlighter struct {
	mu        sync.Mutex
	gen       int // the current build; entries not used by it are dropped
	fragments map[fragmentKey]*rendered
	fences    map[fenceKey]*rendered
	lexers    map[string]chroma.Lexer
	lexed     atomic.Int64 // fences lexed and formatted, for tests
	// disk, when set, keeps highlighted HTML from run to run: a fragment
	// or fence is looked up there before it is lexed, and stored after;
	// not Go's (see [Highlighter.cached]).
	disk FragmentStore
}

// FragmentStore keeps highlighted HTML from run to run (site's build
// cache): rendering reads and writes it through these two calls only, so
// it never touches the disk itself. Get reports whether the entry of the
// stage was there; Put may drop the entry (a full disk is no error).
type FragmentStore interface {
	Get(stage string, key []byte) ([]byte, bool)
	Put(stage string, key, payload []byte)
}

// HighlightCache carries highlighted fragments from one build to the next
// (tracewiki serve). The zero value is ready to use.
type HighlightCache struct {
	mu sync.Mutex
	h  *Highlighter
}

// Highlighter returns the cache's highlighter for a new build, dropping the
// fragments the previous build did not use; disk, when not nil, is
// asked before a fragment is lexed. A nil cache returns a fresh
// highlighter.
func (c *HighlightCache) Highlighter(disk FragmentStore) *Highlighter {
	if c == nil {
		h := newHighlighter()
		h.disk = disk
		return h
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == nil {
		c.h = newHighlighter()
		c.h.disk = disk
		return c.h
	}
	h := c.h
	h.mu.Lock()
	h.disk = disk
	for k, r := range h.fragments {
		if r.gen != h.gen {
			delete(h.fragments, k)
		}
	}
	for k, r := range h.fences {
		if r.gen != h.gen {
			delete(h.fences, k)
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

// rendered is a fragment or fence highlighted once, kept compact for the
// other pages that show it.
type rendered struct {
	once sync.Once
	gen  int
	html compactHTML
}

// get highlights through r's render the first time, and returns the HTML:
// the caller that highlighted gets it as rendered, the others expand the
// compact copy.
func (r *rendered) get(render func() []byte) template.HTML {
	var first []byte
	r.once.Do(func() {
		first = render()
		r.html = compact(first)
	})
	if first != nil {
		return template.HTML(first)
	}
	return r.html.html()
}

func newHighlighter() *Highlighter {
	return &Highlighter{fragments: map[fragmentKey]*rendered{}, fences: map[fenceKey]*rendered{}, lexers: map[string]chroma.Lexer{}}
}

// Fragment returns lines start..end of the file as highlighted HTML with
// their real line numbers, each linkable as #<anchor>-L<n>, and how many
// lines past MaxFragmentLines were left out.
//
// Only the fragment's lines are lexed, not the whole file: anchored ranges
// start at a declaration, where a lexer's state is the initial one, and
// lexing whole files dominated the build time of large sites.
func (h *Highlighter) Fragment(path string, lines [][]byte, start, end int, anchor string) (template.HTML, int) {
	shown, more := fragmentLines(lines, start, end)
	if shown == nil {
		return "", 0
	}
	end = start + len(shown) - 1
	sum := sha256.New()
	for _, l := range shown {
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
	return r.get(func() []byte {
		l := h.lexer(path)
		disk := h.cached(l)
		dk := Key([]byte("fragment"), []byte(l.Config().Name), []byte(lightStyle), []byte(fmt.Sprint(start)), []byte(anchor), key.sum[:])
		if html, ok := disk.Get(HighlightStage, dk); ok {
			return html
		}
		html := h.render(l, shown, start, anchor)
		disk.Put(HighlightStage, dk, html)
		return html
	}), more
}

// fragmentLines are the lines of a fragment from start to end that
// [Highlighter.Fragment] shows, at most [MaxFragmentLines], and how many
// more it leaves out; nil when the range is not in lines.
func fragmentLines(lines [][]byte, start, end int) (shown [][]byte, more int) {
	if start < 1 || end < start || start > len(lines) {
		return nil, 0
	}
	end = min(end, len(lines))
	if end-start+1 > MaxFragmentLines {
		more = end - start + 1 - MaxFragmentLines
		end = start + MaxFragmentLines - 1
	}
	return lines[start-1 : end], more
}

// About how many bytes of chroma's HTML a byte of code becomes (a span with
// a class per token, a span per line), measured on the bench's Go and
// Python: 7-13 in a fence, about 30 in a fragment, whose lines are numbered
// and linkable.
const (
	fenceHTMLPerByte    = 12
	fragmentHTMLPerByte = 32
)

// HighlightStage names the build cache's highlighted fragments and fences.
const HighlightStage = "highlight"

func (h *Highlighter) render(l chroma.Lexer, lines [][]byte, start int, anchor string) []byte {
	src := string(append(bytes.Join(lines, []byte("\n")), '\n'))
	tokens, err := tokenise(l, src)
	var buf bytes.Buffer
	buf.Grow(fragmentHTMLPerByte * len(src)) // not grown by doubling from 64 bytes
	if err == nil {
		writeChromaHTML(&buf, tokens, true, start, anchor)
	}
	if err != nil {
		return fmt.Appendf(nil, "<pre>%s</pre>", template.HTMLEscapeString(src))
	}
	return buf.Bytes()
}

// fenceKey identifies a fenced code block's highlighted HTML: its info
// string's language and its text.
type fenceKey struct {
	lang string
	sum  [sha256.Size]byte
}

// Fence returns a fenced code block highlighted with the fragments' chroma
// classes, without line numbers (Markdown code is not a file). The lexer is
// chroma's for the info string's first word (a name or alias, "go",
// "python", "py"); an unknown or missing language is shown as plain text.
// Identical blocks, on however many pages, are highlighted once.
func (h *Highlighter) Fence(lang string, code []byte) template.HTML {
	key := fenceKey{lang: strings.ToLower(lang), sum: sha256.Sum256(code)}
	h.mu.Lock()
	r := h.fences[key]
	if r == nil {
		r = &rendered{}
		h.fences[key] = r
	}
	r.gen = h.gen
	h.mu.Unlock()
	return r.get(func() []byte {
		l := h.langLexer(key.lang)
		disk := h.cached(l)
		dk := Key([]byte("fence"), []byte(l.Config().Name), []byte(lightStyle), key.sum[:])
		if html, ok := disk.Get(HighlightStage, dk); ok {
			return html
		}
		h.lexed.Add(1)
		var buf bytes.Buffer
		buf.Grow(fenceHTMLPerByte * len(code))
		tokens, err := tokenise(l, string(code))
		if err == nil {
			writeChromaHTML(&buf, tokens, false, 1, "")
		}
		if err != nil {
			buf.Reset()
			fmt.Fprintf(&buf, `<pre class="chroma"><code>%s</code></pre>`, template.HTMLEscapeString(string(code)))
		}
		disk.Put(HighlightStage, dk, buf.Bytes())
		return buf.Bytes()
	})
}

// cached returns the disk cache for code lexed by l; nil for Go, which
// golex lexes faster than an entry is read back, let alone written (on a
// 2,000-page workspace a build into a new folder took as long with every
// fragment in the cache as without the cache, and filling the cache, one
// file per fragment, 2,700 of them, cost a cold build 0.3 to 0.7 s), and
// for plain text, which is not lexed at all.
func (h *Highlighter) cached(l chroma.Lexer) FragmentStore {
	if name := l.Config().Name; name == lexers.Go.Config().Name || name == lexers.Fallback.Config().Name || h.disk == nil {
		return noStore{}
	}
	return h.disk
}

// noStore is the store of a highlighter without one: it keeps nothing.
type noStore struct{}

func (noStore) Get(string, []byte) ([]byte, bool) { return nil, false }
func (noStore) Put(string, []byte, []byte)        {}

// langLexer returns chroma's lexer for a fence's language name, plain text
// when chroma has none, cached.
func (h *Highlighter) langLexer(lang string) chroma.Lexer {
	key := "lang:" + lang // file extensions start with "." or are ""
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.lexers[key]
	if !ok {
		if lang != "" {
			l = lexers.Get(lang)
		}
		if l == nil {
			l = lexers.Fallback
		}
		l = untimed(l)
		h.lexers[key] = l
	}
	return l
}

// tokenise lexes src with l, deterministically. Go is lexed by [golex],
// which returns chroma's Go lexer's tokens fifty times faster or more, or
// leaves the text to chroma.
func tokenise(l chroma.Lexer, src string) ([]chroma.Token, error) {
	if l.Config().Name == lexers.Go.Config().Name {
		if tokens, ok := golex.Tokens(src); ok {
			return tokens, nil
		}
	}
	return chromaTokenise(l, src)
}

// chromaTokenise lexes src with l's regular expressions. The lexers come
// through [untimed], so a regular expression no longer gives up after
// chroma's 250 ms; as a second guard, a result with Error tokens is only
// trusted once two lexings in a row agree (a real syntax error is the same
// every time).
func chromaTokenise(l chroma.Lexer, src string) ([]chroma.Token, error) {
	l = chroma.Coalesce(l)
	prev, err := chroma.Tokenise(l, nil, src)
	if err != nil || !slices.ContainsFunc(prev, func(t chroma.Token) bool { return t.Type == chroma.Error }) {
		return prev, err
	}
	for range maxRelex {
		next, err := chroma.Tokenise(l, nil, src)
		if err != nil || slices.Equal(prev, next) {
			return next, err
		}
		prev = next
	}
	return prev, nil
}

// maxRelex bounds how often [tokenise] lexes a text again.
const maxRelex = 8

// lexer returns chroma's lexer for a file name, by extension, cached.
func (h *Highlighter) lexer(p string) chroma.Lexer {
	ext := strings.ToLower(pathpkg.Ext(p))
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.lexers[ext]
	if !ok {
		l = lexers.Match(pathpkg.Base(p))
		if l == nil {
			l = lexers.Fallback
		}
		l = untimed(l)
		h.lexers[ext] = l
	}
	return l
}

// MinTokenContrast is the least contrast ratio (WCAG 2) between a
// highlighted token's colour and its background, in both themes.
const MinTokenContrast = 3.0

// Theme scopes: the light theme applies by default; the dark one when the
// reader chose it (the theme toggle sets data-theme on <html>) or, with no
// choice made, when the system prefers dark.
const (
	darkScope     = `html[data-theme="dark"]`
	autoDarkScope = `html:not([data-theme="light"])`
)

// ChromaCSS is the highlighting stylesheet, generated from chroma's styles:
// the light theme, then the dark one scoped twice (chosen, and by the
// system's preference when nothing was chosen). WriteCSS leaves out a
// token's colour when it equals the style's text colour, which let the
// light theme's dark names show through on the dark background, so each
// theme also sets every token class's colour explicitly, raised to
// [MinTokenContrast] against its background where the style falls short.
// The rules come in a fixed order, so the bytes are stable.
func ChromaCSS() ([]byte, error) {
	light, err := themeCSS(styles.Get(lightStyle))
	if err != nil {
		return nil, err
	}
	dark, err := themeCSS(styles.Get(darkStyle))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Write(light)
	buf.Write(scopeCSS(dark, darkScope, ""))
	buf.WriteString("@media (prefers-color-scheme: dark) {\n")
	buf.Write(scopeCSS(dark, autoDarkScope, "  "))
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// themeCSS is one style's rules: chroma's, then one colour rule per token
// class.
func themeCSS(style *chroma.Style) ([]byte, error) {
	var buf bytes.Buffer
	if err := chtml.New(chtml.WithClasses(true), chtml.WithLineNumbers(true)).WriteCSS(&buf, style); err != nil {
		return nil, err
	}
	for _, tc := range tokenColours(style) {
		fmt.Fprintf(&buf, "/* %s */ .chroma .%s { color: %s }\n", tc.typ, tc.class, tc.colour)
	}
	return buf.Bytes(), nil
}

// tokenColour is the colour a theme gives one token class.
type tokenColour struct {
	typ      chroma.TokenType
	class    string
	colour   chroma.Colour
	bg       chroma.Colour // the background it is drawn on
	contrast float64       // the style's own contrast, before raising
}

// tokenColours lists, in class order, every token class's colour in a
// style, each at least [MinTokenContrast] against its background: a colour
// that falls short is mixed toward the style's text colour until it does.
func tokenColours(style *chroma.Style) []tokenColour {
	base := style.Get(chroma.Background)
	text := style.Get(chroma.Text).Colour
	if !text.IsSet() || contrastRatio(text, base.Background) < MinTokenContrast {
		text = chroma.NewColour(255, 255, 255)
		if luminance(base.Background) > 0.5 {
			text = chroma.NewColour(0, 0, 0)
		}
	}
	var out []tokenColour
	for t, class := range chroma.StandardTypes {
		if t < 0 || class == "" {
			continue // wrappers, line numbers and the like are not tokens
		}
		e := style.Get(t)
		bg := base.Background
		if e.Background.IsSet() {
			bg = e.Background
		}
		c := e.Colour
		if !c.IsSet() {
			c = text
		}
		tc := tokenColour{typ: t, class: class, colour: c, bg: bg, contrast: contrastRatio(c, bg)}
		toward := text
		if contrastRatio(toward, bg) < MinTokenContrast {
			// A token with a background of its own (errors): black or white.
			toward = chroma.NewColour(255, 255, 255)
			if luminance(bg) > 0.5 {
				toward = chroma.NewColour(0, 0, 0)
			}
		}
		for step := 1; contrastRatio(tc.colour, bg) < MinTokenContrast && step <= 10; step++ {
			tc.colour = mix(c, toward, float64(step)/10)
		}
		out = append(out, tc)
	}
	slices.SortFunc(out, func(a, b tokenColour) int { return cmp.Compare(a.class, b.class) })
	return out
}

// contrastRatio is WCAG 2's contrast ratio of two colours, 1 to 21.
func contrastRatio(a, b chroma.Colour) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c chroma.Colour) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.Red()) + 0.7152*lin(c.Green()) + 0.0722*lin(c.Blue())
}

// mix is the colour a fraction t of the way from a to b.
func mix(a, b chroma.Colour, t float64) chroma.Colour {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return chroma.NewColour(m(a.Red(), b.Red()), m(a.Green(), b.Green()), m(a.Blue(), b.Blue()))
}

// scopeCSS prefixes every selector of chroma's one-rule-per-line CSS with
// scope, and indents each line.
func scopeCSS(css []byte, scope, indent string) []byte {
	var buf bytes.Buffer
	for line := range strings.SplitSeq(strings.TrimRight(string(css), "\n"), "\n") {
		comment, rule := "", line
		if i := strings.Index(line, "*/ "); strings.HasPrefix(line, "/*") && i >= 0 {
			comment, rule = line[:i+3], line[i+3:]
		}
		sel, decl, ok := strings.Cut(rule, "{")
		if !ok {
			buf.WriteString(indent + line + "\n")
			continue
		}
		var sels []string
		for s := range strings.SplitSeq(sel, ",") {
			sels = append(sels, scope+" "+strings.TrimSpace(s))
		}
		buf.WriteString(indent + comment + strings.Join(sels, ", ") + " {" + decl + "\n")
	}
	return buf.Bytes()
}
