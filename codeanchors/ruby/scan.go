package ruby

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// state is what the scanner expects next, a small part of Ruby's lexer
// states: it tells a regexp from a division, ?a from a ternary, <<HEREDOC
// from a shift and a block if from a modifier if.
type state uint8

const (
	sBeg   state = iota // a value may start: statement start, after an operator, (, "," or most keywords
	sMid                // after return, break, next: a value may start, if is a modifier
	sArg                // after an identifier: a command argument may start after a space
	sEnd                // after a value
	sDot                // after . &. ::: a method name, keywords are names
	sFname              // after alias and undef: a method name
)

// Frame kinds.
const (
	fClass = iota
	fModule
	fDef
	fSclass
	fBlock // do, begin, case, for, if, unless, while, until
	fEndless
)

var frameWord = [...]string{"class", "module", "def", "class <<", "block", "def"}

// frame is one construct waiting for its end.
type frame struct {
	kind   int
	word   string // the keyword, for messages
	name   string // the symbol's name, "" when it is none
	scope  string // the name its children nest in
	scoped bool   // whether its children may be symbols
	line   int    // the keyword's line
	off    int    // the keyword's offset
	depth  int    // bracket depth at the keyword
	loopDo bool   // a while/until/for whose optional do is still to come
	params bool   // a def still in its parenthesized parameters
	await  bool   // a def whose next token tells an endless def (=)
	defIdx int    // this def's index in rscan.defs
}

// def is one named symbol found.
type def struct {
	name       string
	kind       string
	start, end int // lines
}

// heredoc is a heredoc whose body starts after the current line.
type heredoc struct {
	id         string
	indent     bool // <<- or <<~: the terminator may be indented
	squiggly   bool // <<~: the body's common indentation is not part of it
	line, off  int  // the opener's
	tokenIndex int
}

type scanError struct {
	off int
	msg string
}

// rscan reads Ruby source in one pass: tokens for hashes, and the
// def/class/module/do/if/... frames matched with their ends.
type rscan struct {
	src   []byte
	pos   int
	line  int
	st    state
	space bool // whitespace before the token being read
	depth int  // bracket depth
	bol   bool // at the start of a line

	toks    []lang.Token
	lastEnd int // the line the last token ended on

	stack    []frame
	heredocs []heredoc
	defs     []def

	reqPending int // 2 after require/require_relative, 1 after its (
	reqRel     bool
	imports    []string
	calls      []lang.Call
	prevText   string // the last token's text and the one before it
	prev2Text  string
	prevIdent  bool // the last token is an identifier or constant
	prev2Ident bool

	// locals are the names assigned or taken as parameters since the
	// last def: a local followed by " /x" divides, where a method call
	// would take a regexp.
	locals      map[string]bool
	params      bool // reading a def's parameters
	blockStart  bool // the last token opens a block: a | next starts its parameters
	blockParams bool // reading a block's parameters

	term   bool   // a statement ended: the next token gets a ";" before it
	braces []bool // the open { of operator(): true for a block's, which reads as do ... end

	comments []lang.Comment // # comments and =begin/=end blocks, in source order
}

func (s *rscan) fail(off int, msg string) {
	panic(scanError{off, msg})
}

// scan reads the whole source.
func (s *rscan) scan() {
	s.line, s.bol, s.st = 1, true, sBeg
	s.run(false, 0)
	if len(s.heredocs) > 0 {
		h := s.heredocs[0]
		s.fail(h.off, "heredoc "+h.id+" is not terminated")
	}
	s.terminate()
	for len(s.stack) > 0 && s.stack[len(s.stack)-1].kind == fEndless {
		s.pop(s.lastEnd)
	}
	if len(s.stack) > 0 {
		f := s.stack[len(s.stack)-1]
		s.fail(f.off, "`"+f.word+"` is not closed by end")
	}
}

// run reads code up to the end of the source, or in an interpolation
// (#{...}) up to its closing brace; litStart is the literal's offset.
func (s *rscan) run(interp bool, litStart int) {
	base := s.depth
	for s.pos < len(s.src) {
		if s.bol {
			s.bol = false
			if s.lineStart() {
				return
			}
		}
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.pos++
			s.space = true
			continue
		case c == '\\' && s.at(s.pos+1, '\n'):
			s.pos += 2
			s.line++
			s.space = true
			continue
		case c == '\\' && s.at(s.pos+1, '\r') && s.at(s.pos+2, '\n'):
			s.pos += 3
			s.line++
			s.space = true
			continue
		case c == '\n':
			s.newline()
			continue
		case c == '#':
			start := s.pos
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
			s.comment(start, s.line)
			continue
		case c == 0x04 || c == 0x1a || c == 0:
			// ^D, ^Z and NUL end a Ruby program.
			s.pos = len(s.src)
			return
		}
		if interp && c == '}' && s.depth == base {
			s.pos++
			return
		}
		s.token()
		s.space = false
	}
	if interp {
		s.fail(litStart, "literal is not terminated (its #{ is not closed)")
	}
}

