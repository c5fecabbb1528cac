package codeanchors

import (
	"fmt"
	"go/scanner"
	"go/token"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PythonParser is the [File.Parser] of [ExtractPython]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const PythonParser = "python@1"

// Limits of the Python tokenizer, CPython's own (MAXINDENT, MAXLEVEL), so
// that no input recurses or allocates without bound.
const (
	pyMaxIndent   = 100 // levels of indentation
	pyMaxBrackets = 200 // open brackets
	pyMaxFString  = 150 // nested f-strings and replacement fields
)

// ExtractPython is the Python [Extractor], a hand-written tokenizer (Python
// 3.12 rules: all string forms, f-strings with nested quotes and fields,
// backslash continuations, implicit joining inside brackets, INDENT and
// DEDENT) and a structural pass over its statements.
//
// Symbols are the functions and classes of the module and of classes, at
// any depth, also under if, try, with, for, while and match blocks: f,
// Class, Class.method, Outer.Inner.f; async def too. Functions and classes
// defined inside a function are not symbols. A module-level function is a
// func, one in a class a method, a class a type ([IsTest] may make any of
// them a test). A symbol ranges from its first decorator (or its def or
// class line) to the last token of its body, as Python's ast end_lineno.
// A property with its @x.setter, @x.getter and @x.deleter, and @overload
// signatures with the definition after them, are one symbol from the first
// part's first line to the last part's last line; any other name defined
// twice goes to [File.Ambiguous].
//
// Tokens, for the token hash, are the lexical tokens without comments,
// whitespace, blank lines or continuations, but with NEWLINE ("<NEWLINE>"),
// INDENT ("<INDENT>") and DEDENT ("<DEDENT>", on the line of the statement
// it precedes; those at the end of the file are left out), since
// indentation is syntax in Python. What a formatter such as black changes
// without changing the program does not count (see [pyWalker.normalize]):
// a string is its value (b"..." for bytes, Go-quoted; a docstring cleaned
// as inspect.cleandoc does), an f-string is "f\"", its literal parts by
// value, its fields' tokens, and "\"f"; a number is lower-cased; trailing
// commas that do not make a one-element tuple, parentheses around a whole
// assigned, returned or deleted value, condition or for clause, and a
// final ';' are dropped; a ';' between statements reads as a NEWLINE, and
// a body on its header's line as an indented block.
//
// Imports lists one entry per name an import statement binds, the dotted
// name of what it binds as written, relative dots kept: import a.b as c is
// "a.b" bound to "c"; import a.b is "a.b" with no name (it binds a); from
// ..m import f as g is "..m.f" bound to "g"; from . import x is ".x" bound
// to "x"; from m import * is "m" bound to "*". Imports inside functions
// count. Calls are the call sites inside symbols: f(...) has no qualifier,
// m.f(...) and self.f(...) are qualified by m and self, a longer receiver
// (a.b.f(), g().f()) by ".".
//
// A src that does not tokenize, has unbalanced brackets, a bad dedent or a
// block missing its indentation yields a [scanner.Error] for the first
// problem, which prints as path:line:col: message (col counts bytes).
func ExtractPython(path string, src []byte) (*File, error) {
	if len(src) >= math.MaxInt32 {
		return nil, scanner.Error{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Msg: "file too large"}
	}
	s := &pyScanner{src: src, toks: make([]pyTok, 0, len(src)/4+1)}
	s.scan()
	if s.err == nil {
		w := &pyWalker{toks: s.toks, src: string(src), srcb: src, starts: lineStarts(src), path: path}
		w.walk()
		if w.err == nil {
			return w.file(path), nil
		}
		s.err = w.err
	}
	starts := lineStarts(src)
	o := min(max(s.err.off, 0), len(src))
	line := lineOf(starts, o)
	return nil, scanner.Error{
		Pos: token.Position{Filename: path, Offset: o, Line: line, Column: o - starts[line-1] + 1},
		Msg: s.err.msg,
	}
}

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
// 0 when there is none. A lone "\r" is whitespace, as in [Lines].
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

func (s *pyScanner) skipComment() {
	for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.newlineAt(s.pos) == 0 {
		s.pos++
	}
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
func pyIsDigit(c byte) bool  { return c >= '0' && c <= '9' }

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

// pyDef is one def or class statement that may be a symbol.
type pyDef struct {
	name, kind string
	start, end int
	isFunc     bool
	overload   bool // decorated @overload (or @x.overload)
	accessor   bool // decorated @name.setter, @name.getter or @name.deleter
}

// pyWalker is the structural pass: it walks the statements of the token
// stream, block by block, and records defs, imports and calls.
type pyWalker struct {
	toks   []pyTok
	src    string // the source, as a string to slice token texts from
	srcb   []byte
	starts []int // line start offsets
	path   string
	err    *pyError
	defs   []pyDef

	calls                []Call
	imports, importNames []string
	docs                 map[int]bool // docstring tokens, by index
}

func (w *pyWalker) fail(i int, format string, args ...any) {
	if w.err == nil {
		off := len(w.src)
		if i < len(w.toks) {
			off = int(w.toks[i].off)
		}
		w.err = &pyError{off, fmt.Sprintf(format, args...)}
	}
}

func (w *pyWalker) text(i int) string { return w.src[w.toks[i].off:w.toks[i].end] }

func (w *pyWalker) kind(i int) uint8 {
	if i >= 0 && i < len(w.toks) {
		return w.toks[i].kind
	}
	return 0
}

func (w *pyWalker) isOp(i int, op string) bool  { return w.kind(i) == pyOp && w.text(i) == op }
func (w *pyWalker) isName(i int, n string) bool { return w.kind(i) == pyName && w.text(i) == n }
func (w *pyWalker) isDefStart(i int) bool {
	return w.isName(i, "def") || w.isName(i, "class") || w.isName(i, "async") && w.isName(i+1, "def")
}

func (w *pyWalker) walk() {
	w.docs = map[int]bool{}
	w.markDoc(0)
	for i := 0; i < len(w.toks) && w.err == nil; {
		i, _ = w.block(i, "", true, false, "")
	}
}

// markDoc marks the token at i as a docstring when it is a string alone
// on its logical line (i starts a module or a def or class body).
func (w *pyWalker) markDoc(i int) {
	if w.kind(i) == pyString && w.kind(i+1) == pyNewline {
		w.docs[i] = true
	}
}

// block walks statements from i to the DEDENT that closes the block (or
// the end), and returns the index after it and the block's last token.
// Symbols are recorded when record is set, named prefix+name; inClass
// makes functions methods; from is the symbol calls are attributed to.
func (w *pyWalker) block(i int, prefix string, record, inClass bool, from string) (next, last int) {
	last = -1
	for w.err == nil && i < len(w.toks) {
		switch w.toks[i].kind {
		case pyDedent, pyEOFDedent:
			return i + 1, last
		case pyIndent:
			w.fail(i, "unexpected indent")
			return i, last
		}
		i, last = w.statement(i, prefix, record, inClass, from)
	}
	return i, last
}

// statement walks the statement at i (with its decorators and blocks).
func (w *pyWalker) statement(i int, prefix string, record, inClass bool, from string) (next, last int) {
	first := i
	var decs [][2]int // decorator token ranges, without '@' and NEWLINE
	for w.isOp(i, "@") {
		nl := w.lineEnd(i)
		decs = append(decs, [2]int{i + 1, nl})
		i = nl + 1
	}
	if len(decs) > 0 && !w.isDefStart(i) {
		if w.kind(i) == pyIndent {
			w.fail(i, "unexpected indent")
		} else {
			w.fail(i, "invalid syntax: a decorator must precede def or class")
		}
		return i, i
	}
	if !w.isDefStart(i) {
		nl, last := w.simple(i, from)
		if w.isOp(last, ":") {
			if w.kind(nl+1) != pyIndent {
				kw := first
				if w.isName(kw, "async") {
					kw++
				}
				switch w.text(kw) {
				case "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "match", "case":
					w.fail(nl+1, "expected an indented block after '%s' statement on line %d", w.text(kw), w.toks[first].line)
				default:
					w.fail(nl+1, "expected an indented block after line %d", w.toks[first].line)
				}
				return nl + 1, last
			}
			return w.block(nl+2, prefix, record, inClass, from)
		}
		if w.kind(nl+1) == pyIndent {
			w.fail(nl+1, "unexpected indent")
		}
		return nl + 1, last
	}

	kw := i
	if w.isName(i, "async") {
		i++
	}
	isClass := w.isName(i, "class")
	if w.kind(i+1) != pyName || pyKeywords[w.text(i+1)] {
		w.fail(i+1, "invalid syntax: %s needs a name", w.text(i))
		return i + 1, i
	}
	name := w.text(i + 1)
	if !w.isOp(i+2, "(") && !w.isOp(i+2, "[") && !(isClass && w.isOp(i+2, ":")) {
		w.fail(i+2, "invalid syntax: expected '('")
		return i + 2, i + 1
	}
	colon, depth := -1, 0
	for j := i + 2; j < len(w.toks) && w.toks[j].kind != pyNewline; j++ {
		if w.toks[j].kind != pyOp {
			continue
		}
		switch w.text(j) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				colon = j
			}
		}
		if colon >= 0 {
			break
		}
	}
	if colon < 0 {
		w.fail(w.lineEnd(i), "expected ':'")
		return len(w.toks), i
	}

	full := prefix + name
	symFrom, idx := from, -1
	if record {
		symFrom, idx = full, len(w.defs)
		d := pyDef{name: full, kind: KindType, start: int(w.toks[first].line), isFunc: !isClass}
		if !isClass {
			d.kind = KindFunc
			if inClass {
				d.kind = KindMethod
			}
			for _, r := range decs {
				d.overload = d.overload || w.isOverload(r[0], r[1])
				d.accessor = d.accessor || w.isAccessor(r[0], r[1], name)
			}
		}
		w.defs = append(w.defs, d)
	}
	w.findCalls(first, colon, symFrom)
	if w.kind(colon+1) == pyNewline {
		nl := colon + 1
		if w.kind(nl+1) != pyIndent {
			what := "function"
			if isClass {
				what = "class"
			}
			w.fail(nl+1, "expected an indented block after %s definition on line %d", what, w.toks[kw].line)
			return nl + 1, nl
		}
		w.markDoc(nl + 2)
		if isClass {
			next, last = w.block(nl+2, full+".", record, true, symFrom)
		} else {
			next, last = w.block(nl+2, "", false, false, symFrom)
		}
	} else {
		w.markDoc(colon + 1)
		var nl int
		nl, last = w.simple(colon+1, symFrom)
		next = nl + 1
	}
	if idx >= 0 && last >= 0 {
		w.defs[idx].end = int(w.toks[last].endLine)
	}
	return next, last
}

