package ruby

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// Ruby lexer for fragments of the language's files (by file name) and for
// ```ruby and ```rb fences, and that it lexes the golden cases without
// error tokens.
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("lib/a.rb"), lexers.Match("tasks/db.rake"), lexers.Match("a.gemspec"), lexers.Get("ruby"), lexers.Get("rb")} {
		if l == nil || l.Config().Name != "Ruby" {
			t.Fatalf("lexer %v, want chroma's Ruby lexer", l)
		}
	}
	l := lexers.Get("ruby")
	for _, c := range suite.Cases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range it.Tokens() {
			if tok.Type == chroma.Error {
				t.Errorf("%s: chroma's Ruby lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