// lineStart handles =begin comments and __END__ at a line's start; it
// reports whether the program ends here.
func (s *rscan) lineStart() bool {
	rest := s.src[s.pos:]
	if bytes.HasPrefix(rest, []byte("__END__")) && (len(rest) == 7 || rest[7] == '\n' || rest[7] == '\r' && len(rest) > 8 && rest[8] == '\n') {
		s.pos = len(s.src)
		return true
	}
	if bytes.HasPrefix(rest, []byte("=begin")) && (len(rest) == 6 || isSpace(rest[6]) || rest[6] == '\n') {
		start, line := s.pos, s.line
		for {
			nl := bytes.IndexByte(s.src[s.pos:], '\n')
			if nl < 0 {
				s.fail(start, "=begin comment is not closed by =end")
			}
			s.pos += nl + 1
			s.line++
			r := s.src[s.pos:]
			if bytes.HasPrefix(r, []byte("=end")) && (len(r) == 4 || isSpace(r[4]) || r[4] == '\n') {
				for s.pos < len(s.src) && s.src[s.pos] != '\n' {
					s.pos++
				}
				s.comment(start, line)
				return false
			}
		}
	}
	return false
}

// comment records the comment from start (on line) to s.pos. A trailing
// '\r' belongs to the line break, not to the comment.
func (s *rscan) comment(start, line int) {
	text := string(bytes.TrimSuffix(s.src[start:s.pos], []byte("\r")))
	s.comments = append(s.comments, lang.Comment{Line: line, EndLine: s.line, Text: text})
}

func (s *rscan) at(i int, c byte) bool { return i < len(s.src) && s.src[i] == c }

func (s *rscan) peek(i int) byte {
	if i < len(s.src) {
		return s.src[i]
	}
	return 0
}

// newline handles the newline at s.pos: the heredoc bodies that start
// after it, and the end of a statement.
func (s *rscan) newline() {
	term := s.st == sEnd || s.st == sArg || s.st == sMid
	s.pos++
	s.line++
	s.bol = true
	s.space = true
	if len(s.heredocs) > 0 {
		s.readHeredocs()
	}
	if term && !s.leadingDot() {
		header := s.params // a def's header ends: no separator, as after def f(x)
		s.terminate()
		if !header {
			s.emitTerm()
		}
	}
	if s.st != sDot && s.st != sFname {
		s.st = sBeg
	}
}

// leadingDot reports whether the next code line starts with .name or
// &.name, continuing the statement of the line before.
func (s *rscan) leadingDot() bool {
	i := s.pos
	for i < len(s.src) {
		switch c := s.src[i]; {
		case isSpace(c) || c == '\n':
			i++
		case c == '#':
			for i < len(s.src) && s.src[i] != '\n' {
				i++
			}
		case c == '.':
			return !s.at(i+1, '.')
		case c == '&':
			return s.at(i+1, '.')
		default:
			return false
		}
	}
	return false
}

// terminate ends a statement: an endless def's body, a loop's condition,
// a def's parameter list without parentheses.
func (s *rscan) terminate() {
	s.params = false
	for len(s.stack) > 0 {
		top := &s.stack[len(s.stack)-1]
		if top.depth != s.depth {
			return
		}
		switch {
		case top.kind == fEndless:
			s.pop(s.lastEnd)
			continue
		case top.loopDo:
			top.loopDo = false
		case top.kind == fDef:
			top.await = false
		}
		return
	}
}

// emitTerm marks the end of a statement: the next token is preceded by a
// ";" token, as for a written ;, unless it closes a block or starts a
// clause (end, else, ...), where a separator means nothing.
func (s *rscan) emitTerm() {
	if len(s.toks) > 0 {
		s.term = true
	}
}

// noSeparator are the tokens before which a statement separator means
// nothing.
var noSeparator = map[string]bool{
	"end": true, "}": true, ")": true, "]": true, "else": true, "elsif": true,
	"when": true, "in": true, "rescue": true, "ensure": true,
}

