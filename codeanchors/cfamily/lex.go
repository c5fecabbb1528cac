package cfamily

import (
	"bytes"
	"fmt"
	"strings"
)

// Token kinds of the lexer.
const (
	tIdent = iota // identifiers and keywords
	tNum          // pp-numbers: 1'000, 0x1p-3, 12_km
	tStr          // string literals, raw strings and header names (<vector> after #include)
	tChar         // character literals
	tPunct        // operators and delimiters
)

// tok is one token: its kind, its bytes src[off:end], the directive it
// belongs to (-1 for code) and the conditional branch (#if/#elif/#else)
// holding it (0: none).
type tok struct {
	kind     uint8
	dead     bool // inside a branch the preprocessor never takes (#if 0, the #else of #if 1)
	dropped  bool // in an #elif/#else branch left out of the structure (see [lexer.balance])
	off, end int32
	dir      int32
	cond     int32
}

// directive is one preprocessor line (with its continuation lines).
type directive struct {
	first, last int // its tokens, toks[first:last+1]; first is '#'
	name        string
	cond        int32 // the branch holding the directive
}

// cond is one branch of a conditional group: #if, #elif and #else each
// start one.
type cond struct {
	parent int32 // the enclosing branch, 0 for none
	group  int32 // the #if group, numbered from 1
	branch int   // 0 for the #if, 1 for the first #elif or #else, ...
	dead   bool
	guard  bool // the include guard: #ifndef X / #define X ... #endif around the whole file
}

// scanError is the first problem the lexer or the parser met, at a byte
// offset.
type scanError struct {
	off int
	msg string
}

// lexer turns a C or C++ source into tokens, comments and whitespace
// dropped, and reads its preprocessor directives.
type lexer struct {
	src   []byte
	toks  []tok
	dirs  []directive
	conds []cond // conds[0] is the root: code under no conditional
	err   *scanError
	// the open conditional groups: for each, its current branch and
	// whether a branch so far was taken for certain (#if 1).
	stack  []openGroup
	groups int32
	// comments are the byte ranges of the // and /* */ comments, in
	// source order, those in directives and in branches never taken too:
	// the compiler drops comments before it preprocesses.
	comments [][2]int
}

type openGroup struct {
	cur   int32 // the current branch
	taken bool  // a previous branch is always taken (#if 1): the rest are dead
	dir   int   // the #if directive, for errors
}

func (l *lexer) fail(off int, format string, args ...any) {
	if l.err == nil {
		l.err = &scanError{off, fmt.Sprintf(format, args...)}
	}
}

// punctuation longer than one byte, longest first. ">>" and ">>=" are not
// here: '>' is always one token, so that vector<vector<int>> and
// vector<vector<int> > give the same tokens and template argument lists
// close where they should.
var puncts = []string{
	"<=>", "->*", "...", "<<=",
	"::", "->", "++", "--", "<<", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##",
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func identByte(c byte) bool { return identStart(c) || '0' <= c && c <= '9' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// cur returns the branch the lexer is in.
func (l *lexer) cur() int32 {
	if len(l.stack) == 0 {
		return 0
	}
	return l.stack[len(l.stack)-1].cur
}

// lex scans the whole source.
func (l *lexer) lex() {
	l.conds = append(l.conds[:0], cond{})
	src := l.src
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		i = 3
	}
	bol := true      // only whitespace since the start of the line
	dir := int32(-1) // the directive being lexed
	header := false  // the next token is a header name (#include <...>)
	for i < len(src) && l.err == nil {
		c := src[i]
		switch {
		case c == '\n':
			if dir >= 0 {
				l.endDirective(int(dir))
				dir = -1
			}
			header = false
			bol = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && (i+1 < len(src) && src[i+1] == '\n' || i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n'):
			// a line splice: the line goes on
			i++
			if src[i] == '\r' {
				i++
			}
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			// a line comment, continued by a splice
			start := i
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r' && i+2 < len(src) && src[i+2] == '\n') {
					i += 2
					continue
				}
				i++
			}
			l.comments = append(l.comments, [2]int{start, i})
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				l.fail(i, "comment not terminated")
				return
			}
			l.comments = append(l.comments, [2]int{i, i + end + 4})
			i += end + 4
			continue
		}
		start := i
		if bol && c == '#' {
			dir = int32(len(l.dirs))
			l.dirs = append(l.dirs, directive{first: len(l.toks), cond: l.cur()})
		}
		bol = false
		kind := uint8(tPunct)
		switch {
		case header && (c == '<' || c == '"'):
			close := byte('>')
			if c == '"' {
				close = '"'
			}
			j := i + 1
			for j < len(src) && src[j] != close && src[j] != '\n' {
				j++
			}
			if j < len(src) && src[j] == close {
				j++
			}
			i, kind = j, tStr
		case identStart(c):
			j := i + 1
			for j < len(src) && identByte(src[j]) {
				j++
			}
			kind = tIdent
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				switch p := string(src[i:j]); {
				case src[j] == '"' && (p == "R" || p == "LR" || p == "uR" || p == "UR" || p == "u8R"):
					j = l.rawString(i, j+1, dir >= 0)
					kind = tStr
				case p == "L" || p == "u" || p == "U" || p == "u8":
					j = l.quoted(j, src[j], dir >= 0)
					kind = tStr
					if src[j-1] == '\'' {
						kind = tChar
					}
				}
			}
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) {
				d := src[j]
				switch {
				case identByte(d) || d == '.':
					j++
				case (d == '+' || d == '-') && strings.ContainsRune("eEpP", rune(src[j-1])):
					j++
				case d == '\'' && j+1 < len(src) && identByte(src[j+1]):
					j += 2 // a digit separator
				default:
					goto numDone
				}
			}
		numDone:
			i, kind = j, tNum
		case c == '"' || c == '\'':
			i = l.quoted(i, c, dir >= 0)
			kind = tStr
			if c == '\'' {
				kind = tChar
			}
		default:
			n := 1
			for _, p := range puncts {
				if bytes.HasPrefix(src[i:], []byte(p)) {
					n = len(p)
					break
				}
			}
			i += n
		}
		if l.err != nil {
			return
		}
		t := tok{kind: kind, off: int32(start), end: int32(i), dir: dir, cond: l.cur()}
		t.dead = l.conds[t.cond].dead
		l.toks = append(l.toks, t)
		if dir >= 0 && len(l.toks)-l.dirs[dir].first == 2 {
			// the directive's name: #include takes a header name next
			switch n := string(src[start:i]); n {
			case "include", "include_next", "import":
				header = true
			}
		} else {
			header = false
		}
	}
	if dir >= 0 {
		l.endDirective(int(dir))
	}
	if l.err == nil && len(l.stack) > 0 {
		d := l.dirs[l.stack[len(l.stack)-1].dir]
		l.fail(int(l.toks[d.first].off), "#%s without #endif", d.name)
	}
}

