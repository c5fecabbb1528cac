package php

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// lowered are the case-insensitive words a formatter may rewrite in lower
// case: keywords, casts' types and the constants true, false and null.
var lowered = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`abstract and array as break callable case catch class clone const continue
	declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile
	enum eval exit die extends final finally fn for foreach function global goto if implements include
	include_once instanceof insteadof interface isset list match namespace new or print private
	protected public readonly require require_once return static switch throw trait try unset use var
	while xor yield true false null int integer bool boolean float double string object binary self parent`) {
		lowered[w] = true
	}
}

// tokens returns the file's tokens with the normalizations of [Extract].
func (p *parser) tokens(starts []int) []lang.Token {
	out := make([]lang.Token, 0, len(p.toks))
	drop := p.redundantParens()
	for i, t := range p.toks {
		if drop[i] {
			continue
		}
		text := p.text(i)
		switch t.kind {
		case tIdent:
			if l := strings.ToLower(text); lowered[l] && !p.is(i-1, "->") && !p.is(i-1, "?->") && !p.is(i-1, "::") {
				text = l
			}
		case tOp:
			if text == "," && i+1 < len(p.toks) && (p.is(i+1, ")") || p.is(i+1, "]")) {
				continue
			}
		case tStr:
			text = canonicalString(strings.ReplaceAll(text, "\r\n", "\n"))
		case tHTML:
			text = strings.ReplaceAll(text, "\r\n", "\n")
		case tOpen:
			text = strings.ToLower(text)
		}
		out = append(out, lang.Token{Line: lang.LineOf(starts, t.off), Text: text})
		// new class () reads as new class.
		if t.kind == tIdent && strings.EqualFold(text, "class") && p.kw(i-1, "new") && p.is(i+1, "(") && p.match[i+1] == i+2 {
			drop[i+1], drop[i+2] = true, true
		}
		// new Name without arguments reads as new Name().
		if t.kind == tIdent && p.kw(i-1, "new") && !p.is(i+1, "(") && !strings.EqualFold(text, "class") {
			out = append(out, lang.Token{Line: out[len(out)-1].Line, Text: "("}, lang.Token{Line: out[len(out)-1].Line, Text: ")"})
		}
	}
	return out
}

// canonicalString reads a string literal without interpolation as its
// value, so that prettier's choice of quotes cannot change a token: 'a',
// "a", '\\' and "\\" are one token each pair. An escape of a
// double-quoted string that stands for another character (\n, \x41) is
// kept apart from the same two characters in single quotes. A heredoc or
// nowdoc loses the indentation of its closing label from every line, as
// PHP does. Other literals stay as written.
func canonicalString(s string) string {
	if strings.HasPrefix(s, "<<<") {
		return canonicalHeredoc(s)
	}
	if len(s) < 2 || s[0] == 'b' || s[0] == 'B' {
		return s
	}
	body := s[1 : len(s)-1]
	var v strings.Builder
	switch s[0] {
	case '\'':
		v.WriteString(strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(body))
	case '"':
		for i := 0; i < len(body); i++ {
			c := body[i]
			if c == '$' {
				return s // interpolation
			}
			if c != '\\' || i+1 == len(body) {
				v.WriteByte(c)
				continue
			}
			i++
			switch n := body[i]; n {
			case '\\', '"', '$':
				v.WriteByte(n)
			case 'n', 't', 'r', 'v', 'e', 'f', 'x', 'u', '0', '1', '2', '3', '4', '5', '6', '7':
				v.WriteString("\x00\\")
				v.WriteByte(n)
			default:
				v.WriteByte('\\')
				v.WriteByte(n)
			}
		}
	default:
		return s
	}
	return "\x01" + v.String()
}

// canonicalHeredoc removes the closing label's indentation from each line
// of a heredoc or nowdoc.
func canonicalHeredoc(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return s
	}
	last := lines[len(lines)-1]
	indent := last[:len(last)-len(strings.TrimLeft(last, " \t"))]
	if indent == "" {
		return s
	}
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], indent)
	}
	return strings.Join(lines, "\n")
}

// castTypes are the types of PHP's casts, (int) $x.
var castTypes = map[string]bool{
	"int": true, "integer": true, "bool": true, "boolean": true, "float": true, "double": true,
	"real": true, "string": true, "array": true, "object": true, "unset": true, "binary": true,
}

// binaryPrec is the precedence of PHP's binary operators (higher binds
// tighter), from the PHP manual's operator precedence table.
var binaryPrec = map[string]int{
	"**": 160, "instanceof": 140,
	"*": 120, "/": 120, "%": 120,
	"+": 110, "-": 110,
	"<<": 100, ">>": 100,
	".": 90,
	"<": 80, "<=": 80, ">": 80, ">=": 80,
	"==": 70, "!=": 70, "===": 70, "!==": 70, "<>": 70, "<=>": 70,
	"&": 60, "^": 50, "|": 40, "&&": 30, "||": 20, "??": 15, "?": 10, ":": 10,
	"=": 5, "+=": 5, "-=": 5, "*=": 5, "/=": 5, ".=": 5, "%=": 5, "&=": 5, "|=": 5, "^=": 5,
	"<<=": 5, ">>=": 5, "**=": 5, "??=": 5,
	"and": 4, "xor": 3, "or": 2,
}

