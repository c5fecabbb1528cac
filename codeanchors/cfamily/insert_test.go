package cfamily

import (
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
	"strings"
	"testing"
)

// TestInsertDeclaration checks the insertion property on the golden cases
// (langtest.CheckInsertions): a declaration inserted between two others
// keeps every symbol, shifted, and adds its own, or Extract fails with a
// path:line error.
func TestInsertDeclaration(t *testing.T) {
	var c, cpp []langtest.Case
	for _, k := range readCases(t) {
		if strings.HasSuffix(k.Path, ".c") || strings.HasSuffix(k.Path, ".h") {
			c = append(c, k)
		} else {
			cpp = append(cpp, k)
		}
	}
	// issue 24: a function returning an anonymous enum, struct or union
	// was missed, with everything after it
	anonymous := langtest.Insertion{
		Text:    "int twBefore(void) { return 0; }\nstatic enum { TW_A, TW_B } twPick(int x) { return x ? TW_A : TW_B; }\nint twAfter(void) { return 1; }\n",
		Symbols: []lang.Symbol{langtest.Sym("twBefore", 1, 1), langtest.Sym("twPick", 2, 2), langtest.Sym("twAfter", 3, 3)},
	}
	t.Run("c", func(t *testing.T) {
		langtest.CheckInsertions(t, Language, c, []langtest.Insertion{
			anonymous,
			{Text: "static struct { int x, y; } twOrigin(void) {\n    struct { int x, y; } o = {0, 0};\n    return o;\n}\n", Symbols: []lang.Symbol{langtest.Sym("twOrigin", 1, 4)}},
			{Text: "union twU {\n    int i;\n    float f;\n};\n", Symbols: []lang.Symbol{langtest.Sym("twU", 1, 4)}},
		})
	})
	t.Run("c++", func(t *testing.T) {
		langtest.CheckInsertions(t, Language, cpp, []langtest.Insertion{
			anonymous,
			// issue 24: X.~X spanned the class (3-7)
			{Text: "class TwX {\npublic:\n    ~TwX();\n    int f();\n};\n\nTwX::~TwX() = default;\n",
				Symbols: []lang.Symbol{langtest.Sym("TwX", 1, 5), langtest.Sym("TwX.f", 4, 4), langtest.Sym("TwX.~TwX", 7, 7)}},
			{Text: "struct TwY {\n    TwY() = delete;\n    bool operator==(const TwY &) const;\n};\n", Symbols: []lang.Symbol{langtest.Sym("TwY", 1, 4), langtest.Sym("TwY.TwY", 2, 2)}, Nested: true},
		})
	})
}
