package javascript

import "github.com/tracewiki/tracewiki/codeanchors/lang"

// callKeywords are the keywords a ( may follow without a call.
var callKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"return": true, "typeof": true, "void": true, "delete": true, "new": true, "super": true,
	"import": true, "require": true, "await": true, "yield": true, "in": true, "of": true,
	"instanceof": true, "case": true, "throw": true, "with": true, "do": true, "else": true,
	"async": true,
}

// calls appends the calls in tokens [first, last], made by from.
func (p *jsParser) calls(calls []lang.Call, from string, first, last int) []lang.Call {
	t := p.t
	for k := first; k <= last; k++ {
		tk := &t[k]
		if tk.flags&jsxTag != 0 {
			if c, ok := p.jsxCall(k, from); ok {
				calls = append(calls, c)
			}
			continue
		}
		if !tk.isPunct("(") || k == 0 {
			continue
		}
		n := k - 1
		if t[n].isPunct("?.") && n > 0 {
			n--
		}
		if t[n].isPunct(">") && t[n].flags&angle != 0 && t[n].match > 0 {
			n = t[n].match - 1
		}
		prev := n - 1
		member := prev >= 0 && (t[prev].isPunct(".") || t[prev].isPunct("?."))
		if t[n].kind != jsName && t[n].kind != jsPrivate || t[n].jsx || callKeywords[t[n].text] && t[n].kind == jsName && !member {
			continue
		}
		if prev >= 0 && t[prev].isPunct("*") {
			prev--
		}
		if prev >= 0 && t[prev].isName("function") {
			continue // a function's name
		}
		if after := tk.match + 1; after < len(t) && (t[after].isPunct("{") ||
			p.ts && t[after].isPunct(":") && (t[n].nl || prev >= 0 && (t[prev].isPunct("{") || t[prev].isPunct(",") ||
				t[prev].isPunct(";") || t[prev].isPunct("*") || t[prev].kind == jsName && (memberModifiers[t[prev].text] ||
				t[prev].text == "get" || t[prev].text == "set")))) {
			continue // a method's name
		}
		c := lang.Call{From: from, Name: t[n].text, Line: t[n].line}
		if prev >= 0 && (t[prev].isPunct(".") || t[prev].isPunct("?.")) {
			c.Qual = "."
			if q := prev - 1; q >= 0 && t[q].kind == jsName && !t[q].jsx && (q == 0 || !t[q-1].isPunct(".") && !t[q-1].isPunct("?.")) {
				c.Qual = t[q].text
			}
		}
		calls = append(calls, c)
	}
	return calls
}

// jsxCall returns the call of a component made by the JSX opening tag
// whose first name is at k: <Button>, <ui.Button>, not <div>.
func (p *jsParser) jsxCall(k int, from string) (lang.Call, bool) {
	t := p.t
	parts := []string{t[k].text}
	for j := k + 1; j+1 < len(t) && t[j].jsx && t[j].text == "." && t[j+1].kind == jsName; j += 2 {
		parts = append(parts, t[j+1].text)
	}
	name := parts[len(parts)-1]
	if len(parts) == 1 && (name[0] < 'A' || name[0] > 'Z') {
		return lang.Call{}, false
	}
	c := lang.Call{From: from, Name: name, Line: t[k].line}
	switch len(parts) {
	case 1:
	case 2:
		c.Qual = parts[0]
	default:
		c.Qual = "."
	}
	return c, true
}
