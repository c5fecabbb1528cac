package cfamily

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Categories of declarations, for the one-symbol and ambiguity rules.
const (
	catFunc  = 'f'
	catType  = 't'
	catMacro = 'm'
	catTest  = 'x'
)

// decl is one declaration the parser found.
type decl struct {
	name       string
	kind       string
	cat        byte
	start, end int  // byte offsets of its first byte and its end
	body       bool // a definition: a function with its body, a type, a macro
	cond       int32
}

// scope is where a declaration sits.
type scope struct {
	prefix string // "ns.Class." or ""
	class  string // the enclosing class's own name, "" outside a class
}

// parser reads the declarations of the code tokens (directives and
// branches left out removed) with their brackets matched.
type parser struct {
	l          *lexer
	src        []byte
	starts     []int   // line starts
	code       []int32 // indices into l.toks
	match      []int32 // the position of the matching bracket, or -1
	decls      []decl
	calls      []lang.Call
	namespaces map[string]bool
	macroEnds  map[string]string // function-like macro name → the last token of its body
	// ranOff is the position where a skip in search of a declaration's
	// end (its ';') reached the end of the scope instead, -1 when none
	// did: see [parser.declarations].
	ranOff int
	err    *scanError
}

func (p *parser) fail(pos int, format string, args ...any) {
	if p.err == nil {
		off := len(p.src)
		if pos < len(p.code) {
			off = int(p.tok(pos).off)
		}
		p.err = &scanError{off, fmt.Sprintf(format, args...)}
	}
}

func (p *parser) tok(i int) tok { return p.l.toks[p.code[i]] }

// tx returns the text of code token i, "" past the end.
func (p *parser) tx(i int) string {
	if i < 0 || i >= len(p.code) {
		return ""
	}
	t := p.tok(i)
	return string(p.src[t.off:t.end])
}

func (p *parser) kind(i int) uint8 {
	if i < 0 || i >= len(p.code) {
		return tPunct
	}
	return p.tok(i).kind
}

func (p *parser) isIdent(i int) bool { return p.kind(i) == tIdent }

// setup collects the code tokens and matches their brackets.
func (p *parser) setup() {
	for i, t := range p.l.toks {
		if t.dir < 0 && !t.dead && !t.dropped {
			p.code = append(p.code, int32(i))
		}
	}
	p.match = make([]int32, len(p.code))
	var stack []int
	for i := range p.code {
		p.match[i] = -1
		t := p.tok(i)
		if t.kind != tPunct || t.end-t.off != 1 {
			continue
		}
		switch c := p.src[t.off]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if len(stack) == 0 {
				p.fail(i, "unexpected %c", c)
				return
			}
			o := stack[len(stack)-1]
			if open := p.src[p.tok(o).off]; open != map[byte]byte{')': '(', ']': '[', '}': '{'}[c] {
				p.fail(i, "%c does not close the %c of line %d", c, open, p.line(o))
				return
			}
			stack = stack[:len(stack)-1]
			p.match[o], p.match[i] = int32(i), int32(o)
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		p.fail(o, "%s not closed", p.tx(o))
	}
}

// line returns the line of code token i.
func (p *parser) line(i int) int { return lang.LineOf(p.starts, int(p.tok(i).off)) }

// skipTo returns the position of the first token at bracket depth 0 from i
// whose text is one of stop, or end (noted in ranOff).
func (p *parser) skipTo(i, end int, stop ...string) int {
	from := i
	for i < end {
		t := p.tx(i)
		for _, s := range stop {
			if t == s {
				return i
			}
		}
		if p.match[i] > int32(i) {
			i = int(p.match[i])
		}
		i++
	}
	p.ranOff = from
	return end
}

// angle returns the position after the '>' closing the template argument
// or parameter list whose '<' is at i, or -1 when none closes it before a
// ';', '{' or '}' (then '<' was a comparison).
func (p *parser) angle(i, end int) int {
	depth := 0
	for ; i < end; i++ {
		switch p.tx(i) {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return i + 1
			}
		case ";", "{", "}":
			return -1
		case "(", "[":
			i = int(p.match[i])
		}
	}
	return -1
}

// keywords are the words that are never a declaration's name.
var keywords = setOf("alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace new noexcept nullptr operator private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local __attribute__ __declspec __extension__ __asm__ __asm __typeof__ __typeof typeof __inline __inline__ __restrict __restrict__ __volatile__ __const restrict")

