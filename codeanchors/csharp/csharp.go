// Package csharp is tracewiki's C# language: symbols and line ranges (SPEC
// 1.3), token hashes that survive a formatter, using directives resolved
// to the workspace's namespaces and .csproj projects, lexical call hints,
// xUnit, NUnit and MSTest test symbols, and TRX and JUnit report matching.
//
// It reads source with a hand-written lexer and a declaration parser: no
// .NET toolchain runs, and the package stays pure Go.
package csharp

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const Parser = "csharp/scan@2"

// maxNesting bounds how deeply namespaces and types nest.
const maxNesting = 100

// Extract is the C# extractor. It lexes src (C# 12: verbatim, interpolated,
// raw and UTF-8 strings; preprocessor lines are tokens of their own),
// matches its brackets, and parses the declaration structure: using
// directives, namespaces (block and file-scoped), and type declarations
// with their members. Bodies, accessors, initializers and top-level
// statements are only bracket-matched: local functions, lambdas and
// anonymous types are not symbols.
//
// Symbols: types (class, struct, interface, enum, record, delegate) named
// Outer or Outer.Inner; methods Type.Method (an explicit interface
// implementation IFoo.M is Type.M); constructors, static ones too,
// Type.Type; properties Type.Prop. Namespaces are not part of the name.
// Destructors, operators, indexers, events and fields are not symbols. A
// symbol ranges from its first attribute (or modifier, or keyword) to its
// closing brace or ';'; a doc comment is not part of it. Overloads (methods
// and constructors of one name in one type), the parts of a partial type,
// and generic types of one name and different arity (Action, Action<T>)
// are one symbol from the first one's first line to the last one's last
// line; any other name declared twice in one scope is ambiguous, and so is
// one declared in two namespaces of the file.
//
// Every symbol of a test file ([language.IsTest]) is of kind test, and so are the
// methods with a test attribute ([testAttributes]) and the types that
// declare them.
//
// Imports are the using directives as written without spaces ("System.Linq",
// "static System.Math", "Json=Newtonsoft.Json"); Package is the first
// namespace declared. Calls are the lexical call sites inside methods,
// constructors and properties: F(...) and this.F(...) unqualified, X.F(...)
// qualified by X, a longer receiver by ".", new T(...) by "new"; F<T>(...)
// is a call of F.
//
// A src that does not lex, has unbalanced brackets, or whose declarations
// do not parse yields a [scanner.Error] for the first problem, printed as
// path:line:col: message (col counts bytes).
func Extract(path string, src []byte) (*lang.File, error) {
	return scan.Extract(path, src, lex, parse)
}

// parse matches the brackets of the tokens l found and parses them into the
// file's symbols, imports and calls.
func parse(s *scan.Source, l *lexer) (*lang.File, *scan.Error) {
	p := &parser{src: s.Src, path: s.Path, toks: l.toks}
	p.code = make([]int, 0, len(p.toks))
	for i, t := range p.toks {
		if t.kind != tDirective {
			p.code = append(p.code, i)
		}
	}
	p.matchBrackets()
	if p.err == nil {
		p.members(0, len(p.code), "", "", 0, true)
	}
	if p.err != nil {
		return nil, p.err
	}
	f := &lang.File{Path: s.Path, Parser: Parser, Package: p.pkg, Imports: p.imports, ImportNames: make([]string, len(p.imports)), Comments: l.Comments}
	p.symbols(f, s.Starts)
	f.Calls = scan.KeepCalls(f, p.calls)
	f.Tokens = p.hashTokens()
	return f, nil
}

// decl is one declaration the parser found.
type decl struct {
	name       string // Outer.Inner.M
	ns         string // the namespace it is declared in
	typ        bool   // a type; else a method, constructor or property
	prop       bool
	partial    bool
	arity      int // a type's type parameters
	test       bool
	start, end int // indices into code of the first and last token
}

// parser walks the code tokens of one file: p.code indexes p.toks without
// preprocessor lines (comments are not tokens).
type parser struct {
	src     []byte
	path    string
	toks    []tok
	code    []int   // indices into toks of the code tokens
	match   []int32 // by index into code: an open bracket's closer and back
	err     *scan.Error
	pkg     string
	imports []string
	decls   []decl
	calls   []lang.Call
}