// emit adds a token that starts on line.
func (s *rscan) emit(line int, text string, ident bool) {
	if s.term {
		s.term = false
		if !noSeparator[text] || ident {
			// The separator stands for the line break or ; before the
			// token: it counts unless the range starts here (Lead).
			s.toks = append(s.toks, lang.Token{Line: line, Text: ";", Lead: true})
		}
	}
	s.toks = append(s.toks, lang.Token{Line: line, Text: text})
	s.lastEnd = s.line
	s.prev2Text, s.prevText = s.prevText, text
	s.prev2Ident, s.prevIdent = s.prevIdent, ident
	if s.reqPending == 2 && text == "(" {
		s.reqPending = 1
	} else {
		s.reqPending = 0
	}
	if text == "|" {
		if s.blockStart {
			s.blockParams = true
		} else if s.blockParams {
			s.blockParams = false
		}
	}
	s.blockStart = text == "do" || text == "{"
	// The token after a def's name tells whether it is endless.
	if n := len(s.stack); n > 0 && s.stack[n-1].kind == fDef && s.stack[n-1].await {
		top := &s.stack[n-1]
		switch {
		case top.params:
			if text == ")" && s.depth == top.depth {
				top.params = false
				s.params = false
				s.st = sBeg // the body may start on the same line: def f(x) /x/ end
			}
		case text == "(" && s.depth == top.depth+1:
			top.params = true
		case text == "=":
			top.kind, top.await = fEndless, false
		default:
			top.await = false
		}
	}
}

// token reads one token at s.pos (not space, newline or comment).
func (s *rscan) token() {
	c := s.src[s.pos]
	start, line := s.pos, s.line
	switch {
	case isIdentStart(c):
		s.ident()
	case isDigit(c):
		s.number()
	case c == '@':
		s.pos++
		if s.at(s.pos, '@') {
			s.pos++
		}
		s.identChars()
		s.emit(line, string(s.src[start:s.pos]), false)
		s.st = sEnd
	case c == '$':
		s.global()
	case c == '"' || c == '`':
		s.pos++
		s.quoted(start, c, c, true, false)
		s.afterString(line)
	case c == '\'':
		s.pos++
		s.quoted(start, '\'', '\'', false, false)
		s.afterString(line)
	case c == ':':
		s.colon()
	case c == '?' && s.charLiteral():
	case c == '/' && s.valueMayStart(s.peek(s.pos+1)):
		s.pos++
		s.quoted(start, '/', '/', true, true)
		s.st = sEnd
	case c == '%' && s.valueMayStart(s.peek(s.pos+1)) && s.percent():
	case c == '<' && s.at(s.pos+1, '<') && s.heredocStart():
	default:
		s.operator()
	}
}

// valueMayStart reports whether a literal may start at s.pos given the
// byte after its first: always where a value is expected, and after an
// identifier when a space comes before and none after (puts /x/ is a
// regexp, a / b a division).
func (s *rscan) valueMayStart(next byte) bool {
	switch s.st {
	case sBeg, sMid:
		return true
	case sArg:
		return s.space && !isSpace(next) && next != '\n' && next != '=' && next != 0 && !(s.prevIdent && s.locals[s.prevText])
	}
	return false
}

var keywords = map[string]bool{
	"alias": true, "and": true, "begin": true, "BEGIN": true, "break": true, "case": true,
	"class": true, "def": true, "defined?": true, "do": true, "else": true, "elsif": true,
	"end": true, "END": true, "ensure": true, "false": true, "for": true, "if": true,
	"in": true, "module": true, "next": true, "nil": true, "not": true, "or": true,
	"redo": true, "rescue": true, "retry": true, "return": true, "self": true,
	"super": true, "then": true, "true": true, "undef": true, "unless": true,
	"until": true, "when": true, "while": true, "yield": true,
	"__FILE__": true, "__LINE__": true, "__ENCODING__": true,
}

// ident reads an identifier, constant, keyword or label.
func (s *rscan) ident() {
	start, line := s.pos, s.line
	s.identChars()
	if c := s.peek(s.pos); (c == '?' || c == '!') && !s.at(s.pos+1, '=') || (c == '?' || c == '!') && s.at(s.pos+1, '=') && s.at(s.pos+2, '=') {
		s.pos++
	}
	word := string(s.src[start:s.pos])
	prev := s.st
	// A label (end: 1, if: x) is no keyword.
	if s.at(s.pos, ':') && !s.at(s.pos+1, ':') && prev != sDot {
		s.pos++
		s.emit(line, word+":", false)
		s.st = sBeg
		return
	}
	if prev == sDot || prev == sFname || !keywords[word] {
		if prev != sDot && (s.params || s.blockParams || s.assigned()) {
			s.locals[word] = true
		}
		s.emit(line, word, true)
		s.st = sArg
		if prev == sFname {
			s.st = sEnd
		}
		s.identCall(word, prev, line)
		if (word == "require" || word == "require_relative") && prev != sDot {
			s.reqPending, s.reqRel = 2, word == "require_relative"
		}
		return
	}
	s.keyword(word, start, line, prev)
}

