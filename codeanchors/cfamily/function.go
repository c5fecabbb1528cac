package cfamily

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// fn is the function a declaration declares, as found so far.
type fn struct {
	segs     []string // the qualified name's segments; nil for none
	params   int      // the position of the parameter list's '('
	operator bool     // an operator or conversion function: not a symbol
	ctor     bool     // a constructor or destructor: no return type
	knr      bool     // the parameters are a K&R identifier list
	// defined is true for an explicitly defaulted or deleted function
	// (= default; = delete;): defined out of its class (X::~X() =
	// default;), it is the definition of what the class declares, as a
	// body would be
	defined bool
}

// general reads a declaration that is none of the special forms: a
// function (prototype or definition), a variable, or something the parser
// does not name (a macro call at file scope). start is its first token, i
// the first after its specifiers.
func (p *parser) general(start, i, end int, sc scope) int {
	var f fn
	f.params = -1
	k := i
	for k < end {
		t := p.tx(k)
		switch {
		case t == ";":
			if f.params >= 0 && f.knr {
				// int f(a, b) int a; char *b; { ... }
				if b := p.knrBody(k, end); b > 0 {
					return p.define(start, b, f, sc)
				}
			}
			if f.params >= 0 && !(f.knr && len(f.segs) == 1 && upper(f.segs[0])) {
				// (GTEST_DECLARE_STATIC_MUTEX_(mu); is a macro call)
				// X::~X() = default; defines what its class declared
				p.declare(start, k, f, sc, f.defined && len(f.segs) > 1)
			}
			return k + 1
		case t == "{":
			if f.params >= 0 {
				return p.define(start, k, f, sc)
			}
			k = int(p.match[k]) + 1 // a braced initializer, or garbage
			continue
		case t == "=":
			if f.params >= 0 {
				switch p.tx(k + 1) {
				case "default", "delete":
					f.defined = true
					k += 2
					continue
				case "0":
					k += 2
					continue
				}
			}
			// a variable's initializer
			return p.skipTo(k, end, ";") + 1
		case t == ":" && f.params >= 0:
			// a constructor's member initializers, up to the body
			if b := p.memInit(k+1, end); b > 0 {
				return p.define(start, b, f, sc)
			}
			return p.skipDecl(k, end)
		case t == ":":
			// a bit-field
			return p.skipTo(k, end, ";") + 1
		case t == "requires" && p.tx(k+1) == "requires" && f.params >= 0:
			// a requires-clause holding a requires-expression, whose
			// braces are not the body: requires requires (T a) { a.f(); }
			k += 2
			if p.tx(k) == "(" {
				k = int(p.match[k]) + 1
			}
			if p.tx(k) == "{" {
				k = int(p.match[k]) + 1
			}
			continue
		case t == "try" && f.params >= 0:
			k++
			if p.tx(k) == ":" {
				if b := p.memInit(k+1, end); b > 0 {
					k = b
				}
			}
			if p.tx(k) == "{" {
				return p.define(start, k, f, sc)
			}
			continue
		case t == "operator" && f.params < 0:
			n, ok := p.operatorName(k, end)
			if !ok {
				return p.skipDecl(k, end)
			}
			f.segs, f.params, f.operator = p.qualifiers(k), n, true
			k = int(p.match[n]) + 1
			continue
		case t == "(" && f.params >= 0 && len(f.segs) == 1 && upper(f.segs[0]) && p.isIdent(k-1) && p.tx(k-2) == ")" &&
			!upper(p.tx(k-1)) && !strings.HasPrefix(p.tx(k-1), "__") && !groupWords[p.tx(k-1)] && !keywords[p.tx(k-1)]:
			// the first "function" was a macro around the return type:
			// NCURSES_EXPORT(void) exit_curses (int);
			f.params = -1
			continue
		case t == "(" && f.params < 0:
			if groupWords[p.tx(k-1)] {
				k = int(p.match[k]) + 1
				continue
			}
			if p.declaratorGroup(k) {
				// int (*fp)(int); or a function returning a function
				// pointer: void (*signal(int, void (*)(int)))(int)
				inner := p.innerFunction(k)
				if inner < 0 {
					return p.skipDecl(k, end)
				}
				segs, ctor, ok := p.nameBefore(inner, k+1, sc)
				if !ok {
					return p.skipDecl(k, end)
				}
				f.segs, f.ctor, f.params = segs, ctor, inner
				k = int(p.match[k]) + 1
				continue
			}
			segs, ctor, ok := p.nameBefore(k, i, sc)
			if !ok {
				k = int(p.match[k]) + 1
				continue
			}
			typed := p.nameStart(k) > i
			if !typed && !ctor {
				// MACRO(args) with no type before: a macro used as a
				// specifier (EXPORT(int) f(void);), or a statement-like
				// macro call (LIST_HEAD(x);)
				close := int(p.match[k])
				next := p.tx(close + 1)
				if next == ";" || next == "{" || next == "" || next == "}" {
					return p.skipDecl(k, end)
				}
				if close+1 < end && (declKeywords[next] || p.standalone(k-1, close)) {
					// a macro call standing alone, without its ';'
					// (GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251) then a
					// namespace): the next declaration starts after it
					return close + 1
				}
				k = int(p.match[k]) + 1
				continue
			}
			close := int(p.match[k])
			if len(segs) == 1 && upper(segs[0]) && p.isIdent(close+1) && p.laterCandidate(close+1, end) {
				// an attribute macro: XML_ATTR_ALLOC_SIZE(2) f(...)
				k = close + 1
				continue
			}
			if len(segs) == 1 && upper(segs[0]) && p.tx(k+1) == "(" && int(p.match[k+1]) == close-1 &&
				p.isIdent(k-2) && !keywords[p.tx(k-2)] && k-2 > i {
				// K&R-compatible prototypes: int f OF((int a));
				segs = []string{p.tx(k - 2)}
			} else if p.notParams(k) {
				// a variable with constructor arguments, or a macro call
				return p.skipDecl(k, end)
			}
			f.segs, f.ctor, f.params = segs, ctor, k
			f.knr = p.knrParams(k)
			k = int(p.match[k]) + 1
			continue
		case t == "(" || t == "[":
			k = int(p.match[k]) + 1
			continue
		case t == "<" && p.isIdent(k-1) && f.params < 0:
			if a := p.angle(k, end); a > 0 {
				k = a
				continue
			}
		case (t == "public" || t == "private" || t == "protected") && sc.class != "" && p.tx(k+1) == ":",
			t == "namespace" && k > i:
			// what came before was a macro without a ';'
			// (_GLIBCXX_BEGIN_NAMESPACE_VERSION then a namespace)
			return k
		}
		k++
	}
	p.ranOff = i
	return end
}