func (p *parser) tok(i int) tok { return p.toks[p.code[i]] }

func (p *parser) text(i int) string {
	if i >= len(p.code) {
		return ""
	}
	t := p.tok(i)
	return string(p.src[t.off:t.end])
}

func (p *parser) is(i int, s string) bool {
	if i >= len(p.code) || i < 0 {
		return false
	}
	t := p.tok(i)
	return int(t.end-t.off) == len(s) && string(p.src[t.off:t.end]) == s
}

// ident reports whether a name (not a reserved keyword) is at i.
func (p *parser) ident(i int) bool {
	return i >= 0 && i < len(p.code) && p.tok(i).kind == tIdent && !keywords[p.text(i)]
}

func (p *parser) failAt(i int, msg string) {
	if p.err != nil {
		return
	}
	off := len(p.src)
	if i < len(p.code) {
		off = int(p.tok(i).off)
	}
	p.err = &scan.Error{Off: off, Msg: msg}
}

func (p *parser) expected(i int, what string) {
	found := "end of file"
	if i < len(p.code) {
		found = "'" + p.text(i) + "'"
	}
	p.failAt(i, "expected "+what+", found "+found)
}

// matchBrackets pairs every (, [ and { with its closing bracket.
func (p *parser) matchBrackets() {
	var bad *scan.Mismatch
	p.match, bad = scan.MatchBrackets(len(p.code), p.bracket)
	if bad != nil {
		p.failAt(bad.At, bad.Message(func(i int) int { return int(p.tok(i).line) }))
	}
}

// bracket returns the bracket the code token i is, 0 when it is none.
func (p *parser) bracket(i int) byte {
	if t := p.tok(i); t.kind == tOp && t.end-t.off == 1 {
		return p.src[t.off]
	}
	return 0
}

// jump returns the index after the bracket group that opens at i.
func (p *parser) jump(i int) int { return int(p.match[i]) + 1 }

// members parses the members of a namespace (or the file: top) in code
// tokens [i, end): using directives, namespaces, types, and at the top
// level statements.
func (p *parser) members(i, end int, ns, outer string, depth int, top bool) {
	if depth >= maxNesting {
		p.failAt(i, "declarations nest too deeply")
		return
	}
	for p.err == nil && i < end {
		switch {
		case p.is(i, ";"):
			i++
			continue
		case p.is(i, "extern") && p.is(i+1, "alias"):
			i = p.toSemi(i, end)
			continue
		case p.isAssemblyAttr(i):
			i = p.jump(i)
			continue
		case p.is(i, "using") && p.usingDirective(i, end), p.is(i, "global") && p.is(i+1, "using"):
			i = p.using(i, end)
			continue
		case p.is(i, "namespace"):
			k, name := p.qualified(i + 1)
			if name == "" {
				p.expected(i+1, "a namespace name")
				return
			}
			if p.pkg == "" {
				p.pkg = name
			}
			full := name
			if ns != "" {
				full = ns + "." + name
			}
			switch {
			case p.is(k, ";"): // file-scoped: the rest of the file
				p.members(k+1, end, full, outer, depth+1, false)
				return
			case p.is(k, "{"):
				p.members(k+1, int(p.match[k]), full, outer, depth+1, false)
				i = p.jump(k)
			default:
				p.expected(k, "'{' or ';'")
				return
			}
			continue
		}
		start := i
		j, attrs := p.modifiers(i)
		if p.err != nil {
			return
		}
		if p.typeKeyword(j) {
			i = p.typeDecl(start, j, ns, outer, attrs, depth)
			continue
		}
		if !top {
			p.expected(j, "a namespace or type declaration")
			return
		}
		i = p.statement(start, end)
	}
}

// isAssemblyAttr reports whether the attribute section at i targets the
// assembly or module.
func (p *parser) isAssemblyAttr(i int) bool {
	return p.is(i, "[") && (p.is(i+1, "assembly") || p.is(i+1, "module")) && p.is(i+2, ":")
}