// assigned reports whether the identifier just read is assigned: x = 1,
// x += 1, x ||= 1 (not x == 1, x =~ r, x => y).
func (s *rscan) assigned() bool {
	i := s.pos
	for i < len(s.src) && isSpace(s.src[i]) {
		i++
	}
	rest := s.src[i:]
	if len(rest) >= 2 && rest[0] == '=' {
		return rest[1] != '=' && rest[1] != '~' && rest[1] != '>'
	}
	for _, op := range []string{"+=", "-=", "*=", "/=", "||=", "&&=", "|=", "&=", "<<=", ">>=", "**=", "%=", "^="} {
		if bytes.HasPrefix(rest, []byte(op)) {
			return true
		}
	}
	return false
}

// identCall records a call hint: name(...) or recv.name.
func (s *rscan) identCall(word string, prev state, line int) {
	var qual string
	switch {
	case prev == sDot && (s.prev2Text == "." || s.prev2Text == "&."):
		qual = "."
		if n := len(s.toks); n >= 3 && s.identAt(n-3) && (n == 3 || !isDotOp(s.toks[n-4].Text) || s.toks[n-4].Text == "::") {
			qual = s.toks[n-3].Text
		}
	case prev == sDot:
		return
	case s.at(s.pos, '('):
	default:
		return
	}
	from := s.enclosing()
	if from == "" {
		return
	}
	s.calls = append(s.calls, lang.Call{From: from, Qual: qual, Name: word, Line: line})
}

func isDotOp(t string) bool { return t == "." || t == "&." || t == "::" }

func (s *rscan) identAt(i int) bool {
	t := s.toks[i].Text
	return t != "" && isIdentStart(t[0]) && !keywords[t] || t == "self"
}

// enclosing returns the innermost symbol the scanner is in.
func (s *rscan) enclosing() string {
	for i := len(s.stack) - 1; i >= 0; i-- {
		f := s.stack[i]
		if f.name != "" {
			return f.name
		}
	}
	return ""
}

func (s *rscan) identChars() {
	for s.pos < len(s.src) && isIdentChar(s.src[s.pos]) {
		s.pos++
	}
}

// scope returns the name children of the innermost frame nest in, and
// whether they may be symbols.
func (s *rscan) scope() (string, bool) {
	if n := len(s.stack); n > 0 {
		return s.stack[n-1].scope, s.stack[n-1].scoped
	}
	return "", true
}

func join(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
}

func (s *rscan) push(f frame) {
	f.scope, f.scoped = s.scope()
	f.depth = s.depth
	s.stack = append(s.stack, f)
}

// pop closes the innermost frame on line.
func (s *rscan) pop(line int) {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if f.name != "" {
		s.defs[f.defIdx].end = line
	}
}

// keyword handles a keyword that is not a method name or a label.
func (s *rscan) keyword(word string, start, line int, prev state) {
	s.st = sBeg
	if word == "then" {
		// then is a separator: if x then y is if x; y.
		s.emitTerm()
		return
	}
	s.emit(line, word, false)
	switch word {
	case "class":
		s.classOrModule(fClass, start, line)
	case "module":
		s.classOrModule(fModule, start, line)
	case "def":
		s.def(start, line)
	case "do":
		if n := len(s.stack); n > 0 && s.stack[n-1].loopDo && s.stack[n-1].depth == s.depth {
			s.stack[n-1].loopDo = false
			return
		}
		s.push(frame{kind: fBlock, word: word, line: line, off: start})
	case "begin", "case":
		s.push(frame{kind: fBlock, word: word, line: line, off: start})
	case "for":
		s.push(frame{kind: fBlock, word: word, line: line, off: start, loopDo: true})
	case "if", "unless", "while", "until":
		if prev == sBeg {
			s.push(frame{kind: fBlock, word: word, line: line, off: start, loopDo: word == "while" || word == "until"})
		}
	case "end":
		for len(s.stack) > 0 && s.stack[len(s.stack)-1].kind == fEndless {
			s.pop(s.lastEnd)
		}
		if len(s.stack) == 0 {
			s.fail(start, "end without a matching def, class, module, do, begin, if or loop")
		}
		if f := s.stack[len(s.stack)-1]; f.depth != s.depth {
			s.fail(start, "end inside brackets that open after its `"+f.word+"`")
		}
		s.pop(line)
		s.st = sEnd
	case "self", "nil", "true", "false", "__FILE__", "__LINE__", "__ENCODING__", "redo", "retry":
		s.st = sEnd
	case "return", "break", "next":
		s.st = sMid
	case "alias", "undef":
		s.st = sFname
	case "defined?", "super", "yield":
		s.st = sArg
	}
}

