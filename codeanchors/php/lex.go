package php

import (
	"bytes"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Token kinds of the lexer.
const (
	tIdent = iota // a name or keyword, with its namespace separators (Foo\Bar)
	tVar          // $name
	tNum
	tStr  // a quoted string, heredoc or nowdoc, as written
	tOp   // punctuation and operators
	tAttr // #[, which opens an attribute group closed by ]
	tHTML // inline HTML outside <?php ... ?>
	tOpen // <?php, <?= or <?
	tClose
)

type tok struct {
	kind     int
	off, end int
}

type lexer struct {
	src      []byte
	pos      int
	toks     []tok
	comments [][2]int // start and end offsets: comments are not tokens
	err      *scan.Error
}

// ops lists the multi-byte operators, longest first within a first byte.
var ops = []string{
	"<<=", ">>=", "**=", "...", "<=>", "===", "!==", "??=", "?->",
	"::", "->", "=>", "++", "--", "==", "!=", "<>", "<=", ">=", "&&", "||", "??",
	"+=", "-=", "*=", "/=", ".=", "%=", "&=", "|=", "^=", "<<", ">>", "**",
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (l *lexer) fail(off int, msg string) {
	if l.err == nil {
		l.err = &scan.Error{Off: off, Msg: msg}
	}
}

func (l *lexer) emit(kind, off int) { l.toks = append(l.toks, tok{kind, off, l.pos}) }

// lex splits the source into tokens, comments and whitespace dropped.
func (l *lexer) lex() {
	src := l.src
	for l.pos < len(src) && l.err == nil {
		// Inline HTML up to the next open tag.
		start := l.pos
		i := indexOpenTag(src, l.pos)
		if i < 0 {
			i = len(src)
		}
		if i > start {
			l.pos = i
			l.emit(tHTML, start)
		}
		if i == len(src) {
			return
		}
		start = l.pos
		switch {
		case hasPrefixFold(src[l.pos:], "<?php"):
			l.pos += 5
		case strings.HasPrefix(string(src[l.pos:min(l.pos+3, len(src))]), "<?="):
			l.pos += 3
		default:
			l.pos += 2
		}
		l.emit(tOpen, start)
		l.code()
	}
}

// indexOpenTag finds the next <?php, <?= or <? at or after from.
func indexOpenTag(src []byte, from int) int {
	for i := from; i+1 < len(src); i++ {
		if src[i] == '<' && src[i+1] == '?' {
			return i
		}
	}
	return -1
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && strings.EqualFold(string(b[:len(p)]), p)
}

// code lexes PHP code up to ?> (included) or the end.
func (l *lexer) code() {
	src := l.src
	for l.pos < len(src) && l.err == nil {
		c := src[l.pos]
		start := l.pos
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '?' && l.pos+1 < len(src) && src[l.pos+1] == '>':
			l.pos += 2
			l.emit(tClose, start)
			return
		case c == '#' && l.pos+1 < len(src) && src[l.pos+1] == '[':
			l.pos += 2
			l.emit(tAttr, start)
		case c == '#' || c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '/':
			for l.pos < len(src) && src[l.pos] != '\n' {
				if src[l.pos] == '?' && l.pos+1 < len(src) && src[l.pos+1] == '>' {
					break
				}
				l.pos++
			}
			l.comments = append(l.comments, [2]int{start, l.pos})
		case c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '*':
			j := bytes.Index(src[l.pos+2:], []byte("*/"))
			if j < 0 {
				l.fail(start, "comment not terminated")
				return
			}
			l.pos += 2 + j + 2
			l.comments = append(l.comments, [2]int{start, l.pos})
		case c == '$' && l.pos+1 < len(src) && (isIdentByte(src[l.pos+1]) && !(src[l.pos+1] >= '0' && src[l.pos+1] <= '9')):
			l.pos++
			for l.pos < len(src) && isIdentByte(src[l.pos]) {
				l.pos++
			}
			l.emit(tVar, start)
		case c >= '0' && c <= '9' || c == '.' && l.pos+1 < len(src) && src[l.pos+1] >= '0' && src[l.pos+1] <= '9':
			l.number()
			l.emit(tNum, start)
		case isIdentByte(c) || c == '\\' && l.pos+1 < len(src) && isIdentByte(src[l.pos+1]):
			l.pos++
			for l.pos < len(src) && (isIdentByte(src[l.pos]) || src[l.pos] == '\\' && l.pos+1 < len(src) && isIdentByte(src[l.pos+1])) {
				l.pos++
			}
			// b"..." binary string prefix
			if l.pos-start == 1 && (c == 'b' || c == 'B') && l.pos < len(src) && (src[l.pos] == '"' || src[l.pos] == '\'') {
				l.str(src[l.pos])
				l.emit(tStr, start)
				continue
			}
			l.emit(tIdent, start)
		case c == '\'' || c == '"' || c == '`':
			l.str(c)
			l.emit(tStr, start)
		case c == '<' && strings.HasPrefix(string(src[l.pos:min(l.pos+3, len(src))]), "<<<"):
			if !l.heredoc() {
				l.pos = start + 3
				l.emit(tOp, start)
			} else {
				l.emit(tStr, start)
			}
		default:
			n := 1
			for _, op := range ops {
				if op[0] == c && strings.HasPrefix(string(src[l.pos:min(l.pos+len(op), len(src))]), op) {
					n = len(op)
					break
				}
			}
			l.pos += n
			l.emit(tOp, start)
		}
	}
}

func (l *lexer) number() {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		if isIdentByte(c) || c == '.' && !(l.pos+1 < len(src) && src[l.pos+1] == '.') {
			l.pos++
			continue
		}
		if (c == '+' || c == '-') && (src[l.pos-1] == 'e' || src[l.pos-1] == 'E') && !(l.pos >= 2 && (src[l.pos-2] == 'x' || src[l.pos-2] == 'X')) {
			l.pos++
			continue
		}
		break
	}
}

