package python

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// tokenText is the hashed text of token i; see [Extract].
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
