// Package rust is tracewiki's Rust language: symbols, ranges, tokens,
// imports and call hints of .rs files, read by a hand-written lexer and an
// item pass in pure Go.
package rust

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const Parser = "rust/scan@1"

// Extract is the Rust extractor, for .rs files.
//
// Symbols are the items of the file and of its inline modules, at any
// depth: fn f; struct, enum, union, trait and type (alias) Name; in mod m
// { ... } they are m.f, m.Name. Methods of impl Type and impl Trait for
// Type are Type.method, Type the last segment of the self type's path
// after references, pointers and dyn (impl<T> Tr for &mut Vec<T> gives
// Vec.method); an impl whose self type is no path (a slice, tuple, array,
// fn pointer, qualified path) or is a type parameter of the impl (a
// blanket impl) gives no symbols, since no name would be the API's own.
// Methods declared or defined in trait Trait are Trait.method, and
// macro_rules! name is name (a func). Functions of extern blocks are
// symbols of the enclosing scope. Items inside function bodies, consts,
// statics, associated types and consts, and item-position macro calls are
// not symbols. fn is a func in a module and a method in an impl or trait;
// types are types. A fn with a #[test], #[bench], #[tokio::test]-like
// attribute (a path ending in test, bench, rstest, test_case or
// quickcheck), every symbol inside a #[cfg(test)] module, and every symbol
// of a file below a tests/ folder is a test.
//
// A symbol ranges from its first outer attribute (#[...]) line, doc
// comments (///, /** */) excluded, or from its first token (pub, unsafe,
// fn, ...) to its closing brace or ';'. A name defined twice in one file
// (a method in two impl blocks of one type, two fns under different
// #[cfg]) is listed in Ambiguous.
//
// Tokens are the lexical tokens without comments or whitespace, normalized
// so that rustfmt cannot change them: trailing commas before a closing
// bracket (but the one of a one-element tuple) and commas after a match
// arm's block are dropped, "<<" and ">>" are two tokens each, an extern
// without ABI reads as extern "C", and CRLF in literals reads as LF.
//
// Imports lists use declarations, one entry per path a use tree binds, as
// written with "::": use a::{b, c as d} gives "a::b" and "a::c" bound to
// "d"; a glob a::* is "a" bound to "*"; use a::{self} is "a". mod m; (a module in
// its own file) is "mod m", or "mod a::m" inside inline module a; extern
// crate x as y is "x" bound to "y". Calls are f(...),
// Q::f(...) and x.f(...) inside fn bodies, qualified by Q, by x, or by "."
// for a longer receiver; macro calls are not calls.
//
// A src that does not lex (an unterminated string or comment), whose
// brackets do not balance, or with something other than an item where an
// item must be, yields a [scanner.Error] for the first problem.
func Extract(path string, src []byte) (*lang.File, error) {
	return scan.Extract(path, src, lex, parse)
}

// lex scans src into tokens and comments.
func lex(src []byte) (*lexer, *scan.Error) {
	l := &lexer{src: src, toks: make([]tok, 0, len(src)/4+1)}
	l.lex()
	return l, l.err
}

// parse matches the brackets of the tokens l found and parses the items.
func parse(s *scan.Source, l *lexer) (*lang.File, *scan.Error) {
	p := &parser{src: s.Src, toks: l.toks, starts: s.Starts}
	p.matchBrackets()
	if p.err == nil {
		p.items(0, len(p.toks), scope{fnKind: lang.KindFunc, named: true, test: isTestPath(s.Path)})
	}
	if p.err != nil {
		return nil, p.err
	}
	f := p.file(s.Path, s.Starts)
	for _, c := range l.comments {
		f.Comments = append(f.Comments, s.Comment(c[0], c[1]))
	}
	return f, nil
}

// file assembles the result.
func (p *parser) file(path string, starts []int) *lang.File {
	f := &lang.File{Path: path, Parser: Parser, Imports: p.imports, ImportNames: p.importNames, Calls: p.calls}
	count := map[string]int{}
	for _, d := range p.defs {
		count[d.name]++
	}
	for _, d := range p.defs {
		if count[d.name] > 1 {
			f.Ambiguous = append(f.Ambiguous, d.name)
			continue
		}
		s, e := p.toks[d.start].off, p.toks[d.end].end
		sl, el := lang.LineOf(starts, s), lang.LineOf(starts, e-1)
		f.Symbols = append(f.Symbols, lang.Symbol{
			Name: d.name, Kind: d.kind, Start: sl, End: el,
			StartOff: starts[sl-1], EndOff: lang.LineEnd(p.src, starts, el),
		})
	}
	f.SortSymbols()
	f.Tokens = p.tokens(starts)
	return f
}

// isTestPath reports whether every symbol of the file is a test: a file
// below a folder named tests (Cargo's integration tests).
func isTestPath(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	return strings.HasPrefix(p, "tests/") || strings.Contains(p, "/tests/")
}

// IsTest reports whether symbol of the file at path is a test by path
// alone; attributes (#[test]) and #[cfg(test)] modules are seen by
// [Extract], which types such symbols [lang.KindTest].
func IsTest(path, symbol string) bool { return isTestPath(path) }
