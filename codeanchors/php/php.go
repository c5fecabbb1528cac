// Package php is tracewiki's PHP language: symbols, ranges, tokens,
// imports and call hints of .php files, read by a hand-written lexer and a
// declaration pass in pure Go.
package php

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/scan"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version whenever
// the symbols, ranges or tokens it produces change.
const Parser = "php/scan@1"

// Extract is the PHP extractor, for .php files.
//
// Symbols are the named functions (f), classes, interfaces, traits and
// enums (Name) and the methods of those (Class.method) declared at the top
// level, in namespaces (braced or not) and in blocks (if, else, try, ...)
// outside function bodies. Namespaces are not part of the name: the path
// scopes it. Declarations inside function and method bodies, closures and
// anonymous classes (new class { ... }) are not symbols. Functions are
// funcs, methods methods, the others types; a method of a class in a
// *Test.php file whose name starts with test, or that has a #[Test]
// attribute, is a test. A symbol ranges from its first attribute (#[...])
// or modifier (abstract, final, public, ...) line, doc comments excluded,
// to its closing brace (or the ; of an abstract or interface method). A
// name declared twice in one file (a function defined under if and else)
// is listed in Ambiguous.
//
// Tokens are the lexical tokens without comments or whitespace, normalized
// so that a formatter (prettier's PHP plugin) cannot change them:
// keywords, casts and the names true, false and null in lower case, a
// trailing comma before a closing bracket dropped, and new Name without
// arguments read as new Name(). Inline HTML is one token per run.
//
// Imports are the use declarations of namespaces, as written without the
// leading backslash: use A\B, C\D as E gives "A\B" and "C\D" bound to "E";
// a group use A\{B, C} gives "A\B" and "A\C"; use function and use const
// are imports too. Calls are f(...), Name::f(...) and $x->f(...) inside
// function and method bodies, qualified by Name or by ".".
//
// A src whose strings, heredocs or comments are not terminated, or whose
// brackets do not balance, yields a [scanner.Error] for the first problem.
func Extract(path string, src []byte) (*lang.File, error) {
	return scan.Extract(path, src, lex, parse)
}

// lex scans src into tokens and comments.
func lex(src []byte) (*lexer, *scan.Error) {
	l := &lexer{src: src, toks: make([]tok, 0, len(src)/5+1)}
	l.lex()
	return l, l.err
}

// parse matches the brackets of the tokens l found and parses the
// declarations.
func parse(s *scan.Source, l *lexer) (*lang.File, *scan.Error) {
	src, path, starts := s.Src, s.Path, s.Starts
	p := &parser{src: src, toks: l.toks, path: path, starts: starts}
	p.matchBrackets()
	if p.err == nil {
		p.decls()
	}
	if p.err != nil {
		return nil, p.err
	}
	f := &lang.File{Path: path, Parser: Parser, Imports: p.imports, ImportNames: p.importNames, Calls: p.calls}
	for _, c := range l.comments {
		f.Comments = append(f.Comments, s.Comment(c[0], c[1]))
	}
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
			StartOff: starts[sl-1], EndOff: lang.LineEnd(src, starts, el),
		})
	}
	f.SortSymbols()
	f.Tokens = p.tokens(starts)
	return f, nil
}

type def struct {
	name       string
	kind       string
	start, end int // token indexes
}

// Frame kinds: where a declaration is.
const (
	fTop   = iota // top level, namespace or block outside functions: functions and classes
	fClass        // a class-like body: methods
	fBody         // a function body, closure, anonymous class or other block where nothing is a symbol
)

type frame struct {
	kind int
	name string // the class of fClass, the function of fBody ("" outside a named one)
}

type parser struct {
	src    []byte
	path   string
	toks   []tok
	match  []int // index of the matching bracket, -1 for other tokens
	starts []int
	err    *scan.Error

	defs        []def
	imports     []string
	importNames []string
	calls       []lang.Call
}

func (p *parser) text(i int) string { t := p.toks[i]; return string(p.src[t.off:t.end]) }

func (p *parser) is(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tOp && p.text(i) == s
}

func (p *parser) kw(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent && strings.EqualFold(p.text(i), s)
}

