package python

import (
	"fmt"
	"go/scanner"
	"go/token"
	"math"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version
// whenever the symbols, ranges or tokens it produces change.
const Parser = "python@2"

// Limits of the Python tokenizer, CPython's own (MAXINDENT, MAXLEVEL), so
// that no input recurses or allocates without bound.
const (
	pyMaxIndent   = 100 // levels of indentation
	pyMaxBrackets = 200 // open brackets
	pyMaxFString  = 150 // nested f-strings and replacement fields
)

// Extract is the Python extractor, a hand-written tokenizer (Python
// 3.12 rules: all string forms, f-strings with nested quotes and fields,
// backslash continuations, implicit joining inside brackets, INDENT and
// DEDENT) and a structural pass over its statements.
//
// Symbols are the functions and classes of the module and of classes, at
// any depth, also under if, try, with, for, while and match blocks: f,
// Class, Class.method, Outer.Inner.f; async def too. Functions and classes
// defined inside a function are not symbols. A module-level function is a
// func, one in a class a method, a class a type ([language.IsTest] may make any of
// them a test). A symbol ranges from its first decorator (or its def or
// class line) to the last token of its body, as Python's ast end_lineno.
// A property with its @x.setter, @x.getter and @x.deleter, and @overload
// signatures with the definition after them, are one symbol from the first
// part's first line to the last part's last line; any other name defined
// twice goes to [File.Ambiguous].
//
// Tokens, for the token hash, are the lexical tokens without comments,
// whitespace, blank lines or continuations, but with NEWLINE ("<NEWLINE>"),
// INDENT ("<INDENT>") and DEDENT ("<DEDENT>", on the line of the statement
// it precedes; those at the end of the file are left out), since
// indentation is syntax in Python. Both are [lang.Token.Lead]: on a
// range's first line they open or close blocks of the code before it, so
// they do not count there, and a symbol's token hash depends only on its
// own lines. What a formatter such as black changes
// without changing the program does not count (see [pyWalker.normalize]):
// a string is its value (b"..." for bytes, Go-quoted; a docstring cleaned
// as inspect.cleandoc does), an f-string is "f\"", its literal parts by
// value, its fields' tokens, and "\"f"; a number is lower-cased; trailing
// commas that do not make a one-element tuple, parentheses around a whole
// assigned, returned or deleted value, condition or for clause, and a
// final ';' are dropped; a ';' between statements reads as a NEWLINE, and
// a body on its header's line as an indented block.
//
// Imports lists one entry per name an import statement binds, the dotted
// name of what it binds as written, relative dots kept: import a.b as c is
// "a.b" bound to "c"; import a.b is "a.b" with no name (it binds a); from
// ..m import f as g is "..m.f" bound to "g"; from . import x is ".x" bound
// to "x"; from m import * is "m" bound to "*". Imports inside functions
// count. Calls are the call sites inside symbols: f(...) has no qualifier,
// m.f(...) and self.f(...) are qualified by m and self, a longer receiver
// (a.b.f(), g().f()) by ".".
//
// A src that does not tokenize, has unbalanced brackets, a bad dedent or a
// block missing its indentation yields a [scanner.Error] for the first
// problem, which prints as path:line:col: message (col counts bytes).
func Extract(path string, src []byte) (*lang.File, error) {
	if len(src) >= math.MaxInt32 {
		return nil, scanner.Error{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Msg: "file too large"}
	}
	s := &pyScanner{src: src, toks: make([]pyTok, 0, len(src)/4+1)}
	s.scan()
	if s.err == nil {
		w := &pyWalker{toks: s.toks, src: string(src), srcb: src, starts: lang.LineStarts(src), path: path}
		w.walk()
		if w.err == nil {
			f := w.file(path)
			f.Comments = mergeComments(w.docComments(), s.comments)
			return f, nil
		}
		s.err = w.err
	}
	starts := lang.LineStarts(src)
	o := min(max(s.err.off, 0), len(src))
	line := lang.LineOf(starts, o)
	return nil, scanner.Error{
		Pos: token.Position{Filename: path, Offset: o, Line: line, Column: o - starts[line-1] + 1},
		Msg: s.err.msg,
	}
}

// pyDef is one def or class statement that may be a symbol.
type pyDef struct {
	name, kind string
	start, end int
	isFunc     bool
	overload   bool // decorated @overload (or @x.overload)
	accessor   bool // decorated @name.setter, @name.getter or @name.deleter
}

// pyWalker is the structural pass: it walks the statements of the token
// stream, block by block, and records defs, imports and calls.
type pyWalker struct {
	toks   []pyTok
	src    string // the source, as a string to slice token texts from
	srcb   []byte
	starts []int // line start offsets
	path   string
	err    *pyError
	defs   []pyDef

	calls                []lang.Call
	imports, importNames []string
	docs                 map[int]bool // docstring tokens, by index
	docRuns              [][2]int     // the first and last tokens of each docstring, in source order
}

func (w *pyWalker) fail(i int, format string, args ...any) {
	if w.err == nil {
		off := len(w.src)
		if i < len(w.toks) {
			off = int(w.toks[i].off)
		}
		w.err = &pyError{off, fmt.Sprintf(format, args...)}
	}
}

func (w *pyWalker) text(i int) string { return w.src[w.toks[i].off:w.toks[i].end] }

func (w *pyWalker) kind(i int) uint8 {
	if i >= 0 && i < len(w.toks) {
		return w.toks[i].kind
	}
	return 0
}

func (w *pyWalker) isOp(i int, op string) bool { return w.kind(i) == pyOp && w.text(i) == op }

func (w *pyWalker) isName(i int, n string) bool { return w.kind(i) == pyName && w.text(i) == n }

func (w *pyWalker) isDefStart(i int) bool {
	return w.isName(i, "def") || w.isName(i, "class") || w.isName(i, "async") && w.isName(i+1, "def")
}

func (w *pyWalker) walk() {
	w.docs = map[int]bool{}
	w.markDoc(0)
	for i := 0; i < len(w.toks) && w.err == nil; {
		i, _ = w.block(i, "", true, false, "")
	}
}

// markDoc marks the token at i as a docstring when it is a string alone
// on its logical line (i starts a module or a def or class body), for the
// token hash. For [lang.File.Comments] it also notes strings joined
// implicitly ("a" "b") alone on the line, which Python reads as one
// docstring too.
func (w *pyWalker) markDoc(i int) {
	if w.kind(i) == pyString && w.kind(i+1) == pyNewline {
		w.docs[i] = true
	}
	j := i
	for w.kind(j) == pyString {
		j++
	}
	if j > i && w.kind(j) == pyNewline {
		w.docRuns = append(w.docRuns, [2]int{i, j - 1})
	}
}

// docComments returns the docstrings the walk noted, in source order, as
// [lang.Comment]s with Doc set: the first statement of the module, of a
// class or of a function (at any depth) when it is a string literal, or
// strings joined implicitly, alone on its logical line; its text as
// written. A bytes literal is no docstring to Python (its __doc__ stays
// None) and is left out; so is an f-string, which the tokenizer never
// gives as one string.
func (w *pyWalker) docComments() []lang.Comment {
	var docs []lang.Comment
	for _, r := range w.docRuns {
		first, last := w.toks[r[0]], w.toks[r[1]]
		text := w.src[first.off:last.end]
		if strings.ContainsAny(text[:strings.IndexAny(text, "'\"")], "bB") {
			continue
		}
		docs = append(docs, lang.Comment{Line: int(first.line), EndLine: int(last.endLine), Text: text, Doc: true})
	}
	return docs
}

// mergeComments merges the docstrings and the # comments, each in source
// order, into one list in source order. A comment never precedes code on
// its line, so a docstring that starts on a comment's line comes first.
func mergeComments(docs, comments []lang.Comment) []lang.Comment {
	if len(docs) == 0 {
		return comments
	}
	out := make([]lang.Comment, 0, len(docs)+len(comments))
	for len(docs) > 0 && len(comments) > 0 {
		if docs[0].Line <= comments[0].Line {
			out, docs = append(out, docs[0]), docs[1:]
		} else {
			out, comments = append(out, comments[0]), comments[1:]
		}
	}
	return append(append(out, docs...), comments...)
}

// block walks statements from i to the DEDENT that closes the block (or
// the end), and returns the index after it and the block's last token.
// Symbols are recorded when record is set, named prefix+name; inClass
// makes functions methods; from is the symbol calls are attributed to.
func (w *pyWalker) block(i int, prefix string, record, inClass bool, from string) (next, last int) {
	last = -1
	for w.err == nil && i < len(w.toks) {
		switch w.toks[i].kind {
		case pyDedent, pyEOFDedent:
			return i + 1, last
		case pyIndent:
			w.fail(i, "unexpected indent")
			return i, last
		}
		i, last = w.statement(i, prefix, record, inClass, from)
	}
	return i, last
}

// statement walks the statement at i (with its decorators and blocks).
func (w *pyWalker) statement(i int, prefix string, record, inClass bool, from string) (next, last int) {
	first := i
	var decs [][2]int // decorator token ranges, without '@' and NEWLINE
	for w.isOp(i, "@") {
		nl := w.lineEnd(i)
		decs = append(decs, [2]int{i + 1, nl})
		i = nl + 1
	}
	if len(decs) > 0 && !w.isDefStart(i) {
		if w.kind(i) == pyIndent {
			w.fail(i, "unexpected indent")
		} else {
			w.fail(i, "invalid syntax: a decorator must precede def or class")
		}
		return i, i
	}
	if !w.isDefStart(i) {
		nl, last := w.simple(i, from)
		if w.isOp(last, ":") {
			if w.kind(nl+1) != pyIndent {
				kw := first
				if w.isName(kw, "async") {
					kw++
				}
				switch w.text(kw) {
				case "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "match", "case":
					w.fail(nl+1, "expected an indented block after '%s' statement on line %d", w.text(kw), w.toks[first].line)
				default:
					w.fail(nl+1, "expected an indented block after line %d", w.toks[first].line)
				}
				return nl + 1, last
			}
			return w.block(nl+2, prefix, record, inClass, from)
		}
		if w.kind(nl+1) == pyIndent {
			w.fail(nl+1, "unexpected indent")
		}
		return nl + 1, last
	}

	kw := i
	if w.isName(i, "async") {
		i++
	}
	isClass := w.isName(i, "class")
	if w.kind(i+1) != pyName || pyKeywords[w.text(i+1)] {
		w.fail(i+1, "invalid syntax: %s needs a name", w.text(i))
		return i + 1, i
	}
	name := w.text(i + 1)
	if !w.isOp(i+2, "(") && !w.isOp(i+2, "[") && !(isClass && w.isOp(i+2, ":")) {
		w.fail(i+2, "invalid syntax: expected '('")
		return i + 2, i + 1
	}
	colon, depth := -1, 0
	for j := i + 2; j < len(w.toks) && w.toks[j].kind != pyNewline; j++ {
		if w.toks[j].kind != pyOp {
			continue
		}
		switch w.text(j) {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				colon = j
			}
		}
		if colon >= 0 {
			break
		}
	}
	if colon < 0 {
		w.fail(w.lineEnd(i), "expected ':'")
		return len(w.toks), i
	}

	full := prefix + name
	symFrom, idx := from, -1
	if record {
		symFrom, idx = full, len(w.defs)
		d := pyDef{name: full, kind: lang.KindType, start: int(w.toks[first].line), isFunc: !isClass}
		if !isClass {
			d.kind = lang.KindFunc
			if inClass {
				d.kind = lang.KindMethod
			}
			for _, r := range decs {
				d.overload = d.overload || w.isOverload(r[0], r[1])
				d.accessor = d.accessor || w.isAccessor(r[0], r[1], name)
			}
		}
		w.defs = append(w.defs, d)
	}
	w.findCalls(first, colon, symFrom)
	if w.kind(colon+1) == pyNewline {
		nl := colon + 1
		if w.kind(nl+1) != pyIndent {
			what := "function"
			if isClass {
				what = "class"
			}
			w.fail(nl+1, "expected an indented block after %s definition on line %d", what, w.toks[kw].line)
			return nl + 1, nl
		}
		w.markDoc(nl + 2)
		if isClass {
			next, last = w.block(nl+2, full+".", record, true, symFrom)
		} else {
			next, last = w.block(nl+2, "", false, false, symFrom)
		}
	} else {
		w.markDoc(colon + 1)
		var nl int
		nl, last = w.simple(colon+1, symFrom)
		next = nl + 1
	}
	if idx >= 0 && last >= 0 {
		w.defs[idx].end = int(w.toks[last].endLine)
	}
	return next, last
}

