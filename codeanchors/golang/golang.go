package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Parser is the [lang.File.Parser] of [Extract]. Bump its version whenever the
// symbols, ranges or tokens it produces change.
const Parser = "go/ast@1"

// Extract is the Go extractor. It parses src with go/parser and returns
// every top-level func, method and type spec with its line range, the file's
// normalized tokens (see [goTokens]) and its import paths.
//
// A func ranges from its func keyword (a doc comment is not part of it) to
// its closing brace. A type ranges from the type keyword, or from its name
// inside a grouped type (...), to the end of its spec. Methods are named
// Recv.Name after the receiver's base type, without pointer or type
// parameters. Blank (_) names are not symbols; a name defined more than once
// goes to [File.Ambiguous] instead. Lines are the file's own: //line
// directives are ignored.
//
// A src that does not parse yields a [scanner.Error] for its first syntax
// error, which prints as path:line:col: message.
func Extract(path string, src []byte) (*lang.File, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	starts := lang.LineStarts(src)
	if err != nil {
		return nil, firstError(path, src, starts, err)
	}
	tf := fset.File(af.FileStart)
	off := func(p token.Pos) int { return tf.Offset(p) }

	f := &lang.File{Path: path, Parser: Parser, Package: af.Name.Name}
	for _, spec := range af.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			p = spec.Path.Value // unreachable for parsed source; keep it as written
		}
		f.Imports = append(f.Imports, p)
		name := ""
		if spec.Name != nil {
			name = spec.Name.Name
		}
		f.ImportNames = append(f.ImportNames, name)
	}

	var syms []lang.Symbol
	add := func(name, kind string, start, end int) {
		if lang.IsTest(Language, path, name) {
			kind = lang.KindTest
		}
		s := lang.Symbol{Name: name, Kind: kind, Start: lang.LineOf(starts, start), End: lang.LineOf(starts, end)}
		s.StartOff, s.EndOff = starts[s.Start-1], lang.LineEnd(src, starts, s.End)
		syms = append(syms, s)
	}
	for _, decl := range af.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			name, kind := d.Name.Name, lang.KindFunc
			if name == "_" {
				continue
			}
			if d.Recv != nil {
				recv, ok := recvBase(d.Recv)
				if !ok || recv == "_" {
					continue
				}
				name, kind = recv+"."+name, lang.KindMethod
			}
			add(name, kind, off(d.Pos()), off(d.End())-1)
			if d.Body != nil {
				f.Calls = goCalls(f.Calls, name, d.Body, func(p token.Pos) int { return lang.LineOf(starts, off(p)) })
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				if ts.Name.Name == "_" {
					continue
				}
				start := ts.Pos()
				if !d.Lparen.IsValid() {
					start = d.TokPos
				}
				add(ts.Name.Name, lang.KindType, off(start), off(ts.End())-1)
			}
		}
	}

	// A name defined twice cannot be bound to either definition.
	count := make(map[string]int, len(syms))
	for _, s := range syms {
		count[s.Name]++
	}
	for _, s := range syms {
		if count[s.Name] > 1 {
			f.Ambiguous = append(f.Ambiguous, s.Name)
		} else {
			f.Symbols = append(f.Symbols, s)
		}
	}
	f.SortSymbols()

	f.Tokens, f.Comments = goTokens(fset, af, path, src, starts)
	return f, nil
}

// recvBase returns the base type name of a method receiver: T for T, *T,
// (*T), T[P] and *T[K, V]. It reports false for receivers no type checker
// would accept a method on (none, or a qualified type), as go/doc does; a
// list of several receivers uses the first, as go/doc does.
func recvBase(recv *ast.FieldList) (string, bool) {
	if len(recv.List) == 0 {
		return "", false
	}
	x := recv.List[0].Type
	for {
		switch t := x.(type) {
		case *ast.Ident:
			return t.Name, true
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		default:
			return "", false
		}
	}
}

