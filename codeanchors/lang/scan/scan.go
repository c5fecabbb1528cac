// Package scan is the kit the hand-written language front-ends share: the
// steps of an extractor ([Extract]), positions and errors printed
// path:line:col ([Source], [Error]), a lexer's state with its C-style
// comment and quote scanning and the comments it collects ([Lexer]), and
// bracket matching ([MatchBrackets]). A language keeps its own tokens,
// grammar and hash rules; what is here is what several languages wrote
// alike.
package scan

import (
	"fmt"
	"go/scanner"
	"go/token"
	"math"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Error is the first problem a lexer or parser met, at byte offset Off.
type Error struct {
	Off int
	Msg string
}

// Errorf returns an [Error] at off with a formatted message.
func Errorf(off int, format string, args ...any) *Error {
	return &Error{off, fmt.Sprintf(format, args...)}
}

// Source is one file under extraction: its root-relative path, its bytes
// and the offsets its lines start at ([lang.LineStarts]).
type Source struct {
	Path   string
	Src    []byte
	Starts []int
}

// NewSource returns the Source of src at path.
func NewSource(path string, src []byte) *Source {
	return &Source{Path: path, Src: src, Starts: lang.LineStarts(src)}
}

// Line returns the 1-based line holding byte offset off.
func (s *Source) Line(off int) int { return lang.LineOf(s.Starts, off) }

// Err returns e as the [scanner.Error] an extractor reports, printed
// path:line:col: message, col counting bytes, so that editors can jump to
// it. An offset outside the source counts as its nearest end.
func (s *Source) Err(e *Error) error {
	off := min(max(e.Off, 0), len(s.Src))
	line := s.Line(off)
	return scanner.Error{Pos: token.Position{Filename: s.Path, Offset: off, Line: line, Column: off - s.Starts[line-1] + 1}, Msg: e.Msg}
}

// Comment returns the comment src[off:end] with the lines it spans, for a
// lexer that tracks offsets rather than lines. A trailing '\r' belongs to
// the line break, not to the comment.
func (s *Source) Comment(off, end int) lang.Comment {
	return lang.Comment{Line: s.Line(off), EndLine: s.Line(end - 1), Text: strings.TrimSuffix(string(s.Src[off:end]), "\r")}
}

// Extract runs the steps every hand-written extractor takes: it refuses a
// source too large for 32-bit offsets, lexes it, and parses the tokens
// into the file's symbols; the first problem of either step is the error,
// at its position. lex sees only the bytes; parse also the path and the
// line starts.
func Extract[T any](path string, src []byte, lex func(src []byte) (T, *Error), parse func(s *Source, toks T) (*lang.File, *Error)) (*lang.File, error) {
	s := NewSource(path, src)
	if len(src) >= math.MaxInt32 {
		return nil, s.Err(&Error{0, "file too large"})
	}
	toks, err := lex(src)
	if err != nil {
		return nil, s.Err(err)
	}
	f, err := parse(s, toks)
	if err != nil {
		return nil, s.Err(err)
	}
	return f, nil
}

// KeepCalls returns the calls whose calling symbol is not ambiguous in f
// (f.Ambiguous is sorted): a call from a name defined twice has no one
// symbol to start from.
func KeepCalls(f *lang.File, calls []lang.Call) []lang.Call {
	var kept []lang.Call
	for _, c := range calls {
		if _, amb := slices.BinarySearch(f.Ambiguous, c.From); !amb {
			kept = append(kept, c)
		}
	}
	return kept
}