// declare records a function declaration without body ending at last.
func (p *parser) declare(start, last int, f fn, sc scope, body bool) {
	if f.operator || len(f.segs) == 0 {
		return
	}
	name := sc.prefix + strings.Join(f.segs, ".")
	kind := lang.KindFunc
	if sc.class != "" || len(f.segs) > 1 && !p.namespaces[strings.TrimSuffix(sc.prefix+strings.Join(f.segs[:len(f.segs)-1], "."), ".")] {
		kind = lang.KindMethod
	}
	p.add(name, kind, catFunc, start, last, body)
}

// define records a function definition whose body opens at b, scans its
// calls, and returns the position after it.
func (p *parser) define(start, b int, f fn, sc scope) int {
	close := int(p.match[b])
	// a function-try-block's handlers: catch (...) { ... }
	for p.tx(close+1) == "catch" && p.tx(close+2) == "(" && p.tx(int(p.match[close+2])+1) == "{" {
		close = int(p.match[int(p.match[close+2])+1])
	}
	n := len(p.decls)
	p.declare(start, close, f, sc, true)
	if len(p.decls) > n {
		p.scanCalls(b+1, close, n)
	}
	next := close + 1
	if p.tx(next) == ";" {
		next++
	}
	return next
}

// nameBefore reads the function name that ends just before the '(' at i:
// f, ns::Class::f, Class::~Class, f<int>. from is the first position the
// name may use. ctor is true for a constructor or destructor (they have no
// return type).
func (p *parser) nameBefore(i, from int, sc scope) (segs []string, ctor, ok bool) {
	m := i - 1
	if p.tx(m) == ">" {
		// a template-id: f<int>(...)
		depth := 0
		for ; m >= from; m-- {
			switch p.tx(m) {
			case ">":
				depth++
			case "<":
				depth--
			case ")", "]":
				m = int(p.match[m])
			}
			if depth == 0 {
				break
			}
		}
		m--
	}
	if m < from || !p.isIdent(m) || keywords[p.tx(m)] {
		return nil, false, false
	}
	segs = []string{p.tx(m)}
	if p.tx(m-1) == "~" && m-1 >= from {
		segs[0] = "~" + segs[0]
		m--
	}
	for m-2 >= from && p.tx(m-1) == "::" {
		q := m - 2
		if p.tx(q) == ">" {
			depth := 0
			for ; q >= from; q-- {
				switch p.tx(q) {
				case ">":
					depth++
				case "<":
					depth--
				case ")", "]":
					q = int(p.match[q])
				}
				if depth == 0 {
					break
				}
			}
			q--
		}
		if q < from || !p.isIdent(q) || keywords[p.tx(q)] {
			break
		}
		segs = append([]string{p.tx(q)}, segs...)
		m = q
	}
	last := segs[len(segs)-1]
	switch {
	case strings.HasPrefix(last, "~"):
		ctor = true
	case len(segs) > 1 && segs[len(segs)-2] == last:
		ctor = true
	case len(segs) == 1 && last == sc.class:
		ctor = true
	}
	return segs, ctor, true
}