// firstError turns a parse error into a [scanner.Error] at the first syntax
// error in the file. Positions are recomputed from byte offsets so that
// //line directives cannot move them and path is the one given.
func firstError(path string, src []byte, starts []int, err error) error {
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) == 0 {
		return scanner.Error{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Msg: err.Error()}
	}
	first := list[0]
	for _, e := range list[1:] {
		if e.Pos.Offset < first.Pos.Offset {
			first = e
		}
	}
	o := min(max(first.Pos.Offset, 0), len(src))
	line := lang.LineOf(starts, o)
	return scanner.Error{
		Pos: token.Position{Filename: path, Offset: o, Line: line, Column: o - starts[line-1] + 1},
		Msg: first.Msg,
	}
}

// goTokens returns the code tokens of a parsed Go file, for [lang.HashTokens]:
// go/scanner's tokens without comments, each written as its literal text
// (identifiers, literals) or its spelling (keywords, operators). The stream
// is normalized so that a gofmt run (go/printer) cannot change it, while
// every other edit still does:
//
//   - Every semicolon is ";", whether written or inserted at a newline, since
//     gofmt turns one into the other when it splits a line. A semicolon
//     before ")" or "}", and the one of an empty statement, are dropped.
//   - A comma before ")" or "}" is dropped, and one before "]" too, except
//     the comma that keeps the type parameter list of type T[P *C,] from
//     reading as an array length.
//   - The semicolons of an if, switch or for clause that gofmt leaves out
//     (no init statement; for a for clause, no post statement either) are
//     dropped, and so are the parentheses around its condition, tag or range
//     expression.
//   - Parentheses around a parenthesized expression, around the type of a
//     receiver, parameter or type parameter, and around a lone unnamed
//     result or no result are dropped.
//   - Number literals get lower-case prefix and exponent letters (0X1P4 is
//     0x1p4), and integer imaginary literals lose leading zeros.
//
// Each token carries the file line it starts on, ignoring //line directives.
// The comments the scan meets (directives too) are handed out beside the
// tokens, as written.
func goTokens(fset *token.FileSet, af *ast.File, path string, src []byte, starts []int) ([]lang.Token, []lang.Comment) {
	sf := fset.AddFile(path, -1, len(src))
	var sc scanner.Scanner
	sc.Init(sf, src, nil, scanner.ScanComments) // comments do not change the other tokens
	r := &rawTokens{file: fset.File(af.FileStart), toks: make([]rawToken, 0, len(src)/5)}
	var comments []lang.Comment
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT {
			comments = append(comments, comment(src, starts, sf.Offset(pos)))
			continue
		}
		r.toks = append(r.toks, rawToken{sf.Offset(pos), tok, lit})
	}
	r.drop = make([]bool, len(r.toks))
	ast.Inspect(af, r.visit)
	r.dropListEnds()

	toks := make([]lang.Token, 0, len(r.toks))
	li := 0 // index into starts of the current line
	for i, t := range r.toks {
		if r.drop[i] {
			continue
		}
		for li+1 < len(starts) && starts[li+1] <= t.off {
			li++
		}
		var text string
		switch {
		case t.tok == token.SEMICOLON:
			text = ";"
		case t.tok == token.INT || t.tok == token.FLOAT || t.tok == token.IMAG:
			text = normalizedNumber(t.lit)
		case t.tok.IsLiteral():
			text = t.lit
		default:
			text = t.tok.String()
		}
		toks = append(toks, lang.Token{Line: li + 1, Text: text})
	}
	return toks, comments
}

// comment returns the comment at byte offset off of src, as written: the
// scanner's literal drops the carriage returns of a block comment.
func comment(src []byte, starts []int, off int) lang.Comment {
	end := len(src)
	if src[off+1] == '*' {
		end = off + 2 + bytes.Index(src[off+2:], []byte("*/")) + 2
	} else if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		end = off + i
	}
	text := strings.TrimSuffix(string(src[off:end]), "\r")
	return lang.Comment{Line: lang.LineOf(starts, off), EndLine: lang.LineOf(starts, end-1), Text: text}
}

// A rawToken is a token as go/scanner returns it, at a byte offset.
type rawToken struct {
	off int
	tok token.Token
	lit string
}

