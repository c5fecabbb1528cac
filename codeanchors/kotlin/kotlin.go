// Package kotlin is tracewiki's Kotlin language: symbols and line ranges
// (SPEC 1.3), token hashes that survive a formatter's typical edits,
// imports resolved through package declarations and Gradle source roots,
// lexical call hints, JUnit and kotlin.test test symbols, and Gradle JUnit
// XML report matching.
//
// It reads source with a hand-written lexer and a declaration parser: no
// Kotlin toolchain runs, and the package stays pure Go.
package kotlin

import (
	"strings"
	"unicode"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const Parser = "kotlin/scan@3"

// maxNesting bounds how deeply declarations nest, so that no input recurses
// without bound.
const maxNesting = 100

// Extract is the Kotlin extractor for .kt and .kts files. It lexes src
// (nested comments, string templates with nested code, raw strings,
// backtick names), matches its brackets, and parses the declaration
// structure: file annotations, package, imports, and the declarations with
// their members. Function bodies, initializers, property initializers and
// accessors, and enum entry bodies are only skipped: local functions and
// classes, lambdas and object expressions are not symbols. Where a body
// without braces ends (an expression body fun f() = ..., a property's
// initializer, a script's statement) follows Kotlin's semicolon
// inference: at a line break, unless the line ends in a token that needs
// more (an operator, '=', ',', '.', else, the condition of an if) or the
// next line starts with one that continues (. ?. ?: && || as else catch
// finally = by).
//
// Symbols (SPEC 1.3):
//   - classes, interfaces (fun interface too), enum, data, sealed, value
//     and annotation classes, objects and type aliases: types, named Outer
//     or Outer.Inner;
//   - a companion object is a type named Type.Companion (Type.Name when it
//     has a name), and its members are Type.Companion.f;
//   - functions in a type: Type.f (kind method); a member extension
//     function (fun String.f() inside class A) is A.f;
//   - a primary constructor written with parentheses or the constructor
//     keyword: Type.Type, from its first annotation or modifier (or the
//     constructor keyword, or '(') to its ')'; secondary constructors, all
//     of them together: Type.constructor;
//   - top-level functions: f (kind func); top-level extension functions:
//     Receiver.f, the receiver type as written without type arguments and
//     '?' (fun <T> List<T>?.f() is List.f; a parenthesized function-type
//     receiver gives f). When the file declares a type named like the
//     receiver (its full or simple name), Receiver.f is ambiguous.
//
// Properties, init blocks and enum entries are not symbols. Backtick names
// keep their letters, digits, '_' and '$'; every other run of characters
// becomes '_' (`adds an item`() is adds_an_item), so that a target can
// name them; a name that is then "_" (Kotlin reserves _) is no symbol,
// and neither is what it encloses. The package is not part of a name.
//
// A symbol ranges from its first annotation or modifier (or its keyword)
// to its closing brace, or to the last token of its header, expression
// body, or aliased type; KDoc and other comments before it are not part of
// it. Functions of one name in one scope (overloads) are one symbol from
// the first one's first line to the last one's last line; a name declared
// twice otherwise (two types, or a type and a function) is ambiguous.
// Every symbol of a test file ([language.IsTest]) is of kind test, and so
// are, in any file, the functions annotated as tests ([isTestFunction])
// and the types that declare them.
//
// Imports are the import directives without spaces and without their
// alias ("kotlinx.coroutines.flow.Flow", "java.util.*"), the alias in
// ImportNames; Package is the package header's name. Calls are the
// lexical call sites inside function and constructor bodies: f(...) and
// this.f(...) unqualified, x.f(...) qualified by x, a longer receiver by
// ".", and callable references T::f by T.
//
// Top-level statements are allowed in scripts (.kts) only. A src that does
// not lex, has unbalanced brackets, or whose declarations do not parse
// yields a [scanner.Error] for the first problem, printed as
// path:line:col: message (col counts bytes). A syntax error inside a body
// that leaves its brackets balanced is not detected: it cannot move a
// range.
func Extract(path string, src []byte) (*lang.File, error) {
	return scan.Extract(path, src, lex, parse)
}

// parse matches the brackets of the tokens l found and parses them into the
// file's symbols, imports and calls.
func parse(s *scan.Source, l *lexer) (*lang.File, *scan.Error) {
	p := &parser{src: s.Src, str: string(s.Src), path: s.Path, script: strings.HasSuffix(strings.ToLower(s.Path), ".kts"), toks: l.toks}
	p.matchBrackets()
	if p.err == nil {
		p.file()
	}
	if p.err != nil {
		return nil, p.err
	}
	f := &lang.File{Path: s.Path, Parser: Parser, Package: p.pkg, Imports: p.imports, ImportNames: p.importNames, Comments: l.Comments}
	p.symbols(f, s.Starts)
	f.Calls = scan.KeepCalls(f, p.calls)
	f.Tokens = p.hashTokens()
	return f, nil
}

// Declaration kinds.
const (
	dType = iota
	dFunc
	dMethod
)

// decl is one declaration the parser found.
type decl struct {
	name       string // Outer.Inner.f
	kind       int
	recv       string // a top-level extension function's receiver
	test       bool
	start, end int // token indices of the first and last token
}

// parser walks the code tokens of one file (comments are not tokens).
type parser struct {
	src         []byte
	str         string // src as a string, once: token texts are slices of it
	path        string
	script      bool // a .kts file: top-level statements are allowed
	toks        []tok
	match       []int32 // for an open bracket, the index of its closing one
	err         *scan.Error
	pkg         string
	imports     []string
	importNames []string
	decls       []decl
	calls       []lang.Call
	// For the token hash: the modifier runs of declarations (start index →
	// end index), the token ranges of import directives, and tokens a
	// formatter may add or remove (an empty class body, ': Unit' before a
	// block body).
	modRuns  map[int]int
	importAt [][2]int
	drop     []int
	params   map[int]bool // the '(' of declared parameter lists
	// exprBodies are the block bodies { return x } and { throw x } of one
	// statement (the '{' and the '}'), which ktlint's function-expression-body
	// writes = x and = throw x.
	exprBodies [][2]int
}

func (p *parser) text(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	t := p.toks[i]
	return p.str[t.off:t.end]
}

func (p *parser) is(i int, s string) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return int(t.end-t.off) == len(s) && string(p.src[t.off:t.end]) == s
}

