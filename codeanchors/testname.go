package codeanchors

import (
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// IsTest reports whether the symbol named symbol ("f", "Recv.Name",
// "Class.method") in the file at path is a test by the naming rules of the
// languages of [Default]. Where the file is extracted, [Index.IsTest]
// decides instead, from the symbol's Kind (its extractor sees annotations
// that a name does not show); this rule is its fallback.
//
// Every symbol of a file below a directory named tests or __tests__ is a
// test ([lang.InTestDir]). Elsewhere the language that claims the path
// decides, by its own file and symbol naming rules
// ([lang.Language.IsTest]); a path no language claims is a test when any
// registered language's rule says so.
func IsTest(p, symbol string) bool { return Default.IsTest(p, symbol) }

// IsTest is the package-level [IsTest] for the languages of r.
func (r *Registry) IsTest(p, symbol string) bool {
	if l := r.Language(p); l != nil {
		return lang.IsTest(l, p, symbol)
	}
	for _, l := range r.langs {
		if lang.IsTest(l, p, symbol) {
			return true
		}
	}
	return false
}