// rawTokens are the tokens of one file while [goTokens] decides which of
// them gofmt could add or remove.
type rawTokens struct {
	file      *token.File // the parsed file, for AST positions
	toks      []rawToken
	drop      []bool       // by index into toks
	keepComma map[int]bool // trailing commas before "]" that gofmt keeps
}

// search returns the index of the first token at or after p, and whether
// one starts at p.
func (r *rawTokens) search(p token.Pos) (int, bool) {
	if !p.IsValid() {
		return len(r.toks), false
	}
	return slices.BinarySearchFunc(r.toks, r.file.Offset(p), func(t rawToken, off int) int { return t.off - off })
}

// dropAt drops the token at p if it is tok.
func (r *rawTokens) dropAt(p token.Pos, tok token.Token) {
	if i, ok := r.search(p); ok && r.toks[i].tok == tok {
		r.drop[i] = true
	}
}

// dropSemis drops the semicolons from index i on, up to limit.
func (r *rawTokens) dropSemis(i int, limit token.Pos) {
	lim := r.file.Offset(limit)
	for ; i < len(r.toks) && r.toks[i].tok == token.SEMICOLON && r.toks[i].off < lim; i++ {
		r.drop[i] = true
	}
}

// dropClauseSemis drops the semicolons right after the keyword at kw of an
// if, switch or for statement whose block opens at lbrace.
func (r *rawTokens) dropClauseSemis(kw, lbrace token.Pos) {
	if i, ok := r.search(kw); ok {
		r.dropSemis(i+1, lbrace)
	}
}

// stripParens drops every pair of parentheses around x itself.
func (r *rawTokens) stripParens(x ast.Expr) {
	for px, ok := x.(*ast.ParenExpr); ok; px, ok = px.X.(*ast.ParenExpr) {
		r.dropAt(px.Lparen, token.LPAREN)
		r.dropAt(px.Rparen, token.RPAREN)
	}
}

// stripFieldParens drops the parentheses around the type of each field.
func (r *rawTokens) stripFieldParens(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		r.stripParens(f.Type)
	}
}

// visit is the [ast.Inspect] callback that marks the tokens gofmt would
// drop, as listed at [goTokens].
func (r *rawTokens) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.EmptyStmt:
		r.dropAt(n.Semicolon, token.SEMICOLON)
	case *ast.ParenExpr:
		if _, ok := n.X.(*ast.ParenExpr); ok {
			r.dropAt(n.Lparen, token.LPAREN)
			r.dropAt(n.Rparen, token.RPAREN)
		}
	case *ast.IfStmt:
		if n.Init == nil {
			r.dropClauseSemis(n.If, n.Body.Lbrace)
		}
		r.stripParens(n.Cond)
	case *ast.SwitchStmt:
		if n.Init == nil {
			r.dropClauseSemis(n.Switch, n.Body.Lbrace)
		}
		r.stripParens(n.Tag)
	case *ast.TypeSwitchStmt:
		if n.Init == nil {
			r.dropClauseSemis(n.Switch, n.Body.Lbrace)
		}
	case *ast.ForStmt:
		if n.Init == nil && n.Post == nil {
			r.dropClauseSemis(n.For, n.Body.Lbrace)
			if n.Cond != nil {
				i, _ := r.search(n.Cond.End())
				r.dropSemis(i, n.Body.Lbrace)
			}
		}
		r.stripParens(n.Cond)
	case *ast.RangeStmt:
		r.stripParens(n.X)
	case *ast.FuncDecl:
		r.stripFieldParens(n.Recv)
	case *ast.FuncType:
		r.stripFieldParens(n.TypeParams)
		r.stripFieldParens(n.Params)
		r.stripFieldParens(n.Results)
		if res := n.Results; res != nil && res.Opening.IsValid() &&
			(len(res.List) == 0 || len(res.List) == 1 && len(res.List[0].Names) == 0) {
			r.dropAt(res.Opening, token.LPAREN)
			r.dropAt(res.Closing, token.RPAREN)
		}
	case *ast.TypeSpec:
		r.stripFieldParens(n.TypeParams)
		if tp := n.TypeParams; tp != nil && tp.NumFields() == 1 && combinesWithName(stripParensAlways(tp.List[0].Type)) {
			if i, ok := r.search(tp.Closing); ok && i > 0 && r.toks[i-1].tok == token.COMMA {
				if r.keepComma == nil {
					r.keepComma = map[int]bool{}
				}
				r.keepComma[i-1] = true
			}
		}
	}
	return true
}

