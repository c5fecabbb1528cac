package python

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestInsertDeclaration checks the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
func TestInsertDeclaration(t *testing.T) {
	langtest.CheckInsertions(t, Language, suite.Cases(t), []langtest.Insertion{
		{Text: "def tw_inserted(x):\n    return x\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 2)}, Nested: true},
		{Text: "class TwInserted:\n    def m(self):\n        return 1\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3), langtest.Sym("TwInserted.m", 2, 3)}, Nested: true},
		{Text: "@decorator(1)\ndef tw_decorated():\n    pass\n", Symbols: []lang.Symbol{langtest.Sym("tw_decorated", 1, 3)}, Nested: true},
	})
}