// statement skips a top-level statement from i: up to its ';', or past a
// braced block that a declaration or the end follows.
func (p *parser) statement(i, end int) int {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "{"):
			i = p.jump(i)
			if i >= end || !(p.is(i, "else") || p.is(i, "catch") || p.is(i, "finally") || p.is(i, "while") ||
				p.is(i, ")") || p.is(i, ",") || p.is(i, ";") || p.is(i, ".")) {
				return i
			}
		case p.is(i, "("), p.is(i, "["):
			i = p.jump(i)
		default:
			i++
		}
	}
	return end
}

// usingDirective reports whether the using at i is a directive (using X;
// using A = X; using static X;) rather than a using statement or
// declaration (using (...), using var x = ...;).
func (p *parser) usingDirective(i, end int) bool {
	if p.is(i+1, "(") || p.is(i+1, "var") || p.is(i+1, "await") {
		return false
	}
	for k := i + 1; k < end; k++ {
		switch {
		case p.is(k, ";"):
			return true
		case p.is(k, "("), p.is(k, "{"):
			return false
		}
	}
	return false
}

// toSemi returns the index after the ';' that ends the directive at i.
func (p *parser) toSemi(i, end int) int {
	for ; i < end; i++ {
		if p.is(i, ";") {
			return i + 1
		}
		if p.is(i, "(") || p.is(i, "[") || p.is(i, "{") {
			i = int(p.match[i])
		}
	}
	p.expected(end, "';'")
	return end
}

// using records a using directive from i and returns the index after it.
func (p *parser) using(i, end int) int {
	k := i + 1
	if p.is(i, "global") {
		k++
	}
	var b strings.Builder
	for ; k < end && !p.is(k, ";"); k++ {
		if p.is(k, "(") || p.is(k, "[") || p.is(k, "{") {
			p.expected(k, "';'")
			return end
		}
		b.WriteString(p.text(k))
		if p.is(k, "static") || p.is(k, "unsafe") {
			b.WriteString(" ")
		}
	}
	if k >= end {
		p.expected(k, "';'")
		return end
	}
	p.imports = append(p.imports, b.String())
	return k + 1
}

// qualified reads a dotted name (with :: aliases) from i.
func (p *parser) qualified(i int) (int, string) {
	if !p.ident(i) {
		return i, ""
	}
	var b strings.Builder
	b.WriteString(p.text(i))
	i++
	for (p.is(i, ".") || p.is(i, "::")) && p.ident(i+1) {
		b.WriteString(p.text(i))
		b.WriteString(p.text(i + 1))
		i += 2
	}
	return i, b.String()
}

// modifiers skips attribute sections and modifier keywords from i. It
// returns the index after them and the attributes' simple names (without
// an Attribute suffix).
func (p *parser) modifiers(i int) (int, []string) {
	var attrs []string
	for p.err == nil && i < len(p.code) {
		switch {
		case p.is(i, "["):
			attrs = append(attrs, p.attributeNames(i)...)
			i = p.jump(i)
		case modifierWords[p.text(i)] && p.tok(i).kind == tIdent:
			i++
		case contextualModifiers[p.text(i)] && p.tok(i).kind == tIdent && p.declFollows(i+1):
			i++
		default:
			return i, attrs
		}
	}
	return i, attrs
}

// declFollows reports whether token i continues a declaration after a
// contextual modifier (partial, async, required, file): a name or keyword.
func (p *parser) declFollows(i int) bool {
	return i < len(p.code) && (p.tok(i).kind == tIdent || p.is(i, "(")) && !p.is(i+1, "=") && !p.is(i+1, ";")
}

// attributeNames returns the simple names of the attributes of the section
// at i: [Fact], [NUnit.Framework.Test, Category("x")], [return: NotNull].
func (p *parser) attributeNames(i int) []string {
	var names []string
	end := int(p.match[i])
	k := i + 1
	if k < end && p.tok(k).kind == tIdent && p.is(k+1, ":") {
		k += 2 // an attribute target: [return: NotNull]
	}
	for k < end {
		last := ""
		for k < end && !p.is(k, ",") {
			switch {
			case p.is(k, "("), p.is(k, "["):
				k = int(p.match[k])
			case p.ident(k) && last == "":
				last = p.text(k)
			case p.is(k, ".") || p.is(k, "::"):
				last = ""
			}
			k++
		}
		names = append(names, strings.TrimSuffix(last, "Attribute"))
		k++
	}
	return names
}