// skipSpaces skips blanks (not newlines) and reports whether any.
func (s *rscan) skipSpaces() {
	for s.pos < len(s.src) && isSpace(s.src[s.pos]) {
		s.pos++
	}
}

// classOrModule reads the name after class or module and opens the frame;
// class << expr opens a singleton class.
func (s *rscan) classOrModule(kind, start, line int) {
	scope, scoped := s.scope()
	s.skipSpaces()
	if kind == fClass && s.at(s.pos, '<') && s.at(s.pos+1, '<') {
		s.emit(s.line, "<<", false)
		s.pos += 2
		s.skipSpaces()
		self := bytes.HasPrefix(s.src[s.pos:], []byte("self")) && !isIdentChar(s.peek(s.pos+4))
		f := frame{kind: fSclass, word: "class <<", line: line, off: start}
		s.push(f)
		top := &s.stack[len(s.stack)-1]
		top.scope, top.scoped = join(scope, "self"), scoped && self
		return
	}
	// A constant path: ::A, A::B::C.
	var parts []string
	ok := true
	if s.at(s.pos, ':') && s.at(s.pos+1, ':') {
		scope = "" // class ::Top is a top-level class
	}
	for {
		if s.at(s.pos, ':') && s.at(s.pos+1, ':') {
			s.emit(s.line, "::", false)
			s.pos += 2
		}
		if s.pos < len(s.src) && isUpper(s.src[s.pos]) {
			b := s.pos
			s.identChars()
			parts = append(parts, string(s.src[b:s.pos]))
			s.emit(s.line, parts[len(parts)-1], true)
		} else {
			ok = false
			break
		}
		if !(s.at(s.pos, ':') && s.at(s.pos+1, ':')) {
			break
		}
	}
	s.st = sArg
	f := frame{kind: kind, word: frameWord[kind], line: line, off: start}
	s.push(f)
	top := &s.stack[len(s.stack)-1]
	if !ok || len(parts) == 0 || !scoped {
		top.scoped = false
		return
	}
	top.name = join(scope, strings.Join(parts, "."))
	top.scope = top.name
	top.defIdx = len(s.defs)
	s.defs = append(s.defs, def{name: top.name, kind: lang.KindType, start: line})
}

var opMethods = []string{"[]=", "[]", "===", "==", "=~", "!=", "!~", "<=>", "<=", "<<", "<", ">=", ">>", ">",
	"+@", "-@", "~@", "!@", "**", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "`"}

// def reads a method's name after def and opens its frame.
func (s *rscan) def(start, line int) {
	scope, scoped := s.scope()
	s.skipSpaces()
	recv := ""
	// A receiver: self.m, Const.m, obj.m.
	if s.pos < len(s.src) && isIdentStart(s.src[s.pos]) {
		e := s.pos
		for e < len(s.src) && isIdentChar(s.src[e]) {
			e++
		}
		if sep := s.peek(e); sep == '.' && !s.at(e+1, '.') || sep == ':' && s.at(e+1, ':') {
			recv = string(s.src[s.pos:e])
			s.emit(s.line, recv, true)
			s.pos = e + 1
			if sep == ':' {
				s.pos++
			}
			s.emit(s.line, ".", false) // def self::m is def self.m
		}
	}
	name := ""
	if s.pos < len(s.src) && isIdentStart(s.src[s.pos]) {
		b := s.pos
		s.identChars()
		switch c := s.peek(s.pos); {
		case c == '?' || c == '!':
			s.pos++
		case c == '=' && !strings.ContainsRune("=~>", rune(s.peek(s.pos+1))):
			s.pos++
		}
		name = string(s.src[b:s.pos])
		s.emit(s.line, name, true)
	} else {
		for _, op := range opMethods {
			if bytes.HasPrefix(s.src[s.pos:], []byte(op)) {
				s.pos += len(op)
				s.emit(s.line, op, false)
				name = "" // an operator method is no symbol
				break
			}
		}
	}
	s.st = sEnd
	s.locals = map[string]bool{}
	s.params = true
	f := frame{kind: fDef, word: "def", line: line, off: start, await: true}
	s.push(f)
	top := &s.stack[len(s.stack)-1]
	top.scoped = false
	if !scoped || name == "" {
		return
	}
	switch recv {
	case "":
	case "self":
		scope = join(scope, "self")
	default:
		return
	}
	top.name = join(scope, name)
	top.defIdx = len(s.defs)
	kind := lang.KindMethod
	if scope == "" {
		kind = lang.KindFunc
	}
	s.defs = append(s.defs, def{name: top.name, kind: kind, start: line})
}

