package codeanchors

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// relocateAfter captures ref in the file at path holding before, replaces
// it by after (the lock holding only that anchor, edited by strip), and
// returns the lost target's status as check sees it.
func relocateAfter(t *testing.T, path, ref, before, after string, strip func(*Anchor)) TargetStatus {
	t.Helper()
	tg, err := claims.ParseTarget(ref)
	if err != nil {
		t.Fatal(err)
	}
	old := NewSource(Default, path, []byte(before))
	a, err := Capture(tg, Resolve(tg, nil, old), old, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	if strip != nil {
		strip(&a)
	}
	l := NewLock()
	l.Anchors[ref] = a
	now := NewSource(Default, path, []byte(after))
	ts := TargetStatus{Referenced: Referenced{Target: tg}, Anchor: &a}
	ts.Verdict = Judge(&a, ResolveIn(tg, &a, now))
	rep := &Report{Targets: []TargetStatus{ts}}
	Locate(rep, l, map[string]*Source{path: now})
	return rep.Targets[0]
}

const goCart = `package shop

func Count(xs []int) int { return len(xs) }

func %s(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
`

func TestSameBodyGo(t *testing.T) {
	before, after := fmt.Sprintf(goCart, "Total"), fmt.Sprintf(goCart, "CartTotal")
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("older anchor %t", old), func(t *testing.T) {
			var strip func(*Anchor)
			if old {
				strip = func(a *Anchor) { a.BodyHash = "" } // captured before body hashes
			}
			ts := relocateAfter(t, "shop/cart.go", "shop/cart.go@Total", before, after, strip)
			if ts.Verdict.Reason != SymbolNotFound {
				t.Fatalf("reason %q, want symbol_not_found", ts.Verdict.Reason)
			}
			want := []Relocation{{Ref: "shop/cart.go@CartTotal", How: SameBody}}
			if !slices.Equal(ts.Relocated, want) {
				t.Errorf("relocated %v, want %v", ts.Relocated, want)
			}
			// Count is not anchored here: it follows, by name distance.
			if want := []string{"shop/cart.go@CartTotal", "shop/cart.go@Count"}; !slices.Equal(ts.Suggestions, want) {
				t.Errorf("suggestions %v, want %v", ts.Suggestions, want)
			}
		})
	}
}

func TestSameBodyOnlyTheName(t *testing.T) {
	// A changed token besides the name is no rename.
	after := strings.Replace(fmt.Sprintf(goCart, "CartTotal"), "t += x", "t -= x", 1)
	ts := relocateAfter(t, "shop/cart.go", "shop/cart.go@Total", fmt.Sprintf(goCart, "Total"), after, nil)
	if len(ts.Relocated) != 0 {
		t.Errorf("relocated %v, want none", ts.Relocated)
	}
}

func TestSameBodyPython(t *testing.T) {
	const py = `class Cart:
    def count(self):
        return len(self.items)

    def %s(self, n=0):
        if n > 10:
            return self.%s(n - 1)
        return sum(self.items)
`
	before, after := fmt.Sprintf(py, "total", "total"), fmt.Sprintf(py, "cart_total", "cart_total")
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("older anchor %t", old), func(t *testing.T) {
			var strip func(*Anchor)
			if old {
				strip = func(a *Anchor) { a.BodyHash = "" }
			}
			ts := relocateAfter(t, "cart.py", "cart.py@Cart.total", before, after, strip)
			want := []Relocation{{Ref: "cart.py@Cart.cart_total", How: SameBody}}
			if !slices.Equal(ts.Relocated, want) {
				t.Errorf("relocated %v, want %v", ts.Relocated, want)
			}
			if len(ts.Suggestions) == 0 || ts.Suggestions[0] != want[0].Ref {
				t.Errorf("suggestions %v, want %s first", ts.Suggestions, want[0].Ref)
			}
		})
	}
}

func TestSameBodySeveral(t *testing.T) {
	after := fmt.Sprintf(goCart, "Sum") + strings.TrimPrefix(fmt.Sprintf(goCart, "Total2"), "package shop\n\nfunc Count(xs []int) int { return len(xs) }\n")
	ts := relocateAfter(t, "shop/cart.go", "shop/cart.go@Total", fmt.Sprintf(goCart, "Total"), after, nil)
	want := []Relocation{{Ref: "shop/cart.go@Sum", How: SameBody}, {Ref: "shop/cart.go@Total2", How: SameBody}}
	if !slices.Equal(ts.Relocated, want) {
		t.Errorf("relocated %v, want %v", ts.Relocated, want)
	}
}