// groupWords take a parenthesized group that is not a declarator or a
// parameter list: attributes, alignment, types computed from expressions.
var groupWords = setOf("__attribute__ __attribute __declspec alignas _Alignas __asm__ __asm asm decltype typeof __typeof__ __typeof _Atomic noexcept throw requires __alignof__ _Alignof alignof sizeof")

// specifiers may start a declaration without changing what it declares.
var specifiers = setOf("static inline extern constexpr consteval constinit virtual explicit thread_local _Thread_local mutable register _Noreturn __inline __inline__ __forceinline __extension__ export")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(words) {
		m[w] = true
	}
	return m
}

// declMarker reports whether an identifier is a marker of the C/C++
// boundary that stands alone (__BEGIN_DECLS, G_END_DECLS): a macro that is
// not part of the next declaration.
func declMarker(s string) bool {
	return strings.HasSuffix(s, "_DECLS") && strings.ToUpper(s) == s
}

// declarations reads the declarations of code[i:end] in scope sc.
//
// A declaration whose end the parser looked for and did not find before
// the end of the scope (a skip to its ';' ran off, [parser.ranOff]) is an
// error when what it skipped holds a braced body: the parser lost its
// place, and the definitions it skipped would be silently missing. A
// macro call without ';' that ends a scope (BOOST_AUTO_TEST_SUITE_END())
// skips no body, and is no error.
func (p *parser) declarations(i, end int, sc scope) {
	for i < end && p.err == nil {
		p.ranOff = -1
		n := p.declaration(i, end, sc)
		if n >= end && p.ranOff >= 0 && p.err == nil {
			if p.skipsBody(i, end) {
				p.fail(i, "cannot find where this declaration ends: no ';' before the end of its scope (line %d)", p.line(end-1))
			}
		}
		if n <= i {
			n = i + 1
		}
		i = n
	}
	p.ranOff = -1
}

// skipsBody reports whether code[i:end] holds, outside brackets, a braced
// group after a ')' or a name: a function's or a type's body, not a
// braced initializer list ({ "Tab", 0xFF09 }, { 1, 2 }).
func (p *parser) skipsBody(i, end int) bool {
	for k := i; k < end; k++ {
		if p.tx(k) == "{" && k > i && (p.tx(k-1) == ")" || p.isIdent(k-1)) {
			return true
		}
		if p.match[k] > int32(k) {
			k = int(p.match[k])
		}
	}
	return false
}

// skipAttr returns the position after the attribute or specifier group at
// i ([[...]], __attribute__((...)), alignas(...)), or i when there is none.
func (p *parser) skipAttr(i int) int {
	switch t := p.tx(i); {
	case t == "[" && p.tx(i+1) == "[":
		return int(p.match[i]) + 1
	case groupWords[t] && p.tx(i+1) == "(":
		return int(p.match[i+1]) + 1
	}
	return i
}

// declaration reads one declaration starting at i and returns the position
// after it.
func (p *parser) declaration(i, end int, sc scope) int {
	start := i
	j := i
	for j < end {
		switch t := p.tx(j); {
		case t == ";":
			if j == start {
				return j + 1
			}
		case declMarker(t) && p.isIdent(j):
			j++
			if start == j-1 {
				start = j
			}
			continue
		case specifiers[t]:
			if t == "extern" && p.kind(j+1) == tStr {
				if p.tx(j+2) == "{" {
					body := int(p.match[j+2])
					p.declarations(j+3, body, sc)
					return body + 1
				}
				j += 2
				continue
			}
			j++
			continue
		case t == "template":
			if p.tx(j+1) != "<" {
				// an explicit instantiation: template class X<int>;
				return p.skipTo(j, end, ";") + 1
			}
			a := p.angle(j+1, end)
			if a < 0 {
				p.fail(j+1, "template parameter list not closed")
				return end
			}
			j = a
			continue
		default:
			if a := p.skipAttr(j); a > j {
				j = a
				continue
			}
		}
		break
	}
	if j >= end {
		return end
	}
	switch t := p.tx(j); t {
	case "namespace":
		return p.namespace(j, end, sc)
	case "inline":
		return j + 1
	case "using":
		return p.using(start, j, end, sc)
	case "typedef":
		return p.typedef(start, j, end, sc)
	case "class", "struct", "union", "enum":
		if n, ok := p.classHead(start, j, end, sc, false); ok {
			return n
		}
	case "concept":
		// template<...> concept C = ...;
		semi := p.skipTo(j, end, ";")
		if p.isIdent(j+1) && semi < end {
			p.add(sc.prefix+p.tx(j+1), lang.KindType, catType, start, semi, true)
		}
		return semi + 1
	case "static_assert", "_Static_assert", "asm", "__asm__", "__asm", "module", "import":
		return p.skipTo(j, end, ";") + 1
	case "friend":
		// friends are declarations of the enclosing namespace, not
		// members: not symbols here
		return p.skipDecl(j, end)
	case "public", "private", "protected", "signals", "slots", "Q_SIGNALS", "Q_SLOTS":
		if sc.class != "" {
			k := j + 1
			for p.isIdent(k) && k < j+3 {
				k++
			}
			if p.tx(k) == ":" {
				return k + 1
			}
		}
	}
	if sc.class != "" && p.isIdent(j) && p.tx(j+1) == ":" && j == start {
		return j + 2 // a label-like access specifier (Qt's "public slots:")
	}
	if p.isIdent(j) && p.tx(j+1) == "(" && j == start {
		if n, ok := p.testMacro(j, end, sc); ok {
			return n
		}
	}
	return p.general(start, j, end, sc)
}

