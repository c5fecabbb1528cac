package rust

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// maxNesting bounds how deep modules, impl, trait and extern blocks nest,
// so that no input recurses without bound.
const maxNesting = 256

// def is one item that may become a symbol.
type def struct {
	name       string
	kind       string
	start, end int // token indices, inclusive
}

// parser is the item pass over the tokens of one file.
type parser struct {
	src    []byte
	toks   []tok
	starts []int // line start offsets
	match  []int // for each bracket token, the index of its partner
	err    *scan.Error
	defs   []def

	imports, importNames []string
	calls                []lang.Call
}

func (p *parser) fail(i int, format string, args ...any) {
	if p.err == nil {
		off := len(p.src)
		if i < len(p.toks) {
			off = p.toks[i].off
		}
		p.err = scan.Errorf(off, format, args...)
	}
}

func (p *parser) text(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	t := p.toks[i]
	return string(p.src[t.off:t.end])
}

// is reports whether token i is the punctuation or word s.
func (p *parser) is(i int, s string) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return t.end-t.off == len(s) && string(p.src[t.off:t.end]) == s && t.kind != tLit && t.kind != tLifetime
}

func (p *parser) isIdent(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent
}

// matchBrackets pairs every (, [ and { with its closer.
func (p *parser) matchBrackets() {
	p.match = make([]int, len(p.toks))
	var stack []int
	for i, t := range p.toks {
		if t.kind != tPunct || t.end-t.off != 1 {
			continue
		}
		switch c := p.src[t.off]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if len(stack) == 0 {
				p.fail(i, "unexpected '%c'", c)
				return
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if open := p.src[p.toks[o].off]; closer(open) != c {
				p.fail(i, "'%c' closes '%c' of line %d", c, open, p.line(o))
				return
			}
			p.match[o], p.match[i] = i, o
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		p.fail(o, "'%c' is never closed", p.src[p.toks[o].off])
	}
}

func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// line returns the 1-based line of token i, for messages only.
func (p *parser) line(i int) int {
	return strings.Count(string(p.src[:p.toks[i].off]), "\n") + 1
}

// isOpen reports whether token i opens a group.
func (p *parser) isOpen(i int) bool {
	return p.is(i, "(") || p.is(i, "[") || p.is(i, "{")
}

// scope is where items are being read: the name prefix ("m." inside mod m,
// "Type." inside impl Type) and what a fn is there.
type scope struct {
	prefix string
	fnKind string // KindFunc in modules and extern blocks, KindMethod in impl and trait blocks
	test   bool   // inside a #[cfg(test)] module: every symbol is a test
	named  bool   // false inside an impl block whose type has no name: no symbols
	depth  int
}

// items reads the items of tokens [i, end) in scope sc.
func (p *parser) items(i, end int, sc scope) {
	if sc.depth > maxNesting {
		p.fail(i, "items nested too deep")
		return
	}
	for i < end && p.err == nil {
		i = p.item(i, end, sc)
	}
}

// item reads one item starting at token i and returns the index after it.
func (p *parser) item(i, end int, sc scope) int {
	// Inner attributes (#![...]) belong to the enclosing scope.
	if p.is(i, "#") && p.is(i+1, "!") && p.is(i+2, "[") {
		return p.match[i+2] + 1
	}
	if p.is(i, ";") {
		return i + 1
	}
	start := i
	isTest, cfgTest := false, false
	for p.is(i, "#") && p.is(i+1, "[") {
		a, b := i+2, p.match[i+1]
		if p.isTestAttr(a, b) {
			isTest = true
		}
		if b-a == 4 && p.is(a, "cfg") && p.is(a+1, "(") && p.is(a+2, "test") && p.is(a+3, ")") {
			cfgTest = true
		}
		i = b + 1
	}
	if i >= end {
		p.fail(i, "expected an item after the attributes")
		return end
	}
	// Visibility.
	if p.is(i, "pub") {
		i++
		if p.is(i, "(") && (p.is(i+1, "crate") || p.is(i+1, "self") || p.is(i+1, "super") || p.is(i+1, "in")) {
			i = p.match[i] + 1
		}
	} else if p.is(i, "crate") && !p.is(i+1, "::") {
		i++
	}
	// Qualifiers.
	for {
		switch {
		case p.is(i, "default") && p.isIdent(i+1):
			i++
			continue
		case p.is(i, "const") && (p.is(i+1, "fn") || p.is(i+1, "unsafe") || p.is(i+1, "async") || p.is(i+1, "extern") || p.is(i+1, "impl") || p.is(i+1, "trait")):
			i++
			continue
		case (p.is(i, "async") || p.is(i, "unsafe") || p.is(i, "safe")) && p.isIdent(i+1) || p.is(i, "auto") && p.is(i+1, "trait"):
			i++
			continue
		case p.is(i, "extern") && !p.is(i+1, "crate"):
			i++
			if i < len(p.toks) && p.toks[i].kind == tLit {
				i++
			}
			if p.is(i, "{") {
				// A foreign block: its fns are functions of this scope.
				in := sc
				in.fnKind = lang.KindFunc
				if sc.fnKind == lang.KindMethod {
					in.fnKind = lang.KindMethod
				}
				in.depth++
				p.items(i+1, p.match[i], in)
				return p.match[i] + 1
			}
			continue
		}
		break
	}
	kw := p.text(i)
	switch {
	case kw == "fn":
		return p.named(start, i+1, end, sc.fnKind, sc, isTest)
	case kw == "struct" || kw == "enum" || kw == "trait" || kw == "type" ||
		kw == "union" && p.isIdent(i+1) && !p.is(i+2, "::") && !p.is(i+1, "!"):
		if kw == "trait" {
			return p.trait(start, i+1, end, sc, isTest)
		}
		return p.named(start, i+1, end, lang.KindType, sc, isTest)
	case kw == "impl":
		return p.impl(i+1, end, sc)
	case kw == "mod":
		if !p.isIdent(i + 1) {
			p.fail(i+1, "expected a module name")
			return end
		}
		name := p.text(i + 1)
		if p.is(i+2, ";") {
			p.addImport("mod "+strings.ReplaceAll(sc.prefix, ".", "::")+identName(name), "")
			return i + 3
		}
		if !p.is(i+2, "{") {
			p.fail(i+2, "expected '{' or ';' after mod %s", name)
			return end
		}
		in := sc
		in.prefix = sc.prefix + identName(name) + "."
		in.test = sc.test || cfgTest
		in.depth++
		p.items(i+3, p.match[i+2], in)
		return p.match[i+2] + 1
	case kw == "use":
		j := p.skipTo(i+1, end, ";")
		p.use(i+1, j, "")
		return j + 1
	case kw == "extern" && p.is(i+1, "crate"):
		j := p.skipTo(i+2, end, ";")
		if p.isIdent(i + 2) {
			name := ""
			if p.is(i+3, "as") {
				name = p.text(i + 4)
			}
			p.addImport(p.text(i+2), name)
		}
		return j + 1
	case kw == "const" || kw == "static":
		return p.skipTo(i+1, end, ";") + 1
	case kw == "macro_rules" && p.is(i+1, "!") && p.isIdent(i+2):
		j := i + 3
		if !p.isOpen(j) {
			p.fail(j, "expected a macro body after macro_rules! %s", p.text(i+2))
			return end
		}
		last := p.match[j]
		if !p.is(j, "{") && p.is(last+1, ";") {
			last++
		}
		p.addDef(identName(p.text(i+2)), lang.KindFunc, start, last, sc, isTest)
		return last + 1
	case kw == "macro" && p.isIdent(i+1):
		// A declarative macro 2.0 (unstable): not a symbol.
		j := i + 2
		if p.is(j, "(") {
			j = p.match[j] + 1
		}
		if !p.is(j, "{") {
			p.fail(j, "expected '{' in macro %s", p.text(i+1))
			return end
		}
		return p.match[j] + 1
	case p.isIdent(i) || p.is(i, "::"):
		// A macro invocation in item position: path ! [name] group [;].
		j := i
		for p.isIdent(j) || p.is(j, "::") {
			j++
		}
		if p.is(j, "!") {
			j++
			if p.isIdent(j) {
				j++
			}
			if p.isOpen(j) {
				last := p.match[j]
				if p.is(last+1, ";") {
					last++
				}
				return last + 1
			}
		}
	}
	if i >= len(p.toks) {
		p.fail(i, "expected an item")
	} else {
		p.fail(i, "expected an item, found %q", p.text(i))
	}
	return end
}

// isTestAttr reports whether the attribute tokens [a, b) mark a test:
// #[test], #[bench], #[tokio::test(...)], #[rstest], #[test_case(...)]:
// a path whose last segment is one of these, with or without arguments.
func (p *parser) isTestAttr(a, b int) bool {
	j := a
	last := ""
	for j < b && (p.isIdent(j) || p.is(j, "::")) {
		if p.isIdent(j) {
			last = p.text(j)
		}
		j++
	}
	if j < b && !p.isOpen(j) {
		return false
	}
	switch last {
	case "test", "bench", "rstest", "test_case", "quickcheck":
		return true
	}
	return false
}

// identName is the name of an identifier token: a raw identifier r#x is x.
func identName(s string) string { return strings.TrimPrefix(s, "r#") }

// skipTo returns the index of the first token s at bracket depth 0 in
// [i, end), skipping groups; a missing s is an error.
func (p *parser) skipTo(i, end int, s string) int {
	for i < end {
		if p.is(i, s) {
			return i
		}
		if p.isOpen(i) {
			i = p.match[i]
		}
		i++
	}
	p.fail(i, "expected '%s'", s)
	return end
}

// signatureEnd returns the index of the body's '{' or of the ';' that ends
// a signature starting at token i, skipping groups and counting angle
// brackets, so that a const generic block ({N}) is not taken for a body.
func (p *parser) signatureEnd(i, end int) int {
	angle := 0
	for i < end {
		switch {
		case p.is(i, "<"):
			angle++
		case p.is(i, ">") && angle > 0:
			angle--
		case p.is(i, ";") && angle == 0:
			return i
		case p.is(i, "{") && angle == 0:
			return i
		case p.isOpen(i):
			i = p.match[i]
		}
		i++
	}
	p.fail(i, "expected '{' or ';'")
	return end
}

// named reads a fn, struct, enum, union or type item whose name is token
// i, and records it.
func (p *parser) named(start, i, end int, kind string, sc scope, isTest bool) int {
	if !p.isIdent(i) {
		p.fail(i, "expected a name after %q", p.text(i-1))
		return end
	}
	name := identName(p.text(i))
	j := p.signatureEnd(i+1, end)
	if p.err != nil {
		return end
	}
	last := j
	if p.is(j, "{") {
		last = p.match[j]
	}
	if kind == lang.KindType && sc.fnKind == lang.KindMethod {
		return last + 1 // an associated type is not a symbol
	}
	p.addDef(name, kind, start, last, sc, isTest)
	if kind != lang.KindType && sc.named && p.is(j, "{") {
		p.scanCalls(j, last, sc.prefix+name)
	}
	return last + 1
}

// trait reads a trait item (or trait alias) whose name is token i.
func (p *parser) trait(start, i, end int, sc scope, isTest bool) int {
	if !p.isIdent(i) {
		p.fail(i, "expected a name after trait")
		return end
	}
	name := identName(p.text(i))
	j := p.signatureEnd(i+1, end)
	if p.err != nil {
		return end
	}
	last := j
	if p.is(j, "{") {
		last = p.match[j]
		in := sc
		in.prefix = sc.prefix + name + "."
		in.fnKind = lang.KindMethod
		in.depth++
		p.items(j+1, last, in)
	}
	p.addDef(name, lang.KindType, start, last, sc, isTest)
	return last + 1
}

// impl reads an impl block from token i (after "impl"): its methods are
// Type.method, Type the self type's name; an impl whose self type has no
// name, or is one of the impl's type parameters (a blanket impl), gives
// no symbols.
func (p *parser) impl(i, end int, sc scope) int {
	var params []string
	if p.is(i, "<") {
		close := p.skipAngles(i, end)
		depth := 0
		for j := i; j < close; j++ {
			switch {
			case p.isOpen(j):
				j = p.match[j]
			case p.is(j, "<"):
				depth++
			case p.is(j, ">"):
				depth--
			case depth == 1 && (j-1 == i || p.is(j-1, ",")):
				k := j
				if p.is(k, "const") {
					k++
				}
				if p.isIdent(k) {
					params = append(params, p.text(k))
				}
			}
		}
		i = close
	}
	open := p.signatureEnd(i, end)
	if p.err != nil {
		return end
	}
	if !p.is(open, "{") {
		p.fail(open, "expected '{' in impl")
		return end
	}
	// The header is [const] [!] Trait for Type [where ...], or Type [where ...].
	self, stop := i, open
	angle := 0
	for j := i; j < open; j++ {
		switch {
		case p.isOpen(j):
			j = p.match[j]
		case p.is(j, "<"):
			angle++
		case p.is(j, ">"):
			angle--
		case angle == 0 && p.is(j, "for") && !p.is(j+1, "<"):
			self = j + 1
		case angle == 0 && p.is(j, "where"):
			stop, j = j, open
		}
	}
	name := p.typeName(self, stop)
	for _, q := range params {
		if q == name {
			name = ""
		}
	}
	in := sc
	in.prefix = sc.prefix + name + "."
	in.named = sc.named && name != ""
	in.fnKind = lang.KindMethod
	in.depth++
	p.items(open+1, p.match[open], in)
	return p.match[open] + 1
}

// typeName returns the name of the type written in tokens [i, stop): the
// last segment of its path, after references, pointers and dyn; "" when
// it is no path (a slice, tuple, array, fn pointer or qualified path).
func (p *parser) typeName(i, stop int) string {
	for i < stop {
		switch {
		case p.is(i, "&") || p.is(i, "&&") || p.is(i, "*") || p.is(i, "mut") || p.is(i, "dyn") || p.is(i, "!") ||
			p.is(i, "const") && p.is(i-1, "*") || i < len(p.toks) && p.toks[i].kind == tLifetime:
			i++
			continue
		}
		break
	}
	name := ""
	for i < stop {
		switch {
		case p.is(i, "::"):
			i++
		case p.isIdent(i):
			if kw := p.text(i); kw == "fn" || kw == "unsafe" || kw == "extern" || kw == "impl" || kw == "_" {
				return ""
			}
			name = identName(p.text(i))
			i++
			if p.is(i, "<") {
				i = p.skipAngles(i, stop)
			} else if p.is(i, "(") {
				i = p.match[i] + 1
			}
			if !p.is(i, "::") {
				return name
			}
		default:
			return name
		}
	}
	return name
}

// skipAngles returns the index after the '>' closing the '<' at i.
func (p *parser) skipAngles(i, stop int) int {
	depth := 0
	for ; i < stop; i++ {
		switch {
		case p.isOpen(i):
			i = p.match[i]
		case p.is(i, "<"):
			depth++
		case p.is(i, ">"):
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return stop
}

// addDef records a symbol of tokens [start, last] in scope sc.
func (p *parser) addDef(name, kind string, start, last int, sc scope, isTest bool) {
	if !sc.named {
		return
	}
	if isTest || sc.test {
		kind = lang.KindTest
	}
	p.defs = append(p.defs, def{sc.prefix + name, kind, start, last})
}

func (p *parser) addImport(path, name string) {
	p.imports = append(p.imports, path)
	p.importNames = append(p.importNames, name)
}
