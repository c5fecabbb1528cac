package javascript

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsKind is the kind of a JavaScript or TypeScript token.
type jsKind uint8

const (
	jsName    jsKind = iota // an identifier or keyword
	jsPrivate               // #name
	jsPunct                 // an operator or punctuator
	jsNum                   // a number literal
	jsStr                   // a string literal
	jsTmpl                  // a template literal, or one piece of it (see tmplHead)
	jsRegex                 // a regular expression literal
	jsJSXText               // one whitespace-separated word of JSX text
	jsJSXStr                // a JSX attribute string
)

// Flags of a [jsTok].
const (
	tmplHead   = 1 << iota // `...${ : a template piece that opens a substitution
	tmplMiddle             // }...${
	tmplTail               // }...`
	ctrlParen              // ( of an if, while, for, with or catch clause
	forParen               // ( of a for clause
	blockBrace             // { of a block or body, not of an object literal
	angle                  // < or > of a TypeScript type argument or parameter list
	jsxTag                 // the first name of a JSX opening tag
	jsxOuter               // the < of a JSX element that is an expression, not a child
	funcParen              // ( of a function's parameters
	jsxBrace               // { or } of a JSX expression container or spread attribute
	jsxChild               // { of a JSX expression container among an element's children
	tagged                 // a piece of a tagged template literal
	typeBody               // { of an interface body or object type literal (set by the parser)
)

// jsTok is one token of a JavaScript or TypeScript source. Brackets carry
// the index of their partner in match: ( [ { and their closers, the two ends
// of a template literal with substitutions (its head and tail), the first
// and last tokens of a JSX element, and the < and > of a type argument list.
type jsTok struct {
	text  string
	off   int
	line  int
	match int // -1 when the token is not a bracket
	kind  jsKind
	flags uint16
	nl    bool // a line break comes before the token
	jsx   bool // JSX markup: tag punctuation and names, attributes, text
}

func (t *jsTok) is(kind jsKind, text string) bool { return t.kind == kind && t.text == text }

// isPunct reports whether t is the punctuator text (outside JSX markup).
func (t *jsTok) isPunct(text string) bool { return t.kind == jsPunct && !t.jsx && t.text == text }

// isName reports whether t is the identifier or keyword text.
func (t *jsTok) isName(text string) bool { return t.kind == jsName && !t.jsx && t.text == text }

// opens reports whether t opens a bracket pair (a JSX element, a template
// with substitutions, a type argument list) whose closer is t.match.
func (t *jsTok) opens(i int) bool { return t.match > i }

// maxJSNesting bounds the nesting of templates and JSX elements, which the
// lexer follows by recursion.
const maxJSNesting = 500

// jsError is a lexical or structural error at a byte offset.
type jsError struct {
	off int
	msg string
}

// jsLexer turns a source into [jsTok]s.
type jsLexer struct {
	src   string
	pos   int
	toks  []jsTok
	stack []int // indexes of the open ( [ { and template heads
	jsx   bool  // JSX is allowed (every dialect but .ts, .mts, .cts)
	ts    bool  // TypeScript: generic arrow functions in .tsx
	depth int   // templates and JSX elements being lexed
	inJSX bool  // lexing the children or attributes of a JSX element
	doAt  []int // bracket depths of the do statements whose while is to come
	nl    bool  // a line break was skipped since the last token
	err   *jsError
	// comments are the byte ranges of the comments skipped, in source
	// order: //, /* */ and a hashbang line, each met once.
	comments [][2]int
}

// lexJS returns the tokens of src, comments and whitespace dropped, and
// the comments' byte ranges, or the first error.
func lexJS(src string, jsx, ts bool) ([]jsTok, [][2]int, *jsError) {
	l := &jsLexer{src: src, jsx: jsx, ts: ts, toks: make([]jsTok, 0, len(src)/4+1)}
	if strings.HasPrefix(src, "\uFEFF") {
		l.pos = 3
	}
	if strings.HasPrefix(src[l.pos:], "#!") {
		start := l.pos
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
		l.comment(start)
	}
	l.code(false)
	if l.err == nil && len(l.stack) > 0 {
		o := l.toks[l.stack[len(l.stack)-1]]
		l.fail(o.off, "unclosed %s", o.text)
	}
	return l.toks, l.comments, l.err
}

