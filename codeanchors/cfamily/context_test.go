package cfamily

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// TestHashesContextFree checks that a symbol's hashes depend only on its
// own text, whatever code precedes or follows it in the file.
func TestHashesContextFree(t *testing.T) {
	if n := langtest.ExpectContextFree(t, Extract, readCases(t)); n < 20 {
		t.Errorf("only %d variants compared: the property is not exercised", n)
	}
}
