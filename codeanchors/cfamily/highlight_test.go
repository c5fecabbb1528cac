package cfamily

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's C
// lexer for .c fragments and ```c fences, and its C++ lexer for the C++
// extensions and ```cpp, ```c++ and ```cc fences, and that the C++ lexer
// reads the golden cases (raw strings, digit separators, templates,
// attributes) without error tokens.
func TestHighlightLexer(t *testing.T) {
	for _, tt := range []struct {
		lexer chroma.Lexer
		want  string
	}{
		{lexers.Match("src/list.c"), "C"},
		{lexers.Get("c"), "C"},
		{lexers.Get("C"), "C"},
		{lexers.Match("src/shapes.cpp"), "C++"},
		{lexers.Match("include/shapes.hpp"), "C++"},
		{lexers.Match("src/shapes.cc"), "C++"},
		{lexers.Match("src/shapes.cxx"), "C++"},
		{lexers.Match("include/shapes.hh"), "C++"},
		{lexers.Get("cpp"), "C++"},
		{lexers.Get("c++"), "C++"},
		{lexers.Get("cc"), "C++"},
	} {
		if tt.lexer == nil || tt.lexer.Config().Name != tt.want {
			t.Errorf("lexer %v, want chroma's %s lexer", tt.lexer, tt.want)
		}
	}
	if l := lexers.Match("include/list.h"); l == nil || l.Config().Name != "C" && l.Config().Name != "C++" {
		t.Errorf(".h: lexer %v, want chroma's C or C++ lexer", l)
	}
	l := lexers.Get("cpp")
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
				t.Errorf("%s: chroma's C++ lexer gives an error token %q", c.File, tok.Value)
			}
		}
	}
}