// dropListEnds drops a semicolon or comma that only ends a list: one before
// ")" or "}", and a comma before "]" that gofmt would not keep. It walks
// backwards so that the next kept token is known.
func (r *rawTokens) dropListEnds() {
	next := token.EOF
	for i := len(r.toks) - 1; i >= 0; i-- {
		if r.drop[i] {
			continue
		}
		closes := next == token.RPAREN || next == token.RBRACE
		switch t := r.toks[i].tok; {
		case t == token.SEMICOLON && closes,
			t == token.COMMA && (closes || next == token.RBRACK && !r.keepComma[i]):
			r.drop[i] = true
			continue
		}
		next = r.toks[i].tok
	}
}

func stripParensAlways(x ast.Expr) ast.Expr {
	for {
		px, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = px.X
	}
}

// combinesWithName reports whether a type parameter name followed by x reads
// as an expression (P *C reads as P*C), so that type T[P x] needs a trailing
// comma to be generic. It is go/printer's rule.
func combinesWithName(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.StarExpr:
		return !isTypeElem(x.X)
	case *ast.BinaryExpr:
		return combinesWithName(x.X) && !isTypeElem(x.Y)
	case *ast.ParenExpr:
		return !isTypeElem(x.X)
	}
	return false
}

// isTypeElem reports whether x can only be a type element, as go/printer
// decides it.
func isTypeElem(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.ArrayType, *ast.StructType, *ast.FuncType, *ast.InterfaceType, *ast.MapType, *ast.ChanType:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.TILDE
	case *ast.BinaryExpr:
		return isTypeElem(x.X) || isTypeElem(x.Y)
	case *ast.ParenExpr:
		return isTypeElem(x.X)
	}
	return false
}

// normalizedNumber writes a number literal the way gofmt does: lower-case
// base prefix and exponent letters (hex digits are kept), and no leading
// zeros on an integer imaginary literal. It is go/printer's rule.
func normalizedNumber(x string) string {
	if len(x) < 2 {
		return x
	}
	switch x[:2] {
	default:
		// 0-prefix octal, decimal int, or float, possibly imaginary
		if i := strings.LastIndexByte(x, 'E'); i >= 0 {
			return x[:i] + "e" + x[i+1:]
		}
		if x[len(x)-1] == 'i' && !strings.ContainsAny(x, ".e") {
			if x = strings.TrimLeft(x, "0_"); x == "i" {
				x = "0i"
			}
		}
	case "0X", "0x":
		if i := strings.LastIndexByte(x, 'P'); i >= 0 {
			x = x[:i] + "p" + x[i+1:]
		}
		x = "0x" + x[2:]
	case "0O":
		x = "0o" + x[2:]
	case "0B":
		x = "0b" + x[2:]
	}
	return x
}

// goCalls appends the call sites in body, made by the symbol from.
func goCalls(calls []lang.Call, from string, body *ast.BlockStmt, line func(token.Pos) int) []lang.Call {
	ast.Inspect(body, func(n ast.Node) bool {
		ce, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := ce.Fun
		for { // F[int](x) and pkg.F[K, V](x) call F
			switch x := fun.(type) {
			case *ast.IndexExpr:
				fun = x.X
				continue
			case *ast.IndexListExpr:
				fun = x.X
				continue
			case *ast.ParenExpr:
				fun = x.X
				continue
			}
			break
		}
		switch x := fun.(type) {
		case *ast.Ident:
			calls = append(calls, lang.Call{From: from, Name: x.Name, Line: line(x.Pos())})
		case *ast.SelectorExpr:
			qual := "."
			if id, ok := x.X.(*ast.Ident); ok {
				qual = id.Name
			}
			calls = append(calls, lang.Call{From: from, Qual: qual, Name: x.Sel.Name, Line: line(x.Sel.Pos())})
		}
		return true
	})
	return calls
}