// lineEnd returns the index of the NEWLINE that ends the logical line
// holding i (len(toks) when there is none).
func (w *pyWalker) lineEnd(i int) int {
	for i < len(w.toks) && w.toks[i].kind != pyNewline {
		i++
	}
	return i
}

// simple walks the simple statements of the logical line at i: imports and
// calls. It returns the index of its NEWLINE and of its last token (a
// trailing ';' left out).
func (w *pyWalker) simple(i int, from string) (nl, last int) {
	nl = w.lineEnd(i)
	for part := i; part < nl; {
		end := part
		for end < nl && !w.isOp(end, ";") {
			end++
		}
		if w.isName(part, "import") || w.isName(part, "from") {
			w.importStmt(part, end)
		}
		part = end + 1
	}
	w.findCalls(i, nl, from)
	last = nl - 1
	for last > i && w.isOp(last, ";") {
		last--
	}
	return nl, last
}

// isOverload reports whether the decorator tokens [a, b) are a dotted
// name ending in overload.
func (w *pyWalker) isOverload(a, b int) bool {
	n, end := w.dotted(a, b)
	return end == b && (n == "overload" || strings.HasSuffix(n, ".overload"))
}

// isAccessor reports whether the decorator tokens [a, b) are
// name.setter, name.getter or name.deleter.
func (w *pyWalker) isAccessor(a, b int, name string) bool {
	n, end := w.dotted(a, b)
	return end == b && (n == name+".setter" || n == name+".getter" || n == name+".deleter")
}