// number reads a numeric literal.
func (s *rscan) number() {
	start, line := s.pos, s.line
	s.numChars()
	if s.at(s.pos, '.') && isDigit(s.peek(s.pos+1)) {
		s.pos++
		s.numChars()
	}
	if c := s.src[s.pos-1]; (c == 'e' || c == 'E') && (s.at(s.pos, '+') || s.at(s.pos, '-')) && isDigit(s.peek(s.pos+1)) && !bytes.HasPrefix(s.src[start:], []byte("0x")) {
		s.pos++
		s.numChars()
	}
	s.emit(line, string(s.src[start:s.pos]), false)
	s.st = sEnd
}

func (s *rscan) numChars() {
	for s.pos < len(s.src) && (isIdentChar(s.src[s.pos]) && s.src[s.pos] < 0x80) {
		s.pos++
	}
}

// global reads a global variable: $name, $1, $~, $-w.
func (s *rscan) global() {
	start, line := s.pos, s.line
	s.pos++
	switch c := s.peek(s.pos); {
	case isIdentStart(c):
		s.identChars()
	case isDigit(c):
		for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
			s.pos++
		}
	case c == '-':
		s.pos++
		if s.pos < len(s.src) && isIdentChar(s.src[s.pos]) {
			s.pos++
		}
	case c != 0 && strings.IndexByte("~*$?!@/\\;,.=:<>\"&`'+", c) >= 0:
		s.pos++
	}
	s.emit(line, string(s.src[start:s.pos]), false)
	s.st = sEnd
}

// afterString sets the state after a string: a "label": starts a value.
func (s *rscan) afterString(line int) {
	s.st = sEnd
	if s.at(s.pos, ':') && !s.at(s.pos+1, ':') {
		s.pos++
		s.emit(line, ":", false)
		s.st = sBeg
	}
}

// colon reads ::, a symbol (:name, :"...", :+) or a ternary's colon.
func (s *rscan) colon() {
	start, line := s.pos, s.line
	switch c := s.peek(s.pos + 1); {
	case c == ':':
		s.pos += 2
		s.emit(line, "::", false)
		s.st = sDot
		return
	case c == '"':
		s.pos += 2
		s.quoted(start, '"', '"', true, false)
		s.st = sEnd
		return
	case c == '\'':
		s.pos += 2
		s.quoted(start, '\'', '\'', false, false)
		s.st = sEnd
		return
	case isIdentStart(c) || c == '@' || c == '$' && isIdentStart(s.peek(s.pos+2)):
		s.pos++
		for s.at(s.pos, '@') || s.at(s.pos, '$') {
			s.pos++
		}
		s.identChars()
		switch d := s.peek(s.pos); {
		case d == '?' || d == '!':
			if !s.at(s.pos+1, '=') {
				s.pos++
			}
		case d == '=':
			if e := s.peek(s.pos + 1); e != '=' && e != '~' && e != '>' {
				s.pos++
			}
		}
		s.emit(line, string(s.src[start:s.pos]), false)
		s.st = sEnd
		return
	}
	if s.st != sEnd && !isSpace(s.peek(s.pos+1)) {
		for _, op := range opMethods {
			if bytes.HasPrefix(s.src[s.pos+1:], []byte(op)) {
				s.pos += 1 + len(op)
				s.emit(line, string(s.src[start:s.pos]), false)
				s.st = sEnd
				return
			}
		}
	}
	s.pos++
	s.emit(line, ":", false)
	s.st = sBeg
}

// charLiteral reads ?a, ?\n; it reports false for a ternary's ?.
func (s *rscan) charLiteral() bool {
	next := s.peek(s.pos + 1)
	if !s.valueMayStart(next) || next == 0 || isSpace(next) || next == '\n' {
		return false
	}
	if isIdentChar(next) && isIdentChar(s.peek(s.pos+2)) {
		return false
	}
	start, line := s.pos, s.line
	s.pos++
	s.charBody()
	s.emit(line, string(s.src[start:s.pos]), false)
	s.st = sEnd
	return true
}

