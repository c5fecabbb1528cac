package claims

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Pos is a position for people: a root-relative, slash-separated file name
// and a 1-based line and column. Line or Col 0 means unknown and is omitted
// when printed, so Pos{File: "a.md"} prints as "a.md".
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats p as file:line:col, the form editors jump to.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic codes. They are stable: scripts and tests match on them.
const (
	CodeSyntax     = "syntax"      // malformed frontmatter, JSON or YAML
	CodeField      = "bad-field"   // a frontmatter field with a wrong value or type
	CodeUnknownKey = "unknown-key" // a frontmatter or config key we do not know
	CodeDupID      = "dup-id"      // two requirements or decisions with one id
	CodeUnknownRef = "unknown-ref" // a req:/dec: link or issues entry naming nothing
	CodeBadTarget  = "bad-target"  // a code target that does not parse
	CodeBadLink    = "bad-link"    // a link with an unknown scheme or shape
	CodeSymbol     = "symbol"      // a source file that cannot be parsed for symbols
	CodeDrift      = "drift"       // a target that is not linked
)

// Diagnostic is a problem in the content, reported against the place that
// holds it. Content problems are diagnostics, not errors: parsing collects
// them all and goes on.
type Diagnostic struct {
	Pos  Pos
	Code string
	Msg  string
}

// String formats d as "file:line:col: code: message".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Pos, d.Code, d.Msg)
}

// Diagnostics is a list of diagnostics. Sort it before printing.
type Diagnostics []Diagnostic

// Add appends a diagnostic built from a format.
func (ds *Diagnostics) Add(pos Pos, code, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders ds by file, line, column, code and message, and drops exact
// duplicates, so that output does not depend on the order problems were found.
func (ds Diagnostics) Sort() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
	return slices.Compact(ds)
}

// Error joins the diagnostics, one per line.
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// Err returns nil when ds is empty and ds otherwise, like go/scanner's
// ErrorList.Err.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds
}

// AsDiagnostics reports whether err holds diagnostics, and returns them.
func AsDiagnostics(err error) (Diagnostics, bool) {
	var ds Diagnostics
	ok := errors.As(err, &ds)
	return ds, ok
}