// dotted reads a dotted name (NAME ('.' NAME)*) from i, before end.
func (w *pyWalker) dotted(i, end int) (string, int) {
	if i >= end || w.kind(i) != pyName || pyKeywords[w.text(i)] {
		return "", i
	}
	n := w.text(i)
	i++
	for i+1 < end && w.isOp(i, ".") && w.kind(i+1) == pyName {
		n += "." + w.text(i+1)
		i += 2
	}
	return n, i
}

// importStmt records the names an import statement [i, end) binds; see
// [Extract]. A malformed statement records what it could read.
func (w *pyWalker) importStmt(i, end int) {
	add := func(imp, name string) {
		w.imports = append(w.imports, imp)
		w.importNames = append(w.importNames, name)
	}
	alias := func(j int) (string, int) {
		if w.isName(j, "as") && j+1 < end && w.kind(j+1) == pyName {
			return w.text(j + 1), j + 2
		}
		return "", j
	}
	if w.isName(i, "import") {
		for j := i + 1; j < end; j++ {
			mod, k := w.dotted(j, end)
			if mod == "" {
				return
			}
			local, k := alias(k)
			add(mod, local)
			if j = k; !w.isOp(j, ",") {
				return
			}
		}
		return
	}
	j, dots := i+1, ""
	for ; j < end && (w.isOp(j, ".") || w.isOp(j, "...")); j++ {
		dots += w.text(j)
	}
	mod, j := w.dotted(j, end)
	if !w.isName(j, "import") || dots+mod == "" {
		return
	}
	j++
	if w.isOp(j, "*") {
		add(dots+mod, "*")
		return
	}
	if w.isOp(j, "(") {
		j++
	}
	for j < end && w.kind(j) == pyName {
		name := w.text(j)
		local, k := alias(j + 1)
		if local == "" {
			local = name
		}
		if mod == "" {
			add(dots+name, local)
		} else {
			add(dots+mod+"."+name, local)
		}
		if j = k; !w.isOp(j, ",") {
			return
		}
		j++
	}
}

