// Package enginetest drives the anchor engine (package codeanchors) from a
// language's external tests: capture a target in one version of a file and
// judge it in another, one table of edits per language (Drift). It is apart
// from langtest because it imports codeanchors, which imports every
// language package: a language's internal tests may import langtest, only
// its external tests (package NAME_test) this package.
package enginetest

import (
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Capture captures target (path@symbol, or a path) in src through a
// registry that knows only l, and checks that the anchor records l's
// parser, parser (the language's exported Parser).
func Capture(t *testing.T, l lang.Language, parser, target, src string) codeanchors.Anchor {
	t.Helper()
	tg, err := claims.ParseTarget(target)
	if err != nil {
		t.Fatal(err)
	}
	s := codeanchors.NewSource(codeanchors.NewRegistry(l), tg.Path, []byte(src))
	if s.ParseErr != nil {
		t.Fatal(s.ParseErr)
	}
	a, err := codeanchors.Capture(tg, codeanchors.Resolve(tg, nil, s), s, "t", "me")
	if err != nil {
		t.Fatal(err)
	}
	if a.Parser != parser {
		t.Fatalf("%s: captured with %s, want %s", target, a.Parser, parser)
	}
	return a
}

// Judge judges the anchor a of target against src, the file's new text,
// through a registry that knows only l. The verdict's Note is cleared: the
// tables compare states, reasons and ranges, not prose.
func Judge(t *testing.T, l lang.Language, a codeanchors.Anchor, target, src string) codeanchors.Verdict {
	t.Helper()
	tg, err := claims.ParseTarget(target)
	if err != nil {
		t.Fatal(err)
	}
	s := codeanchors.NewSource(codeanchors.NewRegistry(l), tg.Path, []byte(src))
	v := codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s))
	v.Note = ""
	return v
}

// A DriftCase is one edit of a [Drift] table's sample and the verdict the
// engine must give the target in the edited file.
type DriftCase struct {
	Name   string
	Target string // "" for the table's Target
	After  string // the edited file
	Want   codeanchors.Verdict
}

// Drift is a language's drift table: Target captured in Before, then
// judged in each case's After. Every language covers at least the four
// kinds of edit of SPEC's drift rules, and a table must name them:
// "moved" (lines added above: linked, Moved, new range), "reformatted"
// (the formatter's edits: linked, Reformatted), "changed" (a semantic
// edit: stale, content-changed) and "vanished" (the symbol renamed away:
// stale, symbol-not-found); add the language's own traps beside them.
type Drift struct {
	Language lang.Language
	Parser   string // the language's Parser, which the anchors must record
	Target   string
	Before   string
	Cases    []DriftCase
}

// Run runs each case as a subtest, and fails when a case's After is
// Before unchanged while it expects a change (an edit that did not apply)
// or when one of the four required kinds is not in the table.
func (d Drift) Run(t *testing.T) {
	t.Helper()
	seen := map[string]bool{}
	anchors := map[string]codeanchors.Anchor{}
	for _, c := range d.Cases {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			target := c.Target
			if target == "" {
				target = d.Target
			}
			if c.After == d.Before && (c.Want.State != codeanchors.Linked || c.Want.Moved || c.Want.Reformatted) {
				t.Fatalf("the edit did not apply: After is Before")
			}
			a, ok := anchors[target]
			if !ok {
				a = Capture(t, d.Language, d.Parser, target, d.Before)
				anchors[target] = a
			}
			if got := Judge(t, d.Language, a, target, c.After); got != c.Want {
				t.Errorf("Judge = %+v, want %+v", got, c.Want)
			}
		})
	}
	for _, k := range []string{"moved", "reformatted", "changed", "vanished"} {
		if !seen[k] {
			t.Errorf("the drift table has no %q case", k)
		}
	}
}