// typeKeyword reports whether a type declaration's keyword is at i.
func (p *parser) typeKeyword(i int) bool {
	switch {
	case p.is(i, "class"), p.is(i, "struct"), p.is(i, "interface"), p.is(i, "enum"):
		return p.ident(i + 1)
	case p.is(i, "record"):
		return p.ident(i+1) || (p.is(i+1, "class") || p.is(i+1, "struct")) && p.ident(i+2)
	case p.is(i, "delegate"):
		return !p.is(i+1, "*") && !p.is(i+1, "(") && !p.is(i+1, "{")
	}
	return false
}

// typeDecl parses a type declaration whose attributes and modifiers start
// at start and keyword is at kw, in namespace ns inside the type outer. It
// returns the index after it.
func (p *parser) typeDecl(start, kw int, ns, outer string, attrs []string, depth int) int {
	if depth >= maxNesting {
		p.failAt(kw, "declarations nest too deeply")
		return len(p.code)
	}
	partial := false
	for k := start; k < kw; k++ {
		partial = partial || p.is(k, "partial")
	}
	kind := p.text(kw)
	n := kw + 1
	if kind == "record" && (p.is(n, "class") || p.is(n, "struct")) {
		n++
	}
	if kind == "delegate" {
		for p.is(n, "ref") || p.is(n, "readonly") {
			n++
		}
		n = p.skipType(n)
		if p.err != nil {
			return len(p.code)
		}
	}
	if !p.ident(n) {
		p.expected(n, "a type name")
		return len(p.code)
	}
	simple := p.text(n)
	name := simple
	if outer != "" {
		name = outer + "." + simple
	}
	arity := 0
	k := n + 1
	if p.is(k, "<") {
		var e int
		e, arity = p.typeArgs(k)
		if p.err != nil {
			return len(p.code)
		}
		k = e
	}
	// The header: parameters, base list, constraints, up to the body or ';'.
	for ; k < len(p.code) && !p.is(k, "{") && !p.is(k, ";"); k++ {
		switch {
		case p.is(k, "("), p.is(k, "["):
			k = int(p.match[k])
		case p.is(k, "}"), p.is(k, ")"), p.is(k, "]"), p.is(k, "="), p.is(k, "=>"):
			p.expected(k, "'{' or ';'")
			return len(p.code)
		}
	}
	if k == len(p.code) {
		p.expected(k, "'{' or ';'")
		return len(p.code)
	}
	di := len(p.decls)
	d := decl{name: name, ns: ns, typ: true, partial: partial, arity: arity, start: start, end: k}
	if p.is(k, ";") || kind == "delegate" {
		p.decls = append(p.decls, d)
		if !p.is(k, ";") {
			p.expected(k, "';'")
		}
		return k + 1
	}
	close := int(p.match[k])
	d.end = close
	p.decls = append(p.decls, d)
	next := close + 1
	if p.is(next, ";") {
		next++ // class C { }; is allowed
	}
	if kind == "enum" {
		return next
	}
	body := &typeBody{name: name, simple: simple, ns: ns,
		fixture: slices.Contains(attrs, "TestFixture") || slices.Contains(attrs, "TestClass")}
	i := k + 1
	for p.err == nil && i < close {
		i = p.member(i, close, body, depth)
	}
	if body.tests {
		p.decls[di].test = true
	}
	return next
}

// typeBody is the type whose body the parser is in.
type typeBody struct {
	name, simple, ns string
	fixture          bool // [TestFixture] or [TestClass]
	tests            bool // declares a test method
}