// findCalls records the call sites among tokens [a, b), made by from.
func (w *pyWalker) findCalls(a, b int, from string) {
	if from == "" {
		return
	}
	for j := max(a, 1); j < b; j++ {
		if !w.isOp(j, "(") {
			continue
		}
		p := j - 1
		if w.kind(p) != pyName || pyKeywords[w.text(p)] || w.isName(p-1, "def") || w.isName(p-1, "class") {
			continue
		}
		c := lang.Call{From: from, Name: w.text(p), Line: int(w.toks[p].line)}
		if w.isOp(p-1, ".") {
			c.Qual = "."
			if w.kind(p-2) == pyName && !pyKeywords[w.text(p-2)] && !w.isOp(p-3, ".") {
				c.Qual = w.text(p - 2)
			}
		}
		w.calls = append(w.calls, c)
	}
}

// file merges the defs into symbols (properties with their accessors,
// overloads with their definition; other names defined twice are
// ambiguous) and assembles the File.
func (w *pyWalker) file(path string) *lang.File {
	f := &lang.File{Path: path, Parser: Parser, Imports: w.imports, ImportNames: w.importNames, Calls: w.calls}
	type entry struct {
		d   pyDef
		amb bool
	}
	entries := make([]entry, 0, len(w.defs))
	byName := make(map[string]int, len(w.defs))
	for _, d := range w.defs {
		k, seen := byName[d.name]
		if !seen {
			byName[d.name] = len(entries)
			entries = append(entries, entry{d: d})
			continue
		}
		e := &entries[k]
		switch {
		case e.amb:
		case d.isFunc && e.d.isFunc && d.accessor:
			e.d.end, e.d.overload = max(e.d.end, d.end), false
		case d.isFunc && e.d.isFunc && e.d.overload:
			e.d.end, e.d.overload = max(e.d.end, d.end), d.overload
		default:
			e.amb = true
		}
	}
	for _, e := range entries {
		if e.amb {
			f.Ambiguous = append(f.Ambiguous, e.d.name)
			continue
		}
		kind := e.d.kind
		if lang.IsTest(Language, path, e.d.name) {
			kind = lang.KindTest
		}
		s := lang.Symbol{Name: e.d.name, Kind: kind, Start: e.d.start, End: e.d.end}
		s.StartOff, s.EndOff = w.starts[s.Start-1], lang.LineEnd(w.srcb, w.starts, s.End)
		f.Symbols = append(f.Symbols, s)
	}
	f.SortSymbols()
	f.Tokens = make([]lang.Token, 0, len(w.toks))
	norm := w.normalize()
	dedent := false // an inline body ended: a DEDENT before the next token
	for i, t := range w.toks {
		if t.kind == pyEOFDedent || norm[i] == pyDrop {
			continue
		}
		line := int(t.line)
		if dedent {
			f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: pyDedentText, Lead: true})
			dedent = false
		}
		switch norm[i] {
		case pyAsNewline:
			f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: pyNewlineText})
		case pyOpenBlock:
			f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: ":"},
				lang.Token{Line: line, Text: pyNewlineText}, lang.Token{Line: line, Text: pyIndentText})
		case pyCloseBlock:
			f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: pyNewlineText})
			dedent = true
		default:
			// INDENT and DEDENT start their statement's line but open or
			// close blocks of the lines above: Lead.
			lead := t.kind == pyIndent || t.kind == pyDedent
			f.Tokens = append(f.Tokens, lang.Token{Line: line, Text: w.tokenText(i), Lead: lead})
		}
	}
	return f
}
