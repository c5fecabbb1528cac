package php

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
	langtest.CheckInsertions(t, Language, readCases(t), []langtest.Insertion{
		{Text: "function tw_inserted($x)\n{\n    return $x;\n}\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 4)}, Nested: true},
		{Text: "class TwInserted\n{\n    public function m() {}\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.m", 3, 3)}},
	})
}
