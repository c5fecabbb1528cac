package kotlin_test

import (
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
	"testing"
)

// TestInsertDeclaration checks the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
func TestInsertDeclaration(t *testing.T) {
	langtest.CheckInsertions(t, kotlin.Language, suite.Cases(t), []langtest.Insertion{
		{Text: "fun twInserted(x: Int): Int {\n    return x\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}, Nested: true},
		{Text: "class TwInserted {\n    fun m() = 1\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 3), langtest.Sym("TwInserted.m", 2, 2)}, Nested: true},
		{Text: "fun twExpr(x: Int) =\n    x + 1\n", Symbols: []lang.Symbol{langtest.Sym("twExpr", 1, 2)}, Nested: true},
	})
}
