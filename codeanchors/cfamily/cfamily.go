// Package cfamily is tracewiki's C and C++ language: symbols, ranges,
// tokens, includes and call hints of C and C++ sources and headers, read by
// a hand-written lexer, a preprocessor that never expands a macro, and a
// declaration pass, in pure Go.
package cfamily

import (
	"go/scanner"
	"go/token"
	"math"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version whenever
// the symbols, ranges or tokens it produces change.
const Parser = "cfamily/scan@2"

// Extract is the C and C++ extractor, for .c, .h, .cc, .cpp, .cxx, .c++,
// .hpp, .hh, .hxx, .h++, .ipp, .inl and .tpp files (one reading for both
// languages: a .h file may be either).
//
// Symbols. Functions are f; namespaces, classes, structs and unions nest
// with '.': ns.Class.method, Outer.Inner; an anonymous namespace adds
// nothing, and namespace a::b { } is a.b. An out-of-line definition
// Class::method or ns::Class::method is Class.method or ns.Class.method
// (ranging over the definition), qualified further by the namespaces it
// sits in. Constructors are Class.Class, destructors Class.~Class.
// Classes, structs, unions and enums defined with a body, typedef names,
// using aliases (using T = ...;) and concepts are types Name; a forward
// declaration (struct S;, enum E : int;) is not a symbol. Function-like
// macros (#define NAME(...)) are NAME, kind func. Operator overloads and
// conversion functions are not symbols (their names are not identifiers
// in target notation); nor are friend declarations, variables, fields,
// enumerators, namespaces themselves, or anything inside a function body
// or an anonymous struct. Tests: GoogleTest's TEST, TEST_F, TEST_P,
// TYPED_TEST, TYPED_TEST_P and GTEST_TEST (Suite, Name) give Suite.Name;
// Catch2 and doctest TEST_CASE, SCENARIO, TEST_CASE_METHOD, ... give the
// first string argument with every run of characters outside [A-Za-z0-9_]
// turned into one '_' and trimmed ("adds numbers" is adds_numbers); both
// are of kind test, as is a function the language's test naming rule
// ([Language]'s IsTest) names.
//
// Declarations without a body (prototypes, methods declared in a class
// body) are symbols when the file has no definition of the name: a header's
// prototype is the header's symbol, and a source file that declares a
// function and defines it later, or declares a method in its class and
// defines it out of line, has the definition as its symbol. Overloads (one
// name declared several times) are one symbol ranging from the first
// declaration to the last, as are a struct and a typedef of the same name
// (typedef struct S S;). A name defined in two branches of one #if group
// (#if/#elif/#else), a function and a type of one name (struct stat and
// stat()), a macro defined twice, a macro and a declaration of one name,
// and two tests of one name are ambiguous.
//
// A symbol ranges from its first token (the template keyword, an
// attribute such as [[nodiscard]] or __attribute__, a storage class or the
// return type) to its closing brace or ';'; a macro over its directive's
// lines. Doc comments are not part of it.
//
// The preprocessor: directives are read but never applied; no macro is
// expanded and no file included. A branch the preprocessor never takes
// (#if 0, the #else of #if 1) is skipped like a comment. Every other
// branch of a conditional is read, so that a name defined in #if and in
// #else is seen twice; but when a branch opens or closes a bracket it does
// not close or open (#ifdef __cplusplus / extern "C" { / #endif), only the
// first branch taken of that group is read. An identifier ending in
// _DECLS in capitals (__BEGIN_DECLS) is a marker, not part of the next
// declaration.
//
// Tokens are the lexical tokens without comments, whitespace or line
// splices, normalized so that clang-format cannot change them: ">>" is two
// tokens '>' (vector<vector<int>> is vector<vector<int> >), adjacent string
// literals of one kind are one token ("ab" "c" is "abc"), CRLF in a
// literal reads as LF, and the end of each directive is a token of its
// last line.
//
// Imports are the #include header names as written with their delimiters,
// "foo/bar.h" or <vector>, in source order, those under #if too (not those
// in a branch never taken). Calls are f(...), obj.f(...), p->f(...) and
// ns::f(...) inside function bodies, qualified by obj, p or "ns" (a::b
// for a::b::f), or by "." for a longer receiver; a call through a
// template-id (f<int>(x)) is not recorded.
//
// A src that does not lex (an unterminated comment, string or raw
// string), whose brackets do not balance, or whose conditionals are not
// closed (#endif without #if, #if without #endif) yields a
// [scanner.Error] for the first problem.
func Extract(path string, src []byte) (*lang.File, error) {
	x, err := extract(path, src)
	if err != nil {
		return nil, err
	}
	return x.file(), nil
}

// extraction is what [extract] read from one file, before symbols are
// grouped.
type extraction struct {
	path string
	l    *lexer
	p    *parser
}

// extract lexes and parses src.
func extract(path string, src []byte) (*extraction, error) {
	if len(src) >= math.MaxInt32 {
		return nil, scanner.Error{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Msg: "file too large"}
	}
	l := &lexer{src: src, toks: make([]tok, 0, len(src)/5+1)}
	l.lex()
	starts := lang.LineStarts(src)
	err := l.err
	var p *parser
	if err == nil {
		l.markGuard()
		l.balance()
		err = l.err
	}
	if err == nil {
		p = &parser{l: l, src: src, starts: starts}
		p.setup()
		if p.err == nil {
			p.declarations(0, len(p.code), scope{})
		}
		err = p.err
	}
	if err != nil {
		s := scan.Source{Path: path, Src: src, Starts: starts}
		return nil, s.Err(&scan.Error{Off: err.off, Msg: err.msg})
	}
	p.macros()
	return &extraction{path: path, l: l, p: p}, nil
}

// macros records the function-like macros: #define NAME( with no space
// before the parenthesis.
func (p *parser) macros() {
	l := p.l
	for _, d := range l.dirs {
		if d.name != "define" || d.last < d.first+3 || l.toks[d.first+2].kind != tIdent || l.conds[d.cond].dead {
			continue
		}
		n := l.toks[d.first+2]
		if l.text(d.first+3) != "(" || l.toks[d.first+3].off != n.end {
			continue
		}
		p.decls = append(p.decls, decl{
			name: l.text(d.first + 2), kind: lang.KindFunc, cat: catMacro, body: true,
			start: int(l.toks[d.first].off), end: int(l.toks[d.last].end), cond: d.cond,
		})
	}
}

// named is a symbol before it becomes a [lang.Symbol]: a name, a kind and
// byte offsets.
type named struct {
	name, kind string
	start, end int
}

// group applies the one-symbol and ambiguity rules to the declarations ds
// (in source order); exclusive tells whether two branches are alternatives
// of one #if group.
func group(ds []decl, exclusive func(a, b int32) bool) (syms []named, ambiguous []string) {
	byName := map[string][]decl{}
	var order []string
	for _, d := range ds {
		if _, ok := byName[d.name]; !ok {
			order = append(order, d.name)
		}
		byName[d.name] = append(byName[d.name], d)
	}
	for _, name := range order {
		all := byName[name]
		var use []decl
		for _, d := range all {
			if d.body {
				use = append(use, d)
			}
		}
		if len(use) == 0 {
			use = all
		}
		if len(use) > 1 && conflict(use, exclusive) {
			ambiguous = append(ambiguous, name)
			continue
		}
		s := named{name: name, kind: use[0].kind, start: use[0].start, end: use[0].end}
		for _, d := range use[1:] {
			s.start, s.end = min(s.start, d.start), max(s.end, d.end)
		}
		syms = append(syms, s)
	}
	return syms, ambiguous
}

// conflict reports whether the declarations of one name (more than one)
// cannot be one symbol: alternatives of an #if, categories that differ
// (a function and a type), a macro or a test twice.
func conflict(use []decl, exclusive func(a, b int32) bool) bool {
	for i, a := range use {
		if a.cat == catMacro || a.cat == catTest || a.cat != use[0].cat {
			return true
		}
		for _, b := range use[i+1:] {
			if exclusive != nil && exclusive(a.cond, b.cond) {
				return true
			}
		}
	}
	return false
}

// file assembles the result.
func (x *extraction) file() *lang.File {
	l, p := x.l, x.p
	src := l.src
	f := &lang.File{Path: x.path, Parser: Parser}
	cs := scan.Source{Path: x.path, Src: src, Starts: p.starts}
	for _, c := range l.comments {
		f.Comments = append(f.Comments, cs.Comment(c[0], c[1]))
	}
	syms, amb := group(p.decls, l.exclusive)
	f.Ambiguous = amb
	for _, s := range syms {
		sl, el := lang.LineOf(p.starts, s.start), lang.LineOf(p.starts, max(s.end-1, s.start))
		kind := s.kind
		if kind != lang.KindType && kind != lang.KindTest && lang.IsTest(Language, x.path, s.name) {
			kind = lang.KindTest
		}
		f.Symbols = append(f.Symbols, lang.Symbol{
			Name: s.name, Kind: kind, Start: sl, End: el,
			StartOff: p.starts[sl-1], EndOff: lang.LineEnd(src, p.starts, el),
		})
	}
	f.SortSymbols()
	for _, d := range l.dirs {
		if d.last >= d.first+2 && (d.name == "include" || d.name == "include_next" || d.name == "import") &&
			!l.conds[d.cond].dead && l.toks[d.first+2].kind == tStr {
			f.Imports = append(f.Imports, l.text(d.first+2))
			f.ImportNames = append(f.ImportNames, "")
		}
	}
	f.Calls = p.calls
	f.Tokens = x.tokens()
	return f
}

// tokens returns the file's tokens for hashing (see [Extract]).
func (x *extraction) tokens() []lang.Token {
	l, p := x.l, x.p
	toks := make([]lang.Token, 0, len(l.toks)+len(l.dirs))
	dirEnd := make(map[int]bool, len(l.dirs))
	for _, d := range l.dirs {
		dirEnd[d.last] = true
	}
	for i := 0; i < len(l.toks); i++ {
		t := l.toks[i]
		text := l.text(i)
		if t.kind == tStr && plainString(text) {
			// "ab" "c" is "abc"
			for i+1 < len(l.toks) && l.toks[i+1].kind == tStr && l.toks[i+1].dir == t.dir && !dirEnd[i] {
				next := l.text(i + 1)
				if !plainString(next) || prefix(next) != prefix(text) {
					break
				}
				text = text[:len(text)-1] + next[len(prefix(next))+1:]
				i++
			}
		}
		if t.kind == tStr || t.kind == tChar {
			text = strings.ReplaceAll(text, "\r\n", "\n")
		}
		line := lang.LineOf(p.starts, int(t.off))
		toks = append(toks, lang.Token{Line: line, Text: text})
		if dirEnd[i] {
			toks = append(toks, lang.Token{Line: line, Text: "\n"})
		}
	}
	// the end-of-directive token sits on the directive's last token's
	// line, which is where that token starts: the order by line holds.
	return toks
}

// plainString reports whether a string literal token is an ordinary one
// ("...", L"...", u8"...", u"...", U"..."), not raw, with no suffix.
func plainString(s string) bool {
	p := prefix(s)
	return len(s) >= len(p)+2 && s[len(p)] == '"' && s[len(s)-1] == '"' && !strings.HasSuffix(p, "R") && p != "<"
}

// prefix returns the encoding prefix of a string literal token.
func prefix(s string) string {
	i := strings.IndexAny(s, `"'<`)
	if i < 0 {
		return s
	}
	return s[:i]
}

// isSource reports whether a path has one of the extensions the language
// claims.
func isSource(p string) bool {
	i := strings.LastIndexByte(p, '.')
	return i >= 0 && slices.Contains(extensions, strings.ToLower(p[i:]))
}
