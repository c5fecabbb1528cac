package rust

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// keywords are Rust's strict and reserved keywords: never a callee.
var keywords = map[string]bool{
	"as": true, "async": true, "await": true, "break": true, "const": true, "continue": true, "crate": true,
	"dyn": true, "else": true, "enum": true, "extern": true, "false": true, "fn": true, "for": true, "if": true,
	"impl": true, "in": true, "let": true, "loop": true, "match": true, "mod": true, "move": true, "mut": true,
	"pub": true, "ref": true, "return": true, "self": true, "Self": true, "static": true, "struct": true,
	"super": true, "trait": true, "true": true, "type": true, "unsafe": true, "use": true, "where": true,
	"while": true, "yield": true, "box": true, "become": true, "do": true, "final": true, "macro": true,
	"override": true, "priv": true, "typeof": true, "unsized": true, "virtual": true, "try": true,
}

// tokens returns the file's code tokens for token hashes, normalized as
// [Extract] describes.
func (p *parser) tokens(starts []int) []lang.Token {
	drop := p.formatterTokens()
	out := make([]lang.Token, 0, len(p.toks))
	li := 0
	for i, t := range p.toks {
		if drop[i] {
			continue
		}
		for li+1 < len(starts) && starts[li+1] <= t.off {
			li++
		}
		text := string(p.src[t.off:t.end])
		if t.kind == tLit && strings.Contains(text, "\r\n") {
			text = strings.ReplaceAll(text, "\r\n", "\n")
		}
		out = append(out, lang.Token{Line: li + 1, Text: text})
		if p.is(i, "extern") && !p.is(i+1, "crate") && (i+1 >= len(p.toks) || p.toks[i+1].kind != tLit) {
			out = append(out, lang.Token{Line: li + 1, Text: `"C"`})
		}
	}
	return out
}

// formatterTokens marks the tokens rustfmt adds or removes without
// changing the program:
//   - a comma before a closing bracket or '>', but the one of a
//     one-element tuple or tuple type (x,);
//   - a comma after a block's '}' and the commas between match arms;
//   - the braces of a match arm's or closure's block that holds one
//     expression (no ';' at its top level): rustfmt wraps a long arm or
//     closure body in such a block, and {x} is x.
func (p *parser) formatterTokens() []bool {
	drop := make([]bool, len(p.toks))
	for i := range p.toks {
		switch {
		case p.is(i, ","):
			drop[i] = drop[i] || p.droppedComma(i)
		case p.is(i, "match") && !p.is(i-1, "$") && !p.is(i-1, ".") && !p.is(i-1, "::"):
			// The body is the first '{' after the scrutinee that opens
			// no block expression (match unsafe { x } { ... }).
			body := i + 1
			for body < len(p.toks) && !p.is(body, ";") && !p.is(body, "}") {
				if p.is(body, "{") && !p.is(body-1, "unsafe") && !p.is(body-1, "async") && !p.is(body-1, "move") && !p.is(body-1, "const") {
					break
				}
				if p.isOpen(body) {
					body = p.match[body]
				}
				body++
			}
			if !p.is(body, "{") {
				continue
			}
			for j := body + 1; j < p.match[body]; j++ {
				if p.isOpen(j) {
					j = p.match[j]
				} else if p.is(j, ",") {
					drop[j] = true
				}
			}
		case p.is(i, "{") && (p.is(i-1, "=>") || p.is(i-1, "|") || p.is(i-1, "||")):
			end := p.match[i]
			if end == i+1 {
				continue
			}
			one := true
			for j := i + 1; j < end; j++ {
				if p.isOpen(j) {
					j = p.match[j]
				} else if p.is(j, ";") || p.is(j, "let") {
					one = false
					break
				}
			}
			if one {
				drop[i], drop[end] = true, true
			}
		}
	}
	return drop
}

// droppedComma reports whether the comma at i is one rustfmt may add or
// remove: before a closing bracket or '>' (but not the comma of a
// one-element tuple or tuple type, (x,)), or after a block's '}'.
func (p *parser) droppedComma(i int) bool {
	if p.is(i-1, "}") {
		return true
	}
	switch {
	case p.is(i+1, "]") || p.is(i+1, "}") || p.is(i+1, ">"):
		return true
	case p.is(i+1, ")"):
		open := p.match[i+1]
		// A call or tuple struct f(x,) is f(x); a tuple (x,) is not (x).
		if prev := open - 1; p.isIdent(prev) && !keywords[p.text(prev)] || p.is(prev, ">") || p.is(prev, ")") || p.is(prev, "]") {
			return true
		}
		for j := open + 1; j < i; j++ {
			if p.isOpen(j) {
				j = p.match[j]
			} else if p.is(j, ",") {
				return true // more than one element
			}
		}
		return false
	}
	return false
}

// scanCalls records the call sites in the body tokens (open, close) of
// the symbol from.
func (p *parser) scanCalls(open, close int, from string) {
	for j := open + 1; j < close; j++ {
		if !p.isIdent(j) || keywords[p.text(j)] {
			continue
		}
		k := j + 1
		if p.is(k, "::") && p.is(k+1, "<") {
			k = p.skipAngles(k+1, close)
		}
		if !p.is(k, "(") {
			continue
		}
		c := lang.Call{From: from, Name: identName(p.text(j)), Line: p.lineAt(j)}
		switch {
		case p.is(j-1, "."):
			if r := j - 2; p.isIdent(r) && !p.is(r-1, ".") && !p.is(r-1, "::") {
				c.Qual = identName(p.text(r))
			} else {
				c.Qual = "."
			}
		case p.is(j-1, "::"):
			if r := j - 2; p.isIdent(r) {
				c.Qual = identName(p.text(r))
			} else {
				c.Qual = "."
			}
		}
		p.calls = append(p.calls, c)
	}
}

// lineAt returns the line of token i.
func (p *parser) lineAt(i int) int {
	return lang.LineOf(p.starts, p.toks[i].off)
}

// use records the imports of the use tree in tokens [i, end), under the
// path prefix (with its trailing "::", or "").
func (p *parser) use(i, end int, prefix string) {
	if p.is(i, "::") {
		i++
	}
	path := prefix
	for i < end {
		switch {
		case p.is(i, "{"):
			close := p.match[i]
			for j := i + 1; j < close; {
				k := j
				for k < close && !p.is(k, ",") {
					if p.isOpen(k) {
						k = p.match[k]
					}
					k++
				}
				if k > j {
					p.use(j, k, path)
				}
				j = k + 1
			}
			return
		case p.is(i, "*"):
			p.addImport(strings.TrimSuffix(path, "::"), "*")
			return
		case p.isIdent(i) && p.text(i) == "self" && path != "" && i+1 >= end:
			p.addImport(strings.TrimSuffix(path, "::"), "")
			return
		case p.isIdent(i) && p.text(i) == "self" && path != "" && p.is(i+1, "as"):
			p.addImport(strings.TrimSuffix(path, "::"), identName(p.text(i+2)))
			return
		case p.isIdent(i):
			path += identName(p.text(i))
			i++
			switch {
			case i >= end:
				p.addImport(path, "")
				return
			case p.is(i, "as"):
				p.addImport(path, identName(p.text(i+1)))
				return
			case p.is(i, "::"):
				path += "::"
				i++
			default:
				return
			}
		default:
			return
		}
	}
}
