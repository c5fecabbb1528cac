package javascript

// stmtEnd returns the index of the last token of the statement or class
// member that starts at i: its semicolon, the token before a line break
// where automatic semicolon insertion ends it, the closing brace of a block
// followed on its line by the start of another statement (minified code:
// if(a){b()}c()), or the token before the closer of the enclosing block.
func (p *jsParser) stmtEnd(i, end int) int { return p.scanEnd(i, end, false) }

// exprEnd is stmtEnd for an initializer: it also ends before a comma.
func (p *jsParser) exprEnd(i, end int) int { return p.scanEnd(i, end, true) }

func (p *jsParser) scanEnd(i, end int, comma bool) int {
	t := p.t
	j := i
	for {
		block := false
		if t[j].opens(j) {
			block = t[j].isPunct("{") && t[j].flags&blockBrace != 0
			j = min(t[j].match, end-1)
		}
		if t[j].isPunct(";") {
			return j
		}
		n := j + 1
		if n >= end || t[n].kind == jsPunct && !t[n].jsx && t[n].match >= 0 && t[n].match < n &&
			(t[n].text == ")" || t[n].text == "]" || t[n].text == "}") {
			return j
		}
		if comma && t[n].isPunct(",") {
			return j
		}
		if t[n].nl && !p.continues(j, n, false) || block && !t[n].nl && jsStatementStart(&t[n]) {
			return j
		}
		j = n
	}
}

// jsStatementStart reports whether t, right after the closing brace of a
// block, can only start another statement.
func jsStatementStart(t *jsTok) bool {
	switch t.kind {
	case jsName:
		switch t.text {
		case "else", "catch", "finally", "while", "as", "satisfies", "in", "instanceof", "of":
			return false
		}
		return true
	case jsPunct:
		switch t.text {
		case "!", "~", "++", "--", "{", "@":
			return true
		}
		return false
	case jsTmpl:
		return false
	}
	return !t.jsx || t.flags&jsxOuter != 0
}

// restrictedKeywords end a statement at a line break after them.
var restrictedKeywords = map[string]bool{
	"return": true, "break": true, "continue": true, "throw": true, "yield": true, "debugger": true,
}

// continuingKeywords cannot end a statement: one goes on after them.
var continuingKeywords = map[string]bool{
	"case": true, "catch": true, "class": true, "const": true, "default": true, "delete": true,
	"do": true, "else": true, "enum": true, "export": true, "extends": true, "finally": true,
	"for": true, "function": true, "if": true, "import": true, "in": true, "instanceof": true,
	"new": true, "switch": true, "try": true, "typeof": true, "var": true,
	"while": true, "with": true, "let": true, "await": true, "implements": true,
}

// binaryOps are the operators that continue an expression onto the next
// line, where they may start it.
var binaryOps = map[string]bool{
	".": true, "?.": true, "(": true, "[": true, ",": true, "?": true, ":": true, "=>": true,
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "**=": true,
	"<<=": true, "&=": true, "|=": true, "^=": true, "&&=": true, "||=": true, "??=": true,
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "==": true, "!=": true,
	"===": true, "!==": true, "<": true, ">": true, "<=": true, ">=": true, "&&": true, "||": true,
	"??": true, "&": true, "|": true, "^": true, "<<": true, ";": true,
}

// continues reports whether the code goes on across the line break between
// tokens a and b = a+1 rather than ending a statement there: a needs an
// operand after it, or b can only continue an expression. For the token
// hash (canonical), else, catch and finally do not continue a statement,
// whose semicolon prettier would write, and { does, since prettier moves an
// opening brace up to the line of its header.
func (p *jsParser) continues(a, b int, canonical bool) bool {
	return jsContinues(p.t, a, b, canonical)
}