// member parses one member declaration of a type body from i and returns
// the index after it.
func (p *parser) member(i, close int, t *typeBody, depth int) int {
	if p.is(i, ";") {
		return i + 1
	}
	j, attrs := p.modifiers(i)
	if p.err != nil {
		return close
	}
	event := false
	for k := i; k < j; k++ {
		event = event || p.is(k, "event")
	}
	switch {
	case p.typeKeyword(j):
		return p.typeDecl(i, j, t.ns, t.name, attrs, depth+1)
	case event:
		return p.skipMember(j, close)
	case p.is(j, "~"): // a destructor
		return p.skipMember(j, close)
	case p.is(j, "implicit"), p.is(j, "explicit"):
		return p.skipMember(j, close)
	case p.is(j, t.simple) && p.is(j+1, "("):
		return p.method(i, j, j+1, t, attrs, close)
	}
	k := p.skipType(j)
	if p.err != nil {
		return close
	}
	switch {
	case p.is(k, "operator"), p.is(k, "this"):
		return p.skipMember(k, close)
	case !p.ident(k):
		p.expected(k, "a member name")
		return close
	}
	// The name, maybe after an explicit interface (IFoo.M, IFoo<T>.M).
	n := k
	k++
	for {
		if p.is(k, "<") {
			e, _ := p.typeArgs(k)
			if p.err != nil {
				return close
			}
			if !p.is(e, ".") {
				break
			}
			k = e
		}
		if p.is(k, ".") && (p.ident(k+1) || p.is(k+1, "this") || p.is(k+1, "operator")) {
			if !p.ident(k + 1) {
				return p.skipMember(k+1, close)
			}
			n, k = k+1, k+2
			continue
		}
		break
	}
	switch {
	case p.is(k, "("), p.is(k, "<"):
		return p.method(i, n, k, t, attrs, close)
	case p.is(k, "{"):
		e := int(p.match[k])
		p.bodyCalls(t.name+"."+p.text(n), k+1, e)
		if p.is(e+1, "=") {
			e = p.toSemi(e+1, close) - 1
		}
		p.decls = append(p.decls, decl{name: t.name + "." + p.text(n), ns: t.ns, prop: true, start: i, end: e})
		return e + 1
	case p.is(k, "=>"):
		e := p.toSemi(k, close) - 1
		p.bodyCalls(t.name+"."+p.text(n), k+1, e)
		p.decls = append(p.decls, decl{name: t.name + "." + p.text(n), ns: t.ns, prop: true, start: i, end: e})
		return e + 1
	}
	// A field: up to its ';'.
	return p.toSemi(k, close)
}

// skipMember skips a member that is not a symbol from i: up to its ';' or
// past its body.
func (p *parser) skipMember(i, close int) int {
	for ; i < close; i++ {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, "{"):
			e := int(p.match[i])
			if p.is(e+1, "=") { // an initialized auto-property
				return p.toSemi(e+1, close)
			}
			return e + 1
		case p.is(i, "=>"):
			return p.toSemi(i, close)
		case p.is(i, "("), p.is(i, "["):
			i = int(p.match[i])
		}
	}
	p.expected(close, "';' or '{'")
	return close
}

// method parses a method or constructor whose attributes and modifiers
// start at start, name is at n, and parameters (or type parameters) open
// at k; it returns the index after it.
func (p *parser) method(start, n, k int, t *typeBody, attrs []string, close int) int {
	name := t.name + "." + p.text(n)
	if p.is(k, "<") {
		k, _ = p.typeArgs(k)
		if p.err != nil {
			return close
		}
	}
	if !p.is(k, "(") {
		p.expected(k, "'('")
		return close
	}
	k = p.jump(k)
	// A constructor initializer or constraints, up to the body.
	for ; k < close && !p.is(k, "{") && !p.is(k, ";") && !p.is(k, "=>"); k++ {
		if p.is(k, "(") || p.is(k, "[") {
			k = int(p.match[k])
		}
	}
	var end int
	switch {
	case p.is(k, ";"):
		end = k
	case p.is(k, "{"):
		end = int(p.match[k])
		p.bodyCalls(name, k+1, end)
	case p.is(k, "=>"):
		end = p.toSemi(k, close) - 1
		p.bodyCalls(name, k+1, end)
	default:
		p.expected(k, "'{', '=>' or ';'")
		return close
	}
	test := isTestMethod(attrs)
	if test {
		t.tests = true
	}
	p.decls = append(p.decls, decl{name: name, ns: t.ns, test: test, start: start, end: end})
	return end + 1
}

