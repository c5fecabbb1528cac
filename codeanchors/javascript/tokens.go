package javascript

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// jsHashTokens returns the code tokens of a lexed file for [lang.HashTokens]:
// the lexer's tokens without comments, normalized so that a prettier run
// cannot change them while other edits still do:
//
//   - Semicolons are explicit. In a block, class or interface body or at
//     top level (not inside parentheses, brackets, templates or JSX), a line
//     break where automatic semicolon insertion ends a statement (the rules
//     of the statement pass; in an interface or object type, also before a
//     line starting with [, ( or <) counts as a ";" on the line before the
//     break, and a written ";" counts as one on the line of the token before
//     it; a "}" and the end of the file end a statement as a line break
//     does, so a range's last statement or member hashes alike whatever
//     follows it. A ";" is dropped at the start of the file, after another
//     ";", after "{" or "}", and before ")" and "]", so that empty
//     statements, the semicolon prettier adds after an arrow function's
//     body and the semicolon-less style give the same tokens.
//     The ";" of a for clause are kept as written.
//   - A comma before ")", "]" or "}" is dropped, and in TypeScript one
//     before the ">" of a type parameter list too (prettier's trailing
//     commas).
//   - Redundant grouping parentheses are dropped, since prettier adds and
//     removes them (it prints them from the syntax tree, and adds some for
//     clarity, as in (a * b) / c and (a && b) || c): around a lone name or
//     literal, a lone arrow function parameter ((x) =>), a JSX element, and
//     any expression whose loosest operator binds more tightly than the
//     operators around the parentheses (as left operand, at the same
//     precedence too, but for ** and ?:), an expression with no operator
//     before a member access or call, unless it holds a top-level comma,
//     starts an arrow function's object literal body, or mixes ?? with ||
//     or &&. So is the empty argument list of new X() that ends an
//     expression.
//   - A leading | or & of a TypeScript union or intersection type is dropped.
//   - String literals are written with double quotes and without escapes
//     of either quote; a string used as an object key that is a valid
//     identifier is written as the identifier ({'a': 1} is {a: 1}).
//   - Regular expression flags are sorted (/x/mg is /x/gm).
//   - Number literals are lower-case, with the rules of prettier's
//     printNumber: no + or leading zeros in an exponent, no e0 exponent, a 0
//     before a leading dot, no trailing zeros after the dot, no trailing dot.
//   - JSX text is one token per word, and a {" "} among JSX children is
//     dropped, since prettier reflows JSX text and writes spaces that way.
//     JSX attribute strings are written with double quotes.
//   - In a tagged template literal (html`...`, css`...`), whose content
//     prettier may reformat as HTML, CSS, GraphQL or Markdown, white space
//     is dropped.
func jsHashTokens(t []jsTok, ts, jsx bool) []lang.Token {
	drop := make([]bool, len(t))
	for i := range t {
		tk := &t[i]
		switch {
		case tk.isPunct(","):
			if i+1 < len(t) {
				nx := &t[i+1]
				if nx.kind == jsPunct && !nx.jsx && (nx.text == ")" || nx.text == "]" || nx.text == "}") ||
					ts && !jsx && nx.isPunct(">") && nx.flags&angle != 0 {
					drop[i] = true
				}
			}
		case tk.isPunct("("):
			if c := tk.match; c == i+1 && newArgs(t, i) || c > i+1 && redundantParens(t, i) {
				drop[i], drop[c] = true, true
			}
		case ts && (tk.isPunct("|") || tk.isPunct("&")) && i > 0:
			if pv := &t[i-1]; pv.kind == jsName && typeOps[pv.text] {
				drop[i] = true // x as | A | B
			} else if pv.kind == jsPunct && !pv.jsx {
				switch pv.text {
				case ")", "]", "}", "!":
				case ">":
					drop[i] = pv.flags&angle == 0
				default:
					drop[i] = true
				}
			}
		case tk.flags&jsxChild != 0 && tk.match == i+2 && t[i+1].kind == jsStr &&
			strings.TrimSpace(t[i+1].text[1:len(t[i+1].text)-1]) == "":
			drop[i], drop[i+1], drop[i+2] = true, true, true // {" "}
		}
	}

	// The ; of a for clause are kept as written.
	keep := make([]bool, len(t))
	for i := range t {
		if t[i].flags&forParen == 0 || t[i].match < 0 {
			continue
		}
		for j := i + 1; j < t[i].match; j++ {
			if t[j].opens(j) {
				j = t[j].match
			} else if t[j].isPunct(";") {
				keep[j] = true
			}
		}
	}

	toks := make([]lang.Token, 0, len(t))
	semi := -1 // index in toks of the last droppable ";"
	addSemi := func(line int) {
		if n := len(toks); n == 0 || n-1 == semi || toks[n-1].Text == "{" || toks[n-1].Text == "}" {
			return
		}
		toks = append(toks, lang.Token{Line: line, Text: ";"})
		semi = len(toks) - 1
	}
	// stack holds the open brackets: statements end only at top level and
	// in braces that are not JSX expression containers.
	var stack []*jsTok
	for i := range t {
		tk := &t[i]
		if i > 0 && tk.nl {
			top := (*jsTok)(nil)
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			}
			if top == nil || top.text == "{" && top.flags&jsxBrace == 0 {
				brk := !jsContinues(t, i-1, i, true)
				if !brk && top != nil && top.flags&typeBody != 0 && (tk.isPunct("[") || tk.isPunct("(") || tk.isPunct("<")) {
					brk = jsOperandEnd(&t[i-1]) // TypeScript: a member per line
				}
				if brk {
					addSemi(jsEndLine(&t[i-1]))
				}
			}
		}
		switch {
		case tk.kind == jsTmpl && tk.flags&(tmplMiddle|tmplTail) != 0:
			stack = stack[:max(len(stack)-1, 0)]
		case tk.kind == jsPunct && !tk.jsx && tk.match >= 0 && tk.match < i && tk.flags&angle == 0:
			stack = stack[:max(len(stack)-1, 0)]
		}
		switch {
		case tk.kind == jsTmpl && tk.flags&(tmplHead|tmplMiddle) != 0:
			stack = append(stack, tk)
		case tk.kind == jsPunct && !tk.jsx && tk.match > i && tk.flags&angle == 0:
			stack = append(stack, tk)
		}
		if drop[i] {
			continue
		}
		text := tk.text
		switch tk.kind {
		case jsPunct:
			if tk.jsx {
				break
			}
			switch text {
			case ";":
				if !keep[i] {
					line := tk.line
					if i > 0 {
						line = min(line, jsEndLine(&t[i-1]))
					}
					addSemi(line)
					continue
				}
			case "}":
				// A closing brace ends the statement or member before it,
				// as a line break does, so the last member of a body hashes
				// as it would with another member after it.
				if i > 0 {
					addSemi(jsEndLine(&t[i-1]))
				}
			case ")", "]":
				if n := len(toks); n > 0 && n-1 == semi {
					toks, semi = toks[:n-1], -1
				}
			}
		case jsStr:
			text = jsCanonicalString(text)
			if i > 0 && i+1 < len(t) && t[i+1].isPunct(":") && (t[i-1].isPunct("{") || t[i-1].isPunct(",")) {
				if v := text[1 : len(text)-1]; jsIdentifier(v) {
					text = v
				}
			}
		case jsJSXStr:
			text = `"` + text[1:len(text)-1] + `"`
		case jsNum:
			text = jsCanonicalNumber(text)
		case jsRegex:
			text = jsCanonicalRegex(text)
		case jsTmpl:
			if tk.flags&tagged != 0 {
				text = strings.Join(strings.Fields(text), "")
			}
		}
		toks = append(toks, lang.Token{Line: tk.line, Text: text})
	}
	// The end of the file ends the last statement as a line break would, so
	// the last symbol of a file hashes as it would with code after it.
	if len(t) > 0 {
		addSemi(jsEndLine(&t[len(t)-1]))
	}
	return toks
}

