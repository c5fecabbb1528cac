package python

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Token kinds of the Python tokenizer.
const (
	pyName uint8 = iota + 1
	pyNumber
	pyString
	pyOp
	pyFStart
	pyFMiddle    // literal text of an f-string, escapes to decode
	pyFMiddleRaw // literal text of a raw f-string
	pyFEnd
	pyFField // the '{', '}', and the '=', '!' and ':' of a replacement field
	pyNewline
	pyIndent
	pyDedent
	pyEOFDedent // a DEDENT at the end of the file: structure only, not hashed
)

// pyTok is one token: its kind, byte offsets and lines. It is small (20
// bytes), since a file has about one token per five bytes.
type pyTok struct {
	kind          uint8
	off, end      int32
	line, endLine int32
}

type pyError struct {
	off int
	msg string
}

// pyBracket is an open bracket.
type pyBracket struct {
	c   byte
	off int
}

// pyScanner is the tokenizer. It stops at the first error.
type pyScanner struct {
	src      []byte
	pos      int
	line     int
	toks     []pyTok
	err      *pyError
	brackets []pyBracket
	base     int // len(brackets) when the innermost f-string field opened
	nest     int // f-strings and fields open
	indents  []int
	alts     []int // indentation with a tab counted as one column, to catch mixes
	pending  bool  // the logical line has tokens
	comments []lang.Comment
}

func (s *pyScanner) fail(off int, format string, args ...any) {
	if s.err == nil {
		s.err = &pyError{off, fmt.Sprintf(format, args...)}
	}
}

// add appends a token that ends at the current line.
func (s *pyScanner) add(kind uint8, off, end, line int) {
	s.toks = append(s.toks, pyTok{kind, int32(off), int32(end), int32(line), int32(s.line)})
}

func (s *pyScanner) emit(kind uint8, off, end, line int) {
	s.add(kind, off, end, line)
	if kind != pyNewline && kind != pyIndent && kind != pyDedent {
		s.pending = true
	}
}

func (s *pyScanner) peek(i int) byte {
	if s.pos+i < len(s.src) {
		return s.src[s.pos+i]
	}
	return 0
}

// newlineAt returns the length of the line break at i ("\n" or "\r\n"),
// 0 when there is none. A lone "\r" is whitespace, as in [lang.Lines].
func (s *pyScanner) newlineAt(i int) int {
	if i < len(s.src) {
		switch s.src[i] {
		case '\n':
			return 1
		case '\r':
			if i+1 < len(s.src) && s.src[i+1] == '\n' {
				return 2
			}
		}
	}
	return 0
}

func (s *pyScanner) scan() {
	s.line = 1
	s.indents, s.alts = []int{0}, []int{0}
	if len(s.src) >= 3 && s.src[0] == 0xEF && s.src[1] == 0xBB && s.src[2] == 0xBF {
		s.pos = 3
	}
	bol := true
	for s.err == nil {
		if bol && len(s.brackets) == 0 {
			s.indentation()
		}
		bol = false
		s.skipSpace()
		if s.pos >= len(s.src) {
			break
		}
		switch c := s.src[s.pos]; {
		case c == '#':
			s.skipComment()
		case s.newlineAt(s.pos) > 0:
			if len(s.brackets) == 0 {
				if s.pending {
					s.emit(pyNewline, s.pos, s.pos, s.line)
					s.pending = false
				}
				bol = true
			}
			s.pos += s.newlineAt(s.pos)
			s.line++
		case c == '\\':
			s.continuation()
		default:
			s.token()
		}
	}
	if s.err != nil {
		return
	}
	if n := len(s.brackets); n > 0 {
		b := s.brackets[n-1]
		s.fail(b.off, "'%c' was never closed", b.c)
		return
	}
	if s.pending {
		s.emit(pyNewline, s.pos, s.pos, s.line)
	}
	for range s.indents[1:] {
		s.add(pyEOFDedent, s.pos, s.pos, s.line)
	}
}