// charBody reads one character or escape of a ?a literal.
func (s *rscan) charBody() {
	if s.peek(s.pos) != '\\' {
		_, n := utf8.DecodeRune(s.src[s.pos:])
		s.pos += n
		return
	}
	s.pos++
	c := s.peek(s.pos)
	switch {
	case c == 'u' && s.at(s.pos+1, '{'):
		for s.pos < len(s.src) && s.src[s.pos] != '}' && s.src[s.pos] != '\n' {
			s.pos++
		}
		s.pos++
	case c == 'u':
		s.pos++
		for i := 0; i < 4 && s.pos < len(s.src) && isHex(s.src[s.pos]); i++ {
			s.pos++
		}
	case c == 'x':
		s.pos++
		for i := 0; i < 2 && s.pos < len(s.src) && isHex(s.src[s.pos]); i++ {
			s.pos++
		}
	case '0' <= c && c <= '7':
		for i := 0; i < 3 && s.pos < len(s.src) && '0' <= s.src[s.pos] && s.src[s.pos] <= '7'; i++ {
			s.pos++
		}
	case (c == 'C' || c == 'M') && s.at(s.pos+1, '-'):
		s.pos += 2
		s.charBody()
	case c == 'c':
		s.pos++
		s.charBody()
	default:
		_, n := utf8.DecodeRune(s.src[s.pos:])
		s.pos += n
	}
	if s.pos > len(s.src) {
		s.pos = len(s.src)
	}
}

// percent reads a %-literal (%w[], %i(), %q{}, %Q<>, %r||, %()); it reports
// false when the % is an operator.
func (s *rscan) percent() bool {
	start := s.pos
	i := s.pos + 1
	kind := byte('Q')
	if c := s.peek(i); c != 0 && strings.IndexByte("qQwWiIrsx", c) >= 0 {
		kind = c
		i++
	}
	open := s.peek(i)
	if open == 0 || isIdentChar(open) || isSpace(open) || open == '\n' || open >= 0x80 {
		return false
	}
	if kind == 'Q' && start+1 == i && open == '=' && s.st == sArg {
		return false
	}
	s.pos = i + 1
	s.quoted(start, open, closer(open), strings.IndexByte("QWIrx", kind) >= 0, kind == 'r')
	s.st = sEnd
	return true
}

func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// quoted reads a string, symbol, regexp or %-literal from s.pos (after its
// opening delimiter) to its closing one, emitting the literal parts and
// the code of its interpolations as tokens. start is the literal's first
// byte.
func (s *rscan) quoted(start int, open, close byte, interp, regexp bool) {
	line := s.line
	nest := 0
	seg := start
	for {
		if s.pos >= len(s.src) {
			s.fail(start, "literal is not terminated")
		}
		c := s.src[s.pos]
		switch {
		case c == '\\':
			if s.at(s.pos+1, '\n') {
				s.line++
			}
			s.pos += 2
			continue
		case c == '\n':
			s.line++
		case c == open && open != close:
			nest++
		case c == close:
			if nest > 0 {
				nest--
				break
			}
			s.pos++
			if regexp {
				for s.pos < len(s.src) && isLower(s.src[s.pos]) {
					s.pos++
				}
			}
			if seg == start && s.reqPending > 0 && (open == '"' || open == '\'') && s.src[start] == open {
				s.require(string(s.src[start+1 : s.pos-1]))
			}
			s.emit(line, normString(s.src[seg:s.pos]), false)
			return
		case c == '#' && interp && s.at(s.pos+1, '{'):
			s.pos += 2
			s.emit(line, string(s.src[seg:s.pos]), false)
			s.st = sBeg
			s.space = false
			s.run(true, start)
			seg = s.pos - 1
			line = s.line
			continue
		}
		s.pos++
	}
}

// require records the import of a require or require_relative: the
// feature as written, a require_relative one made explicitly relative
// ("./x" unless it starts with . or /).
func (s *rscan) require(feature string) {
	if s.reqRel && !strings.HasPrefix(feature, ".") && !strings.HasPrefix(feature, "/") {
		feature = "./" + feature
	}
	s.imports = append(s.imports, feature)
}

// normString gives a single-quoted string without escapes, quotes or #
// the double-quoted spelling a formatter may choose.
func normString(lit []byte) string {
	if len(lit) >= 2 && lit[0] == '\'' && lit[len(lit)-1] == '\'' {
		body := lit[1 : len(lit)-1]
		if !bytes.ContainsAny(body, "\\\"#") {
			return "\"" + string(body) + "\""
		}
	}
	return string(lit)
}

