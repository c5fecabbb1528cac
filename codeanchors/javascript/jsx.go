package javascript

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsxAhead reports whether the < at the current position starts a JSX
// element: a name or > follows, and in TypeScript not a type parameter list
// of a generic arrow function (<T,> or <T extends U>).
func (l *jsLexer) jsxAhead() bool {
	p := l.pos + 1
	for p < len(l.src) && (l.src[p] == ' ' || l.src[p] == '\t' || l.src[p] == '\n' || l.src[p] == '\r') {
		p++
	}
	if p >= len(l.src) {
		return false
	}
	if l.src[p] == '>' {
		return true
	}
	c := l.src[p]
	if !(c < utf8.RuneSelf && isIdentByte(c) && !isDigit(rune(c)) || c >= utf8.RuneSelf) {
		return false
	}
	if !l.ts {
		return true
	}
	q := p
	for q < len(l.src) && (l.src[q] >= utf8.RuneSelf || isIdentByte(l.src[q])) {
		q++
	}
	word := l.src[p:q]
	for q < len(l.src) && (l.src[q] == ' ' || l.src[q] == '\t' || l.src[q] == '\n' || l.src[q] == '\r') {
		q++
	}
	rest := l.src[q:]
	if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "=>") {
		return false // <T,>, <T = any>
	}
	switch word {
	case "const", "in", "out": // <const T>, <in out T>
		return false
	}
	if strings.HasPrefix(rest, "extends") && len(rest) > 7 && !isIdentByte(rest[7]) && rest[7] < utf8.RuneSelf {
		return false
	}
	return true
}

// jsxElement lexes a JSX element or fragment, its attributes and children.
func (l *jsLexer) jsxElement() {
	start := len(l.toks)
	if l.depth++; l.depth > maxJSNesting {
		l.fail(l.pos, "template literals and JSX nested too deeply")
		return
	}
	outer := l.inJSX
	l.inJSX = true
	defer func() { l.depth--; l.inJSX = outer }()
	l.jsxPunct(1)
	if !outer {
		l.toks[start].flags |= jsxOuter
	}
	l.skipSpace()
	name := ""
	if l.pos < len(l.src) && l.src[l.pos] != '>' {
		name = l.jsxName(true)
		l.skipSpace()
		if l.ts && l.pos < len(l.src) && l.src[l.pos] == '<' {
			l.jsxTypeArgs()
		}
	}
	for l.err == nil {
		l.skipSpace()
		if l.pos >= len(l.src) {
			break
		}
		switch c := l.src[l.pos]; {
		case c == '/':
			l.jsxPunct(1)
			l.skipSpace()
			if l.pos >= len(l.src) || l.src[l.pos] != '>' {
				l.fail(l.pos, "expected > to close the JSX tag")
				return
			}
			l.jsxPunct(1)
			l.closeJSX(start)
			return
		case c == '>':
			l.jsxPunct(1)
			l.jsxChildren(start, name)
			return
		case c == '{':
			l.jsxExpr(0)
		case c < utf8.RuneSelf && isIdentByte(c) || c >= utf8.RuneSelf:
			l.jsxName(false)
			l.skipSpace()
			if l.pos < len(l.src) && l.src[l.pos] == '=' {
				l.jsxPunct(1)
				l.skipSpace()
				switch {
				case l.pos >= len(l.src):
				case l.src[l.pos] == '"' || l.src[l.pos] == '\'':
					q := l.src[l.pos]
					end := strings.IndexByte(l.src[l.pos+1:], q)
					if end < 0 {
						l.fail(l.pos, "unterminated string literal")
						return
					}
					s := l.pos
					l.pos += end + 2
					l.emit(jsJSXStr, s).jsx = true
				case l.src[l.pos] == '{':
					l.jsxExpr(0)
				case l.src[l.pos] == '<':
					l.jsxElement()
				default:
					l.fail(l.pos, "expected a JSX attribute value")
					return
				}
			}
		default:
			l.fail(l.pos, "unexpected %q in a JSX tag", c)
			return
		}
	}
	l.fail(l.toks[start].off, "unterminated JSX element")
}

// jsxTypeArgs lexes the type arguments of a JSX tag in TypeScript,
// <Select<number> ...>, as code up to the > that closes them.
func (l *jsLexer) jsxTypeArgs() {
	depth := 0
	end := -1
scan:
	for p := l.pos; p < len(l.src); p++ {
		switch c := l.src[p]; c {
		case '<':
			depth++
		case '>':
			if l.src[p-1] == '=' {
				continue
			}
			if depth--; depth == 0 {
				end = p + 1
				break scan
			}
		case '"', '\'', '`':
			q := strings.IndexByte(l.src[p+1:], c)
			if q < 0 {
				break scan
			}
			p += q + 1
		case '{', '}', ';':
			if c != '{' || depth == 0 {
				break scan
			}
		}
	}
	if end < 0 {
		l.fail(l.pos, "unterminated type arguments of a JSX tag")
		return
	}
	src, h := l.src, len(l.stack)
	l.src = l.src[:end]
	l.code(false)
	l.src = src
	if l.err == nil && len(l.stack) != h {
		l.fail(l.toks[l.stack[len(l.stack)-1]].off, "unclosed %s", l.toks[l.stack[len(l.stack)-1]].text)
	}
}

