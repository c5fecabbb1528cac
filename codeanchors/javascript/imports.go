package javascript

import "strings"

// namedBindings returns the bindings of the { ... } at open in an import,
// export or destructuring require: "{a}" or "{a as b}", after prefix.
func (p *jsParser) namedBindings(open int, prefix string) []string {
	t := p.t
	var out []string
	for i := open + 1; i < t[open].match; {
		if t[i].isName("type") && i+1 < t[open].match && (t[i+1].kind == jsName && !t[i+1].isName("as") || t[i+1].kind == jsStr) {
			i++
		}
		if t[i].kind != jsName && t[i].kind != jsStr || t[i].isPunct("...") {
			for i < t[open].match && !t[i].isPunct(",") {
				if t[i].opens(i) {
					i = t[i].match
				}
				i++
			}
			i++
			continue
		}
		name := jsStringValue(t[i])
		i++
		local := ""
		if i+1 < t[open].match && (t[i].isName("as") || t[i].isPunct(":")) && (t[i+1].kind == jsName || t[i+1].kind == jsStr) {
			local = jsStringValue(t[i+1])
			i += 2
		}
		b := prefix + "{" + name
		if local != "" && local != name {
			b += " as " + local
		}
		out = append(out, b+"}")
		// Skip a default value or nested pattern up to the next comma.
		for i < t[open].match && !t[i].isPunct(",") {
			if t[i].opens(i) {
				i = t[i].match
			}
			i++
		}
	}
	return out
}

// jsStringValue returns the text of a name, or the value of a string
// literal with its escapes removed.
func jsStringValue(t jsTok) string {
	if t.kind != jsStr && (t.kind != jsTmpl || len(t.text) < 2) {
		return t.text
	}
	s := t.text[1 : len(t.text)-1]
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func (p *jsParser) addImport(tok int, binds []string) {
	spec := jsStringValue(p.t[tok])
	if len(binds) == 0 {
		binds = []string{""}
	}
	for _, b := range binds {
		p.imports = append(p.imports, jsImport{tok, spec, b})
	}
}

// importDecl parses an import declaration whose keyword is at k.
func (p *jsParser) importDecl(k, end int) int {
	t := p.t
	last := p.stmtEnd(k, end)
	i := k + 1
	if i < last && t[i].isName("type") && (t[i+1].kind == jsName && !t[i+1].isName("from") || t[i+1].isPunct("{") || t[i+1].isPunct("*")) {
		i++
	}
	var binds []string
	for ; i <= last; i++ {
		switch tk := &t[i]; {
		case tk.kind == jsStr:
			p.addImport(i, binds)
			return last + 1
		case tk.isName("from") && i+1 <= last && t[i+1].kind == jsStr:
		case tk.kind == jsName:
			if i+1 <= last && t[i+1].isPunct("=") { // import x = require("m"), or an alias
				if i+5 <= last+1 && t[i+2].isName("require") && t[i+3].isPunct("(") && t[i+4].kind == jsStr {
					p.reqBind[i+4] = []string{tk.text}
				}
				return last + 1
			}
			binds = append(binds, tk.text)
		case tk.isPunct("*"):
			if i+2 <= last && t[i+1].isName("as") {
				binds = append(binds, "* as "+t[i+2].text)
				i += 2
			}
		case tk.isPunct("{"):
			binds = append(binds, p.namedBindings(i, "")...)
			i = tk.match
		}
	}
	return last + 1
}

// exportFrom parses export * ... or export { ... } whose * or { is at k.
func (p *jsParser) exportFrom(k, end int) int {
	t := p.t
	last := p.stmtEnd(k, end)
	spec := -1
	for i := k; i < last; i++ {
		if t[i].opens(i) {
			i = t[i].match
			continue
		}
		if t[i].isName("from") && t[i+1].kind == jsStr {
			spec = i + 1
			break
		}
	}
	if spec < 0 {
		return last + 1 // export { a, b }: a local export list
	}
	var binds []string
	switch {
	case t[k].isPunct("{"):
		binds = p.namedBindings(k, "export ")
		if len(binds) == 0 {
			binds = []string{""}
		}
	case k+2 < spec && t[k+1].isName("as"):
		binds = []string{"export * as " + t[k+2].text}
	default:
		binds = []string{"export *"}
	}
	p.addImport(spec, binds)
	return last + 1
}

// dynamicImports records import("m") and require("m") anywhere in the
// file, with the bindings found for require by [jsParser.variables].
func (p *jsParser) dynamicImports() {
	t := p.t
	for i := 0; i+3 < len(t); i++ {
		if !t[i].isName("import") && !t[i].isName("require") || !t[i+1].isPunct("(") {
			continue
		}
		if i > 0 && (t[i-1].isPunct(".") || t[i-1].isPunct("?.") || t[i-1].isName("function")) {
			continue
		}
		arg := &t[i+2]
		if arg.kind != jsStr && !(arg.kind == jsTmpl && arg.flags == 0) {
			continue
		}
		if !t[i+3].isPunct(")") && !t[i+3].isPunct(",") {
			continue
		}
		p.addImport(i+2, p.reqBind[i+2])
	}
}
