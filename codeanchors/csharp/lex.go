package csharp

import (
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Token kinds of the C# lexer.
const (
	tIdent     uint8 = iota + 1 // identifiers (@verbatim ones too) and keywords
	tNumber                     // a number literal
	tString                     // any string literal: regular, verbatim, interpolated, raw
	tChar                       // '...'
	tOp                         // an operator or punctuator; ">" always alone
	tDirective                  // a preprocessor line (#if X, #region), hashed as written
)

// tok is one token with its byte offsets and its first line.
type tok struct {
	kind     uint8
	off, end int32
	line     int32
}

// maxInterpolation bounds nested interpolated strings and their holes.
const maxInterpolation = 100

// lexer is the C# tokenizer (C# 12: raw and interpolated strings of every
// form, UTF-8 strings, preprocessor lines). It hands comments out apart
// from the tokens ([scan.Lexer.Comments]) and stops at the first error.
type lexer struct {
	scan.Lexer
	toks []tok
	bol  bool // only white space since the start of the line
	nest int  // interpolated strings open
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

func lex(src []byte) (*lexer, *scan.Error) {
	l := &lexer{Lexer: scan.NewLexer(src), bol: true, toks: make([]tok, 0, len(src)/5+1)}
	for l.Err == nil && l.Pos < len(src) {
		l.next()
	}
	return l, l.Err
}

func (l *lexer) add(kind uint8, off, line int) {
	l.toks = append(l.toks, tok{kind, int32(off), int32(l.Pos), int32(line)})
	l.bol = false
}

// next scans one token or run of white space at the top level.
func (l *lexer) next() {
	src, start, line := l.Src, l.Pos, l.Line
	c := src[start]
	switch {
	case c == '\n':
		l.Pos++
		l.Line++
		l.bol = true
	case c < utf8.RuneSelf && isSpace(rune(c)) || c == '\r':
		l.Pos++
	case c == 0xEF && l.Peek(1) == 0xBB && l.Peek(2) == 0xBF: // a stray byte order mark
		l.Pos += 3
	case c == '#' && l.bol:
		for l.Pos < len(src) && src[l.Pos] != '\n' {
			l.Pos++
		}
		l.add(tDirective, start, line)
		l.bol = true
	case c == '/' && l.Peek(1) == '/':
		l.SkipLine()
		l.Comment(start, line)
	case c == '/' && l.Peek(1) == '*':
		l.BlockComment(false)
		l.Comment(start, line)
	case c == '"' || c == '$' || c == '@' && (l.Peek(1) == '"' || l.Peek(1) == '$'):
		if c == '@' || c == '$' || c == '"' {
			if l.stringLit() {
				l.add(tString, start, line)
				return
			}
		}
		l.Fail(start, "illegal character %q", c)
	case c == '\'':
		l.Pos++
		for {
			if l.Pos >= len(src) || src[l.Pos] == '\n' {
				l.Fail(start, "character literal not terminated")
				return
			}
			if src[l.Pos] == '\\' {
				l.Pos += 2
				continue
			}
			if src[l.Pos] == '\'' {
				l.Pos++
				break
			}
			l.Pos++
		}
		l.add(tChar, start, line)
	case isDigit(c) || c == '.' && isDigit(l.Peek(1)):
		l.number()
		l.add(tNumber, start, line)
	default:
		r, size := utf8.DecodeRune(src[start:])
		if c >= utf8.RuneSelf && isSpace(r) { // U+00A0, U+3000, ...
			l.Pos += size
			return
		}
		if c == '@' || c == '\\' || isIdentStart(r) {
			if c == '@' {
				l.Pos++
				r, size = utf8.DecodeRune(src[l.Pos:])
			}
			if !l.identChar(r, size, true) {
				l.Fail(start, "illegal character %q", c)
				return
			}
			for l.Pos < len(src) {
				r, size := utf8.DecodeRune(src[l.Pos:])
				if !l.identChar(r, size, false) {
					break
				}
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

// identChar consumes one identifier character (or a \uXXXX escape) at
// l.Pos, reporting whether there was one.
func (l *lexer) identChar(r rune, size int, first bool) bool {
	if r == '\\' && (l.Peek(1) == 'u' || l.Peek(1) == 'U') {
		n := 4
		if l.Peek(1) == 'U' {
			n = 8
		}
		for i := 2; i < 2+n; i++ {
			if !isHex(l.Peek(i)) {
				return false
			}
		}
		l.Pos += 2 + n
		return true
	}
	if isIdentStart(r) || !first && isIdentPart(r) {
		l.Pos += size
		return true
	}
	return false
}

// stringLit scans a string literal of any form from l.Pos: "...", @"...",
// $"...", $@"...", @$"...", """...""" and $$"""...""" raw strings, with a
// u8 suffix. It reports false when there is no string there.
func (l *lexer) stringLit() bool {
	start := l.Pos
	dollars, verbatim := 0, false
	for l.Pos < len(l.Src) {
		switch l.Src[l.Pos] {
		case '$':
			dollars++
			l.Pos++
			continue
		case '@':
			if verbatim {
				return false
			}
			verbatim = true
			l.Pos++
			continue
		}
		break
	}
	if l.Pos >= len(l.Src) || l.Src[l.Pos] != '"' || dollars > 1 && verbatim {
		l.Pos = start
		return false
	}
	quotes := 0
	for l.Pos+quotes < len(l.Src) && l.Src[l.Pos+quotes] == '"' {
		quotes++
	}
	switch {
	case quotes >= 3 && !verbatim:
		l.raw(start, quotes, dollars)
	case verbatim:
		l.Pos++
		l.quoted(start, true, dollars > 0)
	default:
		l.Pos++
		l.quoted(start, false, dollars > 0)
	}
	if l.Err == nil && l.Pos+1 < len(l.Src) && (l.Src[l.Pos] == 'u' || l.Src[l.Pos] == 'U') && l.Src[l.Pos+1] == '8' {
		l.Pos += 2
	}
	return true
}

// quoted scans the rest of a regular or verbatim string after its opening
// quote; interpolated ones have holes with nested code.
func (l *lexer) quoted(start int, verbatim, interp bool) {
	for {
		if l.Pos >= len(l.Src) || !verbatim && l.Src[l.Pos] == '\n' {
			l.Fail(start, "string literal not terminated")
			return
		}
		switch c := l.Src[l.Pos]; {
		case c == '\\' && !verbatim:
			l.Pos += 2
			continue
		case c == '"':
			if verbatim && l.Peek(1) == '"' {
				l.Pos += 2
				continue
			}
			l.Pos++
			return
		case c == '\n':
			l.Line++
		case interp && c == '{':
			if l.Peek(1) == '{' {
				l.Pos += 2
				continue
			}
			l.Pos++
			l.hole(start, 1)
			if l.Err != nil {
				return
			}
			continue
		}
		l.Pos++
	}
}

// raw scans a raw string literal whose opening run of quotes (n of them)
// is at l.Pos, with dollars '$' before it (holes open with that many '{').
func (l *lexer) raw(start, n, dollars int) {
	l.Pos += n
	for {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "raw string literal not terminated")
			return
		}
		c := l.Src[l.Pos]
		switch {
		case c == '\n':
			l.Line++
		case c == '"':
			k := 0
			for l.Pos+k < len(l.Src) && l.Src[l.Pos+k] == '"' {
				k++
			}
			if k >= n {
				l.Pos += k
				return
			}
			l.Pos += k
			continue
		case dollars > 0 && c == '{':
			k := 0
			for l.Pos+k < len(l.Src) && l.Src[l.Pos+k] == '{' {
				k++
			}
			l.Pos += k
			if k >= dollars {
				l.hole(start, dollars)
				if l.Err != nil {
					return
				}
			}
			continue
		}
		l.Pos++
	}
}

// hole scans the code of an interpolation hole up to the '}' (closers of
// them) that ends it, with nested brackets, strings and comments.
func (l *lexer) hole(start, closers int) {
	l.nest++
	defer func() { l.nest-- }()
	if l.nest > maxInterpolation {
		l.Fail(start, "interpolated strings nest too deeply")
		return
	}
	depth := 0
	for {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "interpolated string not terminated")
			return
		}
		c := l.Src[l.Pos]
		switch {
		case c == '\n':
			l.Line++
			l.Pos++
		case c == '{' || c == '(' || c == '[':
			depth++
			l.Pos++
		case c == ')' || c == ']':
			depth--
			l.Pos++
		case c == '}':
			if depth == 0 {
				k := 0
				for k < closers && l.Pos+k < len(l.Src) && l.Src[l.Pos+k] == '}' {
					k++
				}
				l.Pos += k
				return
			}
			depth--
			l.Pos++
		case c == '"' || c == '@' && (l.Peek(1) == '"' || l.Peek(1) == '$') || c == '$' && (l.Peek(1) == '"' || l.Peek(1) == '@' || l.Peek(1) == '$'):
			if !l.stringLit() {
				l.Pos++
			}
			if l.Err != nil {
				return
			}
		case c == '\'':
			l.Pos++
			for l.Pos < len(l.Src) && l.Src[l.Pos] != '\'' && l.Src[l.Pos] != '\n' {
				if l.Src[l.Pos] == '\\' {
					l.Pos++
				}
				l.Pos++
			}
			l.Pos++
		case c == '/' && l.Peek(1) == '*':
			l.Pos += 2
			for l.Pos < len(l.Src) && !(l.Src[l.Pos] == '*' && l.Peek(1) == '/') {
				if l.Src[l.Pos] == '\n' {
					l.Line++
				}
				l.Pos++
			}
			l.Pos += 2
		default:
			l.Pos++
		}
	}
}

// number scans a number literal loosely: digits, letters, underscores and
// a dot followed by a digit, with a sign after an exponent (not in hex).
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
		case c == '.' && isDigit(l.Peek(1)):
			l.Pos++
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