// comment records the comment from start to the current position.
func (l *jsLexer) comment(start int) {
	l.comments = append(l.comments, [2]int{start, l.pos})
}

func (l *jsLexer) fail(off int, format string, args ...any) {
	if l.err == nil {
		l.err = &jsError{off, fmt.Sprintf(format, args...)}
	}
}

// emit appends a token from start to the current position.
func (l *jsLexer) emit(kind jsKind, start int) *jsTok {
	l.toks = append(l.toks, jsTok{text: l.src[start:l.pos], off: start, match: -1, kind: kind, nl: l.nl})
	l.nl = false
	return &l.toks[len(l.toks)-1]
}

// code lexes JavaScript until the end of the source or, with stop, until
// a } that closes nothing opened here: the end of a template substitution or
// of a JSX expression, which the caller consumes.
func (l *jsLexer) code(stop bool) {
	base := len(l.stack)
	for l.err == nil {
		l.skipSpace()
		if l.err != nil || l.pos >= len(l.src) {
			return
		}
		c := l.src[l.pos]
		switch {
		case c == '}' && stop && len(l.stack) == base:
			return
		case c < utf8.RuneSelf && isIdentByte(c) && !isDigit(rune(c)), c == '\\', c >= utf8.RuneSelf:
			l.name(jsName, l.pos)
		case isDigit(rune(c)), c == '.' && l.pos+1 < len(l.src) && isDigit(rune(l.src[l.pos+1])):
			l.number()
		case c == '"' || c == '\'':
			l.string()
		case c == '`':
			l.template()
		case c == '#':
			l.pos++
			if l.pos >= len(l.src) || !l.identStart() {
				l.fail(l.pos-1, "invalid character '#'")
				return
			}
			l.name(jsPrivate, l.pos-1)
		case c == '/' && l.exprStart():
			l.regex()
		case c == '<' && l.jsx && l.exprStart() && l.jsxAhead():
			l.jsxElement()
		default:
			l.punct(base)
		}
	}
}

// skipSpace skips whitespace and comments, noting line breaks.
func (l *jsLexer) skipSpace() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case ' ', '\t', '\v', '\f':
			l.pos++
		case '\n', '\r':
			l.nl = true
			l.pos++
		case '/':
			if l.pos+1 >= len(l.src) {
				return
			}
			switch l.src[l.pos+1] {
			case '/':
				start := l.pos
				for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' {
					l.pos++
				}
				l.comment(start)
			case '*':
				end := strings.Index(l.src[l.pos+2:], "*/")
				if end < 0 {
					l.fail(l.pos, "unterminated comment")
					l.pos = len(l.src)
					return
				}
				if strings.ContainsAny(l.src[l.pos:l.pos+2+end], "\n\r\u2028\u2029") {
					l.nl = true
				}
				start := l.pos
				l.pos += end + 4
				l.comment(start)
			default:
				return
			}
		default:
			if c < utf8.RuneSelf {
				return
			}
			r, size := utf8.DecodeRuneInString(l.src[l.pos:])
			switch {
			case r == '\u2028' || r == '\u2029':
				l.nl = true
			case r == '\uFEFF' || r == '\u00A0' || unicode.Is(unicode.Zs, r):
			default:
				return
			}
			l.pos += size
		}
	}
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// isIdentByte reports whether the ASCII byte c can be part of an identifier.
func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '$'
}

