// Package golex tokenises Go source as chroma's Go lexer does, without
// regular expressions.
//
// [Tokens] promises exactly the token stream of chroma v2.27.0's Go lexer
// (lexers.Go) after [chroma.Coalesce], as chroma.Tokenise returns it with
// default options: the same token types and the same values, so chroma's
// formatters produce the same bytes. It reproduces the lexer's quirks, not
// Go's grammar: builtins are NameBuiltin only when "(" follows at once,
// any word followed by "(" is a NameFunction, "//x" is a CommentPreproc,
// numbers are split where chroma's rules split them, and a character no
// rule matches is an Error token. Raw strings are lexed inside as chroma
// lexes them, with its Go text template lexer ({{...}} actions highlighted,
// the rest String).
//
// Where it cannot promise the same tokens (text that is not UTF-8, which
// chroma turns into U+FFFD; an unclosed string literal that only the
// regular expression engine's backtracking would end), it reports false
// and the caller lexes with chroma instead; it never returns different
// tokens. The equality is checked against chroma itself, on Go's own
// sources and by fuzzing, in package site (golex_test.go), so a chroma
// upgrade that changes the Go lexer fails there until golex follows.
package golex

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
)

// maxCoalesce is chroma.Coalesce's limit: a token at least this long takes
// no more tokens of its type.
const maxCoalesce = 8192

// Tokens returns the tokens of src and true, or nil and false when the
// result might differ from chroma's Go lexer (the caller then uses chroma).
func Tokens(src string) ([]chroma.Token, bool) {
	if !utf8.ValidString(src) {
		// chroma lexes []rune(src): an invalid byte becomes U+FFFD.
		return nil, false
	}
	src = ensureLF(src)
	scratch := pool.Get().(*[]chroma.Token)
	l := lexer{src: src, last: -1, out: (*scratch)[:0]}
	ok := l.root()
	var out []chroma.Token
	if ok {
		l.flush()
		out = slices.Clone(l.out)
	}
	clear(l.out) // the pooled slice keeps no text alive
	*scratch = l.out[:0]
	pool.Put(scratch)
	return out, ok
}

// pool holds token slices to lex into; the result is a copy of its size.
var pool = sync.Pool{New: func() any { return new([]chroma.Token) }}

// ensureLF turns "\r\n" and a lone "\r" into "\n", as chroma's default
// TokeniseOptions do before lexing.
func ensureLF(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\r' {
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		b = append(b, c)
	}
	return string(b)
}

// lexer holds one lexing: the text and the coalesced tokens so far. Every
// emitted token starts where the previous one ended, so the pending token
// is a span of src.
type lexer struct {
	src        string
	out        []chroma.Token
	last       chroma.TokenType // the pending token's type; -1: none
	start, end int              // the pending token's span
}

// emit adds the token src[s:e], coalescing as chroma.Coalesce does: an
// empty token is dropped, and a token joins the pending one when it has the
// same type and the pending one is shorter than maxCoalesce.
func (l *lexer) emit(t chroma.TokenType, s, e int) {
	if s == e {
		return
	}
	if l.last == t && l.end-l.start < maxCoalesce {
		l.end = e
		return
	}
	l.flush()
	l.last, l.start, l.end = t, s, e
}

func (l *lexer) flush() {
	if l.last != -1 {
		l.out = append(l.out, chroma.Token{Type: l.last, Value: l.src[l.start:l.end]})
	}
}

// at returns the byte at i, or 0 past the end.
func (l *lexer) at(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

// rune returns the rune at i and its size; 0, 0 past the end.
func (l *lexer) rune(i int) (rune, int) {
	if i >= len(l.src) {
		return 0, 0
	}
	if c := l.src[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(l.src[i:])
}

// isSpace is the regular expressions' \s.
func isSpace(r rune) bool { return unicode.IsSpace(r) }

// isWord is the regular expressions' \w and what \b looks at: letters,
// nonspacing marks, decimal digits, connector punctuation, and the zero
// width joiner and non-joiner.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) || r == '\u200D' || r == '\u200C'
}

// isNameStart is the regular expressions' [^\W\d]. chroma's engine
// (regexp2) matches every word character with it, decimal digits too.
func isNameStart(r rune) bool { return isWord(r) }

// isDigit is the regular expressions' \d: any decimal digit.
func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.Is(unicode.Nd, r)
}

