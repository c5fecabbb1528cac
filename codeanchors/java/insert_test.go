package java

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
		{Text: "class TwInserted {\n    void m() {\n    }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.m", 2, 3)}, Nested: true},
		{Text: "enum TwEnum {\n    A, B;\n\n    int f() { return 1; }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwEnum", 1, 5), langtest.Sym("TwEnum.f", 4, 4)}, Nested: true},
	})
}
