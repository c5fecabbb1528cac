package kotlin

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// hashTokens returns the file's code tokens for the token hash: its tokens
// without comments, normalized so that the edits ktlint and ktfmt make
// cannot change them while any other edit does:
//
//   - Semicolons are dropped (ktlint's no-semi; a ';' that separates two
//     statements on one line becomes a line break), and so is a trailing
//     comma before ')', ']', '>', '}' or '->'.
//   - An empty argument list before a trailing lambda is dropped (foo() {
//     } is foo { }), and so is an empty class body (class A {}) and ': Unit'
//     before a block body.
//   - A block body of one return or throw statement is an expression body
//     ({ return x } is = x: ktlint's function-expression-body).
//   - A declaration's modifiers are in one order: annotations first, as
//     written, then the keywords in the order of Kotlin's coding
//     conventions (ktlint's modifier-order: public override, not override
//     public).
//   - The import directives are in sorted order (ktlint's import-ordering),
//     each group on the line of the import it replaces.
//   - In a string, ${name} is $name where the name is a plain identifier
//     not followed by an identifier character (ktlint's string-template),
//     and CRLF line breaks in a raw string are LF.
//
// Line breaks are not tokens: joining or splitting lines where Kotlin's
// semicolon inference would read them differently (return on its own line
// before a value) keeps the hash. Every kept token is its text as written;
// a moved token carries the line of the place it moves to.
func (p *parser) hashTokens() []lang.Token {
	n := len(p.toks)
	drop := make([]bool, n)
	for _, i := range p.drop {
		drop[i] = true
	}
	for i := range n {
		switch {
		case p.is(i, ";"):
			drop[i] = true
		case p.is(i, ","):
			j := i + 1
			if p.closing(j) || p.is(j, ">") || p.is(j, "->") {
				drop[i] = true
			}
		case p.is(i, "(") && p.is(i+1, ")") && p.is(i+2, "{") && !p.params[i]:
			drop[i], drop[i+1] = true, true
		}
	}
	equals := map[int]bool{}
	for _, b := range p.exprBodies {
		equals[b[0]], drop[b[1]] = true, true
		if p.is(b[0]+1, "return") {
			drop[b[0]+1] = true
		}
	}
	out := make([]lang.Token, 0, n)
	emit := func(i int, line int32) {
		t := p.toks[i]
		text := p.str[t.off:t.end]
		if t.kind == tString {
			text = normalizeString(text)
		}
		out = append(out, lang.Token{Line: int(line), Text: text})
	}
	imports := p.sortedImports()
	for i := 0; i < n; i++ {
		if g, ok := imports[i]; ok {
			for _, k := range g.toks {
				emit(k, p.toks[i].line)
			}
			i = g.end - 1
			continue
		}
		if e, ok := p.modRuns[i]; ok {
			for k, j := range p.modifierOrder(i, e) {
				if !drop[j] {
					emit(j, p.toks[i+k].line)
				}
			}
			i = e - 1
			continue
		}
		switch {
		case equals[i]:
			out = append(out, lang.Token{Line: int(p.toks[i].line), Text: "="})
		case !drop[i]:
			emit(i, p.toks[i].line)
		}
	}
	return out
}

// importGroup is the import directive hashed in place of another.
type importGroup struct {
	toks []int // the token indices of the directive hashed here
	end  int   // the end of the directive it replaces
}

// sortedImports maps the first token of each import directive to the
// directive that sorts into its place.
func (p *parser) sortedImports() map[int]importGroup {
	if len(p.importAt) < 2 {
		return nil
	}
	order := slices.Clone(p.importAt)
	text := func(r [2]int) string {
		var b strings.Builder
		for k := r[0]; k < r[1]; k++ {
			if !p.is(k, ";") {
				b.WriteString(p.text(k))
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	slices.SortStableFunc(order, func(a, b [2]int) int { return strings.Compare(text(a), text(b)) })
	out := map[int]importGroup{}
	for slot, r := range p.importAt {
		var g importGroup
		for k := order[slot][0]; k < order[slot][1]; k++ {
			if !p.is(k, ";") {
				g.toks = append(g.toks, k)
			}
		}
		g.end = r[1]
		out[r[0]] = g
	}
	return out
}

// modifierRank is the place of each modifier keyword in Kotlin's coding
// conventions' order.
var modifierRank = map[string]int{}

func init() {
	for i, w := range []string{
		"public", "protected", "private", "internal", "expect", "actual", "final", "open", "abstract",
		"sealed", "const", "external", "override", "lateinit", "tailrec", "vararg", "suspend", "inner",
		"enum", "annotation", "fun", "companion", "inline", "noinline", "crossinline", "reified",
		"value", "infix", "operator", "data",
	} {
		modifierRank[w] = i
	}
}

// modifierOrder returns the token indices of the modifiers [i, e) in hash
// order: annotations as written, then keywords by [modifierRank].
func (p *parser) modifierOrder(i, e int) []int {
	var annots, words []int
	for k := i; k < e; {
		if p.is(k, "@") {
			end := p.annotation(k)
			for ; k < end; k++ {
				annots = append(annots, k)
			}
			continue
		}
		words = append(words, k)
		k++
	}
	slices.SortStableFunc(words, func(a, b int) int { return modifierRank[p.text(a)] - modifierRank[p.text(b)] })
	return append(annots, words...)
}

// normalizeString rewrites a string literal's text for the hash: CRLF as
// LF, and ${name} as $name where that reads the same.
func normalizeString(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && s[i+1] == '{' {
			j := i + 2
			for j < len(s) && (isASCIILetter(s[j]) || s[j] == '_' || j > i+2 && isDigit(s[j])) {
				j++
			}
			if j > i+2 && j < len(s) && s[j] == '}' && !(j+1 < len(s) && (isASCIILetter(s[j+1]) || s[j+1] == '_' || isDigit(s[j+1]))) {
				b.WriteByte('$')
				b.WriteString(s[i+2 : j])
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
