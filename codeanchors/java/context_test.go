package java

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestHashesContextFree checks that a symbol's hashes depend only on its
// own text, whatever code precedes or follows it in the file.
func TestHashesContextFree(t *testing.T) {
	cases := langtest.ReadCases(t, ".", func(name string) bool { return strings.HasSuffix(name, ".java") }, "a .java source")
	if n := langtest.ExpectContextFree(t, Extract, cases); n < 20 {
		t.Errorf("only %d variants compared: the property is not exercised", n)
	}
}
