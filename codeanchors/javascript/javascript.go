package javascript

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser names of [Extract]: one adapter, named for the dialect
// of the file. Bump both versions whenever the symbols, ranges or tokens
// change.
const (
	JSParser = "javascript@2"
	TSParser = "typescript@2"
)

// Extract is the JavaScript and TypeScript extractor: a
// hand-written lexer (jsscan.go, jsjsx.go, jsangles.go) and a structural
// pass over its tokens (this file, jsasi.go, jsimports.go, jscalls.go). The
// dialect follows the extension: .ts, .mts and .cts are TypeScript without
// JSX (<T>x is a type assertion), .tsx is TypeScript with JSX, and .js,
// .mjs, .cjs and .jsx are JavaScript with JSX, as the TypeScript compiler
// reads them.
//
// Symbols are the declarations directly in the file or in a namespace:
//
//	function f() {}                  f (also export, export default, async, function*)
//	const f = () => {}               f (let, var; an arrow function or function expression
//	const g = function () {}         g  that is the whole initializer, not wrapped in parentheses)
//	class C {}                       C (also abstract, export default class C)
//	  m() {}                         C.m (also static, async, *gen, abstract and #private m)
//	  constructor() {}               C.constructor
//	  get x() {} / set x(v) {}       C.x, one symbol spanning both
//	  h = () => {}                   C.h, a property whose initializer is a function
//	interface I {}, type T = ...     I, T
//	enum E {}                        E (also const enum, declare enum)
//	namespace N { function f() {} }  N.f (N.M.f in namespace N.M or a nested namespace M);
//	                                 the namespace itself is no symbol, since namespaces
//	                                 merge with functions, classes and each other
//
// Functions, classes, interfaces and type aliases are KindFunc and KindType,
// class members KindMethod, and every symbol of a test file KindTest
// ([language.IsTest]). Nested functions, object literal methods, class expressions,
// other properties, members with computed or literal names, CommonJS
// assignments (exports.f = function ...) and the contents of declare module
// "name" and declare global blocks are not symbols. An anonymous default
// export has no name and is no symbol.
//
// A symbol ranges from the first line of its statement or member, including
// export, export default, declare and other modifiers but not decorators or
// comments above it, to the line of its last token: the closing brace, or
// the last token of a statement without one. A statement's semicolon is
// part of it when it stands on the line of the token before it; a semicolon
// on a later line (the leading semicolon of the next line in semicolon-less
// style) is not. Of several declarators of one const, let or var
// statement, the first ranges from the statement's first line to the end of
// its initializer, the last from its name to the statement's end, the others
// from name to initializer. TypeScript overload signatures followed by their
// implementation, or by nothing in a declaration file, are one symbol from
// the first signature to the last part, and so are a getter and its setter
// (static or not, in that order or the other, with other members between
// them). Any other name declared twice in its scope is listed in
// [File.Ambiguous]. Lines are counted at "\n" only, as [lang.Lines] does.
//
// Imports are recorded once per binding, in source order, with the
// specifier as written in Imports and the binding, in the syntax of the
// import, in ImportNames:
//
//	import x from "m"                    x
//	import * as ns from "m"              * as ns
//	import {a, b as c} from "m"          {a}, {b as c}        (import type the same)
//	import "m", import("m"), require("m")  (empty)
//	const x = require("m")               x                    (also import x = require("m"))
//	const {a, b: c} = require("m")       {a}, {b as c}
//	export * from "m"                    export *
//	export * as ns from "m"              export * as ns
//	export {a, b as c} from "m"          export {a}, export {b as c}
//
// A dynamic import() or a require() counts wherever it is, when its
// argument is one string literal.
//
// Calls are found in the functions and methods, as goCalls does: f() and
// new F() call f and F, ns.f() has Qual "ns", this.m() Qual "this", and a
// longer receiver (a.b.m(), f().m()) Qual ".". A JSX element whose name is
// capitalized (<Button>, <ui.Button>) is a call of that component.
//
// The tokens are normalized so that a prettier run keeps them (see
// jsHashTokens in jstokens.go).
//
// A source that does not lex (an unterminated string, template, comment,
// regular expression or JSX element, an invalid character) or whose
// brackets do not balance yields a [scanner.Error] for the first problem,
// which prints as path:line:col: message, and no symbols.
func Extract(p string, src []byte) (*lang.File, error) {
	ts, jsx := false, true
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		ts, jsx = true, false
	case ".tsx":
		ts = true
	}
	s := scan.NewSource(p, src)
	starts := s.Starts
	toks, comments, lerr := lexJS(string(src), jsx, ts)
	if lerr != nil {
		return nil, s.Err(&scan.Error{Off: lerr.off, Msg: lerr.msg})
	}
	li := 0
	for i := range toks {
		for li+1 < len(starts) && starts[li+1] <= toks[i].off {
			li++
		}
		toks[i].line = li + 1
	}
	if ts {
		matchAngles(toks)
	}

	jp := &jsParser{t: toks, ts: ts, seq: map[string]int{}, reqBind: map[int][]string{}}
	jp.statements(0, len(toks), "")
	f := &lang.File{Path: p, Parser: JSParser}
	if ts {
		f.Parser = TSParser
	}
	jp.symbols(f, p, src, starts)
	jp.dynamicImports()
	slices.SortStableFunc(jp.imports, func(a, b jsImport) int { return a.tok - b.tok })
	for _, imp := range jp.imports {
		f.Imports = append(f.Imports, imp.spec)
		f.ImportNames = append(f.ImportNames, imp.bind)
	}
	f.Tokens = jsHashTokens(toks, ts, jsx)
	for _, c := range comments {
		f.Comments = append(f.Comments, s.Comment(c[0], c[1]))
	}
	return f, nil
}