// lineEnd returns the index of the NEWLINE that ends the logical line
// holding i (len(toks) when there is none).
func (w *pyWalker) lineEnd(i int) int {
	for i < len(w.toks) && w.toks[i].kind != pyNewline {
		i++
	}
	return i
}

// simple walks the simple statements of the logical line at i: imports and
// calls. It returns the index of its NEWLINE and of its last token (a
// trailing ';' left out).
func (w *pyWalker) simple(i int, from string) (nl, last int) {
	nl = w.lineEnd(i)
	for part := i; part < nl; {
		end := part
		for end < nl && !w.isOp(end, ";") {
			end++
		}
		if w.isName(part, "import") || w.isName(part, "from") {
			w.importStmt(part, end)
		}
		part = end + 1
	}
	w.findCalls(i, nl, from)
	last = nl - 1
	for last > i && w.isOp(last, ";") {
		last--
	}
	return nl, last
}

// isOverload reports whether the decorator tokens [a, b) are a dotted
// name ending in overload.
func (w *pyWalker) isOverload(a, b int) bool {
	n, end := w.dotted(a, b)
	return end == b && (n == "overload" || strings.HasSuffix(n, ".overload"))
}

// isAccessor reports whether the decorator tokens [a, b) are
// name.setter, name.getter or name.deleter.
func (w *pyWalker) isAccessor(a, b int, name string) bool {
	n, end := w.dotted(a, b)
	return end == b && (n == name+".setter" || n == name+".getter" || n == name+".deleter")
}