// closeJSX pairs the first and last tokens of the element starting at
// token start.
func (l *jsLexer) closeJSX(start int) {
	end := len(l.toks) - 1
	l.toks[start].match = end
	l.toks[end].match = start
}

// jsxPunct emits the next n bytes as JSX punctuation.
func (l *jsLexer) jsxPunct(n int) {
	if l.err != nil {
		return
	}
	if l.pos+n > len(l.src) {
		l.fail(len(l.src), "unexpected end of a JSX element")
		return
	}
	s := l.pos
	l.pos += n
	l.emit(jsPunct, s).jsx = true
}

// jsxName lexes a JSX tag or attribute name: parts of identifier characters
// and dashes joined by . or :. It returns the name as written.
func (l *jsLexer) jsxName(tag bool) string {
	start := l.pos
	first := true
	for l.err == nil {
		s := l.pos
		for l.pos < len(l.src) {
			c := l.src[l.pos]
			if c < utf8.RuneSelf && (isIdentByte(c) || c == '-') {
				l.pos++
				continue
			}
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(l.src[l.pos:])
				if unicode.In(r, unicode.L, unicode.Nl, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) {
					l.pos += size
					continue
				}
			}
			break
		}
		if l.pos == s {
			l.fail(l.pos, "expected a JSX name")
			return ""
		}
		t := l.emit(jsName, s)
		t.jsx = true
		if tag && first {
			t.flags |= jsxTag
		}
		first = false
		if l.pos < len(l.src) && (l.src[l.pos] == '.' || l.src[l.pos] == ':') {
			l.jsxPunct(1)
			continue
		}
		break
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, l.src[start:l.pos])
}

// jsxExpr lexes a JSX expression container {...} or spread attribute.
func (l *jsLexer) jsxExpr(flags uint16) {
	s := l.pos
	l.pos++
	l.emit(jsPunct, s).flags |= jsxBrace | flags
	open := len(l.toks) - 1
	l.stack = append(l.stack, open)
	outer := l.inJSX
	l.inJSX = false
	l.code(true)
	l.inJSX = outer
	if l.err != nil {
		return
	}
	if l.pos >= len(l.src) {
		l.fail(s, "unterminated JSX expression")
		return
	}
	l.stack = l.stack[:len(l.stack)-1]
	s = l.pos
	l.pos++
	t := l.emit(jsPunct, s)
	t.flags |= jsxBrace
	t.match = open
	l.toks[open].match = len(l.toks) - 1
}

// jsxChildren lexes the children of the element starting at token start,
// up to and including its closing tag.
func (l *jsLexer) jsxChildren(start int, name string) {
	for l.err == nil {
		// Text: one token per word.
		for l.pos < len(l.src) {
			c := l.src[l.pos]
			if c == '{' || c == '<' {
				break
			}
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				if c == '\n' || c == '\r' {
					l.nl = true
				}
				l.pos++
				continue
			}
			s := l.pos
			for l.pos < len(l.src) && strings.IndexByte(" \t\n\r{<", l.src[l.pos]) < 0 {
				l.pos++
			}
			l.emit(jsJSXText, s).jsx = true
		}
		if l.pos >= len(l.src) {
			break
		}
		if l.src[l.pos] == '{' {
			l.jsxExpr(jsxChild)
			continue
		}
		// < : a closing tag or a child element.
		p := l.pos + 1
		for p < len(l.src) && strings.IndexByte(" \t\n\r", l.src[p]) >= 0 {
			p++
		}
		if p < len(l.src) && l.src[p] == '/' {
			tagStart := l.pos
			l.jsxPunct(1)
			l.pos = p // < and / may be apart, but no comment starts between them
			l.jsxPunct(1)
			l.skipSpace()
			closing := ""
			if l.pos < len(l.src) && l.src[l.pos] != '>' {
				closing = l.jsxName(false)
			}
			l.skipSpace()
			if l.err != nil {
				return
			}
			if l.pos >= len(l.src) || l.src[l.pos] != '>' {
				l.fail(l.pos, "expected > to close the JSX tag")
				return
			}
			if closing != name {
				l.fail(tagStart, "expected corresponding JSX closing tag for <%s>", name)
				return
			}
			l.jsxPunct(1)
			l.closeJSX(start)
			return
		}
		l.jsxElement()
	}
	l.fail(l.toks[start].off, "unterminated JSX element")
}
