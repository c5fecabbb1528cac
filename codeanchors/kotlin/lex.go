package kotlin

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Token kinds of the Kotlin lexer.
const (
	tIdent   uint8 = iota + 1 // identifiers, keywords and `backtick` names alike
	tNumber                   // a number literal
	tString                   // "..." or a raw string """...""", templates included
	tChar                     // '...'
	tOp                       // an operator or separator
	tComment                  // kept for the parser's line checks only, never hashed
)

// tok is one token with its byte offsets and the lines it starts and ends
// on (a raw string or a block comment spans lines).
type tok struct {
	kind        uint8
	off, end    int32
	line, eline int32
}

// lexError is the first problem the lexer or parser met.
type lexError struct {
	off int
	msg string
}

// lexer is the Kotlin tokenizer. A string literal is one token, its
// templates ($name, ${expression}) included: the lexer scans a template's
// expression (nested strings, braces and comments) only to find where the
// string ends. Comments nest (/* /* */ */) and are kept as tokens so that
// the token hash can skip them.
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
func lex(src []byte) *lexer {
	l := &lexer{src: src, line: 1, toks: make([]tok, 0, len(src)/5+1)}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.pos = 3
	}
	if l.pos+1 < len(src) && src[l.pos] == '#' && src[l.pos+1] == '!' {
		// A script's shebang line is not code.
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
	}
	for l.err == nil && l.pos < len(src) {
		l.next()
	}
	return l
}

func (l *lexer) add(kind uint8, off, line int) {
	l.toks = append(l.toks, tok{kind, int32(off), int32(l.pos), int32(line), int32(l.line)})
}

func (l *lexer) peek(n int) byte {
	if l.pos+n < len(l.src) {
		return l.src[l.pos+n]
	}
	return 0
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
		l.lineComment()
		l.add(tComment, start, line)
	case c == '/' && l.peek(1) == '*':
		l.blockComment()
		l.add(tComment, start, line)
	case c == '"':
		l.str()
		l.add(tString, start, line)
	case c == '\'':
		l.char()
		l.add(tChar, start, line)
	case c == '`':
		l.pos++
		for l.pos < len(src) && src[l.pos] != '`' {
			if src[l.pos] == '\n' || src[l.pos] == '\r' {
				l.fail(start, "backtick name not terminated")
				return
			}
			l.pos++
		}
		if l.pos >= len(src) {
			l.fail(start, "backtick name not terminated")
			return
		}
		l.pos++
		if l.pos-start == 2 {
			l.fail(start, "empty backtick name")
			return
		}
		l.add(tIdent, start, line)
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.number()
		l.add(tNumber, start, line)
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

func (l *lexer) lineComment() {
	for l.pos < len(l.src) && l.src[l.pos] != '\n' {
		l.pos++
	}
}

// blockComment scans a block comment; they nest.
func (l *lexer) blockComment() {
	start := l.pos
	depth := 0
	for {
		if l.pos >= len(l.src) {
			l.fail(start, "comment not terminated")
			return
		}
		switch {
		case l.src[l.pos] == '/' && l.peek(1) == '*':
			depth++
			l.pos += 2
			continue
		case l.src[l.pos] == '*' && l.peek(1) == '/':
			depth--
			l.pos += 2
			if depth == 0 {
				return
			}
			continue
		case l.src[l.pos] == '\n':
			l.line++
		}
		l.pos++
	}
}

// str scans a string literal from its first quote: "..." ends on its line,
// a raw string """...""" at the first """ (quotes right before it belong
// to the content). Both hold templates.
func (l *lexer) str() {
	start := l.pos
	raw := l.peek(1) == '"' && l.peek(2) == '"'
	if raw {
		l.pos += 3
	} else {
		l.pos++
	}
	for l.err == nil {
		if l.pos >= len(l.src) {
			l.fail(start, "string literal not terminated")
			return
		}
		c := l.src[l.pos]
		switch {
		case c == '\n' && !raw, c == '\r' && !raw:
			l.fail(start, "string literal not terminated")
			return
		case c == '\n':
			l.line++
		case c == '\\' && !raw:
			l.pos += 2
			continue
		case c == '"' && !raw:
			l.pos++
			return
		case c == '"' && l.peek(1) == '"' && l.peek(2) == '"':
			for l.pos < len(l.src) && l.src[l.pos] == '"' {
				l.pos++
			}
			return
		case c == '$' && l.peek(1) == '{':
			l.pos += 2
			l.template(l.pos - 2)
			continue
		}
		l.pos++
	}
}

// template scans the expression of a ${...} template up to and past its
// closing brace: brackets, nested strings, characters and comments.
func (l *lexer) template(start int) {
	depth := 1
	for l.err == nil {
		if l.pos >= len(l.src) {
			l.fail(start, "string template not terminated")
			return
		}
		switch c := l.src[l.pos]; {
		case c == '\n':
			l.line++
			l.pos++
		case c == '{':
			depth++
			l.pos++
		case c == '}':
			depth--
			l.pos++
			if depth == 0 {
				return
			}
		case c == '"':
			l.str()
		case c == '\'':
			l.char()
		case c == '`':
			l.pos++
			for l.pos < len(l.src) && l.src[l.pos] != '`' && l.src[l.pos] != '\n' {
				l.pos++
			}
			if l.pos < len(l.src) && l.src[l.pos] == '`' {
				l.pos++
			}
		case c == '/' && l.peek(1) == '/':
			l.lineComment()
		case c == '/' && l.peek(1) == '*':
			l.blockComment()
		default:
			l.pos++
		}
	}
}

// char scans a character literal: one character or one escape.
func (l *lexer) char() {
	start := l.pos
	l.pos++
	n := 0
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' || l.src[l.pos] == '\r' {
			l.fail(start, "character literal not terminated")
			return
		}
		switch l.src[l.pos] {
		case '\\':
			l.pos += 2
			n++
			continue
		case '\'':
			l.pos++
			if n == 0 {
				l.fail(start, "empty character literal")
			}
			return
		}
		_, size := utf8.DecodeRune(l.src[l.pos:])
		l.pos += size
		n++
	}
}

// number scans a number literal loosely: digits, letters and underscores
// (0x1F, 1_000L, 2u, 1e-3f), a sign right after a decimal exponent, and a
// dot followed by a digit (1.5, not the range 1..2 or the call 1.inc()).
func (l *lexer) number() {
	hex := l.src[l.pos] == '0' && (l.peek(1) == 'x' || l.peek(1) == 'X')
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			l.pos++
			if !hex && (c == 'e' || c == 'E') && l.pos < len(l.src) && (l.src[l.pos] == '+' || l.src[l.pos] == '-') {
				l.pos++
			}
		case c == '.' && !hex && isDigit(l.peek(1)):
			l.pos++
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
