package javascript_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/javascript"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
)

func TestJSDrift(t *testing.T) {
	const p = "src/orders.ts"
	targets := []string{"OrderService.validate", "OrderService.size", "total", "place", "Order", "Line", "OrderService"}
	// A matrix: every edit judged for every target (enginetest.Drift is one
	// target per case).
	capture := map[string]codeanchors.Anchor{}
	for _, sym := range targets {
		capture[sym] = enginetest.Capture(t, javascript.Language, javascript.TSParser, p+"@"+sym, jsDriftSource)
	}
	judge := func(src, sym string) codeanchors.Verdict {
		return enginetest.Judge(t, javascript.Language, capture[sym], p+"@"+sym, src)
	}
	replace := func(old, new string) string {
		if !strings.Contains(jsDriftSource, old) {
			t.Fatalf("%q not in the source", old)
		}
		return strings.Replace(jsDriftSource, old, new, 1)
	}
	type want struct {
		state              codeanchors.State
		reason             codeanchors.Reason
		moved, reformatted bool
	}
	linked, moved := want{state: codeanchors.Linked}, want{state: codeanchors.Linked, moved: true}
	for _, tt := range []struct {
		name string
		src  string
		want map[string]want // symbols not listed stay linked in place
	}{
		{"unchanged", jsDriftSource, nil},
		{"moved", "// header\n\n" + jsDriftSource, map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": moved}},
		{"changed", replace("order.total > 0", "order.total >= 0"), map[string]want{
			"OrderService.validate": {state: codeanchors.Stale, reason: codeanchors.ContentChanged},
			"OrderService":          {state: codeanchors.Stale, reason: codeanchors.ContentChanged}}},
		{"setter changed", replace("'read-only'", "'readonly'"), map[string]want{
			"OrderService.size": {state: codeanchors.Stale, reason: codeanchors.ContentChanged},
			"OrderService":      {state: codeanchors.Stale, reason: codeanchors.ContentChanged}}},
		{"overload removed", replace("export function place(order: Order, at: Date): void;\n", ""), map[string]want{
			"place": {state: codeanchors.Stale, reason: codeanchors.ContentChanged}, "Order": moved, "Line": moved}},
		{"vanished", replace("type Line = { price: number; qty: number }\n", ""), map[string]want{
			"Line": {state: codeanchors.Stale, reason: codeanchors.SymbolNotFound}}},
		{"duplicated", jsDriftSource + "function place() {}\n", map[string]want{
			"place": {state: codeanchors.Unknown, reason: codeanchors.Ambiguous}}},
		// A decorator is not part of a TypeScript range: adding one moves
		// the method, whose text is unchanged; the class changed.
		{"decorator added", replace("  /** Validates an order. */\n", "  /** Validates an order. */\n  @Log()\n"), map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": {state: codeanchors.Stale, reason: codeanchors.ContentChanged}}},
		{"class decorator added", replace("@Injectable()\n", "@Injectable()\n@Sealed\n"), map[string]want{
			"OrderService.validate": moved, "OrderService.size": moved, "total": moved, "place": moved,
			"Order": moved, "Line": moved, "OrderService": moved}},
		{"doc comment edited", replace("/** Validates an order. */", "/** Checks an order before it is saved. */"), map[string]want{
			"OrderService": {state: codeanchors.Linked, reformatted: true}}}, // the method's doc is inside the class
		{"comment edited", replace("// a total must be positive", "// totals below one are refused"), map[string]want{
			"OrderService.validate": {state: codeanchors.Linked, reformatted: true},
			"OrderService":          {state: codeanchors.Linked, reformatted: true}}},
		// prettier --no-semi --single-quote --trailing-comma all, and a
		// reflow of the arrow function onto one line.
		{"reformatted", strings.NewReplacer(
			"return order.total > 0 && order.lines.length > 0;", "return (\n      order.total > 0 &&\n      order.lines.length > 0\n    )",
			"throw new Error('read-only');", "throw new Error(\"read-only\")",
			"export const total = (lines: Line[]) =>\n  lines.reduce((sum, l) => sum + l.price * l.qty, 0);", "export const total = (lines: Line[]) => lines.reduce((sum, l) => sum + l.price * l.qty, 0,)",
			"export function place(order: Order): void;", "export function place(order: Order): void",
		).Replace(jsDriftSource), map[string]want{
			"OrderService.validate": {state: codeanchors.Linked, reformatted: true},
			"OrderService.size":     {state: codeanchors.Linked, reformatted: true, moved: true},
			"OrderService":          {state: codeanchors.Linked, reformatted: true},
			"total":                 {state: codeanchors.Linked, reformatted: true, moved: true},
			"place":                 {state: codeanchors.Linked, reformatted: true, moved: true},
			"Order":                 {state: codeanchors.Linked, moved: true},
			"Line":                  {state: codeanchors.Linked, moved: true},
		}},
	} {
		for _, sym := range targets {
			w, ok := tt.want[sym]
			if !ok {
				w = linked
			}
			v := judge(tt.src, sym)
			if v.State != w.state || v.Reason != w.reason || v.Moved != w.moved || v.Reformatted != w.reformatted {
				t.Errorf("%s: %s: %+v, want %+v", tt.name, sym, v, w)
			}
		}
	}
}

func TestMatchJS(t *testing.T) {
	var jest, vitest []lang.TestResult
	for name, dst := range map[string]*[]lang.TestResult{"jest-junit.xml": &jest, "vitest.xml": &vitest} {
		rs, err := codeanchors.ParseReport(name, langtest.MustRead(t, filepath.Join("..", "testdata", "reports", name)))
		if err != nil {
			t.Fatal(err)
		}
		*dst = rs
	}
	abs := []lang.TestResult{{Suite: "x", Name: "y", File: "/home/ci/shop/src/auth.test.js", Outcome: lang.OutcomePass}}
	m := codeanchors.TestMatcher{}
	for _, tt := range []struct {
		target  string
		results []lang.TestResult
		want    []string // Suite > Name of the matches
	}{
		{"src/auth.test.js", jest, []string{
			"login accepts a valid password", "login locks the account after five tries", "login signs in with SSO"}},
		{"src/cart.test.js", jest, []string{"cart applies a coupon > 100% as zero", "cart totals line items"}},
		{"src/auth.test.ts", jest, nil},
		{"src/auth.test.ts", vitest, []string{
			"login > accepts a valid password", "login > locks the account after five tries", "login > signs in with SSO"}},
		{"src/cart.test.ts", vitest, []string{"cart > totals line items"}},
		{"web/src/cart.test.ts", vitest, []string{"cart > totals line items"}}, // vitest run in web/
		{"src/cart.test.tsx", vitest, nil},
		{"cart.test.ts", vitest, nil},
		{"src/auth.test.ts@login", vitest, nil}, // a symbol stands for no result
		{"src/auth.test.js", abs, []string{"y"}},
		{"ci/shop/src/auth.test.js", abs, []string{"y"}},
		{"rc/auth.test.js", abs, nil},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range m.Match(tg, tt.results) {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Match(%s) = %q, want %q", tt.target, got, tt.want)
		}
	}
}

// jsDriftSource is a TypeScript file with anchors to capture, and edits of
// it that each drift test makes.
const jsDriftSource = `import { Injectable } from "@nestjs/common";

/** Orders. */
@Injectable()
export class OrderService {
  private readonly orders = new Map<string, Order>();

  /** Validates an order. */
  validate(order: Order): boolean {
    // a total must be positive
    return order.total > 0 && order.lines.length > 0;
  }

  get size(): number {
    return this.orders.size;
  }

  set size(_: number) {
    throw new Error('read-only');
  }
}

export const total = (lines: Line[]) =>
  lines.reduce((sum, l) => sum + l.price * l.qty, 0);

export function place(order: Order): void;
export function place(order: Order, at: Date): void;
export function place(order: Order, at = new Date()) {
  console.log(` + "`placed ${order.id} at ${at.toISOString()}`" + `);
}

interface Order { id: string; total: number; lines: Line[] }
type Line = { price: number; qty: number }
`