// jsParser finds declarations, imports and calls in a token stream.
type jsParser struct {
	t       []jsTok
	ts      bool
	decls   []jsDecl
	seq     map[string]int // declarations so far per scope
	imports []jsImport
	reqBind map[int][]string // bindings of require("m"), by the index of its string token
}

// jsDecl is one declaration, before overloads and accessor pairs are
// merged into symbols.
type jsDecl struct {
	name        string
	kind        string
	scope       string // "" at top level, "N." in namespace N, "C." in class C
	seq         int    // position among the declarations of its scope
	first, last int    // token indexes
	body        bool   // false for an overload signature, abstract or ambient member
	acc         byte   // 'g' for a getter, 's' for a setter
	callable    bool   // a function or method: calls inside count
}

// jsImport is one import binding (see [Extract]).
type jsImport struct {
	tok  int // the specifier's token
	spec string
	bind string
}

func (p *jsParser) add(name, kind, scope string, first, last int, body bool, acc byte, callable bool) {
	p.decls = append(p.decls, jsDecl{name: scope + name, kind: kind, scope: scope, seq: p.seq[scope],
		first: first, last: last, body: body, acc: acc, callable: callable})
	p.seq[scope]++
}

// statements parses the statements in tokens [i, end) of a file or
// namespace body, whose declarations are named with prefix.
func (p *jsParser) statements(i, end int, prefix string) {
	for i < end {
		i = max(p.statement(i, end, prefix), i+1)
	}
}

// skip returns the index after the statement that starts at i.
func (p *jsParser) skip(i, end int) int {
	if i >= end {
		return end
	}
	return p.stmtEnd(i, end) + 1
}

// skipDecorators returns the index of the first token after the decorators
// (@a, @a.b, @a.b(...)) that start at i.
func (p *jsParser) skipDecorators(i, end int) int {
	t := p.t
	for i+1 < end && t[i].isPunct("@") && t[i+1].kind == jsName {
		i += 2
		for i+1 < end && t[i].isPunct(".") && t[i+1].kind == jsName {
			i += 2
		}
		if i < end && t[i].isPunct("<") && t[i].match > i {
			i = t[i].match + 1
		}
		if i < end && t[i].isPunct("(") {
			i = t[i].match + 1
		}
	}
	return i
}