// dotted reads a dotted name (NAME ('.' NAME)*) from i, before end.
func (w *pyWalker) dotted(i, end int) (string, int) {
	if i >= end || w.kind(i) != pyName || pyKeywords[w.text(i)] {
		return "", i
	}
	n := w.text(i)
	i++
	for i+1 < end && w.isOp(i, ".") && w.kind(i+1) == pyName {
		n += "." + w.text(i+1)
		i += 2
	}
	return n, i
}

// importStmt records the names an import statement [i, end) binds; see
// [ExtractPython]. A malformed statement records what it could read.
func (w *pyWalker) importStmt(i, end int) {
	add := func(imp, name string) {
		w.imports = append(w.imports, imp)
		w.importNames = append(w.importNames, name)
	}
	alias := func(j int) (string, int) {
		if w.isName(j, "as") && j+1 < end && w.kind(j+1) == pyName {
			return w.text(j + 1), j + 2
		}
		return "", j
	}
	if w.isName(i, "import") {
		for j := i + 1; j < end; j++ {
			mod, k := w.dotted(j, end)
			if mod == "" {
				return
			}
			local, k := alias(k)
			add(mod, local)
			if j = k; !w.isOp(j, ",") {
				return
			}
		}
		return
	}
	j, dots := i+1, ""
	for ; j < end && (w.isOp(j, ".") || w.isOp(j, "...")); j++ {
		dots += w.text(j)
	}
	mod, j := w.dotted(j, end)
	if !w.isName(j, "import") || dots+mod == "" {
		return
	}
	j++
	if w.isOp(j, "*") {
		add(dots+mod, "*")
		return
	}
	if w.isOp(j, "(") {
		j++
	}
	for j < end && w.kind(j) == pyName {
		name := w.text(j)
		local, k := alias(j + 1)
		if local == "" {
			local = name
		}
		if mod == "" {
			add(dots+name, local)
		} else {
			add(dots+mod+"."+name, local)
		}
		if j = k; !w.isOp(j, ",") {
			return
		}
		j++
	}
}

