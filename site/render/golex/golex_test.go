package golex

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// chromaTokens is what golex stands in for: chroma's Go lexer, coalesced.
func chromaTokens(t testing.TB, src string) []chroma.Token {
	t.Helper()
	tokens, err := chroma.Tokenise(chroma.Coalesce(lexers.Go), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

func show(ts []chroma.Token) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, " %s:%q", t.Type, t.Value)
	}
	return b.String()
}

// TestQuirks pins the Go lexer's quirks golex must reproduce: each case
// is compared with chroma, and where a case names its tokens, with them too
// (so a change of chroma's lexer shows here, not only as a difference).
func TestQuirks(t *testing.T) {
	cases := []struct {
		src  string
		want string // the tokens, as show prints them; "" for chroma's only
	}{
		{"len(x) len (x)", ` NameBuiltin:"len" Punctuation:"(" NameOther:"x" Punctuation:")" TextWhitespace:" " NameFunction:"len" TextWhitespace:" " Punctuation:"(" NameOther:"x" Punctuation:")"`},
		{"any(x) float(x) string", ` KeywordType:"any" Punctuation:"(" NameOther:"x" Punctuation:")" TextWhitespace:" " NameBuiltin:"float" Punctuation:"(" NameOther:"x" Punctuation:")" TextWhitespace:" " KeywordType:"string"`},
		{"func (r *T) M\n\n(a int) {}", ""},
		{"f \n \n(", ` NameFunction:"f" TextWhitespace:" \n \n" Punctuation:"("`},
		{"//go:build x\n// doc\n//\n/* a\n*/ /\\\n* b *\\\n/", ` CommentPreproc:"//go:build x" TextWhitespace:"\n" CommentSingle:"// doc" TextWhitespace:"\n" CommentSingle:"//" TextWhitespace:"\n" CommentMultiline:"/* a\n*/" TextWhitespace:" " CommentMultiline:"/\\\n* b *\\\n/"`},
		{"/* open", ` Operator:"/*" TextWhitespace:" " NameOther:"open"`},
		{"1i 1.5i .5i 1e+3i 1.5e3 1. 1e5 .5 .5e-2 0777 0x_1F 0b10 0B1 0o7 1_000 08 1.e5 ٣ 1٣i", ""},
		{"'a' '\\'' '\\x41' '\\101' '\\1234' '\\u00e9' '\\U0001F600' '''' '\n' 'ab' '", ""},
		{"\"a\\\"b\" \"\\\\\" \"multi\nline\" \"open", ""},
		{"`raw {x} {` `unclosed", ""},
		// Raw strings are lexed by chroma's Go text template lexer.
		{"`{{.X}}`", ` LiteralString:"` + "`" + `" CommentPreproc:"{{" NameAttribute:".X" CommentPreproc:"}}" LiteralString:"` + "`" + `"`},
		{"`a {{- /* c */ -}} b {{/**/}} {{ range $i, $x := .Items | len }}{{ 12 -3 -0x1F -0b1 -.5 -1.5e3 -2i -08 -1_0 $ $. 'a' \"s\" (call .F -1) ) : }}\n{{ if }x` `{{\n)`", ""},
		{"`{{ (x }}` `{{ $x.y.z -}} {{- `", ""},
		{"importx import package packages if iff go goto gox true truex nil_", ""},
		{"x\u200dif if\u200d é9 _x _ x.y ... .. :=<-&^=&^&&||!=|=^=~$@#?\\", ""},
		{"a\r\nb\rc", ` NameOther:"a" TextWhitespace:"\n" NameOther:"b" TextWhitespace:"\n" NameOther:"c"`},
		{"\u00a0x\u2003\n\u0085", ""},
		{"x := 1\n\n\n\t// c\n", ""},
		{strings.Repeat(" ", 9000) + "\n" + strings.Repeat("/", 9000) + "`" + strings.Repeat("a{", 5000) + "`", ""},
	}
	for _, c := range cases {
		want := chromaTokens(t, c.src)
		got, ok := Tokens(c.src)
		if !ok {
			t.Errorf("%q: left to chroma", c.src)
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n golex: %s\nchroma: %s", c.src, show(got), show(want))
		}
		if c.want != "" && show(got) != c.want {
			t.Errorf("%q:\n  got %s\n want %s", c.src, show(got), c.want)
		}
	}
}

// TestLeftToChroma checks what golex does not promise: text that is not
// UTF-8, and an unclosed string only backtracking would end.
func TestLeftToChroma(t *testing.T) {
	for _, src := range []string{"x := \"\xff\"", "s := \"a\\\"b\nc"} {
		if got, ok := Tokens(src); ok {
			t.Errorf("%q: lexed as %s, want it left to chroma", src, show(got))
		}
	}
}

// TestCharacterClasses checks golex's [^\W\d], \s, \d and \w against
// chroma's regular expressions, for every code point of the planes where
// Unicode assigns characters (0 to 3 and 14) and a sample of the others.
func TestCharacterClasses(t *testing.T) {
	var b strings.Builder
	var runes []rune
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0x40000 && r>>16 != 14 && r%97 != 0 {
			continue
		}
		if utf8.ValidRune(r) && r != '\r' { // \r: chroma turns it into \n first
			b.WriteRune(r)
			runes = append(runes, r)
		}
	}
	text := b.String()
	classes := func(rules []chroma.Rule, golex func(rune) chroma.TokenType) {
		t.Helper()
		rules = append(rules, chroma.Rule{Pattern: `.|\n`, Type: chroma.Other})
		l := chroma.MustNewLexer(&chroma.Config{Name: "classes"}, func() chroma.Rules { return chroma.Rules{"root": rules} })
		tokens, err := chroma.Tokenise(l, nil, text)
		if err != nil {
			t.Fatal(err)
		}
		if len(tokens) != len(runes) {
			t.Fatalf("%d tokens for %d runes", len(tokens), len(runes))
		}
		bad := 0
		for i, r := range runes {
			if want := golex(r); tokens[i].Type != want && bad < 20 {
				bad++
				t.Errorf("U+%04X: chroma's class %s, golex's %s", r, tokens[i].Type, want)
			}
		}
	}
	classes([]chroma.Rule{{Pattern: `[^\W\d]`, Type: chroma.NameOther}, {Pattern: `\s`, Type: chroma.TextWhitespace}},
		func(r rune) chroma.TokenType {
			switch {
			case isNameStart(r):
				return chroma.NameOther
			case isSpace(r):
				return chroma.TextWhitespace
			}
			return chroma.Other
		})
	classes([]chroma.Rule{{Pattern: `\d`, Type: chroma.LiteralNumber}, {Pattern: `\w`, Type: chroma.Name}},
		func(r rune) chroma.TokenType {
			switch {
			case isDigit(r):
				return chroma.LiteralNumber
			case isWord(r):
				return chroma.Name
			}
			return chroma.Other
		})
}

// BenchmarkLexGo lexes the same Go file with golex and with chroma's Go
// lexer and reports each one's bytes per second.
func BenchmarkLexGo(b *testing.B) {
	src := benchSource()
	b.Run("golex", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, ok := Tokens(src); !ok {
				b.Fatal("left to chroma")
			}
		}
		b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "bytes/s")
	})
	b.Run("chroma", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			chromaTokens(b, src)
		}
		b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds(), "bytes/s")
	})
}

// benchSource is real Go: this package's own source.
func benchSource() string {
	b, err := os.ReadFile("golex.go")
	if err != nil {
		panic(err)
	}
	return string(b)
}
