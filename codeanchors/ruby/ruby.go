// Package ruby is tracewiki's Ruby language: symbols, ranges, tokens,
// imports and call hints of .rb files, read by a hand-written scanner in
// pure Go that matches every def, class, module, do, begin, if and loop
// with its end.
package ruby

import (
	"go/scanner"
	"go/token"
	"math"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version whenever
// the symbols, ranges or tokens it produces change.
const Parser = "ruby/scan@1"

// Extract is the Ruby extractor, for .rb, .rake and .gemspec files.
//
// Symbols follow SPEC 1.3: classes and modules nest with "." (Outer.Inner;
// class A::B is A.B, class ::C is the top-level C), a def in a class or module body is
// Class.method, a top-level def is method, and def self.m or a def inside
// class << self is Class.self.m. A class or module reopened in the file
// adds its methods to the same names. Blocks (do ... end, { }), if,
// begin and the like are transparent: a def in an included do ... end
// block of module M is M.m. Nothing inside a def is a symbol, nor a def
// with a receiver other than self (def obj.m), nor the defs of a class <<
// obj with obj not self. Method names keep their ?, ! or = suffix
// (Class.valid?, Class.name=; the target notation accepts them at the end
// of a name); operator methods (def ==, def [](k), def +@) are no symbols:
// the class's range covers them. Classes and modules are types, top-level
// defs funcs, the others methods; [IsTest] decides tests. A symbol ranges
// from its def/class/module line (which a modifier like private def f
// shares) to the line of its end, or to the last line of an endless def
// (def f = expr); leading comments are excluded. A name defined twice in
// the file (a method defined twice, a class reopened) is listed in
// Ambiguous.
//
// Tokens are the lexical tokens without comments or whitespace: a string,
// symbol, regexp or %-literal is one token per part between
// interpolations, whose code is tokens too; a heredoc's body is one token
// on its first line (a <<~ body without its common indentation). A
// newline that ends a statement is a ";" token, like a written one, and
// ";" and "," tokens just before a closing bracket are dropped: so rubocop's
// layout fixes (line breaks, trailing commas, ; to newline, leading dots)
// cannot change a token hash, while joining or splitting statements does.
// A single-quoted string without \, " or # is read as its double-quoted
// spelling, a block's { } as do ... end, then as a ";", and empty
// parentheses after a name (def f(), f()) are dropped, except after super.
//
// Imports are the features of require "x" ("x") and require_relative "x"
// ("./x" unless written with a leading . already), with a literal string
// argument; calls are name(...) and recv.name inside symbols, qualified by
// the receiver's name or by "." when it is an expression.
//
// A src whose strings, heredocs, regexps or =begin comments are not
// terminated, whose brackets do not balance or whose ends do not match
// yields a [scanner.Error] for the first problem.
func Extract(path string, src []byte) (*lang.File, error) {
	if len(src) >= math.MaxInt32 {
		return nil, scanner.Error{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Msg: "file too large"}
	}
	s := &rscan{locals: map[string]bool{}, src: src, toks: make([]lang.Token, 0, len(src)/5+1)}
	if err := s.safeScan(); err != nil {
		starts := lang.LineStarts(src)
		o := min(max(err.off, 0), len(src))
		line := lang.LineOf(starts, o)
		return nil, scanner.Error{
			Pos: token.Position{Filename: path, Offset: o, Line: line, Column: o - starts[line-1] + 1},
			Msg: err.msg,
		}
	}
	starts := lang.LineStarts(src)
	f := &lang.File{Path: path, Parser: Parser, Tokens: normTokens(s.toks), Imports: s.imports, Calls: s.calls, Comments: s.comments}
	if len(f.Imports) > 0 {
		f.ImportNames = make([]string, len(f.Imports))
	}
	count := map[string]int{}
	for _, d := range s.defs {
		count[d.name]++
	}
	for _, d := range s.defs {
		if count[d.name] > 1 {
			f.Ambiguous = append(f.Ambiguous, d.name)
			continue
		}
		kind := d.kind
		if lang.IsTest(Language, path, d.name) {
			kind = lang.KindTest
		}
		f.Symbols = append(f.Symbols, lang.Symbol{
			Name: d.name, Kind: kind, Start: d.start, End: d.end,
			StartOff: starts[d.start-1], EndOff: lang.LineEnd(src, starts, d.end),
		})
	}
	f.SortSymbols()
	return f, nil
}

// safeScan runs the scanner, turning its failure into an error.
func (s *rscan) safeScan() (err *scanError) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(scanError)
			if !ok {
				panic(r)
			}
			err = &e
		}
	}()
	s.scan()
	return nil
}

// normTokens drops the ";" and "," tokens just before a closing bracket
// (a trailing comma, a line break before the bracket) and the empty
// parentheses after a name (def f() and f() are def f and f; not after
// super, where they mean no arguments): the spellings rubocop chooses
// between.
func normTokens(toks []lang.Token) []lang.Token {
	out := toks[:0]
	for _, t := range toks {
		if t.Text == ")" || t.Text == "]" || t.Text == "}" {
			for len(out) > 0 && (out[len(out)-1].Text == ";" || out[len(out)-1].Text == ",") {
				out = out[:len(out)-1]
			}
		}
		if n := len(out); t.Text == ")" && n >= 2 && out[n-1].Text == "(" && isName(out[n-2].Text) {
			out = out[:n-1]
			continue
		}
		out = append(out, t)
	}
	return slices.Clip(out)
}

// isName reports whether a token is a method name or variable (not super).
func isName(t string) bool {
	return t != "" && isIdentStart(t[0]) && t != "super" && !strings.HasSuffix(t, ":")
}