// declStarts reports whether a declaration an export default may carry
// starts at i.
func (p *jsParser) declStarts(i, end int) bool {
	t := p.t
	if i >= end || t[i].kind != jsName || t[i].jsx {
		return false
	}
	switch t[i].text {
	case "function", "class":
		return true
	case "async":
		return i+1 < end && t[i+1].isName("function") && !t[i+1].nl
	case "abstract":
		return i+1 < end && t[i+1].isName("class") && !t[i+1].nl
	case "interface":
		return i+1 < end && t[i+1].kind == jsName
	}
	return false
}

// nameFollows reports whether an identifier follows t[i] on its line, as
// TypeScript requires of type, interface, namespace and module.
func (p *jsParser) nameFollows(i, end int) bool {
	return i+1 < end && p.t[i+1].kind == jsName && !p.t[i+1].jsx && !p.t[i+1].nl
}

// statement parses the statement at i and returns the index after it.
func (p *jsParser) statement(i, end int, prefix string) int {
	t := p.t
	i = p.skipDecorators(i, end)
	if i >= end {
		return end
	}
	first := i
modifiers:
	for i < end && t[i].kind == jsName && !t[i].jsx {
		switch t[i].text {
		case "export":
			if i+1 >= end {
				return end
			}
			switch nx := &t[i+1]; {
			case nx.isPunct("*"), nx.isPunct("{"):
				return p.exportFrom(i+1, end)
			case nx.isName("type") && i+2 < end && (t[i+2].isPunct("{") || t[i+2].isPunct("*")):
				return p.exportFrom(i+2, end)
			case nx.isPunct("="), nx.isName("as"):
				return p.skip(i, end)
			case nx.isName("default"):
				i = p.skipDecorators(i+2, end)
				if !p.declStarts(i, end) {
					return p.skip(i, end)
				}
				continue
			}
			i = p.skipDecorators(i+1, end)
		case "declare":
			if i+1 >= end || t[i+1].kind != jsName || t[i+1].nl {
				break modifiers
			}
			i++
		case "abstract", "async":
			if !p.declStarts(i, end) {
				break modifiers
			}
			i++
		default:
			break modifiers
		}
	}
	if i >= end || t[i].kind != jsName || t[i].jsx {
		return p.skip(i, end)
	}
	switch t[i].text {
	case "function":
		return p.function(first, i, end, prefix)
	case "class":
		return p.class(first, i, end, prefix)
	case "interface":
		if p.nameFollows(i, end) {
			return p.braced(first, i, end, prefix)
		}
	case "enum":
		if p.nameFollows(i, end) {
			return p.braced(first, i, end, prefix)
		}
	case "type":
		if p.nameFollows(i, end) {
			last := p.typeAliasEnd(i+2, end)
			p.add(t[i+1].text, lang.KindType, prefix, first, last, true, 0, false)
			return last + 1
		}
	case "const":
		if i+1 < end && t[i+1].isName("enum") && p.nameFollows(i+1, end) {
			return p.braced(first, i+1, end, prefix)
		}
		return p.variables(first, i, end, prefix)
	case "var":
		return p.variables(first, i, end, prefix)
	case "let":
		if i+1 < end && (t[i+1].kind == jsName && !t[i+1].isName("in") && !t[i+1].isName("instanceof") ||
			t[i+1].isPunct("{") || t[i+1].isPunct("[")) {
			return p.variables(first, i, end, prefix)
		}
	case "namespace", "module":
		if p.nameFollows(i, end) {
			return p.namespace(i, end, prefix)
		}
	case "import":
		if i+1 < end && !t[i+1].isPunct("(") && !t[i+1].isPunct(".") {
			return p.importDecl(i, end)
		}
	}
	return p.skip(i, end)
}

// afterSignature returns the last token of a function or method whose
// parameter list ends before i, and whether it has a body.
func (p *jsParser) afterSignature(i, end int) (last int, body bool) {
	t := p.t
	if i < end && t[i].isPunct(":") {
		i = p.skipType(i+1, end)
	}
	switch {
	case i < end && t[i].isPunct("{"):
		return t[i].match, true
	case i < end && t[i].isPunct(";"):
		return i, false
	}
	return i - 1, false
}

