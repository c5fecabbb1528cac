// Package java is tracewiki's Java language: symbols and line ranges
// (SPEC 1.3), token hashes that survive a formatter, imports resolved
// through Maven and Gradle source roots, lexical call hints, JUnit and
// TestNG test symbols, and Surefire and Gradle report matching.
//
// It reads source with a hand-written lexer and a declaration parser: no
// Java toolchain runs, and the package stays pure Go.
package java

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const Parser = "java/scan@1"

// maxNesting bounds how deeply type declarations nest, so that no input
// recurses without bound (javac has no such limit; real code nests a few).
const maxNesting = 100

// Extract is the Java extractor. It lexes src (Java 17: text blocks,
// records, sealed classes; unicode escapes outside literals and comments
// are refused), matches its brackets, and parses the declaration structure:
// package, imports, and the type declarations with their members. Method
// and initializer bodies, field initializers and enum constant bodies are
// only bracket-matched: local and anonymous classes and lambdas are not
// symbols.
//
// Symbols: types (class, interface, enum, record, @interface) named Outer
// or Outer.Inner; methods and annotation type elements Type.method;
// constructors (a record's compact one too) Type.Type. The package is not
// part of the name. A symbol ranges from its first annotation or modifier
// (or its keyword, type parameters or type) to its closing brace or ';'; a
// doc comment is not part of it. Overloads, methods and constructors of
// one name in one type, are one symbol ranging from the first one's first
// line to the last one's last line. A name declared twice otherwise (two
// types, or a type and a method, of one name in one scope) is ambiguous.
// Every symbol of a test file ([language.IsTest]) is of kind test, and so are, in
// any file, the methods that are tests by their annotations or class
// ([isTestMethod]) and the types that declare them.
//
// Imports are the import declarations as written without spaces
// ("java.util.List", "java.util.*", "static org.junit.Assert.assertEquals");
// Package is the package declaration's name. Calls are the lexical call
// sites inside methods and constructors: f(...) and this.f(...) unqualified,
// x.f(...) qualified by x, a longer receiver by ".", new T(...) by "new",
// and method references T::f by T.
//
// A src that does not lex, has unbalanced brackets, or whose declarations
// do not parse yields a [scanner.Error] for the first problem, printed as
// path:line:col: message (col counts bytes). A syntax error inside a body
// that leaves its brackets balanced is not detected: it cannot move a range.
func Extract(path string, src []byte) (*lang.File, error) {
	return scan.Extract(path, src, lex, parse)
}