// quoted returns the end of the string or character literal opening at
// src[i] (the quote), with its user-defined suffix. A literal not closed on
// its line is an error in code; in a directive or a branch never taken
// (#error don't, #if 0 text) it ends with the line, as the preprocessor
// reads it.
func (l *lexer) quoted(i int, q byte, inDirective bool) int {
	src := l.src
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			j++
			for j < len(src) && identByte(src[j]) {
				j++
			}
			return j
		case '\n':
			if !inDirective && !l.conds[l.cur()].dead {
				l.fail(i, "%s literal not terminated", map[byte]string{'"': "string", '\'': "character"}[q])
			}
			if src[j-1] == '\r' && j-1 > i {
				j--
			}
			return j
		}
		j++
	}
	if !inDirective && !l.conds[l.cur()].dead {
		l.fail(i, "%s literal not terminated", map[byte]string{'"': "string", '\'': "character"}[q])
	}
	return min(j, len(src))
}

// rawString returns the end of the raw string R"delim(...)delim" whose
// opening quote is src[q-1].
func (l *lexer) rawString(start, q int, inDirective bool) int {
	src := l.src
	open := bytes.IndexByte(src[q:min(len(src), q+17)], '(')
	if open < 0 || strings.ContainsAny(string(src[q:q+open]), " \\)\t\n\"") {
		l.fail(start, "raw string delimiter not valid")
		return len(src)
	}
	closing := ")" + string(src[q:q+open]) + `"`
	end := bytes.Index(src[q+open+1:], []byte(closing))
	if end < 0 {
		if inDirective || l.conds[l.cur()].dead {
			return len(src)
		}
		l.fail(start, "raw string literal not terminated")
		return len(src)
	}
	j := q + open + 1 + end + len(closing)
	for j < len(src) && identByte(src[j]) {
		j++
	}
	return j
}

// text returns the bytes of token i.
func (l *lexer) text(i int) string { return string(l.src[l.toks[i].off:l.toks[i].end]) }

// endDirective reads the directive d, whose tokens are complete: the
// conditionals open and close branches.
func (l *lexer) endDirective(d int) {
	dr := &l.dirs[d]
	dr.last = len(l.toks) - 1
	if dr.last == dr.first {
		return // the null directive "#"
	}
	dr.name = l.text(dr.first + 1)
	args := dr.first + 2 // the first token after the name
	constant := func() (val int, ok bool) {
		// #if 0, #if 1, #if (0): a constant the preprocessor always
		// reads the same way
		n := dr.last - args + 1
		switch {
		case n == 1:
		case n == 3 && l.text(args) == "(" && l.text(dr.last) == ")":
			args++
		default:
			return 0, false
		}
		switch l.text(args) {
		case "0", "false":
			return 0, true
		case "1", "true":
			return 1, true
		}
		return 0, false
	}
	switch dr.name {
	case "if", "ifdef", "ifndef":
		l.groups++
		parent := l.cur()
		c := cond{parent: parent, group: l.groups, dead: l.conds[parent].dead}
		taken := false
		if dr.name == "if" {
			if v, ok := constant(); ok {
				c.dead = c.dead || v == 0
				taken = v == 1
			}
		}
		l.conds = append(l.conds, c)
		l.stack = append(l.stack, openGroup{cur: int32(len(l.conds) - 1), taken: taken, dir: d})
		// the directive's own tokens belong to the branch it opens
		// nothing: they stay in the enclosing one
	case "elif", "else", "elifdef", "elifndef":
		if len(l.stack) == 0 {
			l.fail(int(l.toks[dr.first].off), "#%s without #if", dr.name)
			return
		}
		g := &l.stack[len(l.stack)-1]
		prev := l.conds[g.cur]
		c := cond{parent: prev.parent, group: prev.group, branch: prev.branch + 1, dead: l.conds[prev.parent].dead || g.taken}
		if dr.name == "elif" {
			if v, ok := constant(); ok {
				c.dead = c.dead || v == 0
				g.taken = g.taken || v == 1 && !c.dead
			}
		}
		l.conds = append(l.conds, c)
		g.cur = int32(len(l.conds) - 1)
	case "endif":
		if len(l.stack) == 0 {
			l.fail(int(l.toks[dr.first].off), "#endif without #if")
			return
		}
		l.stack = l.stack[:len(l.stack)-1]
	}
}
