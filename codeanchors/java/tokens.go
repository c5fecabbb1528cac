package java

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// hashTokens returns the file's code tokens for the token hash: its tokens
// without comments, normalized so that a formatter run (prettier-plugin-java,
// google-java-format) cannot change them while any other edit does:
//
//   - Parentheses that group an expression are dropped where the grammar
//     does not need them (see [parser.redundantParens]): return (x);,
//     (a * b) + c, ((int) x) & 0xff, f((x)).
//   - A comma before '}' (array initializers, annotation arrays, enum
//     constants) is dropped, and so is an enum's ';' with no members after
//     it and an empty member declaration (a ';' after a member's brace).
//   - Modifiers are in one order: annotations first, as written, then the
//     keywords in the order google-java-format sorts them (public static
//     final, not final static).
//   - Array brackets after a declared name move to its type: String a[] is
//     String[] a, and int m()[] is int[] m(), where the declaration
//     declares one name.
//   - A text block is its content after the compiler strips incidental
//     white space (JLS 3.10.6), so re-indenting it keeps the hash.
//
// Every kept token is its text as written; a moved token carries the line
// of the place it moves to.
func (p *parser) hashTokens() []lang.Token {
	n := len(p.toks)
	drop := make([]bool, n)
	for _, i := range p.emptyDecls {
		drop[i] = true
	}
	p.redundantParens(drop)
	for i := range n {
		if p.is(i, ",") {
			j := i + 1
			for j < n && drop[j] {
				j++
			}
			if p.is(j, "}") || p.is(j, ";") && p.inEnumConstants(i) {
				drop[i] = true
			}
		}
	}
	moved := make([]bool, n)
	before := map[int][]int{}
	for _, m := range append(p.methodDims, p.declaratorDims()...) {
		for k := m.from; k < m.to; k++ {
			moved[k] = true
			before[m.at] = append(before[m.at], k)
		}
	}
	out := make([]lang.Token, 0, n)
	emit := func(i int, line int32) {
		t := p.toks[i]
		text := string(p.src[t.off:t.end])
		if t.kind == tBlock {
			text = `"""` + textBlockContent(text)
		}
		out = append(out, lang.Token{Line: int(line), Text: text})
	}
	for i := 0; i < n; i++ {
		if e, perm := p.modifierRun(i); perm != nil {
			for k, j := range perm {
				emit(j, p.toks[i+k].line)
			}
			i = e - 1
			continue
		}
		for _, j := range before[i] {
			emit(j, p.toks[i].line)
		}
		if !drop[i] && !moved[i] {
			emit(i, p.toks[i].line)
		}
	}
	return out
}

// inEnumConstants reports whether the comma at i ends an enum's constant
// list (enum E { A, B,; }).
func (p *parser) inEnumConstants(i int) bool {
	_, ok := slices.BinarySearch(p.enumSemis, i+1)
	return ok
}

// keywordRank orders modifier keywords as google-java-format does.
var keywordRank = map[string]int{
	"public": 1, "protected": 2, "private": 3, "abstract": 4, "default": 5, "static": 6,
	"final": 7, "sealed": 8, "non-sealed": 9, "transient": 10, "volatile": 11,
	"synchronized": 12, "native": 13, "strictfp": 14,
}