// rightAssoc are the right-associative operators; the comparisons are
// non-associative.
var rightAssoc = map[string]bool{"**": true, "??": true, "=": true, "+=": true, "-=": true, "*=": true, "/=": true, ".=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true, "**=": true, "??=": true}

var nonAssoc = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true, "===": true, "!==": true, "<>": true, "<=>": true, "?": true, ":": true}

// opener reports whether the token before a group starts an expression.
func opener(s string) bool {
	switch s {
	case "(", "[", ",", "return", "echo", "=>", "{", ";":
		return true
	}
	return false
}

// redundantParens marks grouping parentheses that prettier's PHP plugin
// adds or removes without changing the meaning (it parenthesizes mixed
// operators, assignments inside conditions, negated instanceof tests and
// (new A())->m()), so that token hashes ignore them. A pair is redundant
// when its content's loosest binary operator binds tighter than the
// operators on both sides (or as tightly, on the associative side), by
// PHP's precedence table; a content holding a closure, new, clone, match,
// include, print, yield or throw keeps its parentheses, and so does a
// group followed by ->, ::, [ or (, but (new A(...)) itself.
func (p *parser) redundantParens() map[int]bool {
	drop := map[int]bool{}
	for i, t := range p.toks {
		if t.kind != tOp || p.text(i) != "(" || !p.grouping(i) {
			continue
		}
		m := p.match[i]
		if p.kw(i+1, "new") && i+2 < m && p.toks[i+2].kind == tIdent &&
			(i+3 == m || p.is(i+3, "(") && p.match[i+3] == m-1) {
			drop[i], drop[m] = true, true
			continue
		}
		prev, next := "", ""
		if i > 0 {
			prev = strings.ToLower(p.text(i - 1))
		}
		if m+1 < len(p.toks) {
			next = strings.ToLower(p.text(m + 1))
		}
		// The loosest operator of the content.
		lo, safe := 1000, true
		for j := i + 1; j < m && safe; j++ {
			tk := p.toks[j]
			op := strings.ToLower(p.text(j))
			switch {
			case tk.kind == tOp && (op == "(" || op == "[" || op == "{"):
				k := p.match[j]
				if op == "(" && k == j+2 && castTypes[strings.ToLower(p.text(j+1))] {
					lo = min(lo, 130) // a cast
				}
				j = k
				continue
			case tk.kind == tOp && (op == "!" || op == "~" || op == "@"):
				lo = min(lo, 130)
			case tk.kind == tAttr:
				safe = false
			case tk.kind == tIdent:
				switch op {
				case "fn", "function", "match", "include", "include_once", "require", "require_once", "print", "yield", "throw", "static":
					safe = false
				}
			}
			pr, ok := binaryPrec[op]
			if !ok || tk.kind == tStr || tk.kind == tNum || tk.kind == tVar {
				continue
			}
			// A + or - or & after an operator or at the start is unary.
			if j == i+1 || p.toks[j-1].kind == tOp && !p.is(j-1, ")") && !p.is(j-1, "]") {
				lo = min(lo, 130)
				continue
			}
			lo = min(lo, pr)
		}
		assign := p.assignsAt(i+1, m)
		if !safe && !assign {
			continue
		}
		// $x = ... as the right operand of any operator takes all the
		// rest of the expression: 0 === ($x = f()) is 0 === $x = f().
		leftOK := opener(prev) || assign && (binaryPrec[prev] > 0 || prev == "!")
		if lp, ok := binaryPrec[prev]; ok && !leftOK {
			leftOK = lo > lp || lo == lp && rightAssoc[prev] && !nonAssoc[prev]
		} else if !leftOK && prev == "!" || prev == "-" || prev == "+" || prev == "~" || prev == "@" {
			leftOK = lo >= 140
		}
		rightOK := false
		switch next {
		case ")", "]", ",", ";", "}", "=>":
			rightOK = true
		default:
			if rp, ok := binaryPrec[next]; ok {
				rightOK = lo > rp || lo == rp && !rightAssoc[next] && !nonAssoc[next]
			}
		}
		if leftOK && rightOK {
			drop[i], drop[m] = true, true
		}
	}
	return drop
}

// assignsAt reports whether the tokens from j (before end) start with an
// assignment: a variable, its property, static property or element chain,
// then an assignment operator.
func (p *parser) assignsAt(j, end int) bool {
	if j >= end || p.toks[j].kind != tVar {
		return false
	}
	for j++; j < end; j++ {
		switch {
		case p.is(j, "[") || p.is(j, "{"):
			j = p.match[j]
		case (p.is(j, "->") || p.is(j, "::")) && j+1 < end && (p.toks[j+1].kind == tIdent || p.toks[j+1].kind == tVar):
			j++
		default:
			return binaryPrec[p.text(j)] == 5 && p.toks[j].kind == tOp
		}
	}
	return false
}

// grouping reports whether the ( at i groups an expression rather than
// opening arguments, parameters or a control statement's condition.
func (p *parser) grouping(i int) bool {
	if i == 0 {
		return true
	}
	switch t := p.toks[i-1]; t.kind {
	case tOp:
		s := p.text(i - 1)
		return s != ")" && s != "]" && s != "}" && s != "$"
	case tIdent:
		switch strings.ToLower(p.text(i - 1)) {
		case "return", "echo", "print", "and", "or", "xor", "instanceof", "yield", "throw", "case", "clone", "else", "do":
			return true
		}
	}
	return false
}