// lastLine is the number of the file's last line, as Python counts it at
// the end of the input: a final line break does not start another line.
func (s *pyScanner) lastLine() int {
	if n := len(s.src); s.line > 1 && n > 0 && s.src[n-1] == '\n' {
		return s.line - 1
	}
	return s.line
}

func (s *pyScanner) skipSpace() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\f':
			s.pos++
		case '\r':
			if s.newlineAt(s.pos) > 0 {
				return
			}
			s.pos++
		default:
			return
		}
	}
}

// skipComment scans a # comment to the end of its line and records it.
func (s *pyScanner) skipComment() {
	start := s.pos
	for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.newlineAt(s.pos) == 0 {
		s.pos++
	}
	text := strings.TrimSuffix(string(s.src[start:s.pos]), "\r")
	s.comments = append(s.comments, lang.Comment{Line: s.line, EndLine: s.line, Text: text})
}

// continuation consumes a backslash that joins the next line.
func (s *pyScanner) continuation() {
	if n := s.newlineAt(s.pos + 1); n > 0 {
		s.pos += 1 + n
		s.line++
		if s.pos >= len(s.src) {
			s.fail(s.pos-1-n, "unexpected EOF while parsing")
		}
		return
	}
	if s.pos+1 >= len(s.src) {
		s.fail(s.pos, "unexpected EOF while parsing")
		return
	}
	s.fail(s.pos, "unexpected character after line continuation character")
}

// indentation measures the indentation of a line that starts a logical
// line and emits INDENT or DEDENTs. Blank and comment-only lines do not
// count.
func (s *pyScanner) indentation() {
	col, alt := 0, 0
	for ; s.pos < len(s.src); s.pos++ {
		switch s.src[s.pos] {
		case ' ':
			col++
			alt++
			continue
		case '\t':
			col = (col/8 + 1) * 8
			alt++
			continue
		case '\f':
			col, alt = 0, 0
			continue
		}
		break
	}
	if s.pos >= len(s.src) || s.src[s.pos] == '#' || s.newlineAt(s.pos) > 0 ||
		s.src[s.pos] == '\r' || s.src[s.pos] == '\\' && s.newlineAt(s.pos+1) > 0 {
		return
	}
	top := len(s.indents) - 1
	switch {
	case col > s.indents[top]:
		if len(s.indents) > pyMaxIndent {
			s.fail(s.pos, "too many levels of indentation")
			return
		}
		if alt <= s.alts[top] {
			s.fail(s.pos, "inconsistent use of tabs and spaces in indentation")
			return
		}
		s.indents, s.alts = append(s.indents, col), append(s.alts, alt)
		s.add(pyIndent, s.pos, s.pos, s.line)
	case col < s.indents[top]:
		for col < s.indents[len(s.indents)-1] {
			s.indents, s.alts = s.indents[:len(s.indents)-1], s.alts[:len(s.alts)-1]
			s.add(pyDedent, s.pos, s.pos, s.line)
		}
		if col != s.indents[len(s.indents)-1] {
			s.fail(s.pos, "unindent does not match any outer indentation level")
		} else if alt != s.alts[len(s.alts)-1] {
			s.fail(s.pos, "inconsistent use of tabs and spaces in indentation")
		}
	default:
		if alt != s.alts[top] {
			s.fail(s.pos, "inconsistent use of tabs and spaces in indentation")
		}
	}
}

func pyIsLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func pyIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// pyIdentRune reports whether r may start (or, when cont, continue) a Python
// identifier: Unicode's ID_Start and ID_Continue, approximately.
func pyIdentRune(r rune, cont bool) bool {
	if unicode.IsLetter(r) || r == '_' || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) {
		return true
	}
	return cont && (unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) || unicode.Is(unicode.Other_ID_Continue, r))
}

