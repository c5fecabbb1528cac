package csharp

import (
	"strings"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// hashTokens returns the file's code tokens for the token hash: every
// token but comments, as written, except that
//
//   - a preprocessor line keeps one space between two words and none
//     elsewhere (#if !( A || B ) is #if !(A||B));
//   - a string that spans lines has its line endings as "\n", and a raw
//     string literal ("""...""" over several lines) is its content after
//     the compiler removes the closing line's indentation, so re-indenting
//     it keeps the hash.
func (p *parser) hashTokens() []lang.Token {
	out := make([]lang.Token, 0, len(p.toks))
	for _, t := range p.toks {
		text := string(p.src[t.off:t.end])
		switch {
		case t.kind == tDirective:
			text = directive(text)
		case t.kind == tString && strings.Contains(text, "\n"):
			text = strings.ReplaceAll(text, "\r\n", "\n")
			if open := strings.TrimLeft(text, "$"); strings.HasPrefix(open, `"""`) {
				text = rawContent(text)
			}
		}
		out = append(out, lang.Token{Line: int(t.line), Text: text})
	}
	return out
}

// rawContent returns a multi-line raw string literal with its content
// lines stripped of the smallest indentation of its non-blank lines and of
// its closing line, and of trailing white space; its opening delimiter (with
// the interpolation dollars) and closing quotes are kept.
func rawContent(raw string) string {
	first := strings.IndexByte(raw, '\n')
	lines := strings.Split(raw[first+1:], "\n")
	indent := -1
	for i, l := range lines {
		trimmed := strings.TrimLeftFunc(l, isSpace)
		if trimmed == "" && i != len(lines)-1 {
			continue
		}
		if n := len(l) - len(trimmed); indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if strings.TrimLeftFunc(l, isSpace) == "" {
			lines[i] = ""
			continue
		}
		lines[i] = strings.TrimRightFunc(l[min(indent, len(l)):], isSpace)
	}
	return strings.TrimRightFunc(raw[:first], isSpace) + "\n" + strings.Join(lines, "\n")
}

// directive returns a preprocessor line with white space ([isSpace])
// removed except one space between two word characters.
func directive(line string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		c := line[i : i+size] // as written, even when not UTF-8
		i += size
		if isSpace(r) || r == '\r' {
			space = b.Len() > 0
			continue
		}
		if space && isWord(c[0]) && isWord(b.String()[b.Len()-1]) {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(c)
	}
	return b.String()
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