// skipDecl returns the position after the declaration at i: after its ';',
// or after the body that ends it.
func (p *parser) skipDecl(i, end int) int {
	from := i
	for i < end {
		switch p.tx(i) {
		case ";":
			return i + 1
		case "{":
			i = int(p.match[i]) + 1
			if p.tx(i) == ";" {
				i++
			}
			return i
		case "(", "[":
			i = int(p.match[i])
		}
		i++
	}
	p.ranOff = from
	return end
}

// namespace reads namespace a::b { ... }, namespace { ... } and
// namespace x = y; at i.
func (p *parser) namespace(i, end int, sc scope) int {
	k := i + 1
	var names []string
	for k < end {
		if a := p.skipAttr(k); a > k {
			k = a
			continue
		}
		switch t := p.tx(k); {
		case t == "inline" || t == "::":
		case p.isIdent(k) && p.tx(k+1) == "(":
			// an attribute macro: namespace std _GLIBCXX_VISIBILITY(default)
			k = int(p.match[k+1])
		case p.isIdent(k):
			names = append(names, t)
		default:
			goto done
		}
		k++
	}
done:
	if p.tx(k) != "{" {
		return p.skipTo(k, end, ";") + 1
	}
	body := int(p.match[k])
	inner := scope{prefix: sc.prefix}
	for _, n := range names {
		inner.prefix += n + "."
	}
	if p.namespaces == nil {
		p.namespaces = map[string]bool{}
	}
	p.namespaces[strings.TrimSuffix(inner.prefix, ".")] = true
	p.declarations(k+1, body, inner)
	return body + 1
}

// using reads using X = T; (a type alias, a symbol) and the using
// declarations and directives (not symbols).
func (p *parser) using(start, i, end int, sc scope) int {
	semi := p.skipTo(i, end, ";")
	if p.isIdent(i+1) && !keywords[p.tx(i+1)] && semi < end {
		k := i + 2
		for {
			if a := p.skipAttr(k); a > k {
				k = a
				continue
			}
			break
		}
		if p.tx(k) == "=" {
			p.add(sc.prefix+p.tx(i+1), lang.KindType, catType, start, semi, true)
		}
	}
	return semi + 1
}

// typedef reads typedef ... name, *pname; each declarator's name is a
// type; a struct, union or enum defined in it is one too.
func (p *parser) typedef(start, i, end int, sc scope) int {
	k := i + 1
	for k < end {
		if a := p.skipAttr(k); a > k {
			k = a
			continue
		}
		if specifiers[p.tx(k)] || p.tx(k) == "const" || p.tx(k) == "volatile" {
			k++
			continue
		}
		break
	}
	declStart := k
	switch p.tx(k) {
	case "struct", "class", "union", "enum":
		if n, ok := p.classHead(start, k, end, sc, true); ok {
			declStart = n
		}
	}
	semi := p.skipTo(declStart, end, ";")
	if semi >= end {
		return end
	}
	for _, name := range p.declaratorNames(declStart, semi) {
		p.add(sc.prefix+name, lang.KindType, catType, start, semi, true)
	}
	return semi + 1
}

