//go:build conformance

package cfamily

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// The reference: clang's JSON AST dump (Debian package clang; test.sh
// installs it), restricted to the declarations of the main file that are
// not spelled by a macro expansion.

// clangLoc is one location of the dump. The dump writes a location's file
// and line only when they differ from the location written before it, so
// locations must be read in the order they appear (see [clangRef.walk]).
type clangLoc struct {
	Offset       *int      `json:"offset"`
	File         string    `json:"file"`
	Line         int       `json:"line"`
	SpellingLoc  *clangLoc `json:"spellingLoc"`
	ExpansionLoc *clangLoc `json:"expansionLoc"`
}

type clangNode struct {
	ID                  string                        `json:"id"`
	Kind                string                        `json:"kind"`
	Name                string                        `json:"name"`
	Loc                 clangLoc                      `json:"loc"`
	Range               struct{ Begin, End clangLoc } `json:"range"`
	IsImplicit          bool                          `json:"isImplicit"`
	Inherited           bool                          `json:"inherited"`
	CompleteDefinition  bool                          `json:"completeDefinition"`
	ExplicitlyDefaulted string                        `json:"explicitlyDefaulted"`
	ExplicitlyDeleted   bool                          `json:"explicitlyDeleted"`
	ParentDeclContextID string                        `json:"parentDeclContextId"`
	Inner               []clangNode                   `json:"inner"`
}

// refDecl is one declaration of the reference.
type refDecl struct {
	name       string
	cat        byte
	start, end int // byte offsets: the first token, the end of the last
	body       bool
}

// clangRef reads one dump.
type clangRef struct {
	want  func(file string) bool // the files whose declarations are compared
	srcs  map[string][]byte
	file  string            // the file of the last location read
	names map[string]string // node id → qualified name, for records and namespaces
	decls map[string][]refDecl
}

// pos is where a location read in document order lies: its offset and
// file.
func (r *clangRef) pos(l *clangLoc) (off int, file string) {
	if l.SpellingLoc != nil || l.ExpansionLoc != nil {
		o, f := -1, ""
		if l.SpellingLoc != nil {
			r.pos(l.SpellingLoc)
		}
		if l.ExpansionLoc != nil {
			o, f = r.pos(l.ExpansionLoc)
		}
		return o, f
	}
	if l.File != "" {
		r.file = l.File
		if _, ok := r.decls[l.File]; !ok && r.want(l.File) {
			r.decls[l.File] = []refDecl{}
		}
	}
	if l.Offset == nil {
		return -1, ""
	}
	return *l.Offset, r.file
}

// source returns the text of a file of the dump.
func (r *clangRef) source(file string) []byte {
	if src, ok := r.srcs[file]; ok {
		return src
	}
	src, _ := os.ReadFile(file)
	r.srcs[file] = src
	return src
}

// clangFunctionKinds and clangTypeKinds are the declarations compared.
var clangFunctionKinds = setOf("FunctionDecl CXXMethodDecl CXXConstructorDecl CXXDestructorDecl")
var clangTypeKinds = setOf("CXXRecordDecl RecordDecl EnumDecl TypedefDecl TypeAliasDecl ConceptDecl ClassTemplateSpecializationDecl ClassTemplatePartialSpecializationDecl")