// token scans one name, number, string or operator at s.pos.
func (s *pyScanner) token() {
	start, line := s.pos, s.line
	c := s.src[s.pos]
	switch {
	case pyIsLetter(c) || c == '_' || c >= utf8.RuneSelf:
		if !s.name() {
			return
		}
		if q := s.peek(0); (q == '"' || q == '\'') && pyIsStringPrefix(s.src[start:s.pos]) {
			s.string(start, s.src[start:s.pos])
			return
		}
		s.emit(pyName, start, s.pos, line)
	case pyIsDigit(c) || c == '.' && pyIsDigit(s.peek(1)):
		s.number()
		s.emit(pyNumber, start, s.pos, line)
	case c == '"' || c == '\'':
		s.string(start, nil)
	default:
		s.operator()
	}
}

// name scans an identifier; false after an error.
func (s *pyScanner) name() bool {
	for first := true; s.pos < len(s.src); first = false {
		c := s.src[s.pos]
		if c < utf8.RuneSelf {
			if !pyIsLetter(c) && c != '_' && !pyIsDigit(c) {
				break
			}
			s.pos++
			continue
		}
		r, size := utf8.DecodeRune(s.src[s.pos:])
		if !pyIdentRune(r, !first) {
			if first {
				if r == utf8.RuneError && size <= 1 {
					s.fail(s.pos, "invalid UTF-8 byte 0x%02x", c)
				} else {
					s.fail(s.pos, "invalid character '%c' (U+%04X)", r, r)
				}
				return false
			}
			break
		}
		s.pos += size
	}
	return true
}

func pyIsStringPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	var seen [4]bool // b, r, u, f
	for _, c := range p {
		i := strings.IndexByte("brufBRUF", c)
		if i < 0 || seen[i%4] {
			return false
		}
		seen[i%4] = true
	}
	// u combines with nothing; b not with f.
	return !(seen[2] && len(p) == 2) && !(seen[0] && seen[3])
}

func (s *pyScanner) number() {
	if s.src[s.pos] == '0' && strings.IndexByte("xXoObB", s.peek(1)) >= 0 {
		s.pos += 2
		for s.pos < len(s.src) && (pyIsDigit(s.src[s.pos]) || s.src[s.pos] == '_' || s.src[s.pos]|0x20 >= 'a' && s.src[s.pos]|0x20 <= 'f') {
			s.pos++
		}
		return
	}
	digits := func() {
		for s.pos < len(s.src) && (pyIsDigit(s.src[s.pos]) || s.src[s.pos] == '_') {
			s.pos++
		}
	}
	digits()
	if s.peek(0) == '.' {
		s.pos++
		digits()
	}
	if s.peek(0)|0x20 == 'e' && (pyIsDigit(s.peek(1)) || (s.peek(1) == '+' || s.peek(1) == '-') && pyIsDigit(s.peek(2))) {
		s.pos += 2
		digits()
	}
	if s.peek(0)|0x20 == 'j' {
		s.pos++
	}
}

// pyOpLen returns the length of the operator at the start of b, 0 when
// there is none. '!' alone is an operator only inside an f-string field.
func pyOpLen(b []byte) int {
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	switch c := b[0]; c {
	case '*', '/', '<', '>':
		if at(1) == c { // ** // << >>
			if at(2) == '=' {
				return 3
			}
			return 2
		}
		if at(1) == '=' {
			return 2
		}
		return 1
	case '-':
		if at(1) == '=' || at(1) == '>' {
			return 2
		}
		return 1
	case '.':
		if at(1) == '.' && at(2) == '.' {
			return 3
		}
		return 1
	case '+', '%', '&', '|', '^', '@', '=', ':':
		if at(1) == '=' {
			return 2
		}
		return 1
	case '!':
		if at(1) == '=' {
			return 2
		}
	case '~', '(', ')', '[', ']', '{', '}', ',', ';':
		return 1
	}
	return 0
}