// matchBrackets pairs (), [], {} and #[ ] tokens.
func (p *parser) matchBrackets() {
	p.match = make([]int, len(p.toks))
	var stack []int
	for i, t := range p.toks {
		p.match[i] = -1
		var open bool
		var want string
		switch {
		case t.kind == tAttr:
			open = true
		case t.kind == tOp:
			switch p.text(i) {
			case "(", "[", "{":
				open = true
			case ")":
				want = "("
			case "]":
				want = "["
			case "}":
				want = "{"
			}
		}
		if open {
			stack = append(stack, i)
			continue
		}
		if want == "" {
			continue
		}
		if len(stack) == 0 {
			p.err = &scan.Error{Off: t.off, Msg: "unexpected " + p.text(i)}
			return
		}
		o := stack[len(stack)-1]
		ot := p.text(o)
		if p.toks[o].kind == tAttr {
			ot = "["
		}
		if ot != want {
			p.err = &scan.Error{Off: t.off, Msg: "unexpected " + p.text(i) + ": " + ot + " opened at offset " + itoa(p.toks[o].off) + " is not closed"}
			return
		}
		stack = stack[:len(stack)-1]
		p.match[o], p.match[i] = i, o
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		p.err = &scan.Error{Off: p.toks[o].off, Msg: p.text(o) + " is not closed"}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

var modifiers = map[string]bool{
	"abstract": true, "final": true, "public": true, "private": true, "protected": true,
	"static": true, "readonly": true, "var": true,
}

var notCallee = map[string]bool{
	"if": true, "elseif": true, "while": true, "for": true, "foreach": true, "switch": true,
	"function": true, "fn": true, "array": true, "list": true, "isset": true, "unset": true,
	"empty": true, "eval": true, "exit": true, "die": true, "return": true, "match": true,
	"catch": true, "declare": true, "echo": true, "print": true, "include": true, "require": true,
	"include_once": true, "require_once": true, "new": true, "use": true, "and": true, "or": true,
	"xor": true, "instanceof": true, "clone": true, "yield": true, "throw": true,
}

// decls walks the tokens once, finding declarations, imports and calls.
func (p *parser) decls() {
	stack := []frame{{kind: fTop}}
	pending := map[int]frame{} // the frame a { opens, by token index
	lead := -1                 // first attribute or modifier of the current declaration
	var attrs []int            // attribute groups of the current declaration
	stmtStart := true
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		top := stack[len(stack)-1]
		if t.kind == tAttr {
			if lead < 0 {
				lead = i
			}
			attrs = append(attrs, i)
			i = p.match[i]
			continue
		}
		if t.kind == tOp {
			switch p.text(i) {
			case "{":
				f, ok := pending[i]
				if !ok {
					f = frame{kind: fBody, name: top.name}
					if top.kind == fTop {
						f.kind = fTop
					}
				}
				stack = append(stack, f)
				lead, attrs, stmtStart = -1, nil, true
				continue
			case "}":
				if len(stack) > 1 {
					stack = stack[:len(stack)-1]
				}
				lead, attrs, stmtStart = -1, nil, true
				continue
			case ";":
				lead, attrs, stmtStart = -1, nil, true
				continue
			case "(":
				if top.kind == fBody && top.name != "" && i > 0 {
					p.call(top.name, i)
				}
			}
			stmtStart = false
			continue
		}
		if t.kind != tIdent {
			if t.kind == tOpen || t.kind == tClose || t.kind == tHTML {
				lead, attrs, stmtStart = -1, nil, true
			} else {
				stmtStart = false
			}
			continue
		}
		word := strings.ToLower(p.text(i))
		if top.kind != fBody && modifiers[word] && !p.is(i-1, "::") && !p.is(i-1, "->") && !p.is(i-1, "?->") {
			if lead < 0 {
				lead = i
			}
			continue
		}
		switch {
		case word == "use" && top.kind == fTop && stmtStart:
			i = p.use(i)
			lead, attrs, stmtStart = -1, nil, true
			continue
		case word == "function" && !p.is(i-1, "::") && !p.is(i-1, "->") && !p.is(i-1, "?->"):
			j := i + 1
			if p.is(j, "&") {
				j++
			}
			if top.kind != fBody && j+1 < len(p.toks) && p.toks[j].kind == tIdent && p.is(j+1, "(") && !p.kw(i-1, "use") {
				name := p.text(j)
				full, kind := name, lang.KindFunc
				if top.kind == fClass {
					full, kind = top.name+"."+name, lang.KindMethod
					if top.name == "" {
						full = ""
					}
				}
				end, body := p.declEnd(p.match[j+1] + 1)
				start := i
				if lead >= 0 {
					start = lead
				}
				if full != "" {
					if kind == lang.KindMethod && p.isTestMethod(name, attrs) {
						kind = lang.KindTest
					}
					p.defs = append(p.defs, def{full, kind, start, end})
				}
				if body >= 0 {
					if full == "" {
						full = top.name
					}
					pending[body] = frame{kind: fBody, name: full}
				}
				i = j + 1
				lead, attrs = -1, nil
				stmtStart = false
				continue
			}
			// A closure: its body is a function body of the enclosing symbol.
			if k := p.nextBrace(i); k >= 0 {
				pending[k] = frame{kind: fBody, name: top.name}
			}
		case (word == "class" || word == "interface" || word == "trait" || word == "enum") && !p.is(i-1, "::") && !p.is(i-1, "->") && !p.is(i-1, "?->"):
			anon := word == "class" && p.kw(i-1, "new") || word == "class" && lead >= 0 && p.kw(lead-1, "new")
			named := i+1 < len(p.toks) && p.toks[i+1].kind == tIdent && !anon
			if word == "enum" && named && !(p.is(i+2, "{") || p.is(i+2, ":") || p.kw(i+2, "implements")) {
				named = false
			}
			if !named {
				if word == "enum" {
					break // a function or constant called enum
				}
				if k := p.nextBrace(i); k >= 0 {
					pending[k] = frame{kind: fBody, name: top.name}
				}
				break
			}
			name := p.text(i + 1)
			k := p.nextBrace(i)
			if k < 0 {
				break
			}
			start := i
			if lead >= 0 {
				start = lead
			}
			if top.kind == fTop {
				p.defs = append(p.defs, def{name, lang.KindType, start, p.match[k]})
				pending[k] = frame{kind: fClass, name: name}
			} else {
				pending[k] = frame{kind: fBody, name: top.name}
			}
			i++
			lead, attrs, stmtStart = -1, nil, false
			continue
		}
		stmtStart = false
	}
}

// declEnd finds, from token i after a function's parameters, its body's
// opening brace and closing brace, or the ; that ends a declaration without
// body (body -1).
func (p *parser) declEnd(i int) (end, body int) {
	for ; i < len(p.toks); i++ {
		if p.toks[i].kind == tOp {
			switch p.text(i) {
			case "{":
				return p.match[i], i
			case ";":
				return i, -1
			case "(", "[":
				i = p.match[i]
			case "}", ")", "]":
				return i - 1, -1
			}
		}
		if p.toks[i].kind == tClose {
			return i, -1
		}
	}
	return len(p.toks) - 1, -1
}

// nextBrace finds the { that opens the body of the declaration at i
// (skipping parenthesized arguments and parameters), or -1.
func (p *parser) nextBrace(i int) int {
	for i++; i < len(p.toks); i++ {
		if p.toks[i].kind == tAttr {
			i = p.match[i]
			continue
		}
		if p.toks[i].kind != tOp {
			continue
		}
		switch p.text(i) {
		case "{":
			return i
		case "(", "[":
			i = p.match[i]
		case ";", "}", ")", "]":
			return -1
		}
	}
	return -1
}

// use reads a namespace use declaration at i and returns the index of its ;.
func (p *parser) use(i int) int {
	j := i + 1
	if p.kw(j, "function") || p.kw(j, "const") {
		j++
	}
	prefix := ""
	for ; j < len(p.toks); j++ {
		t := p.toks[j]
		switch {
		case t.kind == tIdent:
			name := strings.TrimPrefix(p.text(j), `\`)
			if p.is(j+1, "{") || p.is(j+1, `\`) || strings.HasSuffix(name, `\`) {
				continue
			}
			alias := ""
			if p.kw(j+1, "as") && j+2 < len(p.toks) && p.toks[j+2].kind == tIdent {
				alias = p.text(j + 2)
				j += 2
			}
			p.imports = append(p.imports, prefix+name)
			p.importNames = append(p.importNames, alias)
		case t.kind == tOp && p.text(j) == "{":
			k := j - 1
			if p.is(k, `\`) {
				k--
			}
			if k >= 0 && p.toks[k].kind == tIdent {
				prefix = strings.TrimPrefix(p.text(k), `\`)
				if !strings.HasSuffix(prefix, `\`) {
					prefix += `\`
				}
			}
		case t.kind == tOp && p.text(j) == "}":
			prefix = ""
		case t.kind == tOp && p.text(j) == ";" || t.kind == tClose:
			return j
		}
	}
	return len(p.toks) - 1
}

// call records the call whose ( is at i, if the token before is a callee.
func (p *parser) call(from string, i int) {
	n := i - 1
	if p.toks[n].kind != tIdent {
		return
	}
	name := p.text(n)
	if strings.Contains(name, `\`) {
		name = name[strings.LastIndexByte(name, '\\')+1:]
	}
	member := p.is(n-1, "->") || p.is(n-1, "?->") || p.is(n-1, "::")
	if !member && notCallee[strings.ToLower(name)] || p.kw(n-1, "function") || p.kw(n-1, "new") || p.kw(n-1, "fn") {
		return
	}
	line := lang.LineOf(p.starts, p.toks[n].off)
	switch {
	case p.is(n-1, "->") || p.is(n-1, "?->"):
		p.calls = append(p.calls, lang.Call{From: from, Qual: ".", Name: name, Line: line})
	case p.is(n-1, "::") && n >= 2 && p.toks[n-2].kind == tIdent:
		q := p.text(n - 2)
		if k := strings.LastIndexByte(q, '\\'); k >= 0 {
			q = q[k+1:]
		}
		p.calls = append(p.calls, lang.Call{From: from, Qual: q, Name: name, Line: line})
	case p.is(n-1, "::"):
		p.calls = append(p.calls, lang.Call{From: from, Qual: ".", Name: name, Line: line})
	default:
		p.calls = append(p.calls, lang.Call{From: from, Name: name, Line: line})
	}
}

// isTestMethod reports whether a method is a PHPUnit test: in a *Test.php
// file a test* method, or one with a #[Test] attribute.
func (p *parser) isTestMethod(name string, attrs []int) bool {
	if isTestFile(p.path) && strings.HasPrefix(strings.ToLower(name), "test") {
		return true
	}
	for _, a := range attrs {
		for j := a + 1; j < p.match[a]; j++ {
			if p.toks[j].kind == tIdent {
				n := p.text(j)
				if n == "Test" || strings.HasSuffix(n, `\Test`) {
					return true
				}
			}
		}
	}
	return false
}