// words returns the end of the run of word characters from i.
func (l *lexer) words(i int) int {
	for i < len(l.src) {
		c := l.src[i]
		if c < utf8.RuneSelf {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(l.src[i:])
		if !isWord(r) {
			return i
		}
		i += n
	}
	return i
}

// digits returns the end of the run of decimal digits (\d) from i.
func (l *lexer) digits(i int) int {
	for i < len(l.src) {
		c := l.src[i]
		if c < utf8.RuneSelf {
			if c < '0' || c > '9' {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(l.src[i:])
		if !isDigit(r) {
			return i
		}
		i += n
	}
	return i
}

// spaces returns the end of the run of white space (\s) from i.
func (l *lexer) spaces(i int) int {
	for i < len(l.src) {
		r, n := l.rune(i)
		if !isSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// run returns the end of the run of bytes from i that ok accepts.
func (l *lexer) run(i int, ok func(byte) bool) int {
	for i < len(l.src) && ok(l.src[i]) {
		i++
	}
	return i
}

func isOct(c byte) bool { return '0' <= c && c <= '7' }
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isHexU(c byte) bool    { return isHex(c) || c == '_' }
func isBinU(c byte) bool    { return c == '0' || c == '1' || c == '_' }
func isDecU(c byte) bool    { return '0' <= c && c <= '9' || c == '_' }
func isDec(c byte) bool     { return '0' <= c && c <= '9' }
func isExp(c byte) bool     { return c == 'e' || c == 'E' }
func isSign(c byte) bool    { return c == '+' || c == '-' }
func isNotLine(c byte) bool { return c != '\n' && c != '\r' }

// The classes of words of the Go lexer's rules, each matched only as a
// whole word (the rules end in \b). A word may be both a builtin called
// and a type name.
const (
	namespaceWord   = 1 << iota // KeywordNamespace
	declarationWord             // KeywordDeclaration
	keywordWord                 // Keyword
	constantWord                // KeywordConstant
	builtinCall                 // NameBuiltin when "(" follows at once
	typeWord                    // KeywordType
)

var wordClasses = func() map[string]uint8 {
	m := map[string]uint8{}
	add := func(class uint8, words ...string) {
		for _, w := range words {
			m[w] |= class
		}
	}
	add(namespaceWord, "import", "package")
	add(declarationWord, "var", "func", "struct", "map", "chan", "type", "interface", "const")
	add(keywordWord, "break", "default", "select", "case", "defer", "go", "else", "goto", "switch", "fallthrough", "if", "range", "continue", "for", "return")
	add(constantWord, "true", "false", "iota", "nil")
	add(builtinCall, "uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64", "float", "float32", "float64", "complex64", "complex128", "byte", "rune", "string", "bool", "error", "uintptr", "print", "println", "panic", "recover", "close", "complex", "real", "imag", "len", "cap", "append", "copy", "delete", "new", "make", "clear", "min", "max")
	add(typeWord, "uint", "uint8", "uint16", "uint32", "uint64", "int", "int8", "int16", "int32", "int64", "float", "float32", "float64", "complex64", "complex128", "byte", "rune", "string", "bool", "error", "uintptr", "any")
	return m
}()

// root lexes the whole text in the Go lexer's one state, trying its rules
// in their order at each position. It reports false where it cannot
// promise chroma's result.
func (l *lexer) root() bool {
	src := l.src
	for p := 0; p < len(src); {
		c := src[p]
		switch {
		case c == '\n':
			l.emit(chroma.TextWhitespace, p, p+1)
			p++
			continue
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			e := l.spaces(p)
			l.emit(chroma.TextWhitespace, p, e)
			p = e
			continue
		case c == '/':
			if e, t, ok := l.comment(p); ok {
				l.emit(t, p, e)
				p = e
				continue
			}
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_':
			p = l.word(p)
			continue
		case '0' <= c && c <= '9' || c == '.':
			if e, t, ok := l.number(p); ok {
				l.emit(t, p, e)
				p = e
				continue
			}
		case c == '\'':
			if e, ok := l.char(p); ok {
				l.emit(chroma.LiteralStringChar, p, e)
				p = e
				continue
			}
		case c == '`':
			if e := strings.IndexByte(src[p+1:], '`'); e >= 0 {
				e += p + 1
				l.emit(chroma.LiteralString, p, p+1)
				if !l.rawString(p+1, e) {
					return false
				}
				l.emit(chroma.LiteralString, e, e+1)
				p = e + 1
				continue
			}
		case c == '"':
			e, ok := l.string(p)
			if !ok {
				return false
			}
			if e > p {
				l.emit(chroma.LiteralString, p, e)
				p = e
				continue
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(src[p:])
			switch {
			case isSpace(r):
				e := l.spaces(p)
				l.emit(chroma.TextWhitespace, p, e)
				p = e
			case isDigit(r):
				if e, t, ok := l.number(p); ok {
					l.emit(t, p, e)
					p = e
					break
				}
				fallthrough
			case isNameStart(r):
				// [^\W\d]\w*: no keyword or function rule starts with a
				// letter outside ASCII.
				e := l.words(p)
				l.emit(chroma.NameOther, p, e)
				p = e
			default:
				l.emit(chroma.Error, p, p+n)
				p += n
			}
			continue
		}
		if e := l.operator(p); e > p {
			l.emit(chroma.Operator, p, e)
			p = e
			continue
		}
		if strings.IndexByte("|^<>=!()[]{}.,;:~", c) >= 0 {
			l.emit(chroma.Punctuation, p, p+1)
			p++
			continue
		}
		if isSpace(rune(c)) { // \r, which ensureLF leaves none of
			e := l.spaces(p)
			l.emit(chroma.TextWhitespace, p, e)
			p = e
			continue
		}
		// Nothing matches: chroma emits the character as an Error.
		l.emit(chroma.Error, p, p+1)
		p++
	}
	return true
}

// comment matches the comment rules at p (a "/"): a line comment whose
// first character is not white space is a CommentPreproc,
// /(\\\n)?[*](.|\n)*?[*](\\\n)?/ a CommentMultiline.
func (l *lexer) comment(p int) (int, chroma.TokenType, bool) {
	src := l.src
	switch {
	case l.at(p+1) == '/':
		r, n := l.rune(p + 2)
		if n > 0 && !isSpace(r) {
			return l.run(p+2+n, isNotLine), chroma.CommentPreproc, true
		}
		return l.run(p+2, isNotLine), chroma.CommentSingle, true
	case l.at(p+1) == '*':
		if e, ok := l.blockEnd(p + 2); ok {
			return e, chroma.CommentMultiline, true
		}
	case strings.HasPrefix(src[p+1:], "\\\n*"):
		if e, ok := l.blockEnd(p + 4); ok {
			return e, chroma.CommentMultiline, true
		}
	}
	return 0, 0, false
}

// blockEnd finds the shortest [*](\\\n)?/ from i on and returns its end.
func (l *lexer) blockEnd(i int) (int, bool) {
	for {
		k := strings.IndexByte(l.src[i:], '*')
		if k < 0 {
			return 0, false
		}
		k += i
		if l.at(k+1) == '/' {
			return k + 2, true
		}
		if strings.HasPrefix(l.src[k+1:], "\\\n/") {
			return k + 4, true
		}
		i = k + 1
	}
}

// word lexes at p, an ASCII letter or "_", and returns where it ended:
// the keyword rules (whole words), builtins followed by "(", type names,
// a function name (a word, white space, "("), or a name.
func (l *lexer) word(p int) int {
	e := l.words(p)
	var class uint8
	if e-p <= len("fallthrough") {
		class = wordClasses[l.src[p:e]]
	}
	switch {
	case class == 0:
	case class&namespaceWord != 0:
		l.emit(chroma.KeywordNamespace, p, e)
		return e
	case class&declarationWord != 0:
		l.emit(chroma.KeywordDeclaration, p, e)
		return e
	case class&keywordWord != 0:
		l.emit(chroma.Keyword, p, e)
		return e
	case class&constantWord != 0:
		l.emit(chroma.KeywordConstant, p, e)
		return e
	case class&builtinCall != 0 && l.at(e) == '(':
		l.emit(chroma.NameBuiltin, p, e)
		l.emit(chroma.Punctuation, e, e+1)
		return e + 1
	case class&typeWord != 0:
		l.emit(chroma.KeywordType, p, e)
		return e
	}
	s := l.spaces(e)
	if l.at(s) != '(' {
		l.emit(chroma.NameOther, p, e)
		return e
	}
	l.emit(chroma.NameFunction, p, e)
	// The white space is lexed again by the root state: a newline alone,
	// other white space as one run to the group's end.
	for i := e; i < s; {
		if l.src[i] == '\n' {
			l.emit(chroma.TextWhitespace, i, i+1)
			i++
			continue
		}
		l.emit(chroma.TextWhitespace, i, s)
		i = s
	}
	l.emit(chroma.Punctuation, s, s+1)
	return s + 1
}

// exponentI matches ([Ee][-+]\d+)?i at i.
func (l *lexer) exponentI(i int) (int, bool) {
	if isExp(l.at(i)) && isSign(l.at(i+1)) {
		if m := l.digits(i + 2); m > i+2 && l.at(m) == 'i' {
			return m + 1, true
		}
	}
	if l.at(i) == 'i' {
		return i + 1, true
	}
	return 0, false
}

// exponent matches [eE][+\-]?\d+ at i.
func (l *lexer) exponent(i int) (int, bool) {
	if !isExp(l.at(i)) {
		return 0, false
	}
	s := i + 1
	if isSign(l.at(s)) {
		s++
	}
	if m := l.digits(s); m > s {
		return m, true
	}
	return 0, false
}

// number matches the number rules at p (a digit or "."), in their order.
func (l *lexer) number(p int) (int, chroma.TokenType, bool) {
	j := l.digits(p) // \d+ when j > p
	if j > p {
		// \d+i
		if l.at(j) == 'i' {
			return j + 1, chroma.LiteralNumber, true
		}
		// \d+\.\d*([Ee][-+]\d+)?i
		if l.at(j) == '.' {
			if e, ok := l.exponentI(l.digits(j + 1)); ok {
				return e, chroma.LiteralNumber, true
			}
		}
	}
	// \.\d+([Ee][-+]\d+)?i
	if l.at(p) == '.' {
		if k := l.digits(p + 1); k > p+1 {
			if e, ok := l.exponentI(k); ok {
				return e, chroma.LiteralNumber, true
			}
		}
	}
	if j > p {
		if e, t, ok := l.afterDigits(j); ok {
			return e, t, true
		}
	}
	// \.\d+([eE][+\-]?\d+)?
	if l.at(p) == '.' {
		if k := l.digits(p + 1); k > p+1 {
			if e, ok := l.exponent(k); ok {
				return e, chroma.LiteralNumberFloat, true
			}
			return k, chroma.LiteralNumberFloat, true
		}
		return 0, 0, false
	}
	switch c := l.at(p); {
	case c == '0' && isOct(l.at(p+1)): // 0[0-7]+
		return l.run(p+1, isOct), chroma.LiteralNumberOct, true
	case c == '0' && (l.at(p+1) == 'x' || l.at(p+1) == 'X') && isHexU(l.at(p+2)): // 0[xX][0-9a-fA-F_]+
		return l.run(p+2, isHexU), chroma.LiteralNumberHex, true
	case c == '0' && l.at(p+1) == 'b' && isBinU(l.at(p+2)): // 0b[01_]+
		return l.run(p+2, isBinU), chroma.LiteralNumberBin, true
	case c == '0': // (0|[1-9][0-9_]*)
		return p + 1, chroma.LiteralNumberInteger, true
	case '1' <= c && c <= '9':
		return l.run(p+1, isDecU), chroma.LiteralNumberInteger, true
	}
	return 0, 0, false
}

// char matches a rune literal at p:
// '(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'
func (l *lexer) char(p int) (int, bool) {
	q := p + 1
	if q >= len(l.src) {
		return 0, false
	}
	if l.src[q] != '\\' {
		_, n := l.rune(q) // [^\\]: any character, a newline or ' too
		if l.at(q+n) == '\'' {
			return q + n + 1, true
		}
		return 0, false
	}
	hex := func(i, n int) int {
		for k := range n {
			if !isHex(l.at(i + k)) {
				return -1
			}
		}
		return i + n
	}
	e := -1
	switch c := l.at(q + 1); {
	case c != 0 && strings.IndexByte(`'"\abfnrtv`, c) >= 0:
		e = q + 2
	case c == 'x':
		e = hex(q+2, 2)
	case isOct(c):
		e = q + 1
		for e < q+4 && isOct(l.at(e)) {
			e++
		}
	case c == 'u':
		e = hex(q+2, 4)
	case c == 'U':
		e = hex(q+2, 8)
	}
	if e >= 0 && l.at(e) == '\'' {
		return e + 1, true
	}
	return 0, false
}

// string matches "(\\\\|\\"|[^"])*" at p and returns its end, or p when
// it does not match. An unclosed string whose rest holds an escaped quote
// is matched by backtracking chroma's regular expression engine could
// take very long on; it reports false.
func (l *lexer) string(p int) (int, bool) {
	src := l.src
	for i := p + 1; i < len(src); i++ {
		switch src[i] {
		case '"':
			return i + 1, true
		case '\\':
			if c := l.at(i + 1); c == '\\' || c == '"' {
				i++
			}
		}
	}
	if strings.IndexByte(src[p+1:], '"') >= 0 {
		return 0, false
	}
	return p, true
}

// operator matches the operator rule at p, its alternatives in order,
// and returns its end (p when none matches).
func (l *lexer) operator(p int) int {
	c, d, e := l.at(p), l.at(p+1), l.at(p+2)
	switch c {
	case '<':
		switch {
		case d == '<' && e == '=':
			return p + 3
		case d == '<', d == '=', d == '-':
			return p + 2
		}
	case '>':
		switch {
		case d == '>' && e == '=':
			return p + 3
		case d == '>', d == '=':
			return p + 2
		}
	case '&':
		switch {
		case d == '^' && e == '=':
			return p + 3
		case d == '^', d == '=', d == '&':
			return p + 2
		}
		return p + 1
	case '+', '-':
		if d == '=' || d == c {
			return p + 2
		}
		return p + 1
	case '*', '/', '%':
		if d == '=' {
			return p + 2
		}
		return p + 1
	case '|':
		if d == '=' || d == '|' {
			return p + 2
		}
	case '=', '!', ':':
		if d == '=' {
			return p + 2
		}
	case '.':
		if d == '.' && e == '.' {
			return p + 3
		}
	}
	return p
}

// rawString lexes a raw string's content, src[s:e], as chroma does: with
// its Go text template lexer, whose Other tokens become String.
func (l *lexer) rawString(s, e int) bool {
	// The template lexer lexes the content alone: no rule looks back,
	// so cutting the text at the content's end is enough.
	src := l.src
	l.src = src[:e]
	ok := l.template(s)
	l.src = src
	return ok
}

// The Go text template lexer's states.
const (
	rootState = iota
	templateState
	subexpressionState
)

// templateKeywords are the template lexer's keywords, matched as whole
// words.
var templateKeywords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq("range if else while with template end true false nil and call html index js len not or print printf println urlquery eq ne lt le gt ge block break continue define slice") {
		m[w] = true
	}
	return m
}()

// template lexes src[p:] with chroma's Go text template lexer (its rules
// in order, per state), Other tokens typed as String.
func (l *lexer) template(p int) bool {
	src := l.src
	stack := []int{rootState}
	for p < len(src) {
		state := stack[len(stack)-1]
		c := src[p]
		if state == rootState {
			if strings.HasPrefix(src[p:], "{{") {
				// {{(- )?/\*(.|\n)*?\*/( -)?}}
				open := p + 2
				if strings.HasPrefix(src[open:], "- ") {
					open += 2
				}
				if strings.HasPrefix(src[open:], "/*") {
					if e, ok := l.templateCommentEnd(open + 2); ok {
						l.emit(chroma.CommentMultiline, p, e)
						p = e
						continue
					}
				}
				// {{[-]?
				e := p + 2
				if l.at(e) == '-' {
					e++
				}
				l.emit(chroma.CommentPreproc, p, e)
				stack = append(stack, templateState)
				p = e
				continue
			}
			// [^{]+ or {
			e := p + 1
			if c != '{' {
				if e = strings.IndexByte(src[p:], '{'); e < 0 {
					e = len(src)
				} else {
					e += p
				}
			}
			l.emit(chroma.LiteralString, p, e)
			p = e
			continue
		}
		switch {
		case state == templateState && (strings.HasPrefix(src[p:], "}}") || strings.HasPrefix(src[p:], "-}}")):
			e := p + 2
			if c == '-' {
				e++
			}
			l.emit(chroma.CommentPreproc, p, e)
			stack = stack[:len(stack)-1]
			p = e
			continue
		case state == subexpressionState && c == ')':
			l.emit(chroma.Operator, p, p+1)
			stack = stack[:len(stack)-1]
			p++
			continue
		case c == '(':
			l.emit(chroma.Operator, p, p+1)
			stack = append(stack, subexpressionState)
			p++
			continue
		}
		e, t, ok := l.expression(p)
		if !ok {
			return false
		}
		if e > p {
			l.emit(t, p, e)
			p = e
			continue
		}
		if c == '\n' {
			// An error at a newline: chroma empties the stack and goes on
			// in the root state.
			stack = append(stack[:0], rootState)
			continue
		}
		_, n := l.rune(p)
		l.emit(chroma.Error, p, p+n)
		p += n
	}
	return true
}

// templateCommentEnd finds the shortest \*/( -)?}} from i on and returns
// its end.
func (l *lexer) templateCommentEnd(i int) (int, bool) {
	for {
		k := strings.Index(l.src[i:], "*/")
		if k < 0 {
			return 0, false
		}
		k += i + 2
		if strings.HasPrefix(l.src[k:], " -}}") {
			return k + 4, true
		}
		if strings.HasPrefix(l.src[k:], "}}") {
			return k + 2, true
		}
		i = k - 1
	}
}

// expression matches the template lexer's expression rules at p (in a
// template or subexpression state, past their own rules; "(" is theirs).
// It returns p when none matches, and false where golex cannot promise
// chroma's result.
func (l *lexer) expression(p int) (int, chroma.TokenType, bool) {
	src := l.src
	r, _ := l.rune(p)
	switch c := src[p]; {
	case isSpace(r): // \s+
		return l.spaces(p), chroma.TextWhitespace, true
	case isWord(r):
		e := l.words(p)
		if templateKeywords[src[p:e]] { // (range|if|...)\b
			return e, chroma.Keyword, true
		}
		return e, chroma.NameOther, true // [$]?[^\W\d]\w*, digits too
	case c == '|' || c == '=' || c == ',': // \||:?=|,
		return p + 1, chroma.Operator, true
	case c == ':' && l.at(p+1) == '=':
		return p + 2, chroma.Operator, true
	case c == '$':
		if r, _ := l.rune(p + 1); isNameStart(r) {
			return l.words(p + 1), chroma.NameOther, true
		}
		return p + 1, chroma.NameAttribute, true // \$
	case c == '.': // [$]?\.(?:[^\W\d]\w*)?
		return l.words(p + 1), chroma.NameAttribute, true
	case c == '"':
		e, ok := l.string(p)
		return e, chroma.LiteralString, ok
	case c == '-':
		if e, t, ok := l.templateNumber(p); ok {
			return e, t, true
		}
	case c == '\'':
		if e, ok := l.char(p); ok {
			return e, chroma.LiteralStringChar, true
		}
	}
	return p, 0, true
}

// afterDigits matches, after the digits that end at j, the rules both
// lexers try next, in their order: \d+[Ee][-+]\d+i, then
// \d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+) (the template lexer's with
// a "-" before the digits).
func (l *lexer) afterDigits(j int) (int, chroma.TokenType, bool) {
	if isExp(l.at(j)) && isSign(l.at(j+1)) {
		if m := l.digits(j + 2); m > j+2 && l.at(m) == 'i' {
			return m + 1, chroma.LiteralNumber, true
		}
	}
	if l.at(j) == '.' {
		if k := l.digits(j + 1); k > j+1 {
			if e, ok := l.exponent(k); ok {
				return e, chroma.LiteralNumberFloat, true
			}
		}
		return l.digits(j + 1), chroma.LiteralNumberFloat, true
	}
	if e, ok := l.exponent(j); ok {
		return e, chroma.LiteralNumberFloat, true
	}
	return 0, 0, false
}

// templateNumber matches the template lexer's number rules at p, a "-"
// (numbers without one are names or attributes to its earlier rules).
func (l *lexer) templateNumber(p int) (int, chroma.TokenType, bool) {
	q := p + 1
	j := l.digits(q)
	if j > q {
		if l.at(j) == 'i' { // -?\d+i
			return j + 1, chroma.LiteralNumber, true
		}
		if l.at(j) == '.' { // -?\d+\.\d*([Ee][-+]\d+)?i
			if e, ok := l.exponentI(l.digits(j + 1)); ok {
				return e, chroma.LiteralNumber, true
			}
		}
		if e, t, ok := l.afterDigits(j); ok {
			return e, t, true
		}
	}
	// -?\.\d+([eE][+\-]?\d+)?
	if l.at(q) == '.' {
		if k := l.digits(q + 1); k > q+1 {
			if e, ok := l.exponent(k); ok {
				return e, chroma.LiteralNumberFloat, true
			}
			return k, chroma.LiteralNumberFloat, true
		}
	}
	switch c := l.at(q); {
	case c == '0' && isOct(l.at(q+1)): // -?0[0-7]+
		return l.run(q+1, isOct), chroma.LiteralNumberOct, true
	case c == '0' && (l.at(q+1) == 'x' || l.at(q+1) == 'X') && isHex(l.at(q+2)): // -?0[xX][0-9a-fA-F]+
		return l.run(q+2, isHex), chroma.LiteralNumberHex, true
	case c == '0' && l.at(q+1) == 'b' && isBinU(l.at(q+2)): // -?0b[01_]+
		return l.run(q+2, isBinU), chroma.LiteralNumberBin, true
	case c == '0': // -?(0|[1-9][0-9]*)
		return q + 1, chroma.LiteralNumberInteger, true
	case '1' <= c && c <= '9':
		return l.run(q+1, isDec), chroma.LiteralNumberInteger, true
	}
	return 0, 0, false
}
