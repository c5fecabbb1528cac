package java

// Operator precedence levels, loosest first, for [parser.redundantParens].
const (
	levelAssign         = 1 + iota // = += ... and lambdas (->)
	levelTernary                   // ?:
	levelOr                        // ||
	levelAnd                       // &&
	levelBitOr                     // |
	levelXor                       // ^
	levelBitAnd                    // &
	levelEquality                  // == !=
	levelRelational                // < > <= >= instanceof
	levelShift                     // << >> >>>
	levelAdditive                  // + -
	levelMultiplicative            // * / %
	levelUnary                     // prefix operators, casts, new
	levelPrimary                   // names, literals, calls, member access, (...)
)

// binaryLevels are the levels of the binary operators the lexer returns as
// one token; ">"-based ones are read by [parser.operatorAt].
var binaryLevels = map[string]int{
	"=": levelAssign, "+=": levelAssign, "-=": levelAssign, "*=": levelAssign, "/=": levelAssign,
	"&=": levelAssign, "|=": levelAssign, "^=": levelAssign, "%=": levelAssign, "<<=": levelAssign,
	"->": levelAssign, "?": levelTernary, ":": levelTernary, "||": levelOr, "&&": levelAnd,
	"|": levelBitOr, "^": levelXor, "&": levelBitAnd, "==": levelEquality, "!=": levelEquality,
	"<": levelRelational, "<=": levelRelational, "instanceof": levelRelational, "<<": levelShift,
	"+": levelAdditive, "-": levelAdditive, "*": levelMultiplicative, "/": levelMultiplicative,
	"%": levelMultiplicative,
}

// operatorAt returns the binary operator level at token i and the index
// after it, joining the lexer's lone '>' with what touches it: > >= >> >>=
// >>> >>>=. ok is false when no binary operator is there.
func (p *parser) operatorAt(i int) (level, next int, ok bool) {
	if p.is(i, ">") {
		k := i + 1
		touching := func(k int) bool { return k < len(p.toks) && p.toks[k-1].end == p.toks[k].off }
		n := 1
		for n < 3 && touching(k) && p.is(k, ">") {
			k, n = k+1, n+1
		}
		if touching(k) && p.is(k, "=") {
			if n == 1 {
				return levelRelational, k + 1, true
			}
			return levelAssign, k + 1, true
		}
		if n == 1 {
			return levelRelational, k, true
		}
		return levelShift, k, true
	}
	if i < len(p.toks) && (p.toks[i].kind == tOp || p.is(i, "instanceof")) {
		if l, ok := binaryLevels[p.text(i)]; ok {
			return l, i + 1, true
		}
	}
	return 0, i, false
}

// redundantParens marks in drop the parentheses that only group an
// expression the grammar would read the same without them: the pair's
// content binds at least as tightly as its neighbours require. Pairs are
// judged outermost first, against the nearest tokens that are kept, so
// that dropping an outer pair makes its inner pair face the outer context.
// A pair is never dropped when it is a call's or declaration's argument
// list, a control statement's condition, a cast, a lambda's parameters,
// empty, or holds a top-level comma; unsure cases keep their parentheses.
func (p *parser) redundantParens(drop []bool) {
	for o := range p.toks {
		if !p.is(o, "(") || drop[o] {
			continue
		}
		c := int(p.match[o])
		if c <= o+1 {
			continue
		}
		l := o - 1
		for l >= 0 && drop[l] {
			l--
		}
		r := c + 1
		for r < len(p.toks) && drop[r] {
			r++
		}
		if !p.groups(l, o, c, r) {
			continue
		}
		in, ok := p.innerLevel(o+1, c)
		if ok && in >= p.leftNeeds(l) && in >= p.rightNeeds(r) {
			drop[o], drop[c] = true, true
		}
	}
}

// groups reports whether the pair (o, c), with kept neighbours l and r, is
// a grouping parenthesis: not an argument list, condition, cast or lambda
// parameter list.
func (p *parser) groups(l, o, c, r int) bool {
	if l >= 0 {
		switch t := p.text(l); {
		case p.toks[l].kind == tIdent && !keywords[t]:
			return false // a call, or a declaration's parameters
		case t == "this", t == "super", t == "if", t == "while", t == "for", t == "switch",
			t == "catch", t == "synchronized", t == "try", t == ">", t == "]", t == "@":
			return false
		}
	}
	if p.is(r, "->") || p.isCast(o, c, r) {
		return false
	}
	return true
}

// isCast reports whether (o, c) is a cast: a type followed by an operand.
func (p *parser) isCast(o, c, r int) bool {
	if r >= len(p.toks) {
		return false
	}
	for k := o + 1; k < c; k++ {
		t := p.toks[k]
		if t.kind != tIdent && !p.is(k, ".") && !p.is(k, "<") && !p.is(k, ">") && !p.is(k, ",") &&
			!p.is(k, "?") && !p.is(k, "[") && !p.is(k, "]") && !p.is(k, "&") && !p.is(k, "@") {
			return false
		}
		if t.kind == tIdent && keywords[p.text(k)] && !primitives[p.text(k)] && !p.is(k, "extends") && !p.is(k, "super") {
			return false
		}
	}
	if p.startsOperand(r) {
		return true
	}
	// (int) -x: a primitive type cast may take a signed operand.
	return c == o+2 && primitives[p.text(o+1)] && (p.is(r, "-") || p.is(r, "+") || p.is(r, "++") || p.is(r, "--"))
}