func TestSameTextBeforeSameBody(t *testing.T) {
	// The code moved unchanged to another file and a renamed copy stayed:
	// same_text wins.
	before := fmt.Sprintf(goCart, "Total")
	tg, _ := claims.ParseTarget("shop/cart.go@Total")
	old := NewSource(Default, "shop/cart.go", []byte(before))
	a, _ := Capture(tg, Resolve(tg, nil, old), old, "t", "")
	l := NewLock()
	l.Anchors[tg.String()] = a
	sources := map[string]*Source{
		"shop/cart.go": NewSource(Default, "shop/cart.go", []byte(fmt.Sprintf(goCart, "CartTotal"))),
		"shop/sum.go":  NewSource(Default, "shop/sum.go", []byte(before)),
	}
	ts := TargetStatus{Referenced: Referenced{Target: tg}, Anchor: &a}
	ts.Verdict = Judge(&a, ResolveIn(tg, &a, sources["shop/cart.go"]))
	rep := &Report{Targets: []TargetStatus{ts}}
	Locate(rep, l, sources)
	if want := []Relocation{{Ref: "shop/sum.go@Total", How: SameText}}; !slices.Equal(rep.Targets[0].Relocated, want) {
		t.Errorf("relocated %v, want %v", rep.Targets[0].Relocated, want)
	}
}

func TestBodyOfOlderAnchor(t *testing.T) {
	tg, _ := claims.ParseTarget("shop/cart.go@Total")
	s := NewSource(Default, "shop/cart.go", []byte(fmt.Sprintf(goCart, "Total")))
	a, err := Capture(tg, Resolve(tg, nil, s), s, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	recorded := a.BodyHash
	if !strings.HasPrefix(recorded, HashPrefix) {
		t.Fatalf("capture recorded body hash %q", recorded)
	}
	a.BodyHash = ""
	if got := a.Body(Default); got != recorded {
		t.Errorf("body from captured text %q, want the recorded %q", got, recorded)
	}
	// A text that is not what was captured gives none.
	b := a
	b.CapturedText = strings.Replace(b.CapturedText, "t += x", "t -= x", 1)
	if got := b.Body(Default); got != "" {
		t.Errorf("body of a text that does not give the token hash: %q, want none", got)
	}
}

func TestBodyOfCappedText(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc Long() {\n")
	for range MaxCapturedLines + 5 {
		b.WriteString("\tprintln()\n")
	}
	b.WriteString("}\n")
	tg, _ := claims.ParseTarget("p.go@Long")
	s := NewSource(Default, "p.go", []byte(b.String()))
	a, err := Capture(tg, Resolve(tg, nil, s), s, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	if !a.TextCapped || a.BodyHash == "" {
		t.Fatalf("capped %t, body hash %q: want capped, recorded", a.TextCapped, a.BodyHash)
	}
	a.BodyHash = ""
	if got := a.Body(Default); got != "" {
		t.Errorf("body from a capped text %q, want none", got)
	}
	a.TextCapped = false // an older writer that capped without saying so
	if got := a.Body(Default); got != "" {
		t.Errorf("body from a text shorter than its range %q, want none", got)
	}
}

func TestBodyHashMasksOnlyTheName(t *testing.T) {
	// "Total" in a string is not the name; a call of itself is.
	src := "package p\n\nfunc Total(n int) string {\n\tif n > 0 {\n\t\treturn Total(n - 1)\n\t}\n\treturn \"Total\"\n}\n"
	renamed := strings.ReplaceAll(src, "Total(", "Sum(")
	quoted := strings.ReplaceAll(renamed, `"Total"`, `"Sum"`)
	body := func(src, name string) string {
		s := NewSource(Default, "p.go", []byte(src))
		tg := claims.Target{Path: "p.go", Symbol: name}
		a, err := Capture(tg, Resolve(tg, nil, s), s, "t", "")
		if err != nil {
			t.Fatal(err)
		}
		return a.BodyHash
	}
	if body(src, "Total") != body(renamed, "Sum") {
		t.Error("a rename (declaration and recursive call) changed the body hash")
	}
	if body(src, "Total") == body(quoted, "Sum") {
		t.Error("a changed string kept the body hash")
	}
}