// function parses a function declaration whose keyword is at k.
func (p *jsParser) function(first, k, end int, prefix string) int {
	t := p.t
	i := k + 1
	if i < end && t[i].isPunct("*") {
		i++
	}
	name := ""
	if i < end && t[i].kind == jsName {
		name = t[i].text
		i++
	}
	if i < end && t[i].isPunct("<") && t[i].match > i {
		i = t[i].match + 1
	}
	if i >= end || !t[i].isPunct("(") {
		return p.skip(k, end)
	}
	last, body := p.afterSignature(t[i].match+1, end)
	if name != "" {
		p.add(name, lang.KindFunc, prefix, first, last, body, 0, true)
	}
	return last + 1
}

// bodyOpen returns the index of the { that opens the body of the class,
// interface or enum whose header starts at i, or -1.
func (p *jsParser) bodyOpen(i, end int) int {
	t := p.t
	for j := i; j < end; {
		tk := &t[j]
		if tk.isPunct("{") && (j == i || p.typeEnds(j-1)) {
			return j
		}
		if tk.isPunct(";") || tk.kind == jsPunct && tk.match >= 0 && tk.match < j {
			return -1
		}
		if tk.opens(j) {
			j = tk.match + 1
			continue
		}
		j++
	}
	return -1
}

// class parses a class declaration whose keyword is at k.
func (p *jsParser) class(first, k, end int, prefix string) int {
	t := p.t
	i := k + 1
	name := ""
	if i < end && t[i].kind == jsName && !t[i].isName("extends") && !t[i].isName("implements") {
		name = t[i].text
		i++
	}
	open := p.bodyOpen(i, end)
	if open < 0 {
		return p.skip(k, end)
	}
	close := t[open].match
	if name != "" {
		p.add(name, lang.KindType, prefix, first, close, true, 0, false)
		p.members(open, close, prefix+name+".")
	}
	return close + 1
}

// braced parses an interface or enum declaration whose keyword is at k.
func (p *jsParser) braced(first, k, end int, prefix string) int {
	open := p.bodyOpen(k+2, end)
	if open < 0 {
		return p.skip(k, end)
	}
	close := p.t[open].match
	if p.t[k].text == "interface" {
		p.t[open].flags |= typeBody
	}
	p.add(p.t[k+1].text, lang.KindType, prefix, first, close, true, 0, false)
	return close + 1
}

// namespace parses a namespace or module declaration whose keyword is at
// k, and the declarations in it.
func (p *jsParser) namespace(k, end int, prefix string) int {
	t := p.t
	i := k + 1
	name := ""
	for i < end && t[i].kind == jsName {
		name += t[i].text
		i++
		if i+1 < end && t[i].isPunct(".") && t[i+1].kind == jsName {
			name += "."
			i++
			continue
		}
		break
	}
	if i >= end || !t[i].isPunct("{") {
		return p.skip(k, end)
	}
	close := t[i].match
	p.statements(i+1, close, prefix+name+".")
	return close + 1
}

// memberModifiers may precede a class member's name.
var memberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true,
	"abstract": true, "override": true, "declare": true, "async": true, "accessor": true,
}

// modifierFollows reports whether the word at i is a modifier of the
// member after it rather than the member's name. As in TypeScript, static,
// get and set may be followed by a line break; other modifiers may not.
func (p *jsParser) modifierFollows(i, end int) bool {
	t := p.t
	if i+1 >= end {
		return false
	}
	nx := &t[i+1]
	if nx.nl && t[i].text != "static" && t[i].text != "get" && t[i].text != "set" {
		return false
	}
	switch nx.kind {
	case jsName, jsPrivate, jsStr, jsNum:
		return true
	case jsPunct:
		return nx.text == "[" || nx.text == "*" || nx.text == "{" && t[i].text == "static"
	}
	return false
}

