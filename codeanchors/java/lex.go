package java

import (
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Token kinds of the Java lexer.
const (
	tIdent  uint8 = iota + 1 // identifiers and keywords alike
	tNumber                  // a number literal
	tString                  // "...", or a text block """...""" (tBlock)
	tBlock                   // a text block
	tChar                    // '...'
	tOp                      // an operator or separator; ">" always alone
)

// tok is one token with its byte offsets and its first line.
type tok struct {
	kind     uint8
	off, end int32
	line     int32
}

// lexer is the Java tokenizer (JLS 3, Java 17: text blocks included). It
// hands comments out apart from the tokens ([scan.Lexer.Comments]) and
// stops at the first error.
type lexer struct {
	scan.Lexer
	toks []tok
}

// ops lists the operators and separators longest first, so that the first
// match is the longest. ">" is never joined with what follows (">>", ">=",
// ">>>=") so that the parser can close nested type arguments one at a time;
// the hash keeps the spelling through adjacency (see [hashTokens]).
var ops = []string{
	"<<=", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=",
	"+=", "-=", "*=", "/=", "&=", "|=", "^=", "%=", "<<",
	"(", ")", "{", "}", "[", "]", ";", ",", ".", "@", "=", ">", "<", "!", "~",
	"?", ":", "+", "-", "*", "/", "&", "|", "^", "%",
}

// lex tokenizes src.
func lex(src []byte) (*lexer, *scan.Error) {
	l := &lexer{Lexer: scan.NewLexer(src), toks: make([]tok, 0, len(src)/5+1)}
	for l.Err == nil && l.Pos < len(src) {
		l.next()
	}
	return l, l.Err
}

func (l *lexer) add(kind uint8, off, line int) {
	l.toks = append(l.toks, tok{kind, int32(off), int32(l.Pos), int32(line)})
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
		l.BlockComment(false)
		l.Comment(start, line)
	case c == '"' && l.Peek(1) == '"' && l.Peek(2) == '"':
		l.textBlock()
	case c == '"':
		l.Quoted('"', "string literal")
		l.add(tString, start, line)
	case c == '\'':
		l.Quoted('\'', "character literal")
		if l.Err == nil && l.Pos-start == 2 {
			l.Fail(start, "empty character literal")
		}
		l.add(tChar, start, line)
	case isDigit(c) || c == '.' && isDigit(l.Peek(1)):
		l.number()
		l.add(tNumber, start, line)
	case c == '\\':
		l.Fail(start, "unicode escapes outside literals and comments are not supported")
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

// textBlock scans a text block: """, blanks, a line break, then anything
// up to an unescaped """.
func (l *lexer) textBlock() {
	start, line := l.Pos, l.Line
	l.Pos += 3
	for l.Pos < len(l.Src) && (l.Src[l.Pos] == ' ' || l.Src[l.Pos] == '\t' || l.Src[l.Pos] == '\f') {
		l.Pos++
	}
	if l.Pos < len(l.Src) && l.Src[l.Pos] == '\r' {
		l.Pos++
	}
	if l.Pos >= len(l.Src) || l.Src[l.Pos] != '\n' {
		l.Fail(start, "a text block must start with a line break after its opening quotes")
		return
	}
	for {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "text block not terminated")
			return
		}
		switch c := l.Src[l.Pos]; {
		case c == '\\':
			if l.Peek(1) == '\n' {
				l.Line++
			}
			l.Pos += 2
			continue
		case c == '\n':
			l.Line++
		case c == '"' && l.Peek(1) == '"' && l.Peek(2) == '"':
			l.Pos += 3
			l.add(tBlock, start, line)
			return
		}
		l.Pos++
	}
}

// number scans a number literal loosely: digits, letters, underscores and
// dots, and a sign right after an exponent letter (e or E; p or P in hex).
func (l *lexer) number() {
	hex := l.Src[l.Pos] == '0' && (l.Peek(1) == 'x' || l.Peek(1) == 'X')
	for l.Pos < len(l.Src) {
		c := l.Src[l.Pos]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			l.Pos++
			exp := !hex && (c == 'e' || c == 'E') || hex && (c == 'p' || c == 'P')
			if exp && l.Pos < len(l.Src) && (l.Src[l.Pos] == '+' || l.Src[l.Pos] == '-') {
				l.Pos++
			}
		case c == '.' && (hex || isDigitOrEnd(l.Peek(1))):
			l.Pos++
		default:
			return
		}
	}
}

// isDigitOrEnd reports whether c may follow the dot of a number: a digit,
// an exponent or suffix letter, or anything that is not a name (1. + 2).
func isDigitOrEnd(c byte) bool {
	return isDigit(c) || c == 'e' || c == 'E' || c == 'f' || c == 'F' || c == 'd' || c == 'D' ||
		!(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isIdentStart and isIdentPart approximate Character.isJavaIdentifierStart
// and isJavaIdentifierPart.
func isIdentStart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.Is(unicode.Sc, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Nl, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		r != utf8.RuneError && (r <= 8 || r >= 0xE && r <= 0x1B || r >= 0x7F && r <= 0x9F || unicode.Is(unicode.Cf, r))
}