// pyClosing maps a closing bracket to its opening one.
func pyClosing(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func (s *pyScanner) operator() {
	start := s.pos
	c := s.src[s.pos]
	switch c {
	case '(', '[', '{':
		if len(s.brackets) >= pyMaxBrackets {
			s.fail(start, "too many nested parentheses")
			return
		}
		s.brackets = append(s.brackets, pyBracket{c, start})
		s.pos++
		s.emit(pyOp, start, s.pos, s.line)
		return
	case ')', ']', '}':
		n := len(s.brackets)
		if n == s.base {
			s.fail(start, "unmatched '%c'", c)
			return
		}
		if open := s.brackets[n-1]; open.c != pyClosing(c) {
			s.fail(start, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open.c)
			return
		}
		s.brackets = s.brackets[:n-1]
		s.pos++
		s.emit(pyOp, start, s.pos, s.line)
		return
	}
	if n := pyOpLen(s.src[s.pos:]); n > 0 {
		s.pos += n
		s.emit(pyOp, start, s.pos, s.line)
		return
	}
	switch r, size := utf8.DecodeRune(s.src[s.pos:]); {
	case c == 0:
		s.fail(start, "source code cannot contain null bytes")
	case r == utf8.RuneError && size <= 1:
		s.fail(start, "invalid UTF-8 byte 0x%02x", c)
	case c == '!':
		s.fail(start, "invalid syntax")
	case unicode.IsPrint(r):
		s.fail(start, "invalid character '%c' (U+%04X)", r, r)
	default:
		s.fail(start, "invalid non-printable character U+%04X", r)
	}
}

// string scans a string literal whose prefix starts at start; s.pos is at
// its opening quote.
func (s *pyScanner) string(start int, prefix []byte) {
	line := s.line
	q := s.src[s.pos]
	triple := s.peek(1) == q && s.peek(2) == q
	if slices.ContainsFunc(prefix, func(c byte) bool { return c|0x20 == 'f' }) {
		raw := slices.ContainsFunc(prefix, func(c byte) bool { return c|0x20 == 'r' })
		s.fstring(start, q, triple, raw)
		return
	}
	if triple {
		s.pos += 3
	} else {
		s.pos++
	}
	for {
		if s.pos >= len(s.src) {
			if triple {
				s.fail(start, "unterminated triple-quoted string literal (detected at line %d)", s.lastLine())
			} else {
				s.fail(start, "unterminated string literal (detected at line %d)", line)
			}
			return
		}
		switch c := s.src[s.pos]; c {
		case '\\':
			s.pos++
			if n := s.newlineAt(s.pos); n > 0 {
				s.pos += n
				s.line++
			} else if s.pos < len(s.src) {
				s.pos++
			}
		case q:
			s.pos++
			if !triple {
				s.emit(pyString, start, s.pos, line)
				return
			}
			if s.peek(0) == q && s.peek(1) == q {
				s.pos += 2
				s.emit(pyString, start, s.pos, line)
				return
			}
		case '\n':
			if !triple {
				s.fail(start, "unterminated string literal (detected at line %d)", line)
				return
			}
			s.pos++
			s.line++
		default:
			s.pos++
		}
	}
}

// fstring scans an f-string from its prefix at start: FSTRING_START, the
// literal parts and the tokens of its replacement fields, FSTRING_END.
func (s *pyScanner) fstring(start int, q byte, triple, raw bool) {
	if s.nest >= pyMaxFString {
		s.fail(start, "too many nested f-strings")
		return
	}
	s.nest++
	defer func() { s.nest-- }()
	qlen := 1
	if triple {
		qlen = 3
	}
	s.pos += qlen
	s.emit(pyFStart, start, s.pos, s.line)
	for s.err == nil {
		lit, line := s.pos, s.line
		stop := s.fliteral(start, q, triple, raw, false)
		if s.err != nil {
			return
		}
		if s.pos > lit {
			s.emitMiddle(lit, line, raw)
		}
		if stop == q {
			end := s.pos
			s.pos += qlen
			s.emit(pyFEnd, end, s.pos, s.line)
			return
		}
		s.field(start, q, triple, raw)
	}
}

func (s *pyScanner) emitMiddle(lit, line int, raw bool) {
	kind := pyFMiddle
	if raw {
		kind = pyFMiddleRaw
	}
	s.add(kind, lit, s.pos, line)
}

// fliteral scans the literal text of an f-string (or, inSpec, of a format
// spec) up to a field's '{', the spec's closing '}' or the closing quote,
// which it returns without consuming.
func (s *pyScanner) fliteral(start int, q byte, triple, raw, inSpec bool) byte {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; c {
		case '\\':
			switch next := s.peek(1); {
			case next == '{' || next == '}':
				s.pos++
			case !raw && next == 'N' && s.peek(2) == '{':
				s.pos += 3
				for s.pos < len(s.src) && s.src[s.pos] != '}' && s.src[s.pos] != q && s.src[s.pos] != '\n' {
					s.pos++
				}
				if s.peek(0) == '}' {
					s.pos++
				}
			default:
				s.pos++
				if n := s.newlineAt(s.pos); n > 0 {
					s.pos += n
					s.line++
				} else if s.pos < len(s.src) {
					s.pos++
				}
			}
		case '{':
			if !inSpec && s.peek(1) == '{' {
				s.pos += 2
				continue
			}
			return '{'
		case '}':
			if inSpec {
				return '}'
			}
			if s.peek(1) == '}' {
				s.pos += 2
				continue
			}
			s.fail(s.pos, "f-string: single '}' is not allowed")
			return 0
		case q:
			if !triple || s.peek(1) == q && s.peek(2) == q {
				if inSpec {
					s.fail(s.pos, "f-string: expecting '}'")
					return 0
				}
				return q
			}
			s.pos++
		case '\n':
			if !triple {
				s.fail(start, "unterminated f-string literal (detected at line %d)", s.line)
				return 0
			}
			s.pos++
			s.line++
		default:
			s.pos++
		}
	}
	if triple {
		s.fail(start, "unterminated triple-quoted f-string literal (detected at line %d)", s.lastLine())
	} else {
		s.fail(start, "unterminated f-string literal (detected at line %d)", s.lastLine())
	}
	return 0
}