// modifierRun returns, for a run of two or more modifiers (annotations and
// modifier keywords) starting at i that is not in canonical order, the index
// after the run and the run's token indices in canonical order; nil when
// there is nothing to reorder.
func (p *parser) modifierRun(i int) (int, []int) {
	if !p.is(i, "@") && !(p.toks[i].kind == tIdent && (modifierWords[p.text(i)] || p.is(i, "sealed") || p.is(i, "non"))) {
		return 0, nil
	}
	type item struct {
		from, to int
		rank     int // 0 for an annotation
	}
	var items []item
	k := i
	for k < len(p.toks) {
		switch {
		case p.is(k, "@") && !p.is(k+1, "interface"):
			e, name := p.qualified(k + 1)
			if name == "" {
				return 0, nil
			}
			if p.is(e, "(") {
				e = int(p.match[e]) + 1
			}
			items = append(items, item{k, e, 0})
			k = e
			continue
		case p.is(k, "non") && p.is(k+1, "-") && p.is(k+2, "sealed") && p.toks[k].end == p.toks[k+1].off && p.toks[k+1].end == p.toks[k+2].off:
			items = append(items, item{k, k + 3, keywordRank["non-sealed"]})
			k += 3
			continue
		case p.toks[k].kind == tIdent && (modifierWords[p.text(k)] || p.is(k, "sealed") && p.declFollows(k+1)):
			items = append(items, item{k, k + 1, keywordRank[p.text(k)]})
			k++
			continue
		}
		break
	}
	sorted := slices.IsSortedFunc(items, func(a, b item) int { return a.rank - b.rank })
	if len(items) < 2 || sorted {
		return 0, nil
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.rank - b.rank })
	perm := make([]int, 0, k-i)
	for _, it := range items {
		for j := it.from; j < it.to; j++ {
			perm = append(perm, j)
		}
	}
	return k, perm
}

// move is a run of tokens [from, to) to emit before token at.
type move struct{ at, from, to int }

// declaratorDims finds the C-style array brackets after a declared
// variable's name (String a[] = ...; f(int a[]); for (int a[] : x)) and
// moves them before the name. A declaration that declares several names
// (int a[], b) is left alone: moving the brackets would change b's type.
func (p *parser) declaratorDims() []move {
	var moves []move
	for x := 1; x+2 < len(p.toks); x++ {
		if !p.ident(x) || !p.is(x+1, "[") || !p.is(x+2, "]") {
			continue
		}
		prev := x - 1
		if !(p.ident(prev) || primitives[p.text(prev)] || p.is(prev, ">") || p.is(prev, "]")) {
			continue
		}
		y := x + 1
		for p.is(y, "[") && p.is(y+1, "]") {
			y += 2
		}
		switch {
		case p.is(y, ")"), p.is(y, ":"):
		case p.is(y, ",") && p.enclosedByParen(x):
		case p.is(y, "="), p.is(y, ";"), p.is(y, ","):
			if !p.singleDeclarator(y) {
				continue
			}
		default:
			continue
		}
		moves = append(moves, move{at: x, from: x + 1, to: y})
	}
	return moves
}

// enclosedByParen reports whether the innermost bracket around token i is a
// parenthesis (a parameter list).
func (p *parser) enclosedByParen(i int) bool {
	for k := i - 1; k >= 0; k-- {
		switch {
		case p.is(k, ")"), p.is(k, "]"), p.is(k, "}"):
			// skip back over a closed group
			o := slices.Index(p.match[:k], int32(k))
			if o < 0 {
				return false
			}
			k = o
		case p.is(k, "("):
			return true
		case p.is(k, "["), p.is(k, "{"):
			return false
		}
	}
	return false
}

// singleDeclarator reports whether the declaration continuing at i ends at
// its ';' without a top-level comma (a second declarator).
func (p *parser) singleDeclarator(i int) bool {
	for k := i; k < len(p.toks); k++ {
		switch {
		case p.is(k, ";"):
			return true
		case p.is(k, ","):
			return false
		case p.is(k, "("), p.is(k, "["), p.is(k, "{"):
			k = int(p.match[k])
		case p.is(k, ")"), p.is(k, "]"), p.is(k, "}"):
			return false
		}
	}
	return false
}

// textBlockContent returns the content of a text block (raw, from its
// opening to its closing quotes) with line endings turned into "\n" and
// incidental white space stripped: the smallest indentation of its
// non-blank lines and of the closing line is removed from every line, and
// trailing white space from each. Escapes stay as written.
func textBlockContent(raw string) string {
	body := strings.ReplaceAll(raw[3:len(raw)-3], "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	lines := strings.Split(body, "\n")[1:] // the opening line holds only blanks
	indent := -1
	for i, l := range lines {
		blank := strings.TrimLeft(l, " \t\f") == ""
		if blank && i != len(lines)-1 {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t\f"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if strings.TrimLeft(l, " \t\f") == "" {
			lines[i] = ""
			continue
		}
		lines[i] = strings.TrimRight(l[min(indent, len(l)):], " \t\f")
	}
	return strings.Join(lines, "\n")
}
