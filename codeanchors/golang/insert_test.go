package golang

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestInsertDeclaration checks the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
//
// Go declarations are all top-level: a place next to a method (nested to
// the harness) takes them too.
func TestInsertDeclaration(t *testing.T) {
	langtest.CheckInsertions(t, Language, suite.Cases(t), []langtest.Insertion{
		{Text: "func twInserted(x int) int {\n\treturn x\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}, Nested: true},
		{Text: "type twT struct {\n\tA int\n}\n\nfunc (t *twT) M() {}\n", Symbols: []lang.Symbol{langtest.Sym("twT", 1, 3), langtest.Sym("twT.M", 5, 5)}, Nested: true},
	})
}
