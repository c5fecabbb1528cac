package codeanchors_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	_ "github.com/tracewiki/tracewiki/codeanchors" // registers the built-in languages' symbol syntax
)

// oldValidSymbol is claims' symbol grammar as it stood before the languages
// brought their own syntax (claims/refs.go at 47855c5), frozen here as the
// oracle: with every built-in language linked in, claims must accept
// exactly the symbols it accepted.
func oldValidSymbol(s string) bool {
	if n := len(s); n > 1 && (s[n-1] == '?' || s[n-1] == '!' || s[n-1] == '=') {
		s = s[:n-1]
	}
	for i, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		part = strings.TrimPrefix(part, "#")
		if i > 0 {
			part = strings.TrimPrefix(part, "~")
		}
		if part == "" {
			return false
		}
		for i, r := range part {
			letter := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 && r != 0xFFFD
			ok := r == '_' || r == '$' || letter || (i > 0 && '0' <= r && r <= '9')
			if !ok {
				return false
			}
		}
	}
	return true
}

// TestSymbolGrammarUnchanged checks every symbol of up to five runes over
// an alphabet holding each rune class the grammar treats apart: claims
// accepts one exactly when the frozen grammar did.
func TestSymbolGrammarUnchanged(t *testing.T) {
	alphabet := []string{"a", "Z", "1", "_", "$", "#", "~", "?", "!", "=", ".", "é", "-"}
	accepted, checked := 0, 0
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		if prefix != "" {
			checked++
			_, err := claims.ParseTarget("a/f.x@" + prefix)
			want := oldValidSymbol(prefix)
			if got := err == nil; got != want {
				t.Errorf("symbol %q: accepted %v, the grammar before said %v", prefix, got, want)
			}
			if want {
				accepted++
			}
		}
		if n == 0 {
			return
		}
		for _, r := range alphabet {
			walk(prefix+r, n-1)
		}
	}
	walk("", 5)
	for _, s := range []string{"Cart.#total", "A.valid?", "A.self.save!", "A.name=", "Vec.~Vec", "jQuery.$x", "A.B.C.d"} {
		if _, err := claims.ParseTarget("a/f.x@" + s); err != nil || !oldValidSymbol(s) {
			t.Errorf("%s: %v", s, err)
		}
	}
	t.Logf("%d symbols checked, %d accepted", checked, accepted)
}
