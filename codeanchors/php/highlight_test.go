package php

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// PHP lexer for .php fragments (by file name) and for ```php fences, and
// that it lexes the golden cases without error tokens, but two constructs
// chroma's lexer does not know: a file starting with inline HTML
// (strings.txtar) and an attribute on an anonymous class
// (anonymous.txtar); highlighting shows those as plain text.
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("index.php"), lexers.Match("src/App/Kernel.php"), lexers.Get("php"), lexers.Get("PHP")} {
		if l == nil || l.Config().Name != "PHP" {
			t.Fatalf("lexer %v, want chroma's PHP lexer", l)
		}
	}
	l := lexers.Get("php")
	for _, c := range readCases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil || strings.HasSuffix(c.File, "strings.txtar") || strings.HasSuffix(c.File, "anonymous.txtar") {
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range it.Tokens() {
			if tok.Type == chroma.Error {
				t.Errorf("%s: chroma's PHP lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
