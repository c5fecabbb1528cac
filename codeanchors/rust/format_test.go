package rust

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestTokenHashSemanticEdits checks that edits rustfmt never makes change
// the token hash, and edits it does make do not.
func TestTokenHashSemanticEdits(t *testing.T) {
	const base = "fn f(a: u8, b: u8) -> u8 {\n    let t = (a,);\n    g(a, b) + t.0\n}\n"
	same := []string{
		"fn f(a: u8, b: u8) -> u8 { let t = (a,); g(a, b) + t.0 }\n",
		"fn f(\n    a: u8,\n    b: u8,\n) -> u8 {\n    let t = (a,);\n    g(\n        a,\n        b,\n    ) + t.0 // sum\n}\n",
		"/// doc\nfn f(a: u8, b: u8) -> u8 {\n\tlet t = (a,);\n\tg(a, b) + t.0\n}\n",
	}
	differ := []string{
		"fn f(a: u8, b: u8) -> u8 {\n    let t = (a);\n    g(a, b) + t.0\n}\n",
		"fn f(a: u8, b: u8) -> u8 {\n    let t = (a,);\n    g(b, a) + t.0\n}\n",
		"fn f(a: u8, b: u8) -> u16 {\n    let t = (a,);\n    g(a, b) + t.0\n}\n",
		"fn f(a: u8, b: u8) -> u8 {\n    let t = (a,);\n    g(a, b) - t.0\n}\n",
		"fn f(a: u8, b: u8) -> u8 {\n    let t = (a,);\n    g(a, b) + t.0 + 1\n}\n",
		"fn f(a: u8, b: u8) -> u8 {\n    let t = (a,);\n    g(a, \"b\") + t.0\n}\n",
	}
	langtest.TokenHashEdits(t, Extract, "a.rs", "f", base, same, differ)
}
