package kotlin

import (
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Token kinds of the Kotlin lexer.
const (
	tIdent  uint8 = iota + 1 // identifiers, keywords and `backtick` names alike
	tNumber                  // a number literal
	tString                  // "..." or a raw string """...""", templates included
	tChar                    // '...'
	tOp                      // an operator or separator
)

// tok is one token with its byte offsets and the lines it starts and ends
// on (a raw string or a block comment spans lines).
type tok struct {
	kind        uint8
	off, end    int32
	line, eline int32
}

// lexer is the Kotlin tokenizer. A string literal is one token, its
// templates ($name, ${expression}) included: the lexer scans a template's
// expression (nested strings, braces and comments) only to find where the
// string ends. Comments nest (/* /* */ */) and are handed out apart from
// the tokens ([scan.Lexer.Comments]); those inside a template are not.
type lexer struct {
	scan.Lexer
	toks []tok
}

// ops lists the operators and separators longest first, so that the first
// match is the longest. Kotlin has no >> or >>= (it writes shr), so '>'
// never joins another '>' and type arguments close one at a time.
var ops = []string{
	"===", "!==", "..<",
	"?.", "?:", "!!", "::", "..", "->", "&&", "||", "++", "--", "==", "!=", "<=", ">=",
	"+=", "-=", "*=", "/=", "%=",
	"(", ")", "{", "}", "[", "]", ";", ",", ".", "@", "=", ">", "<", "!", "?",
	":", "+", "-", "*", "/", "%", "&", "|", "#",
}

// lex tokenizes src.
func lex(src []byte) (*lexer, *scan.Error) {
	l := &lexer{Lexer: scan.NewLexer(src), toks: make([]tok, 0, len(src)/5+1)}
	if l.Pos+1 < len(src) && src[l.Pos] == '#' && src[l.Pos+1] == '!' {
		l.SkipLine() // a script's shebang line is not code
	}
	for l.Err == nil && l.Pos < len(src) {
		l.next()
	}
	return l, l.Err
}

func (l *lexer) add(kind uint8, off, line int) {
	l.toks = append(l.toks, tok{kind, int32(off), int32(l.Pos), int32(line), int32(l.Line)})
}

// next scans one token or run of white space.
func (l *lexer) next() {
	src, start, line := l.Src, l.Pos, l.Line
	c := src[start]
	switch {
	case c == '\n':
		l.Pos++
		l.Line++
	case c == ' ' || c == '\t' || c == '\r' || c == '\f':
		l.Pos++
	case c == '/' && l.Peek(1) == '/':
		l.SkipLine()
		l.Comment(start, line)
	case c == '/' && l.Peek(1) == '*':
		l.BlockComment(true)
		l.Comment(start, line)
	case c == '"':
		l.str()
		l.add(tString, start, line)
	case c == '\'':
		l.char()
		l.add(tChar, start, line)
	case c == '`':
		l.Pos++
		for l.Pos < len(src) && src[l.Pos] != '`' {
			if src[l.Pos] == '\n' || src[l.Pos] == '\r' {
				l.Fail(start, "backtick name not terminated")
				return
			}
			l.Pos++
		}
		if l.Pos >= len(src) {
			l.Fail(start, "backtick name not terminated")
			return
		}
		l.Pos++
		if l.Pos-start == 2 {
			l.Fail(start, "empty backtick name")
			return
		}
		l.add(tIdent, start, line)
	case isDigit(c) || c == '.' && isDigit(l.Peek(1)):
		l.number()
		l.add(tNumber, start, line)
	default:
		r, size := utf8.DecodeRune(src[start:])
		if isIdentStart(r) {
			l.Pos += size
			for l.Pos < len(src) {
				r, size := utf8.DecodeRune(src[l.Pos:])
				if !isIdentPart(r) {
					break
				}
				l.Pos += size
			}
			l.add(tIdent, start, line)
			return
		}
		for _, op := range ops {
			if len(src)-start >= len(op) && string(src[start:start+len(op)]) == op {
				l.Pos += len(op)
				l.add(tOp, start, line)
				return
			}
		}
		if r == utf8.RuneError && size == 1 {
			l.Fail(start, "invalid UTF-8 encoding")
		} else {
			l.Fail(start, "illegal character %q", r)
		}
	}
}

// str scans a string literal from its first quote: "..." ends on its line,
// a raw string """...""" at the first """ (quotes right before it belong
// to the content). Both hold templates.
func (l *lexer) str() {
	start := l.Pos
	raw := l.Peek(1) == '"' && l.Peek(2) == '"'
	if raw {
		l.Pos += 3
	} else {
		l.Pos++
	}
	for l.Err == nil {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "string literal not terminated")
			return
		}
		c := l.Src[l.Pos]
		switch {
		case c == '\n' && !raw, c == '\r' && !raw:
			l.Fail(start, "string literal not terminated")
			return
		case c == '\n':
			l.Line++
		case c == '\\' && !raw:
			l.Pos += 2
			continue
		case c == '"' && !raw:
			l.Pos++
			return
		case c == '"' && l.Peek(1) == '"' && l.Peek(2) == '"':
			for l.Pos < len(l.Src) && l.Src[l.Pos] == '"' {
				l.Pos++
			}
			return
		case c == '$' && l.Peek(1) == '{':
			l.Pos += 2
			l.template(l.Pos - 2)
			continue
		}
		l.Pos++
	}
}