// parse matches the brackets of the tokens l found and parses them into the
// file's symbols, imports and calls.
func parse(s *scan.Source, l *lexer) (*lang.File, *scan.Error) {
	p := &parser{src: s.Src, path: s.Path, toks: l.toks}
	p.matchBrackets()
	if p.err == nil {
		p.file()
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
	name       string // Outer.Inner.m
	typ        bool   // a type; else a method or constructor
	test       bool
	start, end int // token indices of the first and last token
}

// parser walks the code tokens of one file (comments are not tokens).
type parser struct {
	src     []byte
	path    string
	toks    []tok
	match   []int32 // for an open bracket, the index of its closing one
	err     *scan.Error
	pkg     string
	imports []string
	decls   []decl
	calls   []lang.Call
	// For the token hash: the ';' of empty declarations, the ';' that ends
	// each enum's constants (sorted), and the brackets after a method's
	// parameters (int m()[]), which belong to its return type.
	emptyDecls []int
	enumSemis  []int
	methodDims []move
}

func (p *parser) text(i int) string {
	if i >= len(p.toks) {
		return ""
	}
	t := p.toks[i]
	return string(p.src[t.off:t.end])
}

func (p *parser) is(i int, s string) bool {
	if i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return int(t.end-t.off) == len(s) && string(p.src[t.off:t.end]) == s
}

func (p *parser) ident(i int) bool {
	return i < len(p.toks) && p.toks[i].kind == tIdent && !keywords[p.text(i)]
}

// failAt records the first error, at token i (the end of the file past the
// last token).
func (p *parser) failAt(i int, msg string) {
	if p.err != nil {
		return
	}
	off := len(p.src)
	if i < len(p.toks) {
		off = int(p.toks[i].off)
	}
	p.err = &scan.Error{Off: off, Msg: msg}
}

// expected fails at token i with "expected WHAT, found TOKEN".
func (p *parser) expected(i int, what string) {
	found := "end of file"
	if i < len(p.toks) {
		found = "'" + p.text(i) + "'"
	}
	p.failAt(i, "expected "+what+", found "+found)
}

// matchBrackets pairs every (, [ and { with its closing bracket.
func (p *parser) matchBrackets() {
	var bad *scan.Mismatch
	p.match, bad = scan.MatchBrackets(len(p.toks), p.bracket)
	if bad != nil {
		p.failAt(bad.At, bad.Message(func(i int) int { return int(p.toks[i].line) }))
	}
}

// bracket returns the bracket token i is, 0 when it is none.
func (p *parser) bracket(i int) byte {
	if t := p.toks[i]; t.kind == tOp && t.end-t.off == 1 {
		return p.src[t.off]
	}
	return 0
}

// file parses a compilation unit: package, imports, type declarations, or
// a module declaration.
func (p *parser) file() {
	i := 0
	j, _ := p.modifiers(i) // package annotations (package-info.java)
	if p.is(j, "package") {
		k, name := p.qualified(j + 1)
		if !p.is(k, ";") {
			p.expected(k, "';'")
			return
		}
		p.pkg, i = name, k+1
	}
	for p.err == nil && p.is(i, "import") {
		k := i + 1
		static := p.is(k, "static")
		if static {
			k++
		}
		k, name := p.qualified(k)
		if p.is(k, ".") && p.is(k+1, "*") {
			name, k = name+".*", k+2
		}
		if !p.is(k, ";") || name == "" {
			p.expected(k, "';'")
			return
		}
		if static {
			name = "static " + name
		}
		p.imports = append(p.imports, name)
		i = k + 1
	}
	for p.err == nil && i < len(p.toks) {
		if p.is(i, ";") {
			p.emptyDecls = append(p.emptyDecls, i)
			i++
			continue
		}
		j, _ := p.modifiers(i)
		if p.is(j, "module") || p.is(j, "open") && p.is(j+1, "module") {
			k := j
			for k < len(p.toks) && !p.is(k, "{") {
				k++
			}
			if k == len(p.toks) {
				p.expected(k, "'{'")
				return
			}
			i = int(p.match[k]) + 1
			continue
		}
		if !p.typeKeyword(j) {
			p.expected(j, "a class, interface, enum or record")
			return
		}
		i = p.typeDecl(i, j, "", 0)
	}
}

// qualified reads a dotted name from i; it returns the index after it and
// the name ("" when there is none).
func (p *parser) qualified(i int) (int, string) {
	if !p.ident(i) {
		return i, ""
	}
	var b strings.Builder
	b.WriteString(p.text(i))
	i++
	for p.is(i, ".") && p.ident(i+1) {
		b.WriteString(".")
		b.WriteString(p.text(i + 1))
		i += 2
	}
	return i, b.String()
}

// modifiers skips annotations and modifier keywords from i. It returns the
// index after them and the simple names of the annotations.
func (p *parser) modifiers(i int) (int, []string) {
	var annots []string
	for p.err == nil && i < len(p.toks) {
		switch {
		case p.is(i, "@") && !p.is(i+1, "interface"):
			k, name := p.qualified(i + 1)
			if name == "" {
				p.expected(i+1, "an annotation name")
				return i, annots
			}
			annots = append(annots, name[strings.LastIndexByte(name, '.')+1:])
			if p.is(k, "(") {
				k = int(p.match[k]) + 1
			}
			i = k
		case p.toks[i].kind == tIdent && modifierWords[p.text(i)]:
			i++
		case p.is(i, "sealed") && p.toks[i].kind == tIdent && p.declFollows(i+1):
			i++
		case p.is(i, "non") && p.is(i+1, "-") && p.is(i+2, "sealed") &&
			p.toks[i].end == p.toks[i+1].off && p.toks[i+1].end == p.toks[i+2].off:
			i += 3
		default:
			return i, annots
		}
	}
	return i, annots
}

// declFollows reports whether token i starts a modifier or a type keyword,
// which makes the contextual keyword before it a modifier.
func (p *parser) declFollows(i int) bool {
	return p.is(i, "@") || p.is(i, "non") || p.is(i, "sealed") ||
		i < len(p.toks) && modifierWords[p.text(i)] || p.typeKeyword(i)
}

// typeKeyword reports whether a type declaration's keyword is at i.
func (p *parser) typeKeyword(i int) bool {
	switch {
	case p.is(i, "class"), p.is(i, "interface"), p.is(i, "enum"):
		return true
	case p.is(i, "@"):
		return p.is(i+1, "interface")
	case p.is(i, "record"):
		return p.ident(i+1) && (p.is(i+2, "(") || p.is(i+2, "<"))
	}
	return false
}

// typeDecl parses the type declaration whose modifiers start at start and
// keyword is at kw, inside the type outer ("" at top level). It returns the
// index after it.
func (p *parser) typeDecl(start, kw int, outer string, depth int) int {
	if depth >= maxNesting {
		p.failAt(kw, "type declarations nest too deeply")
		return len(p.toks)
	}
	kind := p.text(kw)
	n := kw + 1
	if kind == "@" {
		kind, n = "@interface", kw+2
	}
	if !p.ident(n) {
		p.expected(n, "a type name")
		return len(p.toks)
	}
	simple := p.text(n)
	name := simple
	if outer != "" {
		name = outer + "." + simple
	}
	// The header: type parameters, record components, extends, implements
	// and permits clauses, up to the body's brace.
	k := n + 1
	for ; k < len(p.toks) && !p.is(k, "{"); k++ {
		switch {
		case p.is(k, "("), p.is(k, "["):
			k = int(p.match[k])
		case p.is(k, ";"), p.is(k, "}"), p.is(k, ")"), p.is(k, "]"), p.is(k, "="):
			p.expected(k, "'{'")
			return len(p.toks)
		}
	}
	if k == len(p.toks) {
		p.expected(k, "'{'")
		return len(p.toks)
	}
	close := int(p.match[k])
	di := len(p.decls)
	p.decls = append(p.decls, decl{name: name, typ: true, start: start, end: close})
	junit3 := false
	for h := n + 1; h < k; h++ {
		if p.is(h, "extends") && p.is(h+1, "TestCase") || p.is(h, ".") && p.is(h+1, "TestCase") {
			junit3 = true
		}
	}
	_, annots := p.modifiers(start)
	body := &typeBody{name: name, simple: simple, kind: kind, junit3: junit3,
		testng: slices.Contains(annots, "Test")}
	i := k + 1
	if kind == "enum" {
		i = p.enumConstants(i, close)
	}
	for p.err == nil && i < close {
		i = p.member(i, close, body, depth)
	}
	if body.tests {
		p.decls[di].test = true
	}
	return close + 1
}

// typeBody is the type whose body the parser is in.
type typeBody struct {
	name, simple, kind string
	junit3, testng     bool // extends TestCase; annotated @Test (TestNG)
	tests              bool // declares a test method
}

// enumConstants skips an enum's constants from i up to the ';' that ends
// them (returning the index after it) or the body's end.
func (p *parser) enumConstants(i, close int) int {
	for p.err == nil && i < close {
		switch {
		case p.is(i, ";"):
			p.enumSemis = append(p.enumSemis, i)
			if i+1 == close {
				p.emptyDecls = append(p.emptyDecls, i)
			}
			return i + 1
		case p.is(i, ","):
			i++
			continue
		}
		j, _ := p.modifiers(i)
		if !p.ident(j) {
			p.expected(j, "an enum constant")
			return close
		}
		j++
		if p.is(j, "(") {
			j = int(p.match[j]) + 1
		}
		if p.is(j, "{") {
			j = int(p.match[j]) + 1
		}
		if !p.is(j, ",") && !p.is(j, ";") && j != close {
			p.expected(j, "',', ';' or '}'")
			return close
		}
		i = j
	}
	return i
}

// member parses one member declaration of a type body from i and returns
// the index after it.
func (p *parser) member(i, close int, t *typeBody, depth int) int {
	switch {
	case p.is(i, ";"):
		p.emptyDecls = append(p.emptyDecls, i)
		return i + 1
	case p.is(i, "{"):
		return int(p.match[i]) + 1
	case p.is(i, "static") && p.is(i+1, "{"):
		return int(p.match[i+1]) + 1
	}
	j, annots := p.modifiers(i)
	if p.err != nil {
		return close
	}
	if p.typeKeyword(j) {
		return p.typeDecl(i, j, t.name, depth+1)
	}
	if p.is(j, "<") {
		j = p.typeArgs(j)
	}
	switch {
	case p.err != nil:
		return close
	case p.ident(j) && p.is(j+1, "("):
		if p.text(j) != t.simple {
			p.failAt(j, "invalid method declaration; return type required")
			return close
		}
		return p.method(i, j, true, t, annots, close)
	case t.kind == "record" && p.is(j, t.simple) && p.is(j+1, "{"):
		return p.method(i, j, true, t, annots, close)
	}
	k := p.skipType(j)
	if p.err != nil {
		return close
	}
	if !p.ident(k) {
		p.expected(k, "a member name")
		return close
	}
	if p.is(k+1, "(") {
		return p.method(i, k, false, t, annots, close)
	}
	// A field: up to its ';', over initializers' brackets.
	for k++; k < close; k++ {
		switch {
		case p.is(k, ";"):
			return k + 1
		case p.is(k, "("), p.is(k, "["), p.is(k, "{"):
			k = int(p.match[k])
		}
	}
	p.expected(close, "';'")
	return close
}

// method parses a method or constructor (ctor) whose modifiers start at
// start and name is at n; it returns the index after it.
func (p *parser) method(start, n int, ctor bool, t *typeBody, annots []string, close int) int {
	name := t.name + "." + p.text(n)
	k := n + 1
	if p.is(k, "(") {
		k = int(p.match[k]) + 1
	}
	dims := k
	for p.is(k, "[") && p.is(k+1, "]") {
		k += 2
	}
	if k > dims {
		p.methodDims = append(p.methodDims, move{at: n, from: dims, to: k})
	}
	if p.is(k, "throws") {
		k++
		for p.err == nil {
			k = p.skipType(k)
			if !p.is(k, ",") {
				break
			}
			k++
		}
	}
	if p.is(k, "default") {
		for k++; k < close && !p.is(k, ";"); k++ {
			if p.is(k, "(") || p.is(k, "[") || p.is(k, "{") {
				k = int(p.match[k])
			}
		}
	}
	var end int
	switch {
	case p.err != nil:
		return close
	case p.is(k, ";"):
		end = k
	case p.is(k, "{"):
		end = int(p.match[k])
		p.bodyCalls(name, k+1, end)
	default:
		p.expected(k, "'{' or ';'")
		return close
	}
	public := p.isPublic(start, n)
	test := isTestMethod(annots) || t.junit3 && public && isJUnit3Name(p.text(n)) || t.testng && public && !ctor
	if test {
		t.tests = true
	}
	p.decls = append(p.decls, decl{name: name, test: test, start: start, end: end})
	return end + 1
}

// isPublic reports whether the modifiers between start and n hold public.
func (p *parser) isPublic(start, n int) bool {
	for i := start; i < n; i++ {
		if p.is(i, "public") {
			return true
		}
	}
	return false
}

// typeArgs skips the type parameters or arguments that open at i ('<') and
// returns the index after the matching '>'.
func (p *parser) typeArgs(i int) int {
	depth := 0
	for k := i; k < len(p.toks); k++ {
		switch {
		case p.is(k, "<"):
			depth++
		case p.is(k, ">"):
			depth--
			if depth == 0 {
				return k + 1
			}
		case p.is(k, "("):
			k = int(p.match[k])
		case p.toks[k].kind != tIdent && !p.is(k, ",") && !p.is(k, ".") && !p.is(k, "?") &&
			!p.is(k, "&") && !p.is(k, "@") && !p.is(k, "[") && !p.is(k, "]"):
			p.expected(k, "'>'")
			return len(p.toks)
		}
	}
	p.expected(len(p.toks), "'>'")
	return len(p.toks)
}

// skipType skips a type from i: annotations, a dotted name with type
// arguments, and array dimensions. It returns the index after it.
func (p *parser) skipType(i int) int {
	i, _ = p.modifiers(i)
	if i >= len(p.toks) || p.toks[i].kind != tIdent || keywords[p.text(i)] && !primitives[p.text(i)] {
		p.expected(i, "a type")
		return len(p.toks)
	}
	i++
	for p.err == nil {
		if p.is(i, "<") {
			i = p.typeArgs(i)
			continue
		}
		if p.is(i, ".") && (p.ident(i+1) || p.is(i+1, "@")) {
			i, _ = p.modifiers(i + 1)
			if !p.ident(i) {
				p.expected(i, "a type name")
				return len(p.toks)
			}
			i++
			continue
		}
		break
	}
	for p.err == nil {
		k, _ := p.modifiers(i)
		if !p.is(k, "[") || !p.is(k+1, "]") {
			break
		}
		i = k + 2
	}
	return i
}

// bodyCalls records the call sites of the body tokens [from, to) of the
// method or constructor from.
func (p *parser) bodyCalls(from string, lo, hi int) {
	for k := lo; k < hi; k++ {
		if p.is(k, "::") && k+1 < hi && p.ident(k+1) && k > lo && p.ident(k-1) {
			qual := p.text(k - 1)
			if k-2 >= lo && p.is(k-2, ".") {
				qual = "."
			}
			p.calls = append(p.calls, lang.Call{From: from, Qual: qual, Name: p.text(k + 1), Line: int(p.toks[k+1].line)})
			continue
		}
		if !p.ident(k) || !p.is(k+1, "(") {
			continue
		}
		c := lang.Call{From: from, Name: p.text(k), Line: int(p.toks[k].line)}
		if k > lo {
			prev := p.text(k - 1)
			switch {
			case prev == "new":
				c.Qual = "new"
			case prev == ".":
				switch {
				case k-2 >= lo && p.is(k-2, "this") && !p.is(k-3, "."):
				case k-2 >= lo && p.ident(k-2) && !p.is(k-3, "."):
					c.Qual = p.text(k - 2)
				default:
					c.Qual = "."
				}
			case p.ident(k-1) || primitives[prev] || prev == ">" || prev == "]":
				continue // a method declared in a local or anonymous class
			}
		}
		p.calls = append(p.calls, c)
	}
}

// symbols turns the parser's declarations into f's symbols and ambiguous
// names: overloads merge, other repeats are ambiguous.
func (p *parser) symbols(f *lang.File, starts []int) {
	type group struct {
		d        decl
		n, types int
	}
	testFile := lang.IsTest(Language, p.path, "")
	groups := map[string]*group{}
	var order []string
	for _, d := range p.decls {
		g := groups[d.name]
		if g == nil {
			groups[d.name] = &group{d: d, n: 1, types: b2i(d.typ)}
			order = append(order, d.name)
			continue
		}
		g.n++
		g.types += b2i(d.typ)
		g.d.start = min(g.d.start, d.start)
		g.d.end = max(g.d.end, d.end)
		g.d.test = g.d.test || d.test
	}
	for _, name := range order {
		g := groups[name]
		if g.n > 1 && g.types > 0 {
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
		s := lang.Symbol{Name: name, Kind: kind, Start: int(p.toks[g.d.start].line)}
		last := p.toks[g.d.end]
		s.End = lang.LineOf(starts, int(last.end)-1)
		s.StartOff, s.EndOff = starts[s.Start-1], lang.LineEnd(p.src, starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	f.SortSymbols()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// modifierWords are the modifier keywords (sealed and non-sealed are
// contextual, see [parser.modifiers]).
var modifierWords = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "abstract": true,
	"final": true, "native": true, "synchronized": true, "transient": true, "volatile": true,
	"strictfp": true, "default": true,
}

// primitives are the primitive types and void.
var primitives = map[string]bool{
	"boolean": true, "byte": true, "char": true, "short": true, "int": true, "long": true,
	"float": true, "double": true, "void": true,
}

// keywords are Java's reserved words and literals: never a name.
var keywords = map[string]bool{
	"abstract": true, "assert": true, "boolean": true, "break": true, "byte": true, "case": true,
	"catch": true, "char": true, "class": true, "const": true, "continue": true, "default": true,
	"do": true, "double": true, "else": true, "enum": true, "extends": true, "final": true,
	"finally": true, "float": true, "for": true, "goto": true, "if": true, "implements": true,
	"import": true, "instanceof": true, "int": true, "interface": true, "long": true, "native": true,
	"new": true, "package": true, "private": true, "protected": true, "public": true, "return": true,
	"short": true, "static": true, "strictfp": true, "super": true, "switch": true,
	"synchronized": true, "this": true, "throw": true, "throws": true, "transient": true, "try": true,
	"void": true, "volatile": true, "while": true, "true": true, "false": true, "null": true,
	"_": true,
}
