package langtest

import (
	"errors"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// TestAgreement checks the comparer's counts on one file of every kind of
// disagreement, and that a rejected file is skipped.
func TestAgreement(t *testing.T) {
	f := &lang.File{
		Symbols: []lang.Symbol{
			{Name: "A", Kind: lang.KindType, Start: 1, End: 9},
			{Name: "A.f", Kind: lang.KindMethod, Start: 2, End: 3},
			{Name: "A.g", Kind: lang.KindMethod, Start: 4, End: 6},
			{Name: "extra", Kind: lang.KindFunc, Start: 10, End: 10},
			{Name: "k", Kind: lang.KindFunc, Start: 11, End: 11},
		},
		Ambiguous: []string{"dup", "over"},
	}
	ref := RefFile{
		Symbols: []RefSymbol{
			{Name: "A", Kind: lang.KindType, Start: 1, End: 9},
			{Name: "A.f", Start: 2, End: 4}, // no kind: not compared; end differs
			{Name: "A.g", Kind: lang.KindMethod, Start: 5, End: 6},
			{Name: "k", Kind: lang.KindTest, Start: 11, End: 11},
			{Name: "missing", Kind: lang.KindFunc, Start: 12, End: 12},
			{Name: "dup", Start: 13, End: 13},
			{Name: "dup", Start: 14, End: 14}, // twice: ambiguous
			{Name: "over", Start: 15, End: 15},
		},
	}
	a := Agreement{Reference: "ref"}
	a.Add("x.src", f, nil, ref)
	a.Add("bad.src", nil, errors.New("bad.src:1:1: no"), RefFile{Error: "syntax"})
	a.Add("refused.src", nil, errors.New("refused.src:1:1: no"), RefFile{Symbols: []RefSymbol{{Name: "z", Start: 1, End: 1}}})
	got := [...]int{a.Files, a.Skipped, a.RefSymbols, a.Names, a.NamesAgreed, a.Ranges, a.Starts, a.Ends, len(a.Errors)}
	// names: A A.f A.g dup extra k missing over z = 9; agreed: A A.f A.g dup
	// (ranges: A A.f A.g; starts A A.f; ends A A.g).
	want := [...]int{2, 1, 9, 9, 4, 3, 2, 2, 1}
	if got != want {
		t.Errorf("Files Skipped RefSymbols Names NamesAgreed Ranges Starts Ends Errors = %v, want %v", got, want)
	}
	wantM := []string{
		"x.src: A.f: lines 2-3, ref 2-4",
		"x.src: A.g: lines 4-6, ref 5-6",
		"x.src: extra func 10-10: unknown to ref",
		"x.src: k: func 11-11, ref test 11-11",
		"x.src: missing func 12-12: missing",
		"x.src: over: ambiguous, ref 15-15",
		"refused.src: z 1-1: missing",
	}
	if !slices.Equal(a.Mismatches, wantM) {
		t.Errorf("Mismatches:\n%q\nwant:\n%q", a.Mismatches, wantM)
	}
	var rec recorder
	a.Report(&rec, "corpus", Corpus)
	if !rec.failed {
		t.Error("Report passed figures below the thresholds")
	}
	ok := Agreement{Reference: "ref"}
	ok.Add("x.src", &lang.File{Symbols: []lang.Symbol{{Name: "A", Start: 1, End: 2}}}, nil, RefFile{Symbols: []RefSymbol{{Name: "A", Start: 1, End: 2}}})
	rec = recorder{}
	ok.Report(&rec, "golden", Golden)
	if rec.failed {
		t.Error("Report failed an exact agreement")
	}
	rec = recorder{}
	ok.Report(&rec, "corpus", Corpus)
	if !rec.failed {
		t.Error("Report passed a corpus of 1 symbol (want at least 1,000)")
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Logf(string, ...any)   {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