// ident reports whether token i is a name: an identifier that is not a
// hard keyword, or a backtick name.
func (p *parser) ident(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent && !hardKeywords[p.text(i)]
}

// newline reports whether a line break separates tokens a and b (a < b).
func (p *parser) newline(a, b int) bool {
	return a >= 0 && b < len(p.toks) && p.toks[b].line > p.toks[a].eline
}

// adjacent reports whether token b starts right where token a ends.
func (p *parser) adjacent(a, b int) bool {
	return a >= 0 && b < len(p.toks) && p.toks[a].end == p.toks[b].off
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

func (p *parser) open(i int) bool {
	return p.is(i, "(") || p.is(i, "[") || p.is(i, "{")
}

func (p *parser) closing(i int) bool {
	return p.is(i, ")") || p.is(i, "]") || p.is(i, "}")
}

// file parses a Kotlin file: file annotations, package header, imports,
// then declarations (and, in a script, statements).
func (p *parser) file() {
	i := 0
	for p.is(i, "@") && p.is(i+1, "file") && p.is(i+2, ":") {
		i = p.annotation(i)
	}
	if p.is(i, "package") {
		k, name := p.qualified(i + 1)
		if name == "" {
			p.expected(k, "a package name")
			return
		}
		p.pkg, i = name, k
		if p.is(i, ";") {
			i++
		}
	}
	for p.err == nil && p.is(i, "import") {
		k, name := p.qualified(i + 1)
		if name == "" {
			p.expected(k, "an import path")
			return
		}
		if p.is(k, ".") && p.is(k+1, "*") {
			name, k = name+".*", k+2
		}
		alias := ""
		if p.is(k, "as") && p.ident(k+1) {
			alias, k = p.name(k+1), k+2
		}
		p.imports = append(p.imports, name)
		p.importNames = append(p.importNames, alias)
		p.importAt = append(p.importAt, [2]int{i, k})
		i = k
		if p.is(i, ";") {
			i++
		}
	}
	p.declarations(i, len(p.toks), "", 0, false)
}

// modRun records the modifiers of a declaration, tokens [i, j), for the
// token hash.
func (p *parser) modRun(i, j int) {
	if j > i+1 {
		if p.modRuns == nil {
			p.modRuns = map[int]int{}
		}
		p.modRuns[i] = j
	}
}

// param records the '(' of a declaration's parameters at i: the token
// hash keeps it (only a call's empty parentheses before a lambda go).
func (p *parser) param(i int) {
	if p.params == nil {
		p.params = map[int]bool{}
	}
	p.params[i] = true
}

// qualified reads a dotted name from i; it returns the index after it and
// the name ("" when there is none).
func (p *parser) qualified(i int) (int, string) {
	if !p.ident(i) {
		return i, ""
	}
	var b strings.Builder
	b.WriteString(p.name(i))
	i++
	for p.is(i, ".") && p.ident(i+1) {
		b.WriteString(".")
		b.WriteString(p.name(i + 1))
		i += 2
	}
	return i, b.String()
}

// name returns the name token i stands for: a backtick name without its
// backticks, every run of characters other than letters, digits, '_' and
// '$' made one '_', and a leading digit preceded by '_'.
func (p *parser) name(i int) string {
	s := p.text(i)
	if !strings.HasPrefix(s, "`") {
		return s
	}
	return BacktickName(s[1 : len(s)-1])
}

// BacktickName returns the symbol name of a backtick name's content: its
// letters, digits, '_' and '$', every other run of characters made one
// '_', and '_' before a leading digit. A test report names such a test
// with its content ("adds an item"); MatchTests compares through it.
func BacktickName(s string) string {
	var b strings.Builder
	under := false
	for _, r := range s {
		if r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if b.Len() == 0 && unicode.IsDigit(r) {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
			continue
		}
		if !under {
			b.WriteByte('_')
			under = true
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// annotation skips the annotation at i ('@') and returns the index after
// it: @Name, @a.b.Name, @Name<T>, @Name(arguments) with the '(' right after
// the name, a use-site target (@field:Name, @file:Name), or a list
// @[A B(c)] (also after a target).
func (p *parser) annotation(i int) int {
	k := i + 1
	if p.ident(k) && p.is(k+1, ":") && p.adjacent(k, k+1) && useSiteTargets[p.text(k)] {
		k += 2
	}
	if p.is(k, "[") {
		return int(p.match[k]) + 1
	}
	k2, name := p.qualified(k)
	if name == "" {
		p.expected(k, "an annotation name")
		return len(p.toks)
	}
	k = k2
	if p.is(k, "<") && p.adjacent(k-1, k) {
		k = p.skipAngles(k)
	}
	if p.is(k, "(") && p.adjacent(k-1, k) {
		k = int(p.match[k]) + 1
	}
	return k
}

// annotationName returns the simple name of the annotation at i ('@'),
// "" for a list.
func (p *parser) annotationName(i int) string {
	k := i + 1
	if p.ident(k) && p.is(k+1, ":") && useSiteTargets[p.text(k)] {
		k += 2
	}
	_, name := p.qualified(k)
	return name[strings.LastIndexByte(name, '.')+1:]
}

// modifiers skips annotations and modifier keywords from i. It returns the
// index after them and the simple names of the annotations. A soft
// modifier keyword counts only when a name, keyword or annotation follows
// it (data class, not data = 1); context(A, B) before a declaration
// (context receivers) is a modifier.
func (p *parser) modifiers(i int) (int, []string) {
	var annots []string
	for p.err == nil && i < len(p.toks) {
		switch {
		case p.is(i, "@"):
			if n := p.annotationName(i); n != "" {
				annots = append(annots, n)
			}
			i = p.annotation(i)
		case p.toks[i].kind == tIdent && modifierWords[p.text(i)] &&
			i+1 < len(p.toks) && (p.toks[i+1].kind == tIdent || p.is(i+1, "@")):
			i++
		case p.is(i, "context") && p.is(i+1, "(") && p.declFollows(int(p.match[i+1])+1):
			i = int(p.match[i+1]) + 1 // context receivers
		default:
			return i, annots
		}
	}
	return i, annots
}

// declFollows reports whether token i can start (the rest of) a
// declaration: a name or keyword, or an annotation.
func (p *parser) declFollows(i int) bool {
	return i < len(p.toks) && (p.toks[i].kind == tIdent || p.is(i, "@"))
}

// skipAngles skips the type parameters or arguments that open at i ('<')
// and returns the index after the matching '>'.
func (p *parser) skipAngles(i int) int {
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
		case p.is(k, "("), p.is(k, "["):
			k = int(p.match[k])
		case p.toks[k].kind == tIdent, p.is(k, ","), p.is(k, "."), p.is(k, "?"), p.is(k, ":"),
			p.is(k, "*"), p.is(k, "@"), p.is(k, "->"), p.is(k, "&"), p.toks[k].kind == tString:
		default:
			p.expected(k, "'>'")
			return len(p.toks)
		}
	}
	p.expected(len(p.toks), "'>'")
	return len(p.toks)
}

// skipType skips a type from i: annotations and suspend, a dotted name
// with type arguments or a parenthesized type or function type parameter
// list, '?', a function type's '->' and result, and T & Any. It returns
// the index after it.
func (p *parser) skipType(i int) int {
	for {
		i = p.skipTypeTerm(i)
		if p.err != nil || !p.is(i, "->") && !p.is(i, "&") {
			return i
		}
		i++
	}
}

// skipTypeTerm skips one type of [parser.skipType] up to a '->' or '&'.
func (p *parser) skipTypeTerm(i int) int {
	for p.err == nil {
		if p.is(i, "@") {
			i = p.annotation(i)
			continue
		}
		if p.is(i, "suspend") && (p.is(i+1, "(") || p.ident(i+1)) {
			i++
			continue
		}
		break
	}
	switch {
	case p.err != nil:
		return len(p.toks)
	case p.is(i, "("):
		i = int(p.match[i]) + 1
	case p.ident(i) || p.is(i, "*"):
		i++
		for p.err == nil {
			switch {
			case p.is(i, "<"):
				i = p.skipAngles(i)
				continue
			case p.is(i, ".") && p.ident(i+1):
				i += 2
				continue
			case p.is(i, ".") && p.is(i+1, "("):
				i = int(p.match[i+1]) + 1 // a receiver function type A.(B) -> C
				continue
			}
			break
		}
	default:
		p.expected(i, "a type")
		return len(p.toks)
	}
	for p.is(i, "?") {
		i++
	}
	return i
}

// declarations parses the declarations of a file (outer "") or of a
// type's body, tokens [i, end); members of an enum come after its entries.
func (p *parser) declarations(i, end int, outer string, depth int, enum bool) {
	if enum {
		i = p.enumEntries(i, end)
	}
	property := false // the previous member was a property: get and set are its accessors
	for p.err == nil && i < end {
		if p.is(i, ";") {
			i++
			continue
		}
		start := i
		j, annots := p.modifiers(i)
		if p.err != nil {
			return
		}
		p.modRun(start, j)
		wasProperty := property
		property = false
		switch {
		case p.is(j, "class"), p.is(j, "interface"), p.is(j, "object"):
			i = p.typeDecl(start, j, j, outer, depth)
		case p.is(j, "fun") && p.is(j+1, "interface"):
			i = p.typeDecl(start, j, j+1, outer, depth)
		case p.is(j, "fun") && (outer != "" || !p.script || p.namedFun(j)):
			i = p.function(start, j, outer, annots, end)
		case p.is(j, "val"), p.is(j, "var"):
			i = p.property(j, end)
			property = true
		case p.is(j, "typealias"):
			i = p.typeAlias(start, j, outer)
		case outer != "" && p.is(j, "constructor") && p.is(j+1, "("):
			i = p.secondaryConstructor(start, j, outer, end)
		case outer != "" && p.is(j, "init") && p.is(j+1, "{"):
			i = int(p.match[j+1]) + 1
		case wasProperty && (p.is(j, "get") || p.is(j, "set")):
			i = p.accessor(j, end)
			property = true
		case outer == "" && p.script:
			i = p.exprEnd(j, end) + 1
		case outer == "":
			p.expected(j, "a declaration (top-level statements are allowed in .kts scripts only)")
			return
		default:
			p.expected(j, "a member declaration")
			return
		}
	}
}

// namedFun reports whether the fun at i declares a named function, not an
// anonymous function expression (a script statement).
func (p *parser) namedFun(i int) bool {
	k := i + 1
	if p.is(k, "<") {
		k = p.skipAngles(k)
	}
	if p.is(k, "(") {
		c := int(p.match[k])
		return p.is(c+1, ".") || p.is(c+1, "?.") || p.is(c+1, "?") && p.is(c+2, ".")
	}
	return p.ident(k)
}

// enumEntries skips an enum's entries from i up to the ';' that ends them
// (returning the index after it) or the body's end.
func (p *parser) enumEntries(i, end int) int {
	for p.err == nil && i < end {
		switch {
		case p.is(i, ";"):
			return i + 1
		case p.is(i, ","):
			i++
			continue
		}
		j, _ := p.modifiers(i)
		if !p.ident(j) {
			p.expected(j, "an enum entry")
			return end
		}
		j++
		if p.is(j, "(") {
			j = int(p.match[j]) + 1
		}
		if p.is(j, "{") {
			j = int(p.match[j]) + 1
		}
		if !p.is(j, ",") && !p.is(j, ";") && j != end {
			p.expected(j, "',', ';' or '}'")
			return end
		}
		i = j
	}
	return i
}

// typeDecl parses a class, interface, object or companion object whose
// modifiers start at start and keyword is at kw (for fun interface, kw is
// the interface), inside the type outer ("" at top level). It returns the
// index after it.
func (p *parser) typeDecl(start, first, kw int, outer string, depth int) int {
	if depth >= maxNesting {
		p.failAt(kw, "declarations nest too deeply")
		return len(p.toks)
	}
	companion := false
	enum := false
	for k := start; k < first; k++ {
		if p.is(k, "@") {
			k = p.annotation(k) - 1
			continue
		}
		companion = companion || p.is(k, "companion")
		enum = enum || p.is(k, "enum")
	}
	object := p.is(kw, "object")
	n := kw + 1
	var simple string
	switch {
	case p.ident(n) && !(companion && (p.is(n, "where") || p.is(n, "by"))):
		simple = p.name(n)
	case object && companion:
		simple, n = "Companion", kw
	default:
		p.expected(n, "a type name")
		return len(p.toks)
	}
	name := simple
	if outer != "" {
		name = outer + "." + simple
	}
	di := len(p.decls)
	p.decls = append(p.decls, decl{name: name, kind: dType, start: start})
	k := n + 1
	if p.is(k, "<") {
		k = p.skipAngles(k)
	}
	// The primary constructor.
	if !object {
		m, _ := p.modifiers(k)
		switch {
		case p.is(m, "constructor") && p.is(m+1, "("):
			p.modRun(k, m)
			p.param(m + 1)
			c := int(p.match[m+1])
			p.decls = append(p.decls, decl{name: name + "." + simple, kind: dMethod, start: k, end: c})
			k = c + 1
		case p.is(k, "(") && !p.newline(k-1, k):
			p.param(k)
			c := int(p.match[k])
			p.decls = append(p.decls, decl{name: name + "." + simple, kind: dMethod, start: k, end: c})
			k = c + 1
		}
	}
	// The rest of the header: supertypes, delegation, constraints, up to
	// the body's brace or the end of the header's last line.
	last := k - 1
	body := -1
header:
	for p.err == nil && k < len(p.toks) {
		if p.newline(last, k) && !p.headerContinues(last, k) {
			break
		}
		switch {
		case p.is(k, "{"):
			body = k
			break header
		case p.is(k, ";"), p.closing(k), p.is(k, "="):
			break header
		case p.is(k, "("), p.is(k, "["):
			last = int(p.match[k])
		case p.is(k, "<"):
			last = p.skipAngles(k) - 1
		case p.is(k, "@"):
			last = p.annotation(k) - 1
		default:
			last = k
		}
		k = last + 1
	}
	if p.err != nil {
		return len(p.toks)
	}
	if body < 0 {
		p.decls[di].end = last
		return last + 1
	}
	close := int(p.match[body])
	p.decls[di].end = close
	if close == body+1 {
		p.drop = append(p.drop, body, close) // ktlint's no-empty-class-body
	}
	p.declarations(body+1, close, name, depth+1, enum)
	for _, d := range p.decls[di+1:] {
		if d.test && d.kind != dType && strings.HasPrefix(d.name, name+".") && !strings.Contains(d.name[len(name)+1:], ".") {
			p.decls[di].test = true
			break
		}
	}
	return close + 1
}

// headerContinues reports whether a declaration header goes on from token
// last to token next on a later line.
func (p *parser) headerContinues(last, next int) bool {
	switch p.text(next) {
	case ":", "{", ",", "where", "by", ".":
		return true
	}
	switch p.text(last) {
	case ",", ":", ".", "<", "by", "where", "->", "&", "@":
		return true
	}
	return false
}

// function parses a function whose modifiers start at start and fun
// keyword is at kw, in the type outer ("" at top level); it returns the
// index after it.
func (p *parser) function(start, kw int, outer string, annots []string, end int) int {
	k := kw + 1
	if p.is(k, "<") {
		k = p.skipAngles(k)
	}
	parenRecv := false
	if p.is(k, "(") {
		c := int(p.match[k])
		k = c + 1
		for p.is(k, "?") {
			k++
		}
		if !p.is(k, ".") && !p.is(k, "?.") {
			p.expected(k, "a function name")
			return len(p.toks)
		}
		parenRecv = true
		k++
	}
	k, recv, nameTok := p.dottedName(k, "a function name")
	if p.err != nil {
		return len(p.toks)
	}
	if !p.is(k, "(") {
		p.expected(k, "'('")
		return len(p.toks)
	}
	p.param(k)
	k = int(p.match[k]) + 1
	last := k - 1
	if p.is(k, ":") {
		unit := k
		k = p.skipType(k + 1)
		last = k - 1
		if k == unit+2 && p.is(unit+1, "Unit") && p.is(k, "{") {
			p.drop = append(p.drop, unit, unit+1) // ktlint's no-unit-return
		}
	}
	if p.is(k, "where") {
		k, last = p.constraints(k)
	}
	if p.err != nil {
		return len(p.toks)
	}
	simple := p.name(nameTok)
	d := decl{name: simple, kind: dFunc, start: start, test: isTestFunction(annots)}
	switch {
	case outer != "":
		d.name, d.kind = outer+"."+simple, dMethod
	case len(recv) > 0 || parenRecv:
		if len(recv) > 0 {
			d.recv = strings.Join(recv, ".")
			d.name = d.recv + "." + simple
		}
	}
	switch {
	case p.is(k, "{"):
		d.end = int(p.match[k])
		p.bodyCalls(d.name, k+1, d.end)
		p.singleReturn(k, d.end)
	case p.is(k, "="):
		d.end = p.exprEnd(k+1, end)
		p.bodyCalls(d.name, k+1, d.end+1)
	default:
		d.end = last
	}
	p.decls = append(p.decls, d)
	return d.end + 1
}

// singleReturn records the block body from open to close when it is one
// return or throw statement (see [parser.exprBodies]).
func (p *parser) singleReturn(open, close int) {
	first := open + 1
	if p.is(first, "return") && !p.is(first+1, "@") {
		first++
	} else if !p.is(first, "throw") {
		return
	}
	if first >= close {
		return
	}
	if e := p.exprEnd(first, close); e == close-1 || e == close-2 && p.is(close-1, ";") {
		p.exprBodies = append(p.exprBodies, [2]int{open, close})
	}
}

// dottedName reads a declaration's name from k, after the receiver type
// it may have (a.b.Recv<T>?.name): it returns the index after the name,
// the receiver's names and the name's token index.
func (p *parser) dottedName(k int, what string) (next int, recv []string, name int) {
	for {
		if !p.ident(k) {
			p.expected(k, what)
			return len(p.toks), nil, -1
		}
		name = k
		k++
		if p.is(k, "<") {
			k = p.skipAngles(k)
		}
		for p.is(k, "?") {
			k++
		}
		if p.err != nil || !p.is(k, ".") && !p.is(k, "?.") {
			return k, recv, name
		}
		recv = append(recv, p.name(name))
		k++
	}
}

// constraints skips a where clause at k: T : A, U : B. It returns the
// index after it and its last token.
func (p *parser) constraints(k int) (int, int) {
	k++
	for p.err == nil {
		k, _ = p.modifiers(k)
		if !p.ident(k) || !p.is(k+1, ":") {
			p.expected(k, "a type constraint")
			return len(p.toks), len(p.toks) - 1
		}
		k = p.skipType(k + 2)
		if !p.is(k, ",") {
			break
		}
		k++
	}
	return k, k - 1
}

// property skips a property declaration from its val or var at kw and
// returns the index after it; its accessors are separate members.
func (p *parser) property(kw, end int) int {
	k := kw + 1
	if p.is(k, "<") {
		k = p.skipAngles(k)
	}
	if p.is(k, "(") {
		k = int(p.match[k]) + 1
	} else {
		k, _, _ = p.dottedName(k, "a property name")
	}
	if p.is(k, ":") {
		k = p.skipType(k + 1)
	}
	if p.is(k, "where") {
		k, _ = p.constraints(k)
	}
	if p.err != nil {
		return len(p.toks)
	}
	if p.is(k, "=") || p.is(k, "by") {
		return p.exprEnd(k+1, end) + 1
	}
	return k
}

// accessor skips a property's getter or setter at kw and returns the index
// after it.
func (p *parser) accessor(kw, end int) int {
	k := kw + 1
	if !p.is(k, "(") || p.newline(kw, k) {
		return k
	}
	p.param(k)
	k = int(p.match[k]) + 1
	if p.is(k, ":") {
		k = p.skipType(k + 1)
	}
	switch {
	case p.is(k, "{"):
		return int(p.match[k]) + 1
	case p.is(k, "="):
		return p.exprEnd(k+1, end) + 1
	}
	return k
}

// typeAlias parses typealias Name<T> = Type at kw.
func (p *parser) typeAlias(start, kw int, outer string) int {
	n := kw + 1
	if !p.ident(n) {
		p.expected(n, "a type alias name")
		return len(p.toks)
	}
	k := n + 1
	if p.is(k, "<") {
		k = p.skipAngles(k)
	}
	if !p.is(k, "=") {
		p.expected(k, "'='")
		return len(p.toks)
	}
	k = p.skipType(k + 1)
	name := p.name(n)
	if outer != "" {
		name = outer + "." + name
	}
	p.decls = append(p.decls, decl{name: name, kind: dType, start: start, end: k - 1})
	return k
}

// secondaryConstructor parses constructor(...) : this(...) { ... } at kw.
func (p *parser) secondaryConstructor(start, kw int, outer string, end int) int {
	p.param(kw + 1)
	k := int(p.match[kw+1]) + 1
	last := k - 1
	if p.is(k, ":") && (p.is(k+1, "this") || p.is(k+1, "super")) && p.is(k+2, "(") {
		k = int(p.match[k+2]) + 1
		last = k - 1
	}
	d := decl{name: outer + ".constructor", kind: dMethod, start: start, end: last}
	if p.is(k, "{") {
		d.end = int(p.match[k])
		p.bodyCalls(d.name, k+1, d.end)
	}
	p.decls = append(p.decls, d)
	return d.end + 1
}

// exprEnd returns the index of the last token of the expression (or
// statement) that starts at i, before end: it runs over brackets and ends
// at a ';', a closing bracket, or a line break that Kotlin's semicolon
// inference takes as the end ([parser.continues]).
func (p *parser) exprEnd(i, end int) int {
	if i >= end {
		p.expected(i, "an expression")
		return end
	}
	k := i
	for {
		if p.open(k) {
			k = int(p.match[k])
		}
		next := k + 1
		if next >= end || p.is(next, ";") || p.closing(next) {
			return k
		}
		if p.newline(k, next) && !p.continues(k, next) {
			return k
		}
		k = next
	}
}

// continues reports whether the expression whose token last ends a line
// goes on with token next on a later line.
func (p *parser) continues(last, next int) bool {
	switch p.text(next) {
	case ".", "?.", "?:", "&&", "||", "as", "else", "catch", "finally", "=", "by", "::":
		return true
	}
	switch t := p.text(last); {
	case p.toks[last].kind == tOp:
		switch t {
		case ")", "]", "}", "?", "!!", "++", "--", "<", ">":
		default:
			return true
		}
	case p.toks[last].kind == tIdent:
		switch t {
		case "if", "else", "when", "try", "do", "throw", "in", "is", "as", "by", "while", "for":
			return true
		}
	}
	if p.annotationEnds(last) {
		return true // an annotated expression: @Suppress("x") on its own line
	}
	if p.is(last, ")") {
		o := int(p.match[last]) - 1
		switch {
		case p.is(o, "if"), p.is(o, "for"), p.is(o, "when"):
			return true
		case p.is(o, "while"):
			return !p.is(o-1, "}")
		}
	}
	return false
}

// annotationEnds reports whether token k ends an annotation (@a.B or
// @a.B(...)): not a label (return@outer, loop@).
func (p *parser) annotationEnds(k int) bool {
	if p.is(k, ")") {
		k = int(p.match[k]) - 1
	}
	for p.ident(k) && p.is(k-1, ".") {
		k -= 2
	}
	return p.ident(k) && p.is(k-1, "@") && !p.adjacent(k-2, k-1)
}

// bodyCalls records the call sites of the body tokens [lo, hi) of the
// function or constructor from.
func (p *parser) bodyCalls(from string, lo, hi int) {
	for k := lo; k < hi; k++ {
		if p.is(k, "::") && k+1 < hi && p.ident(k+1) && k > lo && p.ident(k-1) {
			qual := p.name(k - 1)
			if k-2 >= lo && (p.is(k-2, ".") || p.is(k-2, "?.")) {
				qual = "."
			}
			p.calls = append(p.calls, lang.Call{From: from, Qual: qual, Name: p.name(k + 1), Line: int(p.toks[k+1].line)})
			continue
		}
		if !p.ident(k) || !p.is(k+1, "(") || softKeywords[p.text(k)] {
			continue
		}
		c := lang.Call{From: from, Name: p.name(k), Line: int(p.toks[k].line)}
		if k > lo {
			prev := p.text(k - 1)
			switch {
			case prev == "fun":
				continue // a local function
			case prev == "." || prev == "?.":
				switch {
				case p.is(k-2, "this") && !p.is(k-3, ".") && !p.is(k-3, "?."):
				case k-2 >= lo && p.ident(k-2) && !p.is(k-3, ".") && !p.is(k-3, "?."):
					c.Qual = p.name(k - 2)
				default:
					c.Qual = "."
				}
			}
		}
		p.calls = append(p.calls, c)
	}
}

// symbols turns the parser's declarations into f's symbols and ambiguous
// names: overloads merge, other repeats are ambiguous, and so is a
// top-level extension function whose receiver the file declares as a
// type.
func (p *parser) symbols(f *lang.File, starts []int) {
	type group struct {
		d        decl
		n, types int
	}
	testFile := lang.IsTest(Language, p.path, "")
	types := map[string]bool{}
	for _, d := range p.decls {
		if d.kind == dType {
			types[d.name] = true
			types[d.name[strings.LastIndexByte(d.name, '.')+1:]] = true
		}
	}
	groups := map[string]*group{}
	var order []string
	for _, d := range p.decls {
		g := groups[d.name]
		if g == nil {
			g = &group{d: d}
			groups[d.name] = g
			order = append(order, d.name)
		} else {
			g.d.start = min(g.d.start, d.start)
			g.d.end = max(g.d.end, d.end)
			g.d.test = g.d.test || d.test
		}
		g.n++
		if d.kind == dType || d.recv != "" && types[d.recv] {
			g.types++
		}
	}
	for _, name := range order {
		g := groups[name]
		if blank(name) {
			continue // _ names nothing (Kotlin reserves it), nor does a backtick name of no letters
		}
		if g.types > 0 && (g.n > 1 || g.d.kind != dType) {
			f.Ambiguous = append(f.Ambiguous, name)
			continue
		}
		kind := lang.KindMethod
		switch {
		case g.d.test || testFile:
			kind = lang.KindTest
		case g.d.kind == dType:
			kind = lang.KindType
		case g.d.kind == dFunc:
			kind = lang.KindFunc
		}
		s := lang.Symbol{Name: name, Kind: kind, Start: int(p.toks[g.d.start].line)}
		s.End = int(p.toks[g.d.end].eline)
		s.StartOff, s.EndOff = starts[s.Start-1], lang.LineEnd(p.src, starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	f.SortSymbols()
}

// blank reports whether a part of the dotted name is "_".
func blank(name string) bool {
	return name == "_" || strings.HasPrefix(name, "_.") || strings.HasSuffix(name, "._") || strings.Contains(name, "._.")
}

// useSiteTargets are the annotation use-site targets (@field:Inject).
var useSiteTargets = map[string]bool{
	"field": true, "property": true, "get": true, "set": true, "receiver": true, "param": true,
	"setparam": true, "delegate": true, "file": true,
}

// modifierWords are Kotlin's modifier keywords (all soft).
var modifierWords = map[string]bool{
	"public": true, "protected": true, "private": true, "internal": true, "abstract": true,
	"final": true, "open": true, "override": true, "sealed": true, "data": true, "enum": true,
	"annotation": true, "inner": true, "value": true, "companion": true, "inline": true,
	"noinline": true, "crossinline": true, "reified": true, "tailrec": true, "operator": true,
	"infix": true, "external": true, "suspend": true, "const": true, "lateinit": true,
	"vararg": true, "expect": true, "actual": true,
}

// hardKeywords are Kotlin's hard keywords: never a name.
var hardKeywords = map[string]bool{
	"as": true, "break": true, "class": true, "continue": true, "do": true, "else": true,
	"false": true, "for": true, "fun": true, "if": true, "in": true, "interface": true, "is": true,
	"null": true, "object": true, "package": true, "return": true, "super": true, "this": true,
	"throw": true, "true": true, "try": true, "typealias": true, "typeof": true, "val": true,
	"var": true, "when": true, "while": true,
}

// softKeywords are the words that, followed by '(', are not calls.
var softKeywords = map[string]bool{"constructor": true, "init": true, "catch": true, "get": true, "set": true}