// walk reads node n, in scope prefix ("ns.Class."), in document order.
// tmpl is the begin offset of an enclosing template declaration, or -1.
// collect is false inside what holds no symbols (function bodies, friend
// declarations, anonymous records).
func (r *clangRef) walk(n *clangNode, prefix string, tmpl int, collect bool) {
	_, locFile := r.pos(&n.Loc)
	macroName := n.Loc.SpellingLoc != nil
	begin, beginFile := r.pos(&n.Range.Begin)
	end, _ := r.pos(&n.Range.End)
	if tmpl >= 0 {
		begin = tmpl
	}
	if n.Kind == "CXXConstructorDecl" || n.Kind == "CXXDestructorDecl" {
		// a class template's constructor is named Box<T> in the dump
		n.Name, _, _ = strings.Cut(n.Name, "<")
	}
	qual := prefix + n.Name
	if n.ParentDeclContextID != "" {
		if p, ok := r.names[n.ParentDeclContextID]; ok {
			qual = p + "." + n.Name
			if p == "" {
				qual = n.Name
			}
		}
	}
	innerPrefix, innerTmpl, innerCollect := prefix, -1, collect
	record := func() {
		// attributes written before the declaration ([[nodiscard]],
		// __attribute__) start its range
		for i := range n.Inner {
			c := &n.Inner[i]
			if strings.HasSuffix(c.Kind, "Attr") && !c.IsImplicit && !c.Inherited {
				// their locations are read in order below; peek at the
				// begin offset only when the file is already the main
				if b := c.Range.Begin; b.ExpansionLoc != nil {
					if b.ExpansionLoc.Offset != nil && *b.ExpansionLoc.Offset < begin && (b.ExpansionLoc.File == "" || b.ExpansionLoc.File == locFile) {
						begin = *b.ExpansionLoc.Offset
					}
				} else if b.Offset != nil && *b.Offset < begin && (b.File == "" || b.File == locFile) {
					begin = *b.Offset
				}
			}
		}
	}
	switch {
	case n.IsImplicit:
		innerCollect = false
	case n.Kind == "NamespaceDecl":
		if n.Name != "" {
			innerPrefix = qual + "."
		}
		r.names[n.ID] = strings.TrimSuffix(innerPrefix, ".")
	case n.Kind == "LinkageSpecDecl" || n.Kind == "TranslationUnitDecl":
	case n.Kind == "FunctionTemplateDecl" || n.Kind == "ClassTemplateDecl" || n.Kind == "TypeAliasTemplateDecl":
		innerTmpl = begin
	case n.Kind == "FriendDecl":
		innerCollect = false
	case clangFunctionKinds[n.Kind] || clangTypeKinds[n.Kind] || n.Kind == "VarDecl" || n.Kind == "FieldDecl":
		isType := clangTypeKinds[n.Kind]
		if isType && n.Kind != "TypedefDecl" && n.Kind != "TypeAliasDecl" && n.Kind != "ConceptDecl" {
			r.names[n.ID] = qual
			innerPrefix = qual + "."
			if n.Name == "" {
				innerCollect = false
			}
			complete := n.CompleteDefinition
			if n.Kind == "EnumDecl" {
				// the dump does not say; a definition ends with its '}'
				src := r.source(locFile)
				complete = end >= 0 && end < len(src) && src[end] == '}'
			}
			if !complete {
				isType = false // a forward declaration
			}
		} else {
			innerCollect = false // a function body, a variable's initializer
		}
		if !collect || locFile == "" || locFile != beginFile || !r.want(locFile) || macroName || n.Name == "" || begin < 0 || end < 0 {
			break
		}
		if strings.HasPrefix(n.Name, "operator") && !isIdentName(n.Name) {
			break
		}
		record()
		switch {
		case isType:
			e := r.stmtEnd(locFile, end, n.Kind == "TypedefDecl" || n.Kind == "TypeAliasDecl" || n.Kind == "ConceptDecl")
			r.decls[locFile] = append(r.decls[locFile], refDecl{name: qual, cat: catType, start: begin, end: e, body: true})
		case clangFunctionKinds[n.Kind]:
			body := false
			for _, c := range n.Inner {
				if (c.Kind == "CompoundStmt" || c.Kind == "CXXTryStmt") && n.ExplicitlyDefaulted == "" {
					// (a defaulted function used gets a body from Sema)
					body = true
				}
			}
			// = default; (or = delete;) out of its class is the
			// definition of what the class declares
			outOfLine := (n.ExplicitlyDefaulted != "" || n.ExplicitlyDeleted) && n.ParentDeclContextID != ""
			r.decls[locFile] = append(r.decls[locFile], refDecl{name: qual, cat: catFunc, start: begin, end: r.stmtEnd(locFile, end, !body), body: body || outOfLine})
		}
	default:
		innerCollect = false
	}
	pattern := false
	for i := range n.Inner {
		c := &n.Inner[i]
		collectChild := innerCollect
		if innerTmpl >= 0 && (clangFunctionKinds[c.Kind] || clangTypeKinds[c.Kind]) {
			// a template's first declaration is its pattern; the
			// ones after it are its instantiations
			collectChild = collectChild && !pattern
			pattern = true
		}
		r.walk(c, innerPrefix, innerTmpl, collectChild)
	}
}