// identStart reports whether an identifier starts at the current position.
func (l *jsLexer) identStart() bool {
	c := l.src[l.pos]
	if c < utf8.RuneSelf {
		return isIdentByte(c) && !isDigit(rune(c)) || c == '\\'
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// name lexes an identifier, or the name of a #private member whose # is
// at start.
func (l *jsLexer) name(kind jsKind, start int) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c < utf8.RuneSelf && isIdentByte(c):
			l.pos++
		case c == '\\':
			if !l.unicodeEscape() {
				l.fail(l.pos, "invalid escape in identifier")
				return
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(l.src[l.pos:])
			if r == utf8.RuneError && size == 1 {
				l.fail(l.pos, "invalid UTF-8")
				return
			}
			if !(unicode.In(r, unicode.L, unicode.Nl, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || r == '\u200C' || r == '\u200D') {
				if l.pos == start {
					l.fail(l.pos, "invalid character %U", r)
					return
				}
				goto done
			}
			l.pos += size
		default:
			goto done
		}
	}
done:
	if l.pos == start {
		l.fail(start, "invalid character %q", l.src[start])
		return
	}
	if t := l.emit(kind, start); kind == jsName && t.text == "do" && !l.member(len(l.toks)-1) {
		l.doAt = append(l.doAt, len(l.stack))
	}
}

// unicodeEscape skips \uXXXX or \u{X...} and reports whether it was one.
func (l *jsLexer) unicodeEscape() bool {
	s := l.src[l.pos:]
	if !strings.HasPrefix(s, `\u`) {
		return false
	}
	if strings.HasPrefix(s, `\u{`) {
		end := strings.IndexByte(s, '}')
		if end < 4 || end > 10 || strings.Trim(s[3:end], "0123456789abcdefABCDEF") != "" {
			return false
		}
		l.pos += end + 1
		return true
	}
	if len(s) < 6 || strings.Trim(s[2:6], "0123456789abcdefABCDEF") != "" {
		return false
	}
	l.pos += 6
	return true
}

// number lexes a numeric literal: decimal, 0x, 0o, 0b, with separators,
// fraction, exponent, and BigInt suffix.
func (l *jsLexer) number() {
	start := l.pos
	s := l.src
	digits := func(ok func(byte) bool) {
		for l.pos < len(s) && (ok(s[l.pos]) || s[l.pos] == '_') {
			l.pos++
		}
	}
	dec := func(c byte) bool { return '0' <= c && c <= '9' }
	if s[l.pos] == '0' && l.pos+1 < len(s) && strings.IndexByte("xXoObB", s[l.pos+1]) >= 0 {
		l.pos += 2
		digits(func(c byte) bool { return dec(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' })
	} else {
		digits(dec)
		if l.pos < len(s) && s[l.pos] == '.' {
			l.pos++
			digits(dec)
		}
		if l.pos < len(s) && (s[l.pos] == 'e' || s[l.pos] == 'E') {
			p := l.pos + 1
			if p < len(s) && (s[p] == '+' || s[p] == '-') {
				p++
			}
			if p < len(s) && dec(s[p]) {
				l.pos = p
				digits(dec)
			}
		}
	}
	if l.pos < len(s) && s[l.pos] == 'n' {
		l.pos++
	}
	l.emit(jsNum, start)
}

// string lexes a quoted string literal.
func (l *jsLexer) string() {
	start := l.pos
	q := l.src[l.pos]
	l.pos++
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; c {
		case q:
			l.pos++
			l.emit(jsStr, start)
			return
		case '\\':
			l.pos += 2
			if l.pos <= len(l.src) && l.src[l.pos-1] == '\r' && l.pos < len(l.src) && l.src[l.pos] == '\n' {
				l.pos++
			}
		case '\n', '\r':
			l.fail(start, "unterminated string literal")
			return
		default:
			l.pos++
		}
	}
	l.fail(start, "unterminated string literal")
}

// template lexes a template literal, with the code of its substitutions.
func (l *jsLexer) template() {
	start := l.pos
	l.pos++
	head := -1
	var flags uint16
	if !l.exprStart() {
		flags = tagged // an operand precedes: tag`...`
	}
	if l.depth++; l.depth > maxJSNesting {
		l.fail(start, "template literals and JSX nested too deeply")
		return
	}
	defer func() { l.depth-- }()
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '\\':
			l.pos += 2
		case '`':
			l.pos++
			t := l.emit(jsTmpl, start)
			t.flags |= flags
			if head >= 0 {
				t.flags |= tmplTail
				t.match = head
				l.toks[head].match = len(l.toks) - 1
			}
			return
		case '$':
			if l.pos+1 >= len(l.src) || l.src[l.pos+1] != '{' {
				l.pos++
				continue
			}
			l.pos += 2
			t := l.emit(jsTmpl, start)
			t.flags |= flags
			if head < 0 {
				t.flags |= tmplHead
				head = len(l.toks) - 1
			} else {
				t.flags |= tmplMiddle
			}
			l.stack = append(l.stack, len(l.toks)-1)
			l.code(true)
			if l.err != nil {
				return
			}
			if l.pos >= len(l.src) {
				l.fail(l.toks[head].off, "unterminated template literal")
				return
			}
			l.stack = l.stack[:len(l.stack)-1]
			start = l.pos // the } that ends the substitution
			l.pos++
		default:
			l.pos++
		}
	}
	if head >= 0 {
		start = l.toks[head].off
	}
	l.fail(start, "unterminated template literal")
}

// regex lexes a regular expression literal.
func (l *jsLexer) regex() {
	start := l.pos
	l.pos++
	class := false
	for l.pos < len(l.src) {
		switch l.src[l.pos] {
		case '\\':
			l.pos++
			if l.pos < len(l.src) && (l.src[l.pos] == '\n' || l.src[l.pos] == '\r') {
				l.fail(start, "unterminated regular expression literal")
				return
			}
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				l.pos++
				for l.pos < len(l.src) && l.src[l.pos] < utf8.RuneSelf && isIdentByte(l.src[l.pos]) {
					l.pos++
				}
				l.emit(jsRegex, start)
				return
			}
		case '\n', '\r':
			l.fail(start, "unterminated regular expression literal")
			return
		}
		l.pos++
	}
	l.fail(start, "unterminated regular expression literal")
}