// jsEndLine returns the line on which token t ends.
func jsEndLine(t *jsTok) int {
	return t.line + strings.Count(t.text, "\n")
}

// groupingParen reports whether the ( at i groups an expression rather
// than opening an argument, parameter or clause list.
func groupingParen(t []jsTok, i int) bool {
	if t[i].flags&(ctrlParen|funcParen) != 0 {
		return false
	}
	if i == 0 {
		return true
	}
	switch pv := &t[i-1]; pv.kind {
	case jsName:
		return !pv.jsx && exprKeywords[pv.text] && !(i > 1 && (t[i-2].isPunct(".") || t[i-2].isPunct("?.")))
	case jsPunct:
		switch pv.text {
		case ")", "]", "?.":
			return false
		case ">":
			return pv.flags&angle == 0
		}
		return !pv.jsx
	case jsTmpl:
		return pv.flags&(tmplHead|tmplMiddle) != 0
	}
	return false
}

// Precedences of JavaScript operators, loosest first.
const (
	precComma  = 1 + iota
	precAssign // = += ... => yield
	precCond   // ? :
	precNullish
	precOr
	precAnd
	precBitOr
	precBitXor
	precBitAnd
	precEquality
	precRelational // < > <= >= instanceof in as satisfies
	precShift
	precAdditive
	precMultiplicative
	precExponent
	precUnary
	precAtom = 20
)