// isIdentName reports whether s is an identifier (operator_x is a name,
// operator== is not).
func isIdentName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// stmtEnd returns the end of the declaration whose last token starts at
// off: the end of that token, or with semi the end of the ';' that ends
// the declaration (SPEC: a declaration ranges to its ';'; clang's range
// stops at the declarator or a trailing attribute).
func (r *clangRef) stmtEnd(file string, off int, semi bool) int {
	src := r.source(file)
	if off >= len(src) {
		return len(src)
	}
	// the end of the token at off
	e := off + 1
	for e < len(src) && identByte(src[off]) && identByte(src[e]) {
		e++
	}
	if !semi {
		return e
	}
	depth := 0
	for i := off; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ';':
			if depth <= 0 {
				return i + 1
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
					i += k + 3
				}
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return e
}

// runClang dumps one translation unit and returns the declarations of the
// files want accepts, by file (a file the unit includes has an entry, maybe
// empty), or the error clang reports (a file clang cannot compile is
// skipped).
func runClang(path string, args []string, filter string, want func(string) bool) (map[string][]refDecl, error) {
	cmdArgs := append([]string{"-fsyntax-only", "-ferror-limit=1", "-Wno-everything", "-Xclang", "-ast-dump=json"}, args...)
	if filter != "" {
		cmdArgs = append(cmdArgs, "-Xclang", "-ast-dump-filter="+filter)
	}
	cmd := exec.Command("clang", append(cmdArgs, path)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &clangRef{want: want, srcs: map[string][]byte{}, names: map[string]string{}, decls: map[string][]refDecl{}}
	// with a filter, each matching declaration is one JSON value after a
	// "Dumping NAME:" line
	br := bufio.NewReaderSize(out, 1<<20)
	dec := json.NewDecoder(&skipDumping{r: br})
	var derr error
	for {
		var n clangNode
		if err := dec.Decode(&n); err != nil {
			if err.Error() != "EOF" {
				derr = err
			}
			break
		}
		r.file = ""
		r.walk(&n, "", -1, true)
	}
	io.Copy(io.Discard, br) // what a decoding error left unread
	werr := cmd.Wait()
	if werr != nil || strings.Contains(stderr.String(), "error:") {
		return nil, fmt.Errorf("clang: %v: %s", werr, firstLine(stderr.String()))
	}
	if derr != nil {
		return nil, derr
	}
	return r.decls, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// skipDumping drops the "Dumping NAME:" lines -ast-dump-filter writes
// between the JSON values.
type skipDumping struct {
	r   *bufio.Reader
	buf []byte
}

func (s *skipDumping) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		line, err := s.r.ReadSlice('\n')
		if len(line) > 0 && !bytes.HasPrefix(line, []byte("Dumping ")) {
			s.buf = append(s.buf[:0], line...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(s.buf) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// refSymbols applies Extract's one-symbol and ambiguity rules ([group]) to
// the reference's declarations: the parsing is compared, not the policy.
func refSymbols(ds []refDecl) map[string][2]int {
	var in []decl
	for _, d := range ds {
		in = append(in, decl{name: d.name, cat: d.cat, start: d.start, end: d.end, body: d.body})
	}
	syms, amb := group(in, nil)
	out := map[string][2]int{}
	for _, s := range syms {
		out[s.name] = [2]int{s.start, s.end}
	}
	for _, a := range amb {
		out[a] = [2]int{-1, -1}
	}
	return out
}

var _ = lang.KindFunc
