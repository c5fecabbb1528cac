package render

import (
	"bytes"
	"slices"
	"testing"
)

// TestSpliceBodyRows splices a new body and new claims table rows into a
// page, and checks that the result is the page rendered with them, that
// the span it returns is where findBody finds them in it, and that a span
// that does not fit the page is refused.
func TestSpliceBodyRows(t *testing.T) {
	page := func(body string, rows []ClaimRow) []byte {
		return []byte("<html><h1>T</h1>" + bodyOpen + body + bodyClose + "\n<section class=\"claims\"><table>\n" +
			rowsOpen + string(claimRows(rows)) + rowsClose + "\n</table></section>\n</html>\n")
	}
	rows := []ClaimRow{{Text: "An old <claim>.", Ref: "a.go@F", URI: "code://a.go#F", URL: "../a/", Captured: "lines 1–2", State: "linked"},
		{Text: "No code.", State: ""}}
	old := page("<p>old</p>", rows)
	span, ok := findBody(old, "<p>old</p>")
	if !ok || span.RowsHead == 0 || span.RowsTail == 0 {
		t.Fatalf("findBody: %+v, %v; want the body and the rows", span, ok)
	}
	edited := slices.Clone(rows)
	edited[0].Text = "A new & much longer claim."
	got, next, ok := SpliceBody(old, span, "<p>a longer new body</p>", edited)
	if want := page("<p>a longer new body</p>", edited); !ok || !bytes.Equal(got, want) {
		t.Fatalf("SpliceBody: ok %v\n%s\nwant\n%s", ok, got, want)
	}
	if again, ok := findBody(got, "<p>a longer new body</p>"); !ok || again != next {
		t.Errorf("the spliced page's span is %+v, SpliceBody said %+v", again, next)
	}
	got, _, ok = SpliceBody(old, span, "<p>x</p>", nil)
	if want := page("<p>x</p>", rows); !ok || !bytes.Equal(got, want) {
		t.Errorf("SpliceBody without rows: ok %v\n%s", ok, got)
	}
	for name, p := range map[string][]byte{"shorter": old[:len(old)-8], "longer": append([]byte("x"), old...)} {
		if _, _, ok := SpliceBody(p, span, "<p>x</p>", edited); ok {
			t.Errorf("%s page: a span that does not fit was used", name)
		}
	}
}

// TestFindBody finds a body only where it is once between bodyOpen and
// bodyClose: not where the page has it elsewhere, nor when it is twice.
func TestFindBody(t *testing.T) {
	const body = "<p>text</p>"
	wrapped := bodyOpen + body + bodyClose
	for _, c := range []struct {
		name, page string
		head       int // where the body starts; 0 for none found
	}{
		{"once", "<h1>T</h1>" + wrapped + "<footer/>", len("<h1>T</h1>" + bodyOpen)},
		{"after another body's div", bodyOpen + "<p>other</p>" + bodyClose + body + wrapped, len(bodyOpen+"<p>other</p>"+bodyClose+body) + len(bodyOpen)},
		{"the div not closed after it", "<h1>T</h1>" + bodyOpen + body + "<p>more</p>" + bodyClose, 0},
		{"twice", wrapped + "<hr>" + wrapped, 0},
		{"nested in itself", bodyOpen + wrapped + bodyClose, len(bodyOpen + bodyOpen)},
		{"absent", "<h1>T</h1>", 0},
	} {
		span, ok := findBody([]byte(c.page), body)
		if ok != (c.head > 0) || span.Head != c.head {
			t.Errorf("%s: span %+v, %v; want the body at %d", c.name, span, ok, c.head)
			continue
		}
		if got := c.page[span.Head : len(c.page)-span.Tail]; ok && got != body {
			t.Errorf("%s: span %+v holds %q", c.name, span, c.page[span.Head:len(c.page)-span.Tail])
		}
	}
}