// heredocStart reads <<ID, <<-ID, <<~ID with a quoted or bare id; it
// reports false for a shift.
func (s *rscan) heredocStart() bool {
	if !s.valueMayStart(s.peek(s.pos + 2)) {
		return false
	}
	i := s.pos + 2
	h := heredoc{line: s.line, off: s.pos}
	switch s.peek(i) {
	case '~':
		h.indent, h.squiggly = true, true
		i++
	case '-':
		h.indent = true
		i++
	}
	switch q := s.peek(i); {
	case q == '\'' || q == '"' || q == '`':
		e := bytes.IndexByte(s.src[i+1:], q)
		if e < 0 || bytes.IndexByte(s.src[i+1:i+1+e], '\n') >= 0 {
			return false
		}
		h.id = string(s.src[i+1 : i+1+e])
		i += e + 2
	case isIdentStart(q):
		if s.st == sArg && !h.indent && !isUpper(q) {
			return false
		}
		e := i
		for e < len(s.src) && isIdentChar(s.src[e]) {
			e++
		}
		h.id = string(s.src[i:e])
		i = e
	default:
		return false
	}
	// The opener's token leaves out - and ~: rubocop turns <<EOS into
	// <<~EOS with the body indented, which keeps the body's value (the
	// body's token, dedented for ~).
	s.emit(s.line, "<<"+strings.TrimLeft(string(s.src[s.pos+2:i]), "~-"), false)
	s.pos = i
	h.tokenIndex = len(s.toks)
	s.heredocs = append(s.heredocs, h)
	s.st = sEnd
	return true
}

// readHeredocs reads the bodies of the pending heredocs, which start at
// s.pos, and emits each as one token on its first line.
func (s *rscan) readHeredocs() {
	hs := s.heredocs
	s.heredocs = nil
	for _, h := range hs {
		first := s.line
		var lines [][]byte
		for {
			if s.pos >= len(s.src) {
				s.fail(h.off, "heredoc "+h.id+" is not terminated")
			}
			e := bytes.IndexByte(s.src[s.pos:], '\n')
			var l []byte
			next := len(s.src)
			if e >= 0 {
				l, next = s.src[s.pos:s.pos+e], s.pos+e+1
			} else {
				l = s.src[s.pos:]
			}
			l = bytes.TrimSuffix(l, []byte("\r"))
			term := l
			if h.indent {
				term = bytes.TrimLeft(l, " \t")
			}
			s.pos = next
			if e >= 0 {
				s.line++
			}
			if string(term) == h.id {
				break
			}
			lines = append(lines, l)
		}
		if h.squiggly {
			lines = dedent(lines)
		}
		s.toks = append(s.toks, lang.Token{Line: first, Text: string(bytes.Join(lines, []byte("\n")))})
	}
}

// dedent removes the common leading whitespace of the non-blank lines, as
// Ruby does for a <<~ body.
func dedent(lines [][]byte) [][]byte {
	common := -1
	for _, l := range lines {
		t := bytes.TrimLeft(l, " \t")
		if len(t) == 0 {
			continue
		}
		if n := len(l) - len(t); common < 0 || n < common {
			common = n
		}
	}
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = l[min(max(common, 0), len(l)-len(bytes.TrimLeft(l, " \t"))):]
	}
	return out
}

var operators = []string{"**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=",
	"&.", "**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "=~", "!~", "..", "::", "->", "=>",
	"+=", "-=", "*=", "/=", "%=", "|=", "&=", "^="}

// operator reads punctuation.
func (s *rscan) operator() {
	line := s.line
	rest := s.src[s.pos:]
	op := string(rest[:1])
	for _, o := range operators {
		if bytes.HasPrefix(rest, []byte(o)) {
			op = o
			break
		}
	}
	s.pos += len(op)
	text := op
	prev := s.st
	s.st = sBeg
	switch op {
	case "(", "[":
		s.depth++
	case "{":
		s.depth++
		// A block's brace (after a name, a value or ->) reads as do, its
		// closing one as end: rubocop turns one into the other.
		block := prev == sArg || prev == sEnd || s.prevText == "->"
		s.braces = append(s.braces, block)
		if block {
			text = "do"
		}
	case ")", "]", "}":
		s.depth--
		if s.depth < 0 {
			s.fail(s.pos-1, "unmatched "+op)
		}
		for len(s.stack) > 0 && s.stack[len(s.stack)-1].kind == fEndless && s.stack[len(s.stack)-1].depth > s.depth {
			s.pop(s.lastEnd)
		}
		if n := len(s.stack); n > 0 && s.stack[n-1].depth > s.depth {
			f := s.stack[n-1]
			s.fail(f.off, "`"+f.word+"` is not closed by end before "+op)
		}
		if n := len(s.braces); op == "}" && n > 0 {
			if s.braces[n-1] {
				text = "end"
			}
			s.braces = s.braces[:n-1]
		}
		s.st = sEnd
	case ".", "&.", "::":
		s.st = sDot
	case ";":
		header := s.params
		s.terminate()
		if prev != sBeg && !header {
			s.emitTerm()
		}
		return
	}
	s.emit(line, text, false)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isIdentStart(c byte) bool {
	return isLower(c) || isUpper(c) || c == '_' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }
