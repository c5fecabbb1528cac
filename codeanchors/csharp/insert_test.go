package csharp

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
		// indented with no-break spaces (U+00A0), as some of Newtonsoft.Json's files are
		{Text: "class TwNbsp\n{\n\u00a0\u00a0\u00a0\u00a0void M()\n\u00a0\u00a0\u00a0\u00a0{\n\u00a0\u00a0\u00a0\u00a0}\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwNbsp", 1, 6), langtest.Sym("TwNbsp.M", 3, 5)}, Nested: true},
		{Text: "class TwInserted\n{\n    int P { get; set; }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 4), langtest.Sym("TwInserted.P", 3, 3)}, Nested: true},
	})
}
