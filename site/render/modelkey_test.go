package render

import (
	"reflect"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// TestKeyedBodyAnswers checks that a body rendered for a model key is
// answered from the key for its document's claims, and that a code link
// that is no claim of its document (whose state the key does not hold)
// marks the page as not described by its key.
func TestKeyedBodyAnswers(t *testing.T) {
	r, err := New(memoryInput(t))
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := claims.ParseTarget("cart/cart.go@Total")
	if err != nil {
		t.Fatal(err)
	}
	other, err := claims.ParseTarget("cart/cart.go@Other")
	if err != nil {
		t.Fatal(err)
	}
	doc := &claims.Doc{Claims: []claims.Claim{{Text: "no code"}, {Text: "totals", Target: claimed, HasTarget: true}}}
	in := &bodyInput{doc: doc}
	r.bodyKey(newKeyHash(), in)
	in.shown[0].Why = "as the key has it" // the rendering answers from the key
	ctx := &keyedBody{Renderer: r, in: in}
	if got := ctx.ClaimShown(claimed); got.Why != "as the key has it" || ctx.unkeyed {
		t.Errorf("a claim of the document: %+v, unkeyed %v; want the key's answer", got, ctx.unkeyed)
	}
	if got, want := ctx.ClaimShown(other), r.ClaimShown(other); got != want || !ctx.unkeyed {
		t.Errorf("a code link that is no claim: %+v, unkeyed %v; want the site's answer %+v, unkeyed", got, ctx.unkeyed, want)
	}
}

// TestTwinHoldsNodes checks that the JSON twin holds every field of a
// node and an edge: a node page's model key hashes its node and
// neighborhood from the twin, and its graph and neighbors table are made
// from them, so a field the JSON left out would keep a page whose graph
// changed.
func TestTwinHoldsNodes(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[synth.Node](), reflect.TypeFor[synth.Edge](), reflect.TypeFor[synth.Neighborhood]()} {
		for f := range typ.Fields() {
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				t.Errorf("%s.%s is not in the JSON twin", typ, f.Name)
			}
		}
	}
}