// startsOperand reports whether token i can start an operand that is not a
// signed one.
func (p *parser) startsOperand(i int) bool {
	if i >= len(p.toks) {
		return false
	}
	switch t := p.toks[i]; t.kind {
	case tIdent:
		w := p.text(i)
		return !keywords[w] || w == "this" || w == "super" || w == "new" || w == "true" ||
			w == "false" || w == "null" || w == "switch" || primitives[w]
	case tNumber, tString, tBlock, tChar:
		return true
	}
	return p.is(i, "(") || p.is(i, "!") || p.is(i, "~")
}

// leftNeeds returns the lowest level an operand after token l may have
// without parentheses.
func (p *parser) leftNeeds(l int) int {
	if l < 0 {
		return levelAssign
	}
	switch t := p.text(l); t {
	case "(", ",", "[", "{", ";", "}", "return", "throw", "case", "yield", "assert", "else", "do", "->", "?":
		return levelAssign
	case ":":
		return levelTernary // a conditional's last operand; a label or case would allow any
	case "!", "~", ")":
		return levelUnary
	case "+", "-", "++", "--":
		if l > 0 && p.endsOperand(l-1) && t != "++" && t != "--" {
			return binaryLevels[t] + 1
		}
		return levelUnary
	}
	if lv, ok := binaryLevels[p.text(l)]; ok && p.toks[l].kind == tOp {
		if lv == levelAssign {
			return levelAssign // right-associative
		}
		return lv + 1
	}
	if p.is(l, "=") {
		return levelAssign
	}
	return levelPrimary + 1 // unknown: keep
}

// endsOperand reports whether token i can end an operand (so that a '-'
// after it is binary).
func (p *parser) endsOperand(i int) bool {
	switch t := p.toks[i]; t.kind {
	case tIdent:
		w := p.text(i)
		return !keywords[w] || w == "this" || w == "super" || w == "true" || w == "false" || w == "null" || w == "class"
	case tNumber, tString, tBlock, tChar:
		return true
	}
	return p.is(i, ")") || p.is(i, "]")
}

// rightNeeds returns the lowest level an operand before token r may have
// without parentheses.
func (p *parser) rightNeeds(r int) int {
	if r >= len(p.toks) {
		return levelAssign
	}
	switch p.text(r) {
	case ")", ",", ";", "]", "}", ":":
		return levelAssign
	case "?":
		return levelOr
	case ".", "[", "::", "++", "--":
		return levelPrimary
	}
	lv, _, ok := p.operatorAt(r)
	switch {
	case !ok:
		return levelPrimary + 1 // unknown: keep
	case lv == levelAssign:
		return levelPrimary // only a variable may be assigned to
	}
	return lv // left-associative: (a - b) - c
}

// innerLevel returns the loosest level of the expression in tokens [i, e);
// ok is false when it is not one expression.
func (p *parser) innerLevel(i, e int) (int, bool) {
	level := levelPrimary
	operand := true // an operand is expected next
	for k := i; k < e; {
		if operand {
			switch t := p.text(k); {
			case p.is(k, "("):
				c := int(p.match[k])
				if p.isCast(k, c, c+1) || c == k+2 && primitives[p.text(k+1)] {
					level = min(level, levelUnary)
					k = c + 1
					continue
				}
				k, operand = c+1, false
			case t == "+" || t == "-" || t == "!" || t == "~" || t == "++" || t == "--":
				level = min(level, levelUnary)
				k++
			case t == "new":
				level = min(level, levelUnary)
				k = p.skipCreation(k+1, e)
				operand = false
			case t == "switch" && p.is(k+1, "("):
				c := int(p.match[k+1])
				if !p.is(c+1, "{") {
					return 0, false
				}
				k, operand = int(p.match[c+1])+1, false
			case t == "@":
				k, _ = p.modifiers(k)
			case p.toks[k].kind == tOp:
				return 0, false
			default:
				k, operand = k+1, false
			}
			continue
		}
		switch t := p.text(k); {
		case t == ".":
			k++
			if p.is(k, "<") {
				k = p.typeArgs(k)
				if p.err != nil {
					p.err = nil
					return 0, false
				}
			}
			k++ // the member name, this, class, new or super
		case t == "(", t == "[":
			k = int(p.match[k]) + 1
		case t == "::":
			k += 2
		case t == "++", t == "--":
			k++
		case t == ",":
			return 0, false
		case t == "instanceof":
			level = min(level, levelRelational)
			for k++; k < e && (p.toks[k].kind == tIdent || p.is(k, ".") || p.is(k, "<") || p.is(k, ">") ||
				p.is(k, "?") || p.is(k, ",") || p.is(k, "[") || p.is(k, "]") || p.is(k, "@")); k++ {
			}
		default:
			lv, next, ok := p.operatorAt(k)
			if !ok {
				return 0, false
			}
			level = min(level, lv)
			k, operand = next, true
		}
	}
	return level, !operand
}

// skipCreation skips the type and arguments of a new expression from i
// (after new) up to e; it returns the index after them.
func (p *parser) skipCreation(i, e int) int {
	for i < e && (p.toks[i].kind == tIdent || p.is(i, ".") || p.is(i, "<") || p.is(i, ">") ||
		p.is(i, ",") || p.is(i, "?") || p.is(i, "@")) {
		i++
	}
	for i < e && (p.is(i, "(") || p.is(i, "[") || p.is(i, "{")) {
		i = int(p.match[i]) + 1
	}
	return i
}
