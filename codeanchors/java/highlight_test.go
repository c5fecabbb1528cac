package java

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// Java lexer for .java fragments (by file name) and for ```java fences (by
// name), and that it lexes the constructs of the golden cases (records,
// sealed types, text blocks, annotations, generics) without error tokens.
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("Cart.java"), lexers.Match("src/main/java/a/B.java"), lexers.Get("java"), lexers.Get("Java")} {
		if l == nil || l.Config().Name != "Java" {
			t.Fatalf("lexer %v, want chroma's Java lexer", l)
		}
	}
	l := lexers.Get("java")
	for _, c := range readCases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range it.Tokens() {
			if tok.Type == chroma.Error {
				t.Errorf("%s: chroma's Java lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