// declaratorNames returns the names declared by the declarators of
// code[i:end], split at commas outside brackets and template arguments.
func (p *parser) declaratorNames(i, end int) []string {
	var names []string
	from := i
	for k := i; k <= end; k++ {
		if k == end || p.tx(k) == "," {
			if n := p.declName(from, k); n != "" {
				names = append(names, n)
			}
			from = k + 1
			continue
		}
		switch p.tx(k) {
		case "(", "[", "{":
			k = int(p.match[k])
		case "<":
			if p.isIdent(k - 1) {
				if a := p.angle(k, end); a > 0 {
					k = a - 1
				}
			}
		}
	}
	return names
}

// declName returns the name one declarator of code[i:end] declares: the
// last identifier before a parameter list or array bound, or the name
// inside a declarator group ((*fp)(int)).
func (p *parser) declName(i, end int) string {
	last := ""
outer:
	for k := i; k < end; k++ {
		if a := p.skipAttr(k); a > k {
			k = a - 1
			continue
		}
		t := p.tx(k)
		switch {
		case t == "(":
			if groupWords[p.tx(k-1)] {
				k = int(p.match[k])
				continue
			}
			if p.declaratorGroup(k) {
				return p.declName(k+1, int(p.match[k]))
			}
			for m := int(p.match[k]) + 1; m < end; m++ {
				if p.isIdent(m) && !keywords[p.tx(m)] {
					// the group was a macro's arguments:
					// typedef MACRO(T) Name;
					k = int(p.match[k])
					continue outer
				}
				if p.tx(m) == "(" || p.tx(m) == "[" {
					break
				}
			}
			if int(p.match[k]) == k+2 && p.isIdent(k+1) && !keywords[p.tx(k+1)] && p.tx(k+3) == "(" {
				return p.tx(k + 1) // typedef R (Name)(args);
			}
			return last
		case t == "[" || t == "=" || t == ":":
			return last
		case t == "<" && p.isIdent(k-1):
			if a := p.angle(k, end); a > 0 {
				k = a - 1
			}
		case p.isIdent(k) && !keywords[t] && !(p.tx(k+1) == "::"):
			if k == end-1 && last != "" && upper(t) && !upper(last) && k >= i+2 && p.tx(k-1) == last &&
				(p.isIdent(k-2) || p.tx(k-2) == "*") && !classKeys[p.tx(k-2)] {
				// typedef int name ATTRIBUTE_MACRO;
				return last
			}
			last = t
		}
	}
	return last
}

// declaratorGroup reports whether the parenthesized group at i is a
// declarator ((*fp), (&ref), (Class::*pm)) rather than a parameter list.
func (p *parser) declaratorGroup(i int) bool {
	k := i + 1
	for {
		if a := p.skipAttr(k); a > k {
			k = a
			continue
		}
		break
	}
	switch p.tx(k) {
	case "*", "&", "&&", "^":
		return true // no parameter starts so
	}
	// a calling convention or a member pointer's class before the '*':
	// void (__cdecl *f)(int), typedef void (XMLCALL *Handler)(...),
	// void (Class::*pm)(int); told from a parameter list (__FILE *s,
	// const char *s) by what follows the group
	for p.isIdent(k) && !keywords[p.tx(k)] || p.tx(k) == "::" {
		k++
	}
	next := p.tx(int(p.match[i]) + 1)
	return k > i+1 && (p.tx(k) == "*" || p.tx(k) == "^" || p.tx(k) == "&") && (next == "(" || next == "[")
}