// template scans the expression of a ${...} template up to and past its
// closing brace: brackets, nested strings, characters and comments.
func (l *lexer) template(start int) {
	depth := 1
	for l.Err == nil {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "string template not terminated")
			return
		}
		switch c := l.Src[l.Pos]; {
		case c == '\n':
			l.Line++
			l.Pos++
		case c == '{':
			depth++
			l.Pos++
		case c == '}':
			depth--
			l.Pos++
			if depth == 0 {
				return
			}
		case c == '"':
			l.str()
		case c == '\'':
			l.char()
		case c == '`':
			l.Pos++
			for l.Pos < len(l.Src) && l.Src[l.Pos] != '`' && l.Src[l.Pos] != '\n' {
				l.Pos++
			}
			if l.Pos < len(l.Src) && l.Src[l.Pos] == '`' {
				l.Pos++
			}
		case c == '/' && l.Peek(1) == '/':
			l.SkipLine()
		case c == '/' && l.Peek(1) == '*':
			l.BlockComment(true)
		default:
			l.Pos++
		}
	}
}

// char scans a character literal: one character or one escape.
func (l *lexer) char() {
	start := l.Pos
	l.Pos++
	n := 0
	for {
		if l.Pos >= len(l.Src) || l.Src[l.Pos] == '\n' || l.Src[l.Pos] == '\r' {
			l.Fail(start, "character literal not terminated")
			return
		}
		switch l.Src[l.Pos] {
		case '\\':
			l.Pos += 2
			n++
			continue
		case '\'':
			l.Pos++
			if n == 0 {
				l.Fail(start, "empty character literal")
			}
			return
		}
		_, size := utf8.DecodeRune(l.Src[l.Pos:])
		l.Pos += size
		n++
	}
}

// number scans a number literal loosely: digits, letters and underscores
// (0x1F, 1_000L, 2u, 1e-3f), a sign right after a decimal exponent, and a
// dot followed by a digit (1.5, not the range 1..2 or the call 1.inc()).
func (l *lexer) number() {
	hex := l.Src[l.Pos] == '0' && (l.Peek(1) == 'x' || l.Peek(1) == 'X')
	for l.Pos < len(l.Src) {
		c := l.Src[l.Pos]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			l.Pos++
			if !hex && (c == 'e' || c == 'E') && l.Pos < len(l.Src) && (l.Src[l.Pos] == '+' || l.Src[l.Pos] == '-') {
				l.Pos++
			}
		case c == '.' && !hex && isDigit(l.Peek(1)):
			l.Pos++
		default:
			return
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Pc, r)
}
