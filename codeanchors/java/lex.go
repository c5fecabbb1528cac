package java

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Token kinds of the Java lexer.
const (
	tIdent   uint8 = iota + 1 // identifiers and keywords alike
	tNumber                   // a number literal
	tString                   // "...", or a text block """...""" (tBlock)
	tBlock                    // a text block
	tChar                     // '...'
	tOp                       // an operator or separator; ">" always alone
	tComment                  // kept for hashing decisions only, never hashed
)

// tok is one token with its byte offsets and its first line.
type tok struct {
	kind     uint8
	off, end int32
	line     int32
}

// lexError is the first problem the lexer or parser met.
type lexError struct {
	off int
	msg string
}

// lexer is the Java tokenizer (JLS 3, Java 17: text blocks included). It
// keeps comments as tokens, so that the token hash can skip them and the
// parser can step over them, and stops at the first error.
type lexer struct {
	src  []byte
	pos  int
	line int
	toks []tok
	err  *lexError
}

func (l *lexer) fail(off int, format string, args ...any) {
	if l.err == nil {
		l.err = &lexError{off, fmt.Sprintf(format, args...)}
	}
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

// lex tokenizes l.src.
func lex(src []byte) *lexer {
	l := &lexer{src: src, line: 1, toks: make([]tok, 0, len(src)/5+1)}
	// A byte order mark is not a token (javac skips it too).
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.pos = 3
	}
	for l.err == nil && l.pos < len(src) {
		l.next()
	}
	return l
}

func (l *lexer) add(kind uint8, off, line int) {
	l.toks = append(l.toks, tok{kind, int32(off), int32(l.pos), int32(line)})
}

// next scans one token or run of white space.
func (l *lexer) next() {
	src, start, line := l.src, l.pos, l.line
	c := src[start]
	switch {
	case c == '\n':
		l.pos++
		l.line++
	case c == ' ' || c == '\t' || c == '\r' || c == '\f':
		l.pos++
	case c == '/' && l.peek(1) == '/':
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
		l.add(tComment, start, line)
	case c == '/' && l.peek(1) == '*':
		l.pos += 2
		for {
			if l.pos >= len(src) {
				l.fail(start, "comment not terminated")
				return
			}
			if src[l.pos] == '*' && l.peek(1) == '/' {
				l.pos += 2
				break
			}
			if src[l.pos] == '\n' {
				l.line++
			}
			l.pos++
		}
		l.add(tComment, start, line)
	case c == '"' && l.peek(1) == '"' && l.peek(2) == '"':
		l.textBlock()
	case c == '"':
		l.quoted('"', "string literal")
		l.add(tString, start, line)
	case c == '\'':
		l.quoted('\'', "character literal")
		if l.err == nil && l.pos-start == 2 {
			l.fail(start, "empty character literal")
		}
		l.add(tChar, start, line)
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.number()
		l.add(tNumber, start, line)
	case c == '\\':
		l.fail(start, "unicode escapes outside literals and comments are not supported")
	default:
		r, size := utf8.DecodeRune(src[start:])
		if isIdentStart(r) {
			l.pos += size
			for l.pos < len(src) {
				r, size := utf8.DecodeRune(src[l.pos:])
				if !isIdentPart(r) {
					break
				}
				l.pos += size
			}
			l.add(tIdent, start, line)
			return
		}
		for _, op := range ops {
			if len(src)-start >= len(op) && string(src[start:start+len(op)]) == op {
				l.pos += len(op)
				l.add(tOp, start, line)
				return
			}
		}
		if r == utf8.RuneError && size == 1 {
			l.fail(start, "invalid UTF-8 encoding")
		} else {
			l.fail(start, "illegal character %q", r)
		}
	}
}

func (l *lexer) peek(n int) byte {
	if l.pos+n < len(l.src) {
		return l.src[l.pos+n]
	}
	return 0
}

// quoted scans a string or character literal, which ends on its line.
func (l *lexer) quoted(q byte, what string) {
	start := l.pos
	l.pos++
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' || l.src[l.pos] == '\r' {
			l.fail(start, "%s not terminated", what)
			return
		}
		switch l.src[l.pos] {
		case '\\':
			l.pos += 2
			continue
		case q:
			l.pos++
			return
		}
		l.pos++
	}
}

// textBlock scans a text block: """, blanks, a line break, then anything
// up to an unescaped """.
func (l *lexer) textBlock() {
	start, line := l.pos, l.line
	l.pos += 3
	for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\t' || l.src[l.pos] == '\f') {
		l.pos++
	}
	if l.pos < len(l.src) && l.src[l.pos] == '\r' {
		l.pos++
	}
	if l.pos >= len(l.src) || l.src[l.pos] != '\n' {
		l.fail(start, "a text block must start with a line break after its opening quotes")
		return
	}
	for {
		if l.pos >= len(l.src) {
			l.fail(start, "text block not terminated")
			return
		}
		switch c := l.src[l.pos]; {
		case c == '\\':
			if l.peek(1) == '\n' {
				l.line++
			}
			l.pos += 2
			continue
		case c == '\n':
			l.line++
		case c == '"' && l.peek(1) == '"' && l.peek(2) == '"':
			l.pos += 3
			l.add(tBlock, start, line)
			return
		}
		l.pos++
	}
}

// number scans a number literal loosely: digits, letters, underscores and
// dots, and a sign right after an exponent letter (e or E; p or P in hex).
func (l *lexer) number() {
	hex := l.src[l.pos] == '0' && (l.peek(1) == 'x' || l.peek(1) == 'X')
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			l.pos++
			exp := !hex && (c == 'e' || c == 'E') || hex && (c == 'p' || c == 'P')
			if exp && l.pos < len(l.src) && (l.src[l.pos] == '+' || l.src[l.pos] == '-') {
				l.pos++
			}
		case c == '.' && (hex || isDigitOrEnd(l.peek(1))):
			l.pos++
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