// members parses the members of the class body between open and close.
func (p *jsParser) members(open, close int, scope string) {
	t := p.t
	i := open + 1
	for i < close {
		if t[i].isPunct(";") {
			i++
			continue
		}
		i = p.skipDecorators(i, close)
		if i >= close {
			return
		}
		first := i
		for t[i].kind == jsName && memberModifiers[t[i].text] && p.modifierFollows(i, close) {
			i++
		}
		if t[i].isName("static") && i+1 < close && t[i+1].isPunct("{") {
			i = t[i+1].match + 1 // a static block
			continue
		}
		var acc byte
		if (t[i].isName("get") || t[i].isName("set")) && p.modifierFollows(i, close) && !t[i+1].isPunct("*") {
			acc = t[i].text[0]
			i++
		}
		if t[i].isPunct("*") {
			i++
		}
		name := ""
		switch tk := &t[i]; {
		case tk.kind == jsName || tk.kind == jsPrivate:
			name = tk.text
			i++
		case tk.kind == jsStr || tk.kind == jsNum:
			i++
		case tk.isPunct("["):
			i = tk.match + 1
		default:
			i = p.stmtEnd(i, close) + 1
			continue
		}
		if i < close && (t[i].isPunct("?") || t[i].isPunct("!")) {
			i++
		}
		if i < close && t[i].isPunct("<") && t[i].match > i {
			i = t[i].match + 1
		}
		if i < close && t[i].isPunct("(") {
			last, body := p.afterSignature(t[i].match+1, close)
			if name != "" {
				p.add(name, lang.KindMethod, scope, first, last, body, acc, true)
			}
			i = last + 1
			continue
		}
		// A property: a method when its initializer is a function.
		eq := -1
		if i < close && t[i].isPunct(":") {
			i = p.skipType(i+1, close)
		}
		var last int
		switch {
		case i < close && t[i].isPunct("="):
			eq, last = i, p.stmtEnd(i, close)
		case i < close && t[i].isPunct(";"):
			last = i
		default:
			last = i - 1
		}
		if name != "" && eq >= 0 && eq < last && p.isFunction(eq+1, p.withoutSemicolon(last)) {
			p.add(name, lang.KindMethod, scope, first, last, true, 0, true)
		}
		i = last + 1
	}
}

func (p *jsParser) withoutSemicolon(last int) int {
	if p.t[last].isPunct(";") {
		return last - 1
	}
	return last
}

// isFunction reports whether tokens [s, e] are one arrow function or
// function expression.
func (p *jsParser) isFunction(s, e int) bool {
	t := p.t
	if s > e {
		return false
	}
	i := s
	if t[i].isName("async") && i < e && !t[i+1].nl &&
		(t[i+1].isName("function") || t[i+1].isPunct("(") || t[i+1].isPunct("<") || t[i+1].kind == jsName && i+2 <= e && t[i+2].isPunct("=>")) {
		i++
	}
	if t[i].isName("function") {
		for i++; i <= e && !t[i].isPunct("("); i++ {
			if t[i].opens(i) {
				i = t[i].match
			}
		}
		if i > e {
			return false
		}
		last, body := p.afterSignature(t[i].match+1, e+1)
		return body && last == e
	}
	if t[i].isPunct("<") && t[i].match > i {
		i = t[i].match + 1
	}
	if i > e {
		return false
	}
	if t[i].kind == jsName && !continuingKeywords[t[i].text] && i < e && t[i+1].isPunct("=>") {
		return true
	}
	if t[i].isPunct("(") && t[i].match < e {
		nx := &t[t[i].match+1]
		return nx.isPunct("=>") || nx.isPunct(":")
	}
	return false
}

