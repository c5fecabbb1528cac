package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// viaChroma formats tokens with chroma's HTML formatter as the site did
// before writeChromaHTML: classes, and for a fragment (numbered) line
// numbers from start, linkable as #<anchor>-L<n>.
func viaChroma(t testing.TB, tokens []chroma.Token, numbered bool, start int, anchor string) string {
	t.Helper()
	opts := []chtml.Option{chtml.WithClasses(true)}
	if numbered {
		opts = append(opts, chtml.WithLineNumbers(true), chtml.BaseLineNumber(start), chtml.WithLinkableLineNumbers(true, anchor+"-L"))
	}
	var b bytes.Buffer
	if err := chtml.New(opts...).Format(&b, styles.Get(lightStyle), chroma.Literator(tokens...)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// chromaCorpus is code with what a formatter must get right: markup
// characters and quotes in strings and comments, CRLF, tabs, a missing
// last newline, blank lines, text that is not UTF-8, and this package's
// own sources, in the languages the site highlights.
func chromaCorpus(t testing.TB) map[string][]string {
	corpus := map[string][]string{
		"go":         {"func f() string { return \"<a href='x'>&amp;</a>\" } // <b>\n", "package p\r\n\r\nvar x = `\t\"'`\n\n\n", "x := 1", ""},
		"python":     {"def f(a, b):\n    '''<doc> & \"quotes\"'''\n    return a < b > 0\n", "@dec\nclass C:\n\tpass", "s = '\xff\xfe'\n"},
		"javascript": {"export const f = (a) => a && `${a}<br>`;\n", "class A { #p = '\"'; }\r\n"},
		"text":       {"plain <text> & \"more\"\nsecond line\n", "\n\n"},
	}
	files, _ := filepath.Glob("*.go")
	for _, name := range files[:min(len(files), 12)] {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		corpus["go"] = append(corpus["go"], string(src))
	}
	return corpus
}

func chromaLexer(lang string) chroma.Lexer {
	if l := lexers.Get(lang); l != nil && lang != "text" {
		return l
	}
	return lexers.Fallback
}

func TestChromaHTML(t *testing.T) {
	for lang, sources := range chromaCorpus(t) {
		l := chromaLexer(lang)
		for i, src := range sources {
			tokens, err := tokenise(l, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				numbered bool
				start    int
				anchor   string
			}{{false, 1, ""}, {true, 1, "code-sym-F"}, {true, 7, "code-sym-C.m"}, {true, 998, "code-range-L3-L9"}, {true, 3, ""}} {
				var got bytes.Buffer
				writeChromaHTML(&got, tokens, c.numbered, c.start, c.anchor)
				if want := viaChroma(t, tokens, c.numbered, c.start, c.anchor); got.String() != want {
					t.Errorf("%s source %d, numbered %v from line %d, anchor %q:\n got %q\nwant %q", lang, i, c.numbered, c.start, c.anchor,
						firstDifference(got.String(), want), firstDifference(want, got.String()))
				}
			}
		}
	}
}

// FuzzChromaHTML looks for code whose HTML writeChromaHTML writes otherwise
// than chroma's formatter.
func FuzzChromaHTML(f *testing.F) {
	for lang, sources := range chromaCorpus(f) {
		for _, src := range sources {
			f.Add(lang, src, uint16(1))
		}
	}
	f.Fuzz(func(t *testing.T, lang, src string, start uint16) {
		if strings.ContainsRune(lang, 0) {
			return
		}
		tokens, err := tokenise(chromaLexer(lang), src)
		if err != nil {
			return // the site shows such code as plain text
		}
		for _, numbered := range []bool{false, true} {
			var got bytes.Buffer
			writeChromaHTML(&got, tokens, numbered, int(start), "code-sym-F")
			if want := viaChroma(t, tokens, numbered, int(start), "code-sym-F"); got.String() != want {
				t.Fatalf("numbered %v: got %q, want %q", numbered, got.String(), want)
			}
		}
	})
}

// firstDifference returns a's text around where a and b first differ.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[max(i-40, 0):min(i+80, len(a))]
}