// nameStart returns the position of the first token of the name whose
// parameter list opens at i (after its qualifiers).
func (p *parser) nameStart(i int) int {
	m := i - 1
	if p.tx(m) == ">" {
		depth := 0
		for ; m >= 0; m-- {
			switch p.tx(m) {
			case ">":
				depth++
			case "<":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		m--
	}
	if p.tx(m-1) == "~" {
		m--
	}
	for m >= 2 && p.tx(m-1) == "::" && p.isIdent(m-2) {
		m -= 2
	}
	if p.tx(m-1) == "::" {
		m-- // ::f, global
	}
	return m
}

// qualifiers returns the qualifier segments before the operator keyword at
// i (A::B::operator==) followed by "operator".
func (p *parser) qualifiers(i int) []string {
	segs := []string{"operator"}
	for m := i; m >= 2 && p.tx(m-1) == "::" && p.isIdent(m-2); m -= 2 {
		segs = append([]string{p.tx(m - 2)}, segs...)
	}
	return segs
}

// operatorName reads the operator-function-id or conversion-function-id at
// i (operator==, operator(), operator new[], operator bool, operator""_km)
// and returns the position of its parameter list.
func (p *parser) operatorName(i, end int) (int, bool) {
	k := i + 1
	switch t := p.tx(k); {
	case t == "(" && p.tx(k+1) == ")":
		k += 2
	case t == "[" && p.tx(k+1) == "]":
		k += 2
	case t == "new" || t == "delete":
		k++
		if p.tx(k) == "[" && p.tx(k+1) == "]" {
			k += 2
		}
	case p.kind(k) == tStr:
		k++
		if p.isIdent(k) {
			k++
		}
	case p.kind(k) == tPunct && t != "(":
		k++
		if t == ">" && (p.tx(k) == ">" || p.tx(k) == ">=") {
			k++ // operator>> and operator>>=, lexed as two tokens
		}
	default:
		// a conversion function: operator bool, operator const T&
		for k < end && p.tx(k) != "(" {
			if p.tx(k) == "<" {
				if a := p.angle(k, end); a > 0 {
					k = a
					continue
				}
			}
			if p.tx(k) == ";" || p.tx(k) == "{" {
				return 0, false
			}
			k++
		}
	}
	if p.tx(k) != "(" {
		return 0, false
	}
	return k, true
}

// innerFunction returns the position of the parameter list of the function
// declared inside the declarator group at i, (*signal(int, ...)), or -1.
func (p *parser) innerFunction(i int) int {
	close := int(p.match[i])
	for k := i + 1; k < close; k++ {
		if p.tx(k) == "(" {
			if p.isIdent(k-1) && !groupWords[p.tx(k-1)] && !keywords[p.tx(k-1)] {
				return k
			}
			if p.declaratorGroup(k) {
				return p.innerFunction(k)
			}
			k = int(p.match[k])
		}
	}
	return -1
}

// notParams reports whether the group at i holds arguments rather than
// parameters: a literal, an address, a parenthesized or braced argument,
// which no parameter declaration starts with.
func (p *parser) notParams(i int) bool {
	close := int(p.match[i])
	first := true
	for k := i + 1; k < close; k++ {
		if first {
			switch t := p.tx(k); {
			case p.kind(k) == tNum || p.kind(k) == tStr || p.kind(k) == tChar:
				return true
			case t == "(" || t == "{" || t == "&" || t == "-" || t == "!" || t == "this" || t == "nullptr" || t == "true" || t == "false":
				return true
			}
		}
		first = false
		switch p.tx(k) {
		case ",":
			first = true
		case "(", "[", "{":
			k = int(p.match[k])
		case "<":
			if a := p.angle(k, close); a > 0 {
				k = a - 1
			}
		}
	}
	return false
}

// knrParams reports whether the parameter list at i is a K&R identifier
// list: identifiers separated by commas, at least one, none a keyword.
func (p *parser) knrParams(i int) bool {
	close := int(p.match[i])
	if close == i+1 {
		return false
	}
	for k := i + 1; k < close; k += 2 {
		if !p.isIdent(k) || keywords[p.tx(k)] {
			return false
		}
		if k+1 < close && p.tx(k+1) != "," {
			return false
		}
	}
	return true
}

// knrBody returns the position of the body of a K&R definition whose
// parameter declarations start ending with the ';' at semi, or -1.
func (p *parser) knrBody(semi, end int) int {
	for k := semi + 1; k < end; k++ {
		switch p.tx(k) {
		case "{":
			if p.tx(k-1) == ";" {
				return k
			}
			return -1
		case "(", "}", "=":
			return -1
		case "[":
			k = int(p.match[k])
		}
	}
	return -1
}

// memInit reads a constructor's member initializer list starting at i
// (after the ':') and returns the position of the body's '{', or -1.
func (p *parser) memInit(i, end int) int {
	k := i
	for k < end {
		// a member or base name: a, Base<T>, ns::Base
		for k < end && (p.isIdent(k) || p.tx(k) == "::") {
			k++
			if p.tx(k) == "<" {
				if a := p.angle(k, end); a > 0 {
					k = a
				}
			}
		}
		if t := p.tx(k); t != "(" && t != "{" {
			return -1
		}
		k = int(p.match[k]) + 1
		if p.tx(k) == "..." {
			k++
		}
		switch {
		case p.tx(k) == ",":
			k++
		case p.tx(k) == "{":
			return k
		case p.isIdent(k):
			// a macro between initializers (GTEST_DISABLE_..._(4355))
		default:
			return -1
		}
	}
	return -1
}

// callSkip are the words that look like calls and are not.
var callSkip = setOf("if for while switch return sizeof alignof _Alignof __alignof__ decltype catch typeid static_assert _Static_assert noexcept throw __attribute__ __declspec alignas _Alignas __asm__ asm __asm typeof __typeof__ _Generic defined co_await co_return co_yield requires operator")

// scanCalls records the call sites of code[i:end], a body of decl owner.
func (p *parser) scanCalls(i, end, owner int) {
	for k := i; k < end; k++ {
		if p.tx(k) != "(" || !p.isIdent(k-1) || keywords[p.tx(k-1)] && p.tx(k-1) != "new" || callSkip[p.tx(k-1)] {
			continue
		}
		name := p.tx(k - 1)
		if name == "new" {
			continue
		}
		c := lang.Call{From: p.decls[owner].name, Name: name, Line: p.line(k - 1)}
		switch p.tx(k - 2) {
		case ".", "->":
			c.Qual = "."
			if p.isIdent(k - 3) {
				switch p.tx(k - 4) {
				case ".", "->", "::":
				default:
					c.Qual = p.tx(k - 3)
				}
			}
		case "::":
			var q []string
			m := k - 2
			for p.tx(m) == "::" && p.isIdent(m-1) {
				q = append([]string{p.tx(m - 1)}, q...)
				m -= 2
			}
			if len(q) == 0 {
				if p.tx(m) == ">" {
					c.Qual = "." // Base<T>::f()
				}
			} else {
				c.Qual = strings.Join(q, "::")
			}
		}
		p.calls = append(p.calls, c)
	}
}

// declKeywords start a declaration: what follows a macro call without ';'
// is a new declaration when it starts with one of them.
var declKeywords = setOf("namespace template typedef using extern class struct union enum static_assert")

// upper reports whether an identifier is in the style of macros: capitals,
// digits and '_' only.
func upper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return s != ""
}

// standalone reports whether the macro call code[name:close+1], with no
// type before it, is a declaration of its own rather than a specifier of
// the next one: written in capitals, alone on its lines, and either
// defined in the file with a body ending in '}' or ';' (it expands to a
// whole definition) or set apart from what follows by a blank line or a
// comment (an attribute macro is written just before its declaration).
func (p *parser) standalone(name, close int) bool {
	if !upper(p.tx(name)) || p.line(close+1) == p.line(close) {
		return false
	}
	if p.macroEnds == nil {
		p.macroEnds = map[string]string{}
		for _, d := range p.l.dirs {
			if d.name == "define" && d.last > d.first+2 {
				p.macroEnds[p.l.text(d.first+2)] = p.l.text(d.last)
			}
		}
	}
	if e := p.macroEnds[p.tx(name)]; e == "}" || e == ";" {
		return true
	}
	gap := string(p.src[p.tok(close).end:p.tok(close+1).off])
	return strings.Contains(gap, "//") || strings.Contains(gap, "/*") || strings.Count(gap, "\n") > 1
}

// laterCandidate reports whether code[i:end] has, before the end of the
// declaration, an identifier with a parenthesized group after it that may
// be a function's name (not an attribute word, nor a __reserved macro).
func (p *parser) laterCandidate(i, end int) bool {
	for k := i; k < end; k++ {
		switch t := p.tx(k); t {
		case ";", "{", "=":
			return false
		case "(":
			if p.isIdent(k-1) && !groupWords[p.tx(k-1)] && !keywords[p.tx(k-1)] && !strings.HasPrefix(p.tx(k-1), "__") {
				return true
			}
			k = int(p.match[k])
		case "[":
			k = int(p.match[k])
		}
	}
	return false
}