// binaryPrec returns the precedence of the token at j as a binary
// operator, 0 when it is none.
func binaryPrec(t []jsTok, j int) int {
	tk := &t[j]
	if tk.jsx || tk.flags&angle != 0 {
		return 0
	}
	switch tk.kind {
	case jsName:
		if j > 0 && (t[j-1].isPunct(".") || t[j-1].isPunct("?.")) {
			return 0
		}
		switch tk.text {
		case "instanceof", "in", "as", "satisfies":
			return precRelational
		}
	case jsPunct:
		switch tk.text {
		case ",":
			return precComma
		case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", "&=", "|=", "^=", "&&=", "||=", "??=", "=>":
			return precAssign
		case "?":
			return precCond
		case "??":
			return precNullish
		case "||":
			return precOr
		case "&&":
			return precAnd
		case "|":
			return precBitOr
		case "^":
			return precBitXor
		case "&":
			return precBitAnd
		case "==", "!=", "===", "!==":
			return precEquality
		case "<", "<=", ">=":
			return precRelational
		case ">": // > > is a shift, lexed in two
			if j+1 < len(t) && t[j+1].off == tk.off+1 && (t[j+1].isPunct(">") || t[j+1].isPunct(">=")) ||
				j > 0 && t[j-1].off+1 == tk.off && t[j-1].isPunct(">") {
				return precShift
			}
			return precRelational
		case "<<":
			return precShift
		case "+", "-":
			return precAdditive
		case "*", "/", "%":
			return precMultiplicative
		case "**":
			return precExponent
		}
	}
	return 0
}

// parenContent describes the expression between grouping parentheses.
type parenContent struct {
	prec   int    // of its loosest top-level operator; precAtom for none
	op     string // that operator
	member bool   // a primary expression with member accesses and calls only
	brace  bool   // it starts with { (an object literal)
}

// contentOf reads the tokens between ( at i and ) at c; ok is false when
// they hold something it does not follow.
func contentOf(t []jsTok, i, c int) (pc parenContent, ok bool) {
	pc = parenContent{prec: precAtom, member: true}
	operand := false
	lower := func(p int, op string) {
		if p < pc.prec {
			pc.prec, pc.op = p, op
		}
	}
	for j := i + 1; j < c; j++ {
		tk := &t[j]
		if operand {
			if p := binaryPrec(t, j); p > 0 {
				lower(p, tk.text)
				pc.member, operand = false, false
				for p == precShift && tk.text == ">" && j+1 < c && t[j+1].off == t[j].off+1 && (t[j+1].isPunct(">") || t[j+1].isPunct(">=")) {
					j++ // the rest of >> or >>>
				}
				continue
			}
			switch {
			case tk.isPunct(".") || tk.isPunct("?."):
				pc.member = pc.member && tk.text == "."
				if j+1 < c && (t[j+1].kind == jsName || t[j+1].kind == jsPrivate) {
					j++
				}
			case tk.opens(j):
				j = tk.match
			case tk.isPunct("!") || tk.isPunct("++") || tk.isPunct("--"):
			case tk.isPunct(":"): // the else of a ?:
				lower(precCond, "?")
				operand = false
			default:
				return pc, false
			}
			continue
		}
		switch {
		case tk.kind == jsPunct && !tk.jsx && (tk.text == "!" || tk.text == "~" || tk.text == "+" || tk.text == "-" ||
			tk.text == "++" || tk.text == "--" || tk.text == "..."):
			lower(precUnary, tk.text)
			pc.member = false
		case tk.kind == jsName && !tk.jsx && (tk.text == "typeof" || tk.text == "void" || tk.text == "delete" || tk.text == "await"):
			lower(precUnary, tk.text)
			pc.member = false
		case tk.isName("new"):
			pc.member = false
		case tk.isName("yield"):
			lower(precAssign, "yield")
			pc.member = false
		case tk.isName("function") || tk.isName("class") || tk.isName("async"):
			pc.member = false
			if tk.text == "function" || tk.text == "class" {
				operand = true
				for j+1 < c && !t[j+1].isPunct("{") {
					if j++; t[j].opens(j) {
						j = t[j].match
					}
				}
			}
		case tk.opens(j):
			if j == i+1 && tk.isPunct("{") {
				pc.brace, pc.member = true, false
			}
			if tk.isPunct("<") { // type parameters of an arrow function
				j = tk.match
				continue
			}
			j = tk.match
			operand = true
		case tk.kind == jsName && (!continuingKeywords[tk.text] && !restrictedKeywords[tk.text] || tk.text == "this"),
			tk.kind == jsNum, tk.kind == jsStr, tk.kind == jsRegex, tk.kind == jsPrivate, tk.kind == jsTmpl:
			operand = true
		default:
			return pc, false
		}
	}
	return pc, operand
}