func jsContinues(t []jsTok, a, b int, canonical bool) bool {
	A, B := &t[a], &t[b]
	// Inside JSX markup nothing ends; an element that is an expression is
	// an operand.
	aEndsJSX := A.jsx && A.match >= 0 && A.match < a && t[A.match].flags&jsxOuter != 0
	bStartsJSX := B.jsx && B.flags&jsxOuter != 0
	if A.jsx && !aEndsJSX || B.jsx && !bStartsJSX {
		return true
	}
	if !A.jsx {
		switch A.kind {
		case jsName:
			if a > 0 && (t[a-1].isPunct(".") || t[a-1].isPunct("?.")) {
				break // a property name: x.default
			}
			if restrictedKeywords[A.text] {
				return false
			}
			if continuingKeywords[A.text] && !(A.text == "const" && a > 0 && t[a-1].isName("as")) {
				return true // but x as const ends an expression
			}
			if A.text == "as" || A.text == "satisfies" {
				return true // x as\n T
			}
		case jsPunct:
			switch A.text {
			case ")":
				if A.match >= 0 && t[A.match].flags&(ctrlParen|funcParen) != 0 {
					return true
				}
			case "]", "}", "++", "--":
			case ">":
				if A.flags&angle == 0 {
					return true
				}
			case "!":
				if a == 0 || !jsOperandEnd(&t[a-1]) {
					return true
				}
			default:
				return true
			}
		case jsTmpl:
			if A.flags&(tmplHead|tmplMiddle) != 0 {
				return true
			}
		}
	}
	if bStartsJSX {
		return false
	}
	switch B.kind {
	case jsPunct:
		if binaryOps[B.text] {
			return true
		}
		switch B.text {
		case ")", "]", "}":
			return true
		case "{":
			return canonical
		}
	case jsTmpl:
		return B.flags&(tmplMiddle|tmplTail) == 0
	case jsName:
		if b+1 < len(t) && (t[b+1].isPunct(":") || t[b+1].isPunct("?") && b+2 < len(t) && t[b+2].isPunct(":")) {
			return false // a member named in: or in?:
		}
		switch B.text {
		case "in", "instanceof", "extends", "implements":
			return true
		case "else", "catch", "finally":
			return !canonical
		}
	}
	return false
}

// jsOperandEnd reports whether t can end an operand.
func jsOperandEnd(t *jsTok) bool {
	switch t.kind {
	case jsName:
		return !continuingKeywords[t.text] && !restrictedKeywords[t.text] || t.text == "this"
	case jsPunct:
		return t.text == ")" || t.text == "]" || t.text == "}" || t.text == ">" && t.flags&angle != 0
	}
	return true
}

// typeOps are the words after which a type goes on.
var typeOps = map[string]bool{
	"is": true, "keyof": true, "typeof": true, "extends": true, "infer": true, "readonly": true,
	"unique": true, "new": true, "as": true, "satisfies": true, "implements": true,
}

// typeEnds reports whether a type or heritage clause may end with token i,
// so that a { after it opens a body.
func (p *jsParser) typeEnds(i int) bool {
	t := &p.t[i]
	switch t.kind {
	case jsName:
		return !typeOps[t.text]
	case jsPunct:
		switch t.text {
		case ")", "]", "}":
			return true
		case ">":
			return t.flags&angle != 0 || !p.ts
		}
		return false
	case jsTmpl:
		return t.flags&(tmplHead|tmplMiddle) == 0
	}
	return true
}

// skipType returns the index of the first token after the type annotation
// that starts at i: a body's {, a ; , = or closer, or the token after a
// line break that ends it.
func (p *jsParser) skipType(i, end int) int {
	t := p.t
	j := i
	for j < end {
		tk := &t[j]
		if j > i && tk.nl && (!p.continues(j-1, j, false) || (tk.isPunct("[") || tk.isPunct("(")) && p.typeEnds(j-1)) {
			return j // TypeScript: no [ or ( after a line break continues a complete type
		}
		if tk.kind == jsPunct && !tk.jsx {
			switch tk.text {
			case "{":
				if j > i && p.typeEnds(j-1) {
					return j
				}
				tk.flags |= typeBody
			case ";", ",", "=", ")", "]", "}":
				return j
			}
		}
		if tk.opens(j) {
			j = tk.match + 1
			continue
		}
		j++
	}
	return j
}

// typeAliasEnd returns the last token of a type alias whose name ends
// before i.
func (p *jsParser) typeAliasEnd(i, end int) int {
	t := p.t
	if i < end && t[i].isPunct("<") && t[i].match > i {
		i = t[i].match + 1
	}
	if i >= end || !t[i].isPunct("=") {
		return p.stmtEnd(i-1, end)
	}
	return p.annotationEnd(i+1, end)
}

// annotationEnd returns the last token of a declaration whose type starts
// at i and is not followed by an initializer: the type's, or its ;.
func (p *jsParser) annotationEnd(i, end int) int {
	j := p.skipType(i, end)
	if j < end && p.t[j].isPunct(";") {
		return j
	}
	return j - 1
}
