package csharp

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Token kinds of the C# lexer.
const (
	tIdent     uint8 = iota + 1 // identifiers (@verbatim ones too) and keywords
	tNumber                     // a number literal
	tString                     // any string literal: regular, verbatim, interpolated, raw
	tChar                       // '...'
	tOp                         // an operator or punctuator; ">" always alone
	tComment                    // never hashed
	tDirective                  // a preprocessor line (#if X, #region), hashed as written
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

// maxInterpolation bounds nested interpolated strings and their holes.
const maxInterpolation = 100

// lexer is the C# tokenizer (C# 12: raw and interpolated strings of every
// form, UTF-8 strings, preprocessor lines). It stops at the first error.
type lexer struct {
	src  []byte
	pos  int
	line int
	toks []tok
	err  *lexError
	bol  bool // only white space since the start of the line
	nest int  // interpolated strings open
}

func (l *lexer) fail(off int, format string, args ...any) {
	if l.err == nil {
		l.err = &lexError{off, fmt.Sprintf(format, args...)}
	}
}

// ops lists the operators and punctuators longest first. ">" is never
// joined with what follows (">>", ">=", ">>=", ">>>") so that the parser can
// close nested type arguments one at a time.
var ops = []string{
	"<<=", "??=", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", "+=", "-=", "*=",
	"/=", "&=", "|=", "^=", "%=", "<<", "=>", "??", "?.", "..",
	"(", ")", "{", "}", "[", "]", ";", ",", ".", "=", ">", "<", "!", "~", "?", ":", "+", "-",
	"*", "/", "&", "|", "^", "%",
}

func lex(src []byte) *lexer {
	l := &lexer{src: src, line: 1, bol: true, toks: make([]tok, 0, len(src)/5+1)}
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
	l.bol = false
}

func (l *lexer) peek(n int) byte {
	if l.pos+n < len(l.src) {
		return l.src[l.pos+n]
	}
	return 0
}

// next scans one token or run of white space at the top level.
func (l *lexer) next() {
	src, start, line := l.src, l.pos, l.line
	c := src[start]
	switch {
	case c == '\n':
		l.pos++
		l.line++
		l.bol = true
	case c < utf8.RuneSelf && isSpace(rune(c)) || c == '\r':
		l.pos++
	case c == 0xEF && l.peek(1) == 0xBB && l.peek(2) == 0xBF: // a stray byte order mark
		l.pos += 3
	case c == '#' && l.bol:
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
		l.add(tDirective, start, line)
		l.bol = true
	case c == '/' && l.peek(1) == '/':
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
		bol := l.bol
		l.add(tComment, start, line)
		l.bol = bol
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
		bol := l.bol
		l.add(tComment, start, line)
		l.bol = bol
	case c == '"' || c == '$' || c == '@' && (l.peek(1) == '"' || l.peek(1) == '$'):
		if c == '@' || c == '$' || c == '"' {
			if l.stringLit() {
				l.add(tString, start, line)
				return
			}
		}
		l.fail(start, "illegal character %q", c)
	case c == '\'':
		l.pos++
		for {
			if l.pos >= len(src) || src[l.pos] == '\n' {
				l.fail(start, "character literal not terminated")
				return
			}
			if src[l.pos] == '\\' {
				l.pos += 2
				continue
			}
			if src[l.pos] == '\'' {
				l.pos++
				break
			}
			l.pos++
		}
		l.add(tChar, start, line)
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.number()
		l.add(tNumber, start, line)
	default:
		r, size := utf8.DecodeRune(src[start:])
		if c >= utf8.RuneSelf && isSpace(r) { // U+00A0, U+3000, ...
			l.pos += size
			return
		}
		if c == '@' || c == '\\' || isIdentStart(r) {
			if c == '@' {
				l.pos++
				r, size = utf8.DecodeRune(src[l.pos:])
			}
			if !l.identChar(r, size, true) {
				l.fail(start, "illegal character %q", c)
				return
			}
			for l.pos < len(src) {
				r, size := utf8.DecodeRune(src[l.pos:])
				if !l.identChar(r, size, false) {
					break
				}
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

// identChar consumes one identifier character (or a \uXXXX escape) at
// l.pos, reporting whether there was one.
func (l *lexer) identChar(r rune, size int, first bool) bool {
	if r == '\\' && (l.peek(1) == 'u' || l.peek(1) == 'U') {
		n := 4
		if l.peek(1) == 'U' {
			n = 8
		}
		for i := 2; i < 2+n; i++ {
			if !isHex(l.peek(i)) {
				return false
			}
		}
		l.pos += 2 + n
		return true
	}
	if isIdentStart(r) || !first && isIdentPart(r) {
		l.pos += size
		return true
	}
	return false
}

// stringLit scans a string literal of any form from l.pos: "...", @"...",
// $"...", $@"...", @$"...", """...""" and $$"""...""" raw strings, with a
// u8 suffix. It reports false when there is no string there.
func (l *lexer) stringLit() bool {
	start := l.pos
	dollars, verbatim := 0, false
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '$':
			dollars++
			l.pos++
			continue
		case '@':
			if verbatim {
				return false
			}
			verbatim = true
			l.pos++
			continue
		}
		break
	}
	if l.pos >= len(l.src) || l.src[l.pos] != '"' || dollars > 1 && verbatim {
		l.pos = start
		return false
	}
	quotes := 0
	for l.pos+quotes < len(l.src) && l.src[l.pos+quotes] == '"' {
		quotes++
	}
	switch {
	case quotes >= 3 && !verbatim:
		l.raw(start, quotes, dollars)
	case verbatim:
		l.pos++
		l.quoted(start, true, dollars > 0)
	default:
		l.pos++
		l.quoted(start, false, dollars > 0)
	}
	if l.err == nil && l.pos+1 < len(l.src) && (l.src[l.pos] == 'u' || l.src[l.pos] == 'U') && l.src[l.pos+1] == '8' {
		l.pos += 2
	}
	return true
}

// quoted scans the rest of a regular or verbatim string after its opening
// quote; interpolated ones have holes with nested code.
func (l *lexer) quoted(start int, verbatim, interp bool) {
	for {
		if l.pos >= len(l.src) || !verbatim && l.src[l.pos] == '\n' {
			l.fail(start, "string literal not terminated")
			return
		}
		switch c := l.src[l.pos]; {
		case c == '\\' && !verbatim:
			l.pos += 2
			continue
		case c == '"':
			if verbatim && l.peek(1) == '"' {
				l.pos += 2
				continue
			}
			l.pos++
			return
		case c == '\n':
			l.line++
		case interp && c == '{':
			if l.peek(1) == '{' {
				l.pos += 2
				continue
			}
			l.pos++
			l.hole(start, 1)
			if l.err != nil {
				return
			}
			continue
		}
		l.pos++
	}
}

// raw scans a raw string literal whose opening run of quotes (n of them)
// is at l.pos, with dollars '$' before it (holes open with that many '{').
func (l *lexer) raw(start, n, dollars int) {
	l.pos += n
	for {
		if l.pos >= len(l.src) {
			l.fail(start, "raw string literal not terminated")
			return
		}
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
		case c == '"':
			k := 0
			for l.pos+k < len(l.src) && l.src[l.pos+k] == '"' {
				k++
			}
			if k >= n {
				l.pos += k
				return
			}
			l.pos += k
			continue
		case dollars > 0 && c == '{':
			k := 0
			for l.pos+k < len(l.src) && l.src[l.pos+k] == '{' {
				k++
			}
			l.pos += k
			if k >= dollars {
				l.hole(start, dollars)
				if l.err != nil {
					return
				}
			}
			continue
		}
		l.pos++
	}
}

// hole scans the code of an interpolation hole up to the '}' (closers of
// them) that ends it, with nested brackets, strings and comments.
func (l *lexer) hole(start, closers int) {
	l.nest++
	defer func() { l.nest-- }()
	if l.nest > maxInterpolation {
		l.fail(start, "interpolated strings nest too deeply")
		return
	}
	depth := 0
	for {
		if l.pos >= len(l.src) {
			l.fail(start, "interpolated string not terminated")
			return
		}
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == '{' || c == '(' || c == '[':
			depth++
			l.pos++
		case c == ')' || c == ']':
			depth--
			l.pos++
		case c == '}':
			if depth == 0 {
				k := 0
				for k < closers && l.pos+k < len(l.src) && l.src[l.pos+k] == '}' {
					k++
				}
				l.pos += k
				return
			}
			depth--
			l.pos++
		case c == '"' || c == '@' && (l.peek(1) == '"' || l.peek(1) == '$') || c == '$' && (l.peek(1) == '"' || l.peek(1) == '@' || l.peek(1) == '$'):
			if !l.stringLit() {
				l.pos++
			}
			if l.err != nil {
				return
			}
		case c == '\'':
			l.pos++
			for l.pos < len(l.src) && l.src[l.pos] != '\'' && l.src[l.pos] != '\n' {
				if l.src[l.pos] == '\\' {
					l.pos++
				}
				l.pos++
			}
			l.pos++
		case c == '/' && l.peek(1) == '*':
			l.pos += 2
			for l.pos < len(l.src) && !(l.src[l.pos] == '*' && l.peek(1) == '/') {
				if l.src[l.pos] == '\n' {
					l.line++
				}
				l.pos++
			}
			l.pos += 2
		default:
			l.pos++
		}
	}
}

// number scans a number literal loosely: digits, letters, underscores and
// a dot followed by a digit, with a sign after an exponent (not in hex).
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
		case c == '.' && isDigit(l.peek(1)):
			l.pos++
		default:
			return
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isIdentStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Cf, r)
}

// isSpace reports whether r is white space to C# (ECMA-334 6.3.4): a
// Unicode space separator (category Zs: ' ', U+00A0 no-break space, U+3000,
// ...), tab, vertical tab or form feed. Files indented with no-break
// spaces compile, so they must lex.
func isSpace(r rune) bool {
	return r == '\t' || r == '\v' || r == '\f' || unicode.Is(unicode.Zs, r)
}