// classHead reads a class, struct, union or enum at i. It reports false
// when the words are the type of some other declaration (struct stat
// *f(void);): the caller reads it as one. In a typedef (inTypedef) it
// returns the position after the body's closing brace, where the
// declarators begin.
func (p *parser) classHead(start, i, end int, sc scope, inTypedef bool) (int, bool) {
	key := p.tx(i)
	k := i + 1
	if key == "enum" && (p.tx(k) == "class" || p.tx(k) == "struct") {
		k++
	}
	var names []string
	lastIdent := false
	for k < end {
		if a := p.skipAttr(k); a > k {
			k = a
			continue
		}
		t := p.tx(k)
		switch {
		case t == "::":
			lastIdent = false
		case p.isIdent(k) && (t == "final" || t == "sealed") && len(names) > 0 && (p.tx(k+1) == ":" || p.tx(k+1) == "{"):
		case p.isIdent(k):
			if lastIdent {
				names = names[:0] // a macro before the name: class LLVM_API Foo
			}
			names = append(names, t)
			lastIdent = true
		case t == "<" && lastIdent:
			a := p.angle(k, end)
			if a < 0 {
				return 0, false
			}
			k = a
			lastIdent = false
			continue
		default:
			goto head
		}
		k++
	}
head:
	switch p.tx(k) {
	case ":":
		k = p.skipTo(k, end, "{", ";")
		if p.tx(k) == ";" && !inTypedef {
			return k + 1, true // enum E : int; (opaque)
		}
	case "{":
	case ";":
		if inTypedef {
			return 0, false
		}
		return k + 1, true // a forward declaration
	default:
		return 0, false
	}
	if p.tx(k) != "{" {
		return 0, false
	}
	body := int(p.match[k])
	if len(names) > 0 {
		name := sc.prefix + strings.Join(names, ".")
		p.add(name, lang.KindType, catType, start, body, true)
		if key != "enum" {
			p.declarations(k+1, body, scope{prefix: name + ".", class: names[len(names)-1]})
		}
	}
	if inTypedef {
		return body + 1, true
	}
	// the declarators after the body are read as those after any type:
	// variables (struct S {...} s, *ps;) are not symbols, a function
	// returning the type is (static enum { A, B } pick(int x) { ... })
	return p.general(start, body, end, sc), true
}

var classKeys = setOf("struct class union enum")

// testMacros are the test-defining macros whose two identifier arguments
// name the test Suite.Name (GoogleTest).
var testMacros = setOf("TEST TEST_F TEST_P TYPED_TEST TYPED_TEST_P GTEST_TEST")

// caseMacros are the test-defining macros named by their first string
// argument (Catch2, doctest).
var caseMacros = setOf("TEST_CASE SCENARIO TEST_CASE_METHOD TEMPLATE_TEST_CASE TEMPLATE_PRODUCT_TEST_CASE TEST_CASE_FIXTURE TEMPLATE_TEST_CASE_METHOD TEMPLATE_LIST_TEST_CASE")

// testMacro reads a test defined by a macro at i: TEST(Suite, Name) { ... }
// or TEST_CASE("name", "[tag]") { ... }.
func (p *parser) testMacro(i, end int, sc scope) (int, bool) {
	m := p.tx(i)
	close := int(p.match[i+1])
	if !testMacros[m] && !caseMacros[m] || p.tx(close+1) != "{" {
		return 0, false
	}
	name := ""
	if testMacros[m] {
		if p.isIdent(i+2) && p.tx(i+3) == "," && p.isIdent(i+4) && i+5 == close {
			name = p.tx(i+2) + "." + p.tx(i+4)
		}
	} else {
		for k := i + 2; k < close; k++ {
			if p.kind(k) == tStr {
				name = caseName(p.tx(k))
				break
			}
		}
	}
	body := int(p.match[close+1])
	if name != "" {
		p.add(name, lang.KindTest, catTest, i, body, true)
		p.scanCalls(close+2, body, len(p.decls)-1)
	}
	return body + 1, true
}

// caseName turns a Catch2 or doctest test name into a symbol name: the
// string's contents, each run of characters outside [A-Za-z0-9_] one '_',
// trimmed of '_' at both ends; a leading digit gets a '_' before it (a
// symbol name starts with no digit).
func caseName(lit string) string {
	if i := strings.IndexByte(lit, '"'); i >= 0 {
		lit = lit[i+1:]
	}
	if i := strings.LastIndexByte(lit, '"'); i >= 0 {
		lit = lit[:i]
	}
	var b strings.Builder
	under := false
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c == '_' || isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteByte(c)
			continue
		}
		under = true
	}
	s := strings.Trim(b.String(), "_")
	if s != "" && isDigit(s[0]) {
		s = "_" + s
	}
	return s
}

// add records a declaration ranging over code tokens start..last.
func (p *parser) add(name, kind string, cat byte, start, last int, body bool) {
	p.decls = append(p.decls, decl{
		name: name, kind: kind, cat: cat, body: body,
		start: int(p.tok(start).off), end: int(p.tok(last).end),
		cond: p.tok(start).cond,
	})
}
