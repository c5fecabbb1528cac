package kotlin_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
)

// TestHighlightLexer checks that the site's highlighting picks chroma's
// Kotlin lexer for .kt and .kts fragments (by file name) and for ```kotlin
// and ```kt fences (by name or alias), and that it lexes the golden cases
// (string templates, raw strings, backtick names, annotations) without
// error tokens outside the constructs chroma's lexer does not know
// (chromaGaps: highlighting there falls back to plain text, the page still
// shows every character).
func TestHighlightLexer(t *testing.T) {
	for _, l := range []chroma.Lexer{lexers.Match("Cart.kt"), lexers.Match("src/main/kotlin/a/B.kt"),
		lexers.Match("build.gradle.kts"), lexers.Get("kotlin"), lexers.Get("Kotlin"), lexers.Get("kt")} {
		if l == nil || l.Config().Name != "Kotlin" {
			t.Fatalf("lexer %v, want chroma's Kotlin lexer", l)
		}
	}
	l := lexers.Get("kotlin")
	for _, c := range suite.Cases(t) {
		if _, err := kotlin.Extract(c.Path, c.Src); err != nil {
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		line := 1
		var text strings.Builder
		for _, tok := range it.Tokens() {
			if at := fmt.Sprintf("%s:%d", filepath.Base(c.File), line); tok.Type == chroma.Error && chromaGaps[at] == "" {
				t.Errorf("%s: chroma's Kotlin lexer gives an error token %q", at, tok.Value)
			}
			line += strings.Count(tok.Value, "\n")
			text.WriteString(tok.Value)
		}
		if lf := strings.ReplaceAll(string(c.Src), "\r\n", "\n"); strings.ReplaceAll(text.String(), "\r\n", "\n") != lf {
			t.Errorf("%s: the lexer's tokens do not give back the source", c.File)
		}
	}
}

// chromaGaps are the golden lines where chroma 2's Kotlin lexer gives error
// tokens, by case and line of its source, with the construct it misses.
var chromaGaps = map[string]string{
	"annotations.txtar:10":       "an annotation list @[A B]",
	"expression_bodies.txtar:52": "a label on a lambda run outer@{",
	"enums_nested.txtar:37":      "an object expression object : T { in a property",
	"extensions.txtar:19":        "a function-type receiver fun (() -> Unit).f()",
	"properties.txtar:25":        "a generic extension property val <T> List<T>.x",
	"properties.txtar:28":        "a destructuring declaration val (a, b) = ...",
	"strings.txtar:11":           "a raw string ending in more than three quotes",
}