// redundantParens reports whether the grouping parentheses from i to its
// match can go without changing the program (see [jsHashTokens]): the
// operators around them bind less tightly than the loosest one inside,
// as prettier decides from the syntax tree when it adds or removes them.
func redundantParens(t []jsTok, i int) bool {
	c := t[i].match
	if c == i+2 && t[i+1].kind == jsName && i+3 < len(t) && t[i+3].isPunct("=>") {
		return true // (x) =>
	}
	if !groupingParen(t, i) {
		return false
	}
	if in := &t[i+1]; in.flags&jsxOuter != 0 && in.match+1 == c {
		return true // (<div/>)
	}
	if c == i+2 && (t[i+1].kind == jsName && !t[i+1].jsx || t[i+1].kind == jsNum || t[i+1].kind == jsStr) {
		return t[i+1].kind != jsName || !continuingKeywords[t[i+1].text] && !restrictedKeywords[t[i+1].text]
	}
	if i == 0 {
		return false
	}
	pc, ok := contentOf(t, i, c)
	if !ok || pc.prec == precComma {
		return false
	}
	mixes := func(op string) bool { // a ?? b may not mix with || or && unparenthesized
		return op == "??" && (pc.op == "||" || pc.op == "&&") || (op == "||" || op == "&&") && pc.op == "??"
	}
	// After the ).
	switch {
	case c+1 >= len(t) || t[c+1].nl && !jsContinues(t, c, c+1, true):
	case t[c+1].jsx:
		return false
	case t[c+1].isPunct("=>"):
		return false // parameters
	case t[c+1].isPunct(".") || t[c+1].isPunct("?.") || t[c+1].isPunct("(") || t[c+1].isPunct("[") ||
		t[c+1].isPunct("!") || t[c+1].kind == jsTmpl && t[c+1].flags&(tmplMiddle|tmplTail) == 0:
		if !pc.member {
			return false
		}
	case t[c+1].isPunct(":") && !t[i-1].isPunct("?") && arrowReturnType(t, c+1):
		return false // (x: T): U => parameters
	case t[c+1].kind == jsPunct && (t[c+1].text == ";" || t[c+1].text == "," || t[c+1].text == ")" ||
		t[c+1].text == "]" || t[c+1].text == "}" || t[c+1].text == ":"):
	default:
		pr := binaryPrec(t, c+1)
		if pr == 0 || pr == precAssign || mixes(t[c+1].text) ||
			pc.prec < pr || pc.prec == pr && (pr == precExponent || pr == precCond) {
			return false
		}
	}
	// Before the (.
	pv := &t[i-1]
	switch {
	case pv.isName("return") || pv.isName("throw") || pv.isName("case") || pv.isName("yield") ||
		pv.kind == jsTmpl && pv.flags&(tmplHead|tmplMiddle) != 0:
	case pv.kind == jsPunct && !pv.jsx && (pv.text == "(" || pv.text == "," || pv.text == "[" || pv.text == "..." ||
		pv.text == "?" || pv.text == ":" || pv.text == "{" && pv.flags&jsxBrace != 0 || pv.text == "=>" ||
		binaryPrec(t, i-1) == precAssign):
		if pv.text == "=>" && pc.brace {
			return false // => ({...}): an object literal, not a block
		}
	case pv.isPunct(";") || (pv.isPunct("{") || pv.isPunct("}")) && pv.flags&jsxBrace == 0 &&
		(pv.text == "{" && pv.flags&blockBrace != 0 || pv.text == "}" && pv.match >= 0 && t[pv.match].flags&blockBrace != 0):
		// A statement starts: not with {, function, class or let.
		if in := &t[i+1]; pc.brace || in.isName("function") || in.isName("class") || in.isName("let") || in.isName("async") {
			return false
		}
	case pv.isName("new"):
		for j := i + 1; j < c; j += 2 { // new (a.b.C)(x)
			if t[j].kind != jsName || j+1 < c && !t[j+1].isPunct(".") {
				return false
			}
		}
	case (pv.kind == jsPunct && (pv.text == "!" || pv.text == "~" || (pv.text == "+" || pv.text == "-") && (i < 2 || !jsOperandEnd(&t[i-2])))) ||
		pv.kind == jsName && (pv.text == "typeof" || pv.text == "void" || pv.text == "delete" || pv.text == "await"):
		return pc.prec >= precUnary
	default:
		pl := binaryPrec(t, i-1)
		if pl == 0 || pl == precComma || (pv.text == "+" || pv.text == "-") && (i < 2 || !jsOperandEnd(&t[i-2])) {
			return false
		}
		// a && (b && c): prettier flattens chains of one logical operator.
		same := pc.prec == pl && pc.op == pv.text && (pl == precAnd || pl == precOr || pl == precNullish)
		return !mixes(pv.text) && (pc.prec > pl || pc.prec == pl && pl == precExponent || same)
	}
	return pc.prec > precComma
}

