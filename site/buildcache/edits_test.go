package buildcache

import (
	"strconv"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site/render"
)

// TestAppendQuoted checks that the record's quoting is strconv's, for
// plain ASCII and for every byte that strconv escapes or keeps as a rune.
func TestAppendQuoted(t *testing.T) {
	fields := []string{"", "pkg/f.go@F", "code://big/pkg/f.go#symbol-F", "../../code/a b/index.html#sym-F", "lines 116–130",
		`say "hi"`, `back\slash`, "tab\there", "new\nline", "del\x7f", "bad \xff utf-8", "é", "~ and space"}
	for c := range 256 {
		fields = append(fields, string(rune(c)), "a"+string([]byte{byte(c)})+"z")
	}
	for _, f := range fields {
		if got, want := string(appendQuoted([]byte("x"), f)), "x"+strconv.Quote(f); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", f, got, want)
		}
	}
}

// TestAppendRows checks that a claims table's rows are written in order,
// as the record's reader reads them back, but for the claims' texts.
func TestAppendRows(t *testing.T) {
	rows := []render.ClaimRow{
		{Text: "not kept", Ref: "a.go@F", URI: "code://r/a.go#symbol-F", URL: "../../code/a.go/index.html#sym-F", Captured: "lines 1–2",
			State: "stale", Why: `the "code" changed`, Detail: "moved to lines 3–4"},
		{Text: "no code"},
	}
	data := []byte("\n" + "page\t\"a.md\"\t\"pages/a\"\t\"A\"\t" + zeros + "\t" + zeros + "\t\"\"\n")
	data = appendRows(data, rows)
	e, ok := (&Edits{}).page(data, "a.md")
	if !ok || len(e.rows) != len(rows) {
		t.Fatalf("page read back: %v, %d rows", ok, len(e.rows))
	}
	for i, r := range rows {
		r.Text = ""
		if e.rows[i] != r {
			t.Errorf("row %d read back as %+v, want %+v", i, e.rows[i], r)
		}
	}
}

// zeros is a hash of zeros, as the record writes one.
const zeros = "0000000000000000000000000000000000000000000000000000000000000000"

// TestRenderedClaimShown finds how a page's body showed each claim, in
// the body's order or not, and no claim its body did not show.
func TestRenderedClaimShown(t *testing.T) {
	a, b, c := claims.Target{Path: "a.go", Symbol: "A"}, claims.Target{Path: "b.go", Symbol: "B"}, claims.Target{Path: "c.go"}
	p := renderedPage{shown: []render.ShownClaim{{Target: a, Shown: render.ClaimShown{State: "linked"}},
		{Target: b, Shown: render.ClaimShown{State: "stale", URL: "code/b.go/"}}}}
	next := 0
	for _, want := range []struct {
		t     claims.Target
		state string
		found bool
	}{{a, "linked", true}, {b, "stale", true}, {a, "linked", true}, {c, "", false}, {b, "stale", true}} {
		s, ok := p.claimShown(want.t, &next)
		if ok != want.found || s.State != want.state {
			t.Errorf("%s: %+v, %v; want state %q, %v", want.t, s, ok, want.state, want.found)
		}
	}
	if _, ok := (&renderedPage{}).claimShown(a, &next); ok {
		t.Error("a page kept from the last build showed a claim")
	}
}