// variables parses a const, let or var statement whose keyword is at k:
// each declarator initialized with a function is a symbol.
func (p *jsParser) variables(first, k, end int, prefix string) int {
	t := p.t
	type declarator struct {
		name         string
		start, end   int
		fn           bool
		init, initTo int
		pattern      int // the { or [ of a destructuring pattern, or -1
	}
	var ds []declarator
	i, last := k+1, k
	for i < end {
		d := declarator{start: i, init: -1, pattern: -1}
		switch {
		case t[i].kind == jsName && !t[i].jsx:
			d.name = t[i].text
			i++
		case t[i].isPunct("{") || t[i].isPunct("["):
			d.pattern = i
			i = t[i].match + 1
		default:
			return p.skip(i, end)
		}
		if i < end && t[i].isPunct("!") {
			i++
		}
		if i < end && t[i].isPunct(":") {
			i = p.skipType(i+1, end)
		}
		d.end = i - 1
		if i < end && t[i].isPunct("=") && i+1 < end {
			d.init = i + 1
			e := p.exprEnd(d.init, end)
			if t[e].isPunct(";") {
				e--
			}
			d.initTo, d.end = e, e
			d.fn = d.name != "" && p.isFunction(d.init, d.initTo)
			i = e + 1
		}
		ds = append(ds, d)
		last = d.end
		if i < end && t[i].isPunct(",") {
			i++
			continue
		}
		if i < end && t[i].isPunct(";") {
			last = i
		}
		break
	}
	for n, d := range ds {
		if d.init >= 0 && d.initTo == d.init+3 && t[d.init].isName("require") && t[d.init+1].isPunct("(") &&
			t[d.init+2].kind == jsStr && t[d.init+3].isPunct(")") {
			switch {
			case d.name != "":
				p.reqBind[d.init+2] = []string{d.name}
			case d.pattern >= 0 && t[d.pattern].text == "{":
				p.reqBind[d.init+2] = p.namedBindings(d.pattern, "")
			}
		}
		if !d.fn {
			continue
		}
		from, to := d.start, d.end
		if n == 0 {
			from = first
		}
		if n == len(ds)-1 {
			to = last
		}
		p.add(d.name, lang.KindFunc, prefix, from, to, true, 0, true)
	}
	return last + 1
}

// endLine returns the line of the last byte of token i.
func (p *jsParser) endLine(i int, starts []int) int {
	t := &p.t[i]
	if !strings.ContainsAny(t.text, "\n\r") {
		return t.line
	}
	return lang.LineOf(starts, t.off+len(t.text)-1)
}

// lastLine returns the last line of a declaration ending with token i: a
// semicolon on a later line than the token before it does not count.
func (p *jsParser) lastLine(i int, starts []int) int {
	if i > 0 && p.t[i].isPunct(";") {
		if prev := p.endLine(i-1, starts); prev < p.t[i].line {
			return prev
		}
	}
	return p.endLine(i, starts)
}

// symbols merges the declarations into f's symbols (overloads and accessor
// pairs become one), lists the ambiguous names, and finds the calls.
func (p *jsParser) symbols(f *lang.File, path string, src []byte, starts []int) {
	byName := map[string][]int{}
	var names []string
	for i, d := range p.decls {
		if byName[d.name] == nil {
			names = append(names, d.name)
		}
		byName[d.name] = append(byName[d.name], i)
	}
	for _, name := range names {
		parts := byName[name]
		first := &p.decls[parts[0]]
		if !p.oneSymbol(parts) {
			f.Ambiguous = append(f.Ambiguous, name)
			continue
		}
		kind := first.kind
		if lang.IsTest(Language, path, name) {
			kind = lang.KindTest
		}
		s := lang.Symbol{Name: name, Kind: kind, Start: p.t[first.first].line}
		for _, i := range parts {
			s.End = max(s.End, p.lastLine(p.decls[i].last, starts))
		}
		s.StartOff, s.EndOff = starts[s.Start-1], lang.LineEnd(src, starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	f.SortSymbols()
	for _, d := range p.decls {
		if d.callable {
			f.Calls = p.calls(f.Calls, d.name, d.first, d.last)
		}
	}
}

// oneSymbol reports whether the declarations parts, all of one name, are
// one symbol: a single declaration, a getter and a setter, or overload
// signatures right before their implementation (or before each other).
func (p *jsParser) oneSymbol(parts []int) bool {
	if len(parts) == 1 {
		return true
	}
	d0 := &p.decls[parts[0]]
	if d0.acc != 0 {
		if len(parts) != 2 {
			return false
		}
		d1 := &p.decls[parts[1]]
		return d1.acc != 0 && d1.acc != d0.acc
	}
	for n, i := range parts {
		d := &p.decls[i]
		if d.acc != 0 || d.kind != d0.kind || d.scope != d0.scope || n > 0 && d.seq != p.decls[parts[n-1]].seq+1 {
			return false
		}
		if n < len(parts)-1 && d.body {
			return false
		}
	}
	return true
}
