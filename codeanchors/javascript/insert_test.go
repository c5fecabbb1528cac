package javascript

import (
	"path"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestInsertDeclaration checks the insertion property on the golden cases
// (langtest.CheckInsertions), JavaScript and TypeScript apart: a
// declaration inserted between two others keeps every symbol, shifted,
// and adds its own, or Extract fails with a path:line error.
func TestInsertDeclaration(t *testing.T) {
	var js, ts []langtest.Case
	for _, c := range suite.Cases(t) {
		switch path.Ext(c.Path) {
		case ".ts", ".tsx", ".mts", ".cts":
			ts = append(ts, c)
		default:
			js = append(js, c)
		}
	}
	decls := []langtest.Insertion{
		{Text: "function twInserted(a, b) {\n  return a + b;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twInserted", 1, 3)}},
		{Text: "class TwInserted {\n  m() {\n    return 1;\n  }\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwInserted", 1, 5), langtest.Sym("TwInserted.m", 2, 4)}},
	}
	t.Run("javascript", func(t *testing.T) { langtest.CheckInsertions(t, Language, js, decls) })
	t.Run("typescript", func(t *testing.T) {
		langtest.CheckInsertions(t, Language, ts, append(decls,
			langtest.Insertion{Text: "interface TwOptions {\n  a: number;\n}\n", Symbols: []lang.Symbol{langtest.Sym("TwOptions", 1, 3)}},
			langtest.Insertion{Text: "function twTyped<T>(x: T): T {\n  return x;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twTyped", 1, 3)}},
		))
	})
}