// exprKeywords are the keywords after which an expression starts, so that
// / begins a regular expression and < a JSX element.
var exprKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true, "extends": true,
}

// exprStart reports whether an operand may start here, judging by the
// previous token: then / starts a regular expression, not a division.
func (l *jsLexer) exprStart() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := &l.toks[len(l.toks)-1]
	switch t.kind {
	case jsName:
		return !t.jsx && exprKeywords[t.text] && !l.member(len(l.toks)-1)
	case jsTmpl:
		return t.flags&(tmplHead|tmplMiddle) != 0
	case jsPunct:
		if t.jsx {
			return false
		}
		switch t.text {
		case ")":
			return l.toks[t.match].flags&ctrlParen != 0
		case "}":
			return t.match >= 0 && l.toks[t.match].flags&blockBrace != 0
		case "]", "++", "--":
			return false
		case "!":
			// x! / y: a TypeScript non-null assertion ends an operand.
			return t.nl || len(l.toks) < 2 || !l.operandEnd(&l.toks[len(l.toks)-2])
		}
		return true
	}
	return false
}

// funcParams reports whether a ( after token prev opens the parameters of
// a function: function (, function f (, function* f (.
func (l *jsLexer) funcParams(prev int) bool {
	is := func(i int, kind jsKind, text string) bool { return i >= 0 && l.toks[i].is(kind, text) }
	for i := prev; i >= 0 && i >= prev-2; i-- {
		if is(i, jsName, "function") && !l.member(i) { // not b.function(...)
			return i == prev || i == prev-1 && (l.toks[prev].kind == jsName || is(prev, jsPunct, "*")) ||
				is(i+1, jsPunct, "*") && l.toks[prev].kind == jsName
		}
	}
	return false
}

// member reports whether the name at i is a property name after . or ?.:
// p.catch(...) and x.return are no keywords.
func (l *jsLexer) member(i int) bool {
	return i > 0 && (l.toks[i-1].is(jsPunct, ".") || l.toks[i-1].is(jsPunct, "?."))
}

// operandEnd reports whether t can end an operand, for the ! after it.
func (l *jsLexer) operandEnd(t *jsTok) bool {
	switch t.kind {
	case jsName:
		return !exprKeywords[t.text]
	case jsPunct:
		switch t.text {
		case ")":
			return l.toks[t.match].flags&ctrlParen == 0
		case "]":
			return true
		}
		return false
	case jsTmpl:
		return t.flags&(tmplHead|tmplMiddle) == 0
	}
	return !t.jsx
}