// typeArgs skips the type parameters or arguments that open at i ('<') and
// returns the index after the matching '>' and how many there are at the
// top level.
func (p *parser) typeArgs(i int) (int, int) {
	depth, n := 0, 1
	for k := i; k < len(p.code); k++ {
		switch {
		case p.is(k, "<"):
			depth++
		case p.is(k, ">"):
			depth--
			if depth == 0 {
				return k + 1, n
			}
		case p.is(k, ","):
			if depth == 1 {
				n++
			}
		case p.is(k, "("), p.is(k, "["):
			k = int(p.match[k])
		case p.tok(k).kind != tIdent && !p.is(k, ".") && !p.is(k, "::") && !p.is(k, "?") && !p.is(k, "*"):
			p.expected(k, "'>'")
			return len(p.code), 0
		}
	}
	p.expected(len(p.code), "'>'")
	return len(p.code), 0
}

// skipType skips a type from i: a tuple, a (qualified, generic) name, a
// function pointer, with nullable, pointer and array suffixes. It returns
// the index after it.
func (p *parser) skipType(i int) int {
	switch {
	case p.is(i, "("):
		i = p.jump(i)
	case p.is(i, "delegate") && p.is(i+1, "*"):
		i += 2
		for p.ident(i) || p.is(i, "[") {
			if p.is(i, "[") {
				i = p.jump(i)
			} else {
				i++
			}
		}
		if !p.is(i, "<") {
			p.expected(i, "'<'")
			return len(p.code)
		}
		i, _ = p.typeArgs(i)
	case i < len(p.code) && p.tok(i).kind == tIdent && (!keywords[p.text(i)] || typeKeywords[p.text(i)]):
		i++
		for p.err == nil {
			if p.is(i, "<") {
				i, _ = p.typeArgs(i)
				continue
			}
			if (p.is(i, ".") || p.is(i, "::")) && p.ident(i+1) {
				i += 2
				continue
			}
			break
		}
	default:
		p.expected(i, "a type")
		return len(p.code)
	}
	for p.err == nil {
		switch {
		case p.is(i, "?"), p.is(i, "*"):
			i++
		case p.is(i, "[") && p.rankSpecifier(i):
			i = p.jump(i)
		default:
			return i
		}
	}
	return i
}

// rankSpecifier reports whether the brackets at i are an array rank: [],
// [,], [,,].
func (p *parser) rankSpecifier(i int) bool {
	for k := i + 1; k < int(p.match[i]); k++ {
		if !p.is(k, ",") {
			return false
		}
	}
	return true
}

// bodyCalls records the call sites of the tokens [lo, hi) of the member
// from.
func (p *parser) bodyCalls(from string, lo, hi int) {
	for k := lo; k < hi; k++ {
		if !p.is(k, "(") || k == lo {
			continue
		}
		n := k - 1
		if p.is(n, ">") {
			// F<T>(...): back over the type arguments to the name.
			depth := 0
			for n >= max(lo, k-64) {
				if p.is(n, ">") {
					depth++
				} else if p.is(n, "<") {
					depth--
					if depth == 0 {
						break
					}
				} else if !p.ident(n) && !p.is(n, ",") && !p.is(n, ".") && !p.is(n, "?") && p.tok(n).kind != tIdent {
					n = lo - 1
					break
				}
				n--
			}
			n--
		}
		if n < lo || !p.ident(n) || p.is(n, "nameof") {
			continue
		}
		c := lang.Call{From: from, Name: p.text(n), Line: int(p.tok(n).line)}
		if n > lo {
			prev := p.text(n - 1)
			switch {
			case prev == "new":
				c.Qual = "new"
			case prev == "." || prev == "?.":
				switch {
				case n-2 >= lo && (p.is(n-2, "this") || p.is(n-2, "base")) && !p.is(n-3, "."):
				case n-2 >= lo && p.ident(n-2) && !p.is(n-3, ".") && !p.is(n-3, "?."):
					c.Qual = p.text(n - 2)
				default:
					c.Qual = "."
				}
			case p.ident(n-1) && !exprWords[prev] || typeKeywords[prev] || prev == ">" || prev == "]" || prev == "?":
				continue // a local function's declaration
			}
		}
		p.calls = append(p.calls, c)
	}
}

