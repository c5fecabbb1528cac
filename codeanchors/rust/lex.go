package rust

import (
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Token kinds of the lexer.
const (
	tIdent    = iota // identifiers and keywords, raw identifiers (r#match) included
	tLifetime        // 'a, 'static
	tLit             // string, char, byte and number literals
	tPunct           // operators and delimiters
)

// tok is one token: its kind, and its bytes src[off:end].
type tok struct {
	kind     int
	off, end int
}

// maxCommentDepth bounds nested block comments, like the bracket depth
// below, so that no input makes the scanner work without bound.
const maxCommentDepth = 256

// lexer turns a Rust source into tokens, whitespace dropped; comments (doc
// comments too) are not tokens: it keeps their offsets apart.
type lexer struct {
	src      []byte
	toks     []tok
	comments [][2]int // start and end offsets
	err      *scan.Error
}

func (l *lexer) fail(off int, format string, args ...any) {
	if l.err == nil {
		l.err = scan.Errorf(off, format, args...)
	}
}

// three-byte, then two-byte punctuation, as the Rust reference lists it;
// "<<", ">>", "<<=" and ">>=" are left out on purpose: they are lexed as
// single '<' and '>', so that Vec<Vec<T>> and Vec<Vec<T> > give the same
// tokens.
var punct3 = []string{"...", "..="}
var punct2 = []string{"::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", ".."}

// lex scans the whole source. A shebang line is skipped, as rustc does.
func (l *lexer) lex() {
	src := l.src
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3
	}
	if len(src) > i+1 && src[i] == '#' && src[i+1] == '!' {
		// "#!" starts a shebang unless it begins an inner attribute "#![".
		j := i + 2
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j >= len(src) || src[j] != '[' {
			for i < len(src) && src[i] != '\n' {
				i++
			}
		}
	}
	for i < len(src) && l.err == nil {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			l.comments = append(l.comments, [2]int{i, j})
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := l.blockComment(i)
			l.comments = append(l.comments, [2]int{i, j})
			i = j
		case isIdentStart(c) || c >= utf8.RuneSelf:
			i = l.identOrPrefixed(i)
		case c >= '0' && c <= '9':
			i = l.number(i)
		case c == '"':
			i = l.quoted(i, i+1, '"')
		case c == '\'':
			i = l.quote(i)
		default:
			n := 1
			for _, p := range punct3 {
				if hasAt(src, i, p) {
					n = 3
					break
				}
			}
			if n == 1 {
				for _, p := range punct2 {
					if hasAt(src, i, p) {
						n = 2
						break
					}
				}
			}
			if n == 1 && !isPunct(c) {
				l.fail(i, "unexpected character %q", c)
				return
			}
			l.toks = append(l.toks, tok{tPunct, i, i + n})
			i += n
		}
	}
}