// field scans a replacement field from its '{': the expression's tokens,
// a '=', a !conversion and a format spec with its own fields, and '}'.
// Inside it, as in Python 3.12, line breaks are whitespace and '#' starts a
// comment.
func (s *pyScanner) field(start int, q byte, triple, raw bool) {
	if s.nest >= pyMaxFString {
		s.fail(s.pos, "too many nested f-string fields")
		return
	}
	s.nest++
	defer func() { s.nest-- }()
	open := s.pos
	s.pos++
	s.emit(pyFField, open, s.pos, s.line)
	outer := s.base
	s.base = len(s.brackets)
	defer func() { s.base = outer }()
	for s.err == nil {
		s.skipSpace()
		if s.pos >= len(s.src) {
			s.fail(open, "f-string: expecting '}'")
			return
		}
		c := s.src[s.pos]
		switch {
		case c == '#':
			s.skipComment()
			continue
		case s.newlineAt(s.pos) > 0:
			s.pos += s.newlineAt(s.pos)
			s.line++
			continue
		case c == '\\' && s.newlineAt(s.pos+1) > 0:
			s.continuation()
			continue
		}
		if len(s.brackets) == s.base {
			switch {
			case c == '}':
				s.pos++
				s.emit(pyFField, s.pos-1, s.pos, s.line)
				return
			case c == ':':
				s.pos++
				s.emit(pyFField, s.pos-1, s.pos, s.line)
				s.spec(start, q, triple, raw)
				return
			case c == '!' && s.peek(1) != '=', c == '=' && s.peek(1) != '=':
				s.pos++
				s.emit(pyFField, s.pos-1, s.pos, s.line)
				continue
			}
		}
		s.token()
	}
}

// spec scans a format spec after its ':', through the field's '}'.
func (s *pyScanner) spec(start int, q byte, triple, raw bool) {
	for s.err == nil {
		lit, line := s.pos, s.line
		stop := s.fliteral(start, q, triple, raw, true)
		if s.err != nil {
			return
		}
		if s.pos > lit {
			s.emitMiddle(lit, line, raw)
		}
		if stop == '}' {
			s.pos++
			s.emit(pyFField, s.pos-1, s.pos, s.line)
			return
		}
		s.field(start, q, triple, raw)
	}
}

// pyKeywords are Python's hard keywords, which never name a callee.
var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}
