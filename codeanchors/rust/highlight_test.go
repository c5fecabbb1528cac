package rust

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// Rust lexer for .rs fragments (by file name) and for ```rust and ```rs
// fences (by name or alias), and that it lexes the golden cases (raw
// strings, lifetimes, attributes, macros, nested comments) without error
// tokens.
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("lib.rs"), lexers.Match("src/bin/tool.rs"), lexers.Get("rust"), lexers.Get("rs"), lexers.Get("Rust")} {
		if l == nil || l.Config().Name != "Rust" {
			t.Fatalf("lexer %v, want chroma's Rust lexer", l)
		}
	}
	l := lexers.Get("rust")
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
				t.Errorf("%s: chroma's Rust lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