// symbols turns the declarations into f's symbols and ambiguous names.
func (p *parser) symbols(f *lang.File, starts []int) {
	testFile := lang.IsTest(Language, p.path, "")
	type group struct {
		d     decl
		parts []decl
	}
	groups := map[string]*group{}
	var order []string
	for _, d := range p.decls {
		g := groups[d.name]
		if g == nil {
			groups[d.name] = &group{d: d, parts: []decl{d}}
			order = append(order, d.name)
			continue
		}
		g.parts = append(g.parts, d)
		g.d.start = min(g.d.start, d.start)
		g.d.end = max(g.d.end, d.end)
		g.d.test = g.d.test || d.test
	}
	for _, name := range order {
		g := groups[name]
		if !oneSymbol(g.parts) {
			f.Ambiguous = append(f.Ambiguous, name)
			continue
		}
		kind := lang.KindMethod
		switch {
		case g.d.test || testFile:
			kind = lang.KindTest
		case g.d.typ:
			kind = lang.KindType
		}
		s := lang.Symbol{Name: name, Kind: kind, Start: int(p.tok(g.d.start).line)}
		last := p.tok(g.d.end)
		s.End = lang.LineOf(starts, int(last.end)-1)
		s.StartOff, s.EndOff = starts[s.Start-1], lang.LineEnd(p.src, starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	f.SortSymbols()
}

// oneSymbol reports whether the declarations of one name are one symbol:
// one declaration; methods and constructors (overloads); or types of one
// namespace that are all partial or all of different arities.
func oneSymbol(parts []decl) bool {
	if len(parts) == 1 {
		return true
	}
	allMethods, allTypes, allPartial := true, true, true
	arities := map[int]bool{}
	for _, d := range parts {
		allMethods = allMethods && !d.typ && !d.prop
		allTypes = allTypes && d.typ && d.ns == parts[0].ns
		allPartial = allPartial && d.partial
		arities[d.arity] = true
	}
	return allMethods || allTypes && (allPartial || len(arities) == len(parts))
}

// modifierWords are C#'s modifier keywords.
var modifierWords = map[string]bool{
	"public": true, "private": true, "protected": true, "internal": true, "static": true,
	"abstract": true, "sealed": true, "virtual": true, "override": true, "readonly": true,
	"unsafe": true, "extern": true, "new": true, "volatile": true, "const": true, "fixed": true,
	"ref": true, "event": true,
}

// contextualModifiers are modifiers that are also valid names; they count
// as modifiers when a declaration follows.
var contextualModifiers = map[string]bool{
	"partial": true, "async": true, "required": true, "file": true, "scoped": true,
}

// exprWords are contextual keywords after which a name starts an
// expression (await F(), LINQ's select F(x)), not a declaration.
var exprWords = map[string]bool{
	"await": true, "yield": true, "when": true, "select": true, "where": true, "orderby": true,
	"on": true, "equals": true, "into": true, "let": true, "from": true, "by": true, "with": true,
}

// typeKeywords are the keywords that name types.
var typeKeywords = map[string]bool{
	"bool": true, "byte": true, "sbyte": true, "char": true, "decimal": true, "double": true,
	"float": true, "int": true, "uint": true, "long": true, "ulong": true, "short": true,
	"ushort": true, "object": true, "string": true, "void": true,
}

// keywords are C#'s reserved keywords: never a name.
var keywords = map[string]bool{
	"abstract": true, "as": true, "base": true, "bool": true, "break": true, "byte": true,
	"case": true, "catch": true, "char": true, "checked": true, "class": true, "const": true,
	"continue": true, "decimal": true, "default": true, "delegate": true, "do": true,
	"double": true, "else": true, "enum": true, "event": true, "explicit": true, "extern": true,
	"false": true, "finally": true, "fixed": true, "float": true, "for": true, "foreach": true,
	"goto": true, "if": true, "implicit": true, "in": true, "int": true, "interface": true,
	"internal": true, "is": true, "lock": true, "long": true, "namespace": true, "new": true,
	"null": true, "object": true, "operator": true, "out": true, "override": true, "params": true,
	"private": true, "protected": true, "public": true, "readonly": true, "ref": true,
	"return": true, "sbyte": true, "sealed": true, "short": true, "sizeof": true,
	"stackalloc": true, "static": true, "string": true, "struct": true, "switch": true,
	"this": true, "throw": true, "true": true, "try": true, "typeof": true, "uint": true,
	"ulong": true, "unchecked": true, "unsafe": true, "ushort": true, "using": true,
	"virtual": true, "void": true, "volatile": true, "while": true,
}