// str skips a quoted string opened by q at l.pos, with its escapes and,
// in double quotes and backticks, its {$...} interpolations.
func (l *lexer) str(q byte) {
	start := l.pos
	src := l.src
	l.pos++
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case c == '\\':
			l.pos += 2
		case c == q:
			l.pos++
			return
		case q != '\'' && c == '{' && l.pos+1 < len(src) && src[l.pos+1] == '$':
			l.interp()
		default:
			l.pos++
		}
	}
	l.pos = len(src)
	l.fail(start, "string not terminated")
}

// interp skips a {$...} interpolation at l.pos, whose code may hold
// strings and braces.
func (l *lexer) interp() {
	depth := 0
	src := l.src
	for l.pos < len(src) && l.err == nil {
		switch c := src[l.pos]; c {
		case '{':
			depth++
			l.pos++
		case '}':
			depth--
			l.pos++
			if depth == 0 {
				return
			}
		case '\'', '"':
			l.str(c)
		default:
			l.pos++
		}
	}
}

// heredoc skips a <<<ID heredoc or <<<'ID' nowdoc at l.pos; false when
// what follows <<< is no heredoc label.
func (l *lexer) heredoc() bool {
	src := l.src
	i := l.pos + 3
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	var q byte
	if i < len(src) && (src[i] == '\'' || src[i] == '"') {
		q = src[i]
		i++
	}
	s := i
	for i < len(src) && isIdentByte(src[i]) {
		i++
	}
	if i == s || src[s] >= '0' && src[s] <= '9' {
		return false
	}
	label := string(src[s:i])
	if q != 0 {
		if i >= len(src) || src[i] != q {
			return false
		}
		i++
	}
	if i < len(src) && src[i] == '\r' {
		i++
	}
	if i >= len(src) || src[i] != '\n' {
		return false
	}
	i++
	for {
		// i is at the start of a line.
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if strings.HasPrefix(string(src[j:min(j+len(label), len(src))]), label) && (j+len(label) == len(src) || !isIdentByte(src[j+len(label)])) {
			l.pos = j + len(label)
			return true
		}
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			l.fail(l.pos, "heredoc "+label+" not terminated")
			l.pos = len(src)
			return true
		}
		i += k + 1
	}
}
