//go:build conformance

package site

import (
	"bytes"
	"os"
	"testing"
)

// strictDocDocs are StrictDoc's own documents (../shared/data, read from
// there, never copied into the repository).
const strictDocDocs = "/work/shared/data/strictdoc-0.26.0/docs"

// TestXLSXRoundTripStrictDoc: StrictDoc 0.26's own documents, imported,
// exported as a workbook and imported from it into another workspace,
// keep every field of every requirement.
func TestXLSXRoundTripStrictDoc(t *testing.T) {
	if _, err := os.Stat(strictDocDocs); err != nil {
		t.Skipf("StrictDoc's documents are not here (%v): the round trip on real documents needs /work/shared", err)
	}
	before, after, book := xlsxRoundTrip(t, "strictdoc", strictDocDocs)
	if !bytes.Equal(before, after) {
		t.Errorf("the round trip changed the requirements (%d bytes of export JSON before, %d after)", len(before), len(after))
	}
	if n := bytes.Count(before, []byte(`"id": `)); n < 1000 {
		t.Errorf("%d requirements exported; StrictDoc 0.26's documents have over 1,000", n)
	}
	t.Logf("%d requirements, a %d-byte workbook, %d bytes of export JSON", bytes.Count(before, []byte(`"id": `)), len(book), len(before))
}
