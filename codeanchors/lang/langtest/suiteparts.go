package langtest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// An InsertSet is the insertion property's declarations ([CheckInsertions])
// for the suite's cases whose input ends with one of Ext (all of them when
// Ext is empty): a language with two syntaxes (C and C++, JavaScript and
// TypeScript) inserts each one's declarations into its own cases.
type InsertSet struct {
	Name  string   // the subtest's name; "" runs the set directly under "insert"
	Ext   []string // the cases' extensions; nil for all
	Decls []Insertion
}

// A CommentCase is one source and the comments Extract must hand out for
// it, in order ([ExpectComments]).
type CommentCase struct {
	Path string
	Src  string
	Want []lang.Comment
}

// Highlight is how the site highlights the language: chroma's lexer named
// Lexer is the one picked for each of Files (by file name) and Names (a
// fence's name or alias), and it lexes every case that extracts without an
// error token, giving back the source.
type Highlight struct {
	Lexer string
	Files []string
	Names []string
	// Also are other lexers the language's files and fences get (C's
	// beside C++'s): only their Lexer, Files and Names are read.
	Also []Highlight
	// Skip leaves out cases chroma is known not to lex (say why beside it).
	Skip func(c Case) bool
	// Gaps are chroma's known error tokens, "case.txtar:LINE" -> why.
	Gaps map[string]string
}

// runInsert runs the insertion property over each set.
func (s Suite) runInsert(t *testing.T, cases []Case) {
	for _, set := range s.Insert {
		var mine []Case
		for _, c := range cases {
			if len(set.Ext) == 0 || slices.Contains(set.Ext, strings.ToLower(filepath.Ext(c.Path))) {
				mine = append(mine, c)
			}
		}
		if len(mine) == 0 {
			t.Errorf("insert set %q: no case has one of %v", set.Name, set.Ext)
			continue
		}
		if set.Name == "" {
			CheckInsertions(t, s.Language, mine, set.Decls)
			continue
		}
		t.Run(set.Name, func(t *testing.T) { CheckInsertions(t, s.Language, mine, set.Decls) })
	}
}

// runComments checks each comment case.
func (s Suite) runComments(t *testing.T) {
	for _, c := range s.Comments {
		ExpectComments(t, s.extract(), c.Path, c.Src, c.Want...)
	}
}

// Check checks h against the cases (see [Highlight]).
func (h Highlight) Check(t *testing.T, cases []Case, extract func(string, []byte) (*lang.File, error)) {
	t.Helper()
	h.checkPicked(t)
	for _, o := range h.Also {
		o.checkPicked(t)
	}
	l := lexers.Get(h.Lexer)
	if l == nil {
		t.Fatalf("chroma has no lexer %q", h.Lexer)
	}
	for _, c := range cases {
		if _, err := extract(c.Path, c.Src); err != nil || h.Skip != nil && h.Skip(c) {
			continue
		}
		it, err := l.Tokenise(nil, string(c.Src))
		if err != nil {
			t.Fatal(err)
		}
		line := 1
		var text strings.Builder
		for _, tok := range it.Tokens() {
			if at := fmt.Sprintf("%s:%d", filepath.Base(c.File), line); tok.Type == chroma.Error && h.Gaps[at] == "" {
				t.Errorf("%s: chroma's %s lexer gives an error token %q", at, h.Lexer, tok.Value)
			}
			line += strings.Count(tok.Value, "\n")
			text.WriteString(tok.Value)
		}
		if strings.ReplaceAll(text.String(), "\r\n", "\n") != strings.ReplaceAll(string(c.Src), "\r\n", "\n") {
			t.Errorf("%s: chroma's %s lexer's tokens do not give back the source", c.File, h.Lexer)
		}
	}
}

// checkPicked checks that chroma picks h.Lexer for h's files and names.
func (h Highlight) checkPicked(t *testing.T) {
	t.Helper()
	for _, f := range h.Files {
		if l := lexers.Match(f); l == nil || l.Config().Name != h.Lexer {
			t.Errorf("file %s: lexer %s, want chroma's %s lexer", f, lexerName(l), h.Lexer)
		}
	}
	for _, n := range h.Names {
		if l := lexers.Get(n); l == nil || l.Config().Name != h.Lexer {
			t.Errorf("fence %s: lexer %s, want chroma's %s lexer", n, lexerName(l), h.Lexer)
		}
	}
}

// lexerName names l for a message ("none" for no lexer).
func lexerName(l chroma.Lexer) string {
	if l == nil {
		return "none"
	}
	return l.Config().Name
}
