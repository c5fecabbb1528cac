package scan

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Lexer is the state a hand-written lexer carries: the source, the byte
// offset and line it has reached, its first error, and the comments it has
// met. A language embeds it in its own lexer beside its tokens.
type Lexer struct {
	Src      []byte
	Pos      int // the next byte to read
	Line     int // the 1-based line of Pos
	Err      *Error
	Comments []lang.Comment
}

// NewLexer returns a Lexer at the start of src, past a UTF-8 byte order
// mark (no compiler reads one as a token).
func NewLexer(src []byte) Lexer {
	l := Lexer{Src: src, Line: 1}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.Pos = 3
	}
	return l
}

// Fail records the first error, at byte offset off.
func (l *Lexer) Fail(off int, format string, args ...any) {
	if l.Err == nil {
		l.Err = &Error{off, fmt.Sprintf(format, args...)}
	}
}

// Peek returns the byte n past Pos, 0 past the end.
func (l *Lexer) Peek(n int) byte {
	if l.Pos+n < len(l.Src) {
		return l.Src[l.Pos+n]
	}
	return 0
}

// SkipLine moves Pos to the end of its line, before the '\n': past a line
// comment (// or #) or a shebang line.
func (l *Lexer) SkipLine() {
	for l.Pos < len(l.Src) && l.Src[l.Pos] != '\n' {
		l.Pos++
	}
}

// BlockComment scans a /* */ comment from its opening "/*", counting the
// lines it spans. Comments nest (/* /* */ */) when nested is true, as in
// Kotlin and Rust. An unterminated one fails at its start.
func (l *Lexer) BlockComment(nested bool) {
	start := l.Pos
	l.Pos += 2
	depth := 1
	for {
		if l.Pos >= len(l.Src) {
			l.Fail(start, "comment not terminated")
			return
		}
		switch c := l.Src[l.Pos]; {
		case c == '*' && l.Peek(1) == '/':
			l.Pos += 2
			if depth--; depth == 0 {
				return
			}
			continue
		case nested && c == '/' && l.Peek(1) == '*':
			l.Pos += 2
			depth++
			continue
		case c == '\n':
			l.Line++
		}
		l.Pos++
	}
}

// Comment records the comment from byte offset start (on line) to Pos.
// A trailing '\r' belongs to the line break, not to the comment.
func (l *Lexer) Comment(start, line int) {
	text := strings.TrimSuffix(string(l.Src[start:l.Pos]), "\r")
	l.Comments = append(l.Comments, lang.Comment{Line: line, EndLine: l.Line, Text: text})
}

// Quoted scans a string or character literal from its opening quote q to
// its closing one, skipping backslash escapes. The literal must end on its
// line; what names it in the error ("string literal").
func (l *Lexer) Quoted(q byte, what string) {
	start := l.Pos
	l.Pos++
	for {
		if l.Pos >= len(l.Src) || l.Src[l.Pos] == '\n' || l.Src[l.Pos] == '\r' {
			l.Fail(start, "%s not terminated", what)
			return
		}
		switch l.Src[l.Pos] {
		case '\\':
			l.Pos += 2
			continue
		case q:
			l.Pos++
			return
		}
		l.Pos++
	}
}