// puncts are the multi-byte punctuators, longest first. > is always lexed
// alone (but for >=) so that the > of nested type arguments close one by
// one, as TypeScript's scanner does; >> and >>> are then two and three
// tokens.
var puncts = []string{
	"...", "===", "!==", "**=", "<<=", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<",
}

// punct lexes an operator or punctuator, pairing brackets.
func (l *jsLexer) punct(base int) {
	start := l.pos
	rest := l.src[l.pos:]
	n := 0
	if len(rest) > 1 && strings.IndexByte("=!*<>&|?.+-/%^", rest[0]) >= 0 {
		for _, p := range puncts {
			if strings.HasPrefix(rest, p) {
				n = len(p)
				break
			}
		}
	}
	if n == 2 && rest[:2] == "?." && len(rest) > 2 && isDigit(rune(rest[2])) {
		n = 0 // a ? .5 : b
	}
	if n == 0 {
		if strings.IndexByte("{}()[];,<>+-*/%&|^!~?:=.@", rest[0]) < 0 {
			r, _ := utf8.DecodeRuneInString(rest)
			l.fail(start, "invalid character %U", r)
			return
		}
		n = 1
	}
	l.pos += n
	prev := -1
	if len(l.toks) > 0 {
		prev = len(l.toks) - 1
	}
	t := l.emit(jsPunct, start)
	i := len(l.toks) - 1
	switch t.text {
	case "(":
		if l.funcParams(prev) {
			t.flags |= funcParen
		}
		if prev >= 0 && l.toks[prev].kind == jsName && !l.toks[prev].jsx && !l.member(prev) {
			switch l.toks[prev].text {
			case "while":
				if n := len(l.doAt); n > 0 && l.doAt[n-1] == len(l.stack) {
					l.doAt = l.doAt[:n-1] // do ... while (x): no body follows
				} else {
					t.flags |= ctrlParen
				}
			case "if", "with", "catch":
				t.flags |= ctrlParen
			case "for":
				t.flags |= ctrlParen | forParen
			case "await":
				if prev > 0 && l.toks[prev-1].isName("for") {
					t.flags |= ctrlParen | forParen
				}
			}
		}
		l.stack = append(l.stack, i)
	case "[":
		l.stack = append(l.stack, i)
	case "{":
		if l.blockAfter(prev) {
			t.flags |= blockBrace
		}
		l.stack = append(l.stack, i)
	case ")", "]", "}":
		if len(l.stack) <= base {
			l.fail(start, "unexpected %s", t.text)
			return
		}
		o := l.stack[len(l.stack)-1]
		want := "("
		switch t.text {
		case "]":
			want = "["
		case "}":
			want = "{"
		}
		if l.toks[o].text != want {
			l.fail(start, "unexpected %s: %s at %s is not closed", t.text, l.toks[o].text, l.position(l.toks[o].off))
			return
		}
		l.stack = l.stack[:len(l.stack)-1]
		t.match = o
		l.toks[o].match = i
		for n := len(l.doAt); n > 0 && l.doAt[n-1] > len(l.stack); n-- {
			l.doAt = l.doAt[:n-1] // a do whose while never came
		}
	}
}

// position formats an offset as line:col for messages.
func (l *jsLexer) position(off int) string {
	line := 1 + strings.Count(l.src[:off], "\n")
	col := off - strings.LastIndexByte(l.src[:off], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// blockAfter reports whether a { after the token at prev opens a block or
// body rather than an object literal: it decides whether a / after the
// matching } starts a regular expression.
func (l *jsLexer) blockAfter(prev int) bool {
	if prev < 0 {
		return true
	}
	t := &l.toks[prev]
	switch t.kind {
	case jsName:
		if t.jsx {
			return false
		}
		switch t.text {
		case "else", "do", "try", "finally":
			return true
		case "import", "export", "const", "let", "var", "type", "default", "as", "satisfies", "is":
			return false // import {a}, const {a} = b, import type {T}, x as {}
		}
		return !exprKeywords[t.text] || l.member(prev)
	case jsPunct:
		switch t.text {
		case ")", ";", "{", "}", "=>", ">":
			return true
		}
	}
	return false
}