// arrowReturnType reports whether the : at k starts the return type of an
// arrow function: a type, then =>. It looks a bounded number of tokens
// ahead, and says no when it cannot tell.
func arrowReturnType(t []jsTok, k int) bool {
	for j, n := k+1, 0; j < len(t) && n < 64; j, n = j+1, n+1 {
		tk := &t[j]
		switch {
		case tk.isPunct("=>"):
			return true
		case tk.opens(j):
			j = tk.match
		case tk.kind == jsPunct && !tk.jsx && (tk.text == ";" || tk.text == "," || tk.text == ")" ||
			tk.text == "]" || tk.text == "}" || tk.text == "=" || tk.text == "?" || tk.text == ":"):
			return false
		case tk.jsx:
			return false
		}
	}
	return false
}

// newArgs reports whether the ( at i follows new Name or new a.b.Name
// and ends the expression: new X().y is not new X.y.
func newArgs(t []jsTok, i int) bool {
	if c := i + 1; c+1 < len(t) && (t[c+1].isPunct(".") || t[c+1].isPunct("?.") || t[c+1].isPunct("[") ||
		t[c+1].isPunct("(") || t[c+1].kind == jsTmpl && !t[c+1].nl) {
		return false
	}
	j := i - 1
	for j >= 1 && t[j].kind == jsName && t[j-1].isPunct(".") {
		j -= 2
	}
	return j >= 1 && t[j].kind == jsName && !t[j].jsx && t[j-1].isName("new")
}

// jsCanonicalString rewrites a string literal with double quotes and
// without escapes of either quote.
func jsCanonicalString(s string) string {
	body := s[1 : len(s)-1]
	if !strings.ContainsAny(body, `\"`) {
		return `"` + body + `"`
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' && i+1 < len(body) {
			if n := body[i+1]; n == '"' || n == '\'' {
				b.WriteByte(n)
			} else {
				b.WriteByte(c)
				b.WriteByte(n)
			}
			i++
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// jsCanonicalRegex writes a regular expression literal with its flags
// sorted, as prettier does.
func jsCanonicalRegex(x string) string {
	i := strings.LastIndexByte(x, '/')
	if i < 0 || i+2 >= len(x) {
		return x
	}
	flags := []byte(x[i+1:])
	slices.Sort(flags)
	return x[:i+1] + string(flags)
}

// jsIdentifier reports whether s is an ASCII identifier.
func jsIdentifier(s string) bool {
	if s == "" || isDigit(rune(s[0])) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// jsCanonicalNumber writes a number literal as prettier's printNumber does.
func jsCanonicalNumber(x string) string {
	x = strings.ToLower(x)
	if len(x) > 1 && x[0] == '0' && strings.IndexByte("xob", x[1]) >= 0 || strings.HasSuffix(x, "n") {
		return x
	}
	mant, exp, hasExp := strings.Cut(x, "e")
	if hasExp {
		exp = strings.TrimPrefix(exp, "+")
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
		switch {
		case exp == "":
			hasExp = false
		case neg:
			exp = "-" + exp
		}
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}
