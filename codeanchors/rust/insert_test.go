package rust

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
		{Text: "fn tw_inserted(x: i32) -> i32 {\n    x\n}\n", Symbols: []lang.Symbol{langtest.Sym("tw_inserted", 1, 3)}, Nested: true},
		{Text: "struct TwInserted {\n    a: i32,\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3)}},
	})
}