// findCalls records the call sites among tokens [a, b), made by from.
func (w *pyWalker) findCalls(a, b int, from string) {
	if from == "" {
		return
	}
	for j := max(a, 1); j < b; j++ {
		if !w.isOp(j, "(") {
			continue
		}
		p := j - 1
		if w.kind(p) != pyName || pyKeywords[w.text(p)] || w.isName(p-1, "def") || w.isName(p-1, "class") {
			continue
		}
		c := Call{From: from, Name: w.text(p), Line: int(w.toks[p].line)}
		if w.isOp(p-1, ".") {
			c.Qual = "."
			if w.kind(p-2) == pyName && !pyKeywords[w.text(p-2)] && !w.isOp(p-3, ".") {
				c.Qual = w.text(p - 2)
			}
		}
		w.calls = append(w.calls, c)
	}
}

// file merges the defs into symbols (properties with their accessors,
// overloads with their definition; other names defined twice are
// ambiguous) and assembles the File.
func (w *pyWalker) file(path string) *File {
	f := &File{Path: path, Parser: PythonParser, Imports: w.imports, ImportNames: w.importNames, Calls: w.calls}
	type entry struct {
		d   pyDef
		amb bool
	}
	entries := make([]entry, 0, len(w.defs))
	byName := make(map[string]int, len(w.defs))
	for _, d := range w.defs {
		k, seen := byName[d.name]
		if !seen {
			byName[d.name] = len(entries)
			entries = append(entries, entry{d: d})
			continue
		}
		e := &entries[k]
		switch {
		case e.amb:
		case d.isFunc && e.d.isFunc && d.accessor:
			e.d.end, e.d.overload = max(e.d.end, d.end), false
		case d.isFunc && e.d.isFunc && e.d.overload:
			e.d.end, e.d.overload = max(e.d.end, d.end), d.overload
		default:
			e.amb = true
		}
	}
	for _, e := range entries {
		if e.amb {
			f.Ambiguous = append(f.Ambiguous, e.d.name)
			continue
		}
		kind := e.d.kind
		if IsTest(path, e.d.name) {
			kind = KindTest
		}
		s := Symbol{Name: e.d.name, Kind: kind, Start: e.d.start, End: e.d.end}
		s.StartOff, s.EndOff = w.starts[s.Start-1], lineEnd(w.srcb, w.starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	slices.Sort(f.Ambiguous)
	slices.SortStableFunc(f.Symbols, func(a, b Symbol) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return strings.Compare(a.Name, b.Name)
	})
	f.Tokens = make([]Token, 0, len(w.toks))
	norm := w.normalize()
	dedent := false // an inline body ended: a DEDENT before the next token
	for i, t := range w.toks {
		if t.kind == pyEOFDedent || norm[i] == pyDrop {
			continue
		}
		line := int(t.line)
		if dedent {
			f.Tokens = append(f.Tokens, Token{Line: line, Text: pyDedentText})
			dedent = false
		}
		switch norm[i] {
		case pyAsNewline:
			f.Tokens = append(f.Tokens, Token{Line: line, Text: pyNewlineText})
		case pyOpenBlock:
			f.Tokens = append(f.Tokens, Token{Line: line, Text: ":"},
				Token{Line: line, Text: pyNewlineText}, Token{Line: line, Text: pyIndentText})
		case pyCloseBlock:
			f.Tokens = append(f.Tokens, Token{Line: line, Text: pyNewlineText})
			dedent = true
		default:
			f.Tokens = append(f.Tokens, Token{Line: line, Text: w.tokenText(i)})
		}
	}
	return f
}

// What [pyWalker.normalize] does with a token.
const (
	pyKeep uint8 = iota
	pyDrop
	pyAsNewline  // a ';' between statements
	pyOpenBlock  // the ':' before an inline body: ':' NEWLINE INDENT
	pyCloseBlock // the NEWLINE after an inline body: NEWLINE, then DEDENT
)

// pyCompound are the keywords that start a compound statement.
var pyCompound = map[string]bool{
	"if": true, "elif": true, "else": true, "for": true, "while": true, "try": true,
	"except": true, "finally": true, "with": true, "def": true, "class": true,
	"match": true, "case": true,
}

// normalize decides which tokens a formatter such as black may add or
// remove without changing the program, so that the token hash ignores
// them: a trailing comma before a closing bracket (kept where it makes a
// one-element tuple: (x,) and a[x,]); the parentheses around a whole
// assigned, returned or deleted value, an if, elif or while condition, a
// for target or iterable; a ';' ending a line. A ';' between statements
// reads as a line break, and a compound statement's body on its header's
// line as the indented block black makes of it.
func (w *pyWalker) normalize() []uint8 {
	n := len(w.toks)
	norm := make([]uint8, n)
	match := make([]int32, n)  // opener ↔ closer
	commas := make([]int32, n) // by opener: the commas at its top level
	var stack []int32
	for i := range w.toks {
		if w.toks[i].kind != pyOp {
			continue
		}
		switch w.text(i) {
		case "(", "[", "{":
			stack = append(stack, int32(i))
		case ")", "]", "}":
			if k := len(stack); k > 0 {
				o := stack[k-1]
				stack = stack[:k-1]
				match[o], match[i] = int32(i), o
			}
		case ",":
			if k := len(stack); k > 0 {
				commas[stack[k-1]]++
			}
		}
	}
	depth, first := 0, 0 // first: the first token of the logical line
	header, inline := false, false
	for i := range w.toks {
		switch w.toks[i].kind {
		case pyNewline, pyIndent, pyDedent:
			if inline && w.toks[i].kind == pyNewline {
				norm[i] = pyCloseBlock
			}
			first, header, inline = i+1, false, false
			continue
		case pyOp:
		default:
			continue
		}
		switch w.text(i) {
		case ";":
			norm[i] = pyAsNewline
			if w.kind(i+1) == pyNewline {
				norm[i] = pyDrop
			}
			first = i + 1
		case ",":
			next := i + 1
			if !w.isOp(next, ")") && !w.isOp(next, "]") && !w.isOp(next, "}") {
				continue
			}
			o := int(match[next])
			oneTuple := w.isOp(next, ")") && !w.callLike(o-1) || w.isOp(next, "]") && w.exprEnd(o-1)
			if commas[o] >= 2 || !oneTuple {
				norm[i] = pyDrop
			}
		case "(":
			if c := int(match[i]); c > i+1 && w.redundantParens(i, c, first, depth) {
				norm[i], norm[c] = pyDrop, pyDrop
			}
			depth++
		case ":":
			stmt := first
			if w.isName(stmt, "async") {
				stmt++
			}
			if depth == 0 && !header && w.kind(i+1) != pyNewline && w.kind(stmt) == pyName && pyCompound[w.text(stmt)] &&
				(i > stmt+1 || w.text(stmt) != "match" && w.text(stmt) != "case") {
				norm[i], inline = pyOpenBlock, true
			}
			header = header || depth == 0
		case "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
	}
	return norm
}

// redundantParens reports whether the parentheses o and c, at bracket
// depth depth in the logical line that starts at first, enclose a whole
// value whose meaning they do not change; see [pyWalker.normalize].
func (w *pyWalker) redundantParens(o, c, first, depth int) bool {
	prev, next := o-1, c+1
	if prev < first {
		return false
	}
	stmt := first
	if w.isName(stmt, "async") {
		stmt++
	}
	ends := w.kind(next) == pyNewline || w.isOp(next, ";")
	switch p := w.text(prev); {
	case w.kind(prev) == pyOp:
		return depth == 0 && ends && pyAssignOps[p]
	case w.kind(prev) != pyName:
		return false
	case p == "return" || p == "del":
		return ends
	case p == "if" || p == "elif" || p == "while":
		return prev == first && w.isOp(next, ":")
	case p == "for":
		return prev == stmt && w.isName(next, "in")
	case p == "in":
		return depth == 0 && w.isName(stmt, "for") && w.isOp(next, ":")
	}
	return false
}

// pyAssignOps are the assignment operators.
var pyAssignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"**=": true, ">>=": true, "<<=": true, "&=": true, "^=": true, "|=": true, "@=": true,
}

// callLike reports whether the token at i ends an expression that a '('
// after it calls (or is a def or class name, whose '(' lists parameters
// or bases).
func (w *pyWalker) callLike(i int) bool {
	switch w.kind(i) {
	case pyName:
		return !pyKeywords[w.text(i)]
	case pyOp:
		return w.text(i) == ")" || w.text(i) == "]"
	case pyString, pyFEnd:
		return true
	}
	return false
}

// exprEnd reports whether the token at i ends an expression, so that a
// '[' after it subscripts.
func (w *pyWalker) exprEnd(i int) bool {
	switch w.kind(i) {
	case pyName:
		t := w.text(i)
		return !pyKeywords[t] || t == "None" || t == "True" || t == "False"
	case pyOp:
		return w.text(i) == ")" || w.text(i) == "]" || w.text(i) == "}"
	case pyString, pyFEnd, pyNumber:
		return true
	}
	return false
}

// Texts of the structural tokens, which no Python token can spell.
const (
	pyNewlineText = "<NEWLINE>"
	pyIndentText  = "<INDENT>"
	pyDedentText  = "<DEDENT>"
)

// tokenText is the hashed text of token i; see [ExtractPython].
func (w *pyWalker) tokenText(i int) string {
	t := w.toks[i]
	text := w.src[t.off:t.end]
	switch t.kind {
	case pyNewline:
		return pyNewlineText
	case pyIndent:
		return pyIndentText
	case pyDedent:
		return pyDedentText
	case pyNumber:
		return strings.ToLower(text)
	case pyString:
		if w.docs[i] {
			return pyDocText(text)
		}
		return pyStringText(text)
	case pyFStart:
		return `f"`
	case pyFEnd:
		return `"f`
	case pyFMiddle, pyFMiddleRaw:
		text = strings.ReplaceAll(strings.ReplaceAll(text, "{{", "{"), "}}", "}")
		text = strings.ReplaceAll(text, "\r\n", "\n")
		if t.kind == pyFMiddle {
			v, ok := pyUnescape(text, false)
			if !ok {
				return "raw:" + text
			}
			text = v
		}
		return strconv.Quote(text)
	}
	return text
}

// pyStringText is the hashed text of a string literal: its value, Go
// quoted, after "b" for bytes, so that the quotes and prefix letters a
// formatter picks do not count. A \N{name} escape is not decoded: such a
// string is "raw:" and its text as written.
func pyStringText(text string) string {
	v, isBytes, ok := pyStringValue(text)
	switch {
	case !ok:
		return "raw:" + strings.ReplaceAll(text, "\r\n", "\n")
	case isBytes:
		return "b" + strconv.Quote(v)
	}
	return strconv.Quote(v)
}

// pyDocText is the hashed text of a docstring: its value cleaned as
// inspect.cleandoc does, so that its indentation and trailing spaces (which
// black rewrites) do not count.
func pyDocText(text string) string {
	v, isBytes, ok := pyStringValue(text)
	if !ok || isBytes {
		return pyStringText(text)
	}
	return strconv.Quote(pyCleandoc(v))
}

// pyStringValue returns the value of a string literal; ok is false when it
// has a \N{name} escape.
func pyStringValue(text string) (v string, isBytes, ok bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	p := 0
	for text[p] != '"' && text[p] != '\'' {
		p++
	}
	prefix := strings.ToLower(text[:p])
	body := text[p:]
	if len(body) >= 6 && body[0] == body[1] && body[1] == body[2] {
		body = body[3 : len(body)-3]
	} else {
		body = body[1 : len(body)-1]
	}
	isBytes = strings.Contains(prefix, "b")
	if strings.Contains(prefix, "r") {
		return body, isBytes, true
	}
	v, ok = pyUnescape(body, isBytes)
	return v, isBytes, ok
}

// pyCleandoc is Python's inspect.cleandoc, with trailing whitespace
// stripped from every line: tabs expanded, the first line's leading
// whitespace and the other lines' common indentation removed, blank lines
// at either end dropped.
func pyCleandoc(doc string) string {
	lines := strings.Split(doc, "\n")
	margin := -1
	for i, l := range lines {
		if strings.Contains(l, "\t") {
			var b strings.Builder
			for _, r := range l {
				if r == '\t' {
					b.WriteString(strings.Repeat(" ", 8-b.Len()%8))
				} else {
					b.WriteRune(r)
				}
			}
			l = b.String()
		}
		lines[i] = strings.TrimRight(l, " \t\r\f\v")
		if content := strings.TrimLeft(lines[i], " \f\v"); i > 0 && content != "" {
			if indent := len(lines[i]) - len(content); margin < 0 || indent < margin {
				margin = indent
			}
		}
	}
	lines[0] = strings.TrimLeft(lines[0], " \f\v")
	for i := 1; i < len(lines) && margin > 0; i++ {
		lines[i] = lines[i][min(margin, len(lines[i])):]
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// pyUnescape decodes the escapes of a non-raw string body. ok is false for
// a \N{name} escape, which needs Unicode's name table.
func pyUnescape(body string, isBytes bool) (string, bool) {
	if !strings.Contains(body, "\\") {
		return body, true
	}
	var b strings.Builder
	b.Grow(len(body))
	hex := func(i, n int) (rune, int, bool) {
		if i+n > len(body) {
			return 0, i, false
		}
		v, err := strconv.ParseUint(body[i:i+n], 16, 32)
		return rune(v), i + n, err == nil
	}
	put := func(r rune) {
		if isBytes || r < utf8.RuneSelf {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			i++
			continue
		}
		e := body[i+1]
		i += 2
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", e)])
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := rune(e - '0')
			for k := 0; k < 2 && i < len(body) && body[i] >= '0' && body[i] <= '7'; k++ {
				v = v*8 + rune(body[i]-'0')
				i++
			}
			put(v)
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			if e != 'x' && isBytes {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			r, j, ok := hex(i, n)
			if !ok {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			put(r)
			i = j
		case 'N':
			if isBytes {
				b.WriteString("\\N")
				continue
			}
			return "", false
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