func hasAt(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

func isPunct(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '%', '^', '!', '&', '|', '=', '<', '>', '@', '.', ',', ';', ':', '#', '$', '?', '~', '(', ')', '[', ']', '{', '}', '\\':
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// identEnd returns the end of the identifier starting at i (ASCII or
// Unicode XID letters, digits and underscores), i when there is none.
func identEnd(src []byte, i int) int {
	j := i
	for j < len(src) {
		c := src[j]
		if c < utf8.RuneSelf {
			if !isIdentByte(c) {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRune(src[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) && !unicode.Is(unicode.Pc, r) {
			break
		}
		j += n
	}
	return j
}

// blockComment returns the end of the (nesting) block comment at i.
func (l *lexer) blockComment(i int) int {
	src := l.src
	depth := 0
	j := i
	for j < len(src) {
		switch {
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '*':
			depth++
			if depth > maxCommentDepth {
				l.fail(j, "block comments nested too deep")
				return len(src)
			}
			j += 2
		case src[j] == '*' && j+1 < len(src) && src[j+1] == '/':
			depth--
			j += 2
			if depth == 0 {
				return j
			}
		default:
			j++
		}
	}
	l.fail(i, "unterminated block comment")
	return len(src)
}

// identOrPrefixed scans an identifier, a raw identifier (r#x), or a
// literal with a prefix: b"", br"", r"", r#""#, c"", cr"", b”.
func (l *lexer) identOrPrefixed(i int) int {
	src := l.src
	j := identEnd(src, i)
	if j == i {
		r, _ := utf8.DecodeRune(src[i:])
		l.fail(i, "unexpected character %q", r)
		return len(src)
	}
	word := string(src[i:j])
	if j < len(src) {
		switch {
		case (word == "r" || word == "br" || word == "cr") && (src[j] == '"' || src[j] == '#'):
			if word == "r" && src[j] == '#' && j+1 < len(src) && src[j+1] != '#' && src[j+1] != '"' {
				// r#ident, a raw identifier.
				k := identEnd(src, j+1)
				if k == j+1 {
					l.fail(i, "expected an identifier after r#")
					return len(src)
				}
				l.toks = append(l.toks, tok{tIdent, i, k})
				return k
			}
			return l.rawString(i, j)
		case (word == "b" || word == "c") && src[j] == '"':
			return l.quoted(i, j+1, '"')
		case word == "b" && src[j] == '\'':
			return l.quoted(i, j+1, '\'')
		}
	}
	l.toks = append(l.toks, tok{tIdent, i, j})
	return j
}

// rawString scans a raw string whose prefix starts at start and whose
// hashes (or quote) start at j.
func (l *lexer) rawString(start, j int) int {
	src := l.src
	n := 0
	for j < len(src) && src[j] == '#' {
		n++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		l.fail(start, "expected '\"' in raw string")
		return len(src)
	}
	if n > 255 {
		l.fail(start, "too many '#' in raw string")
		return len(src)
	}
	j++
	for j < len(src) {
		if src[j] == '"' {
			k := j + 1
			m := 0
			for k < len(src) && m < n && src[k] == '#' {
				m++
				k++
			}
			if m == n {
				l.toks = append(l.toks, tok{tLit, start, k})
				return l.suffix(start, k)
			}
		}
		j++
	}
	l.fail(start, "unterminated raw string")
	return len(src)
}

// quoted scans a string or char literal that starts at start and whose
// contents start at j, up to the closing q, backslash escapes skipped.
func (l *lexer) quoted(start, j int, q byte) int {
	src := l.src
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			l.toks = append(l.toks, tok{tLit, start, j + 1})
			return l.suffix(start, j+1)
		case '\n':
			if q == '\'' {
				l.fail(start, "unterminated character literal")
				return len(src)
			}
		}
		j++
	}
	if q == '\'' {
		l.fail(start, "unterminated character literal")
	} else {
		l.fail(start, "unterminated string")
	}
	return len(src)
}

// suffix extends the literal token just appended with a suffix ("1u8",
// "x"suffix), which Rust allows on any literal.
func (l *lexer) suffix(start, j int) int {
	k := identEnd(l.src, j)
	if k > j && isIdentStart(l.src[j]) {
		l.toks[len(l.toks)-1].end = k
		return k
	}
	return j
}

// quote scans what a "'" starts: a char literal ('a', '\n', '\u{1F600}')
// or a lifetime or label ('a, 'static).
func (l *lexer) quote(i int) int {
	src := l.src
	if i+1 >= len(src) {
		l.fail(i, "unterminated character literal")
		return len(src)
	}
	if src[i+1] == '\\' {
		return l.quoted(i, i+1, '\'')
	}
	_, n := utf8.DecodeRune(src[i+1:])
	if i+1+n < len(src) && src[i+1+n] == '\'' {
		l.toks = append(l.toks, tok{tLit, i, i + 2 + n})
		return l.suffix(i, i+2+n)
	}
	j := i + 1
	if hasAt(src, j, "r#") {
		j += 2
	}
	k := identEnd(src, j)
	if k == j {
		l.fail(i, "unterminated character literal")
		return len(src)
	}
	l.toks = append(l.toks, tok{tLifetime, i, k})
	return k
}

// number scans a number literal: decimal, 0x, 0o, 0b, with underscores,
// a fraction and an exponent, and a suffix. "1..2" and "1.max(2)" keep
// the dot out of the number, as rustc does.
func (l *lexer) number(i int) int {
	src := l.src
	j := i
	hex := false
	if src[i] == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'o' || src[i+1] == 'b') {
		hex = src[i+1] == 'x'
		j += 2
		for j < len(src) && (isHexDigit(src[j]) && (hex || src[j] <= '9') || src[j] == '_') {
			j++
		}
		return l.numberEnd(i, j)
	}
	for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
		j++
	}
	if n := len(l.toks); n > 0 && l.toks[n-1].kind == tPunct && l.toks[n-1].end-l.toks[n-1].off == 1 && src[l.toks[n-1].off] == '.' {
		// A tuple index (x.0.1) is an integer, as rustc's parser splits it.
		return l.numberEnd(i, j)
	}
	if j+1 < len(src) && src[j] == '.' && src[j+1] >= '0' && src[j+1] <= '9' {
		j++
		for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
			j++
		}
	} else if j < len(src) && src[j] == '.' && (j+1 >= len(src) || src[j+1] != '.' && !isIdentStart(src[j+1]) && src[j+1] < utf8.RuneSelf) {
		// "1." is a float.
		j++
		l.toks = append(l.toks, tok{tLit, i, j})
		return j
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		for k < len(src) && src[k] == '_' {
			k++
		}
		if k < len(src) && src[k] >= '0' && src[k] <= '9' {
			j = k
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '_') {
				j++
			}
		}
	}
	return l.numberEnd(i, j)
}

func (l *lexer) numberEnd(i, j int) int {
	l.toks = append(l.toks, tok{tLit, i, j})
	return l.suffix(i, j)
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
