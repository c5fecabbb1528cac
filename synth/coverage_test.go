package synth

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// coverageFixture has a type with members, a file linked whole, tests, a
// line range, a generated file to exclude and a symbol only a wiki page
// claims.
var coverageFixture = map[string]string{
	"cart/cart.go": `package cart

type Cart struct{ n int }

func (c *Cart) Add() { c.n++ }

func (c *Cart) Len() int { return c.n }

func Free() int { return 0 }
`,
	"auth/login.go": `package auth

func Login(user, password string) bool { return hash(password) == 42 }

func hash(s string) int { return len(s) }
`,
	"auth/login_test.go": `package auth

import "testing"

func TestLogin(t *testing.T) { Login("a", "b") }

func TestOther(t *testing.T) {}
`,
	"util/util.go": `package util

func Helper() {}

func Other() {}
`,
	"gen/gen.go": "package gen\n\nfunc Gen() {}\n",
	"content/requirements/REQ-1.md": "---\nimplements: [cart/cart.go@Cart, auth/login.go, util/util.go#L3-L3]\n" +
		"tests: [auth/login_test.go@TestLogin]\n---\nCarts.\n",
	"content/guide.md": "# Guide\n\nFree carts ([code](code:cart/cart.go@Free)).\n",
}

// coverageOf builds the fixture's graph and its coverage.
func coverageOf(t *testing.T, in CoverageInput) CoverageJSON {
	t.Helper()
	g, _, _ := buildGraph(t, coverageFixture, slices.Sorted(maps.Keys(coverageFixture)), codeanchors.NewLock())
	in.Graph = g
	return NewCoverage(in)
}

// fileCoverage finds a file's entry.
func fileCoverage(t *testing.T, c CoverageJSON, path string) CoverageOfFile {
	t.Helper()
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no coverage entry for %s in %+v", path, c.Files)
	return CoverageOfFile{}
}

// TestCoverageRules: a link to a type covers its members, a file link every
// symbol of the file, a tests link its test, a line range the symbols
// inside it; a wiki page's claim covers nothing; excluded files are not
// counted.
func TestCoverageRules(t *testing.T) {
	c := coverageOf(t, CoverageInput{Exclude: []string{"gen/**"}})
	for _, want := range []struct {
		path      string
		symbols   int
		uncovered []string
	}{
		{"cart/cart.go", 4, []string{"Free"}},            // Cart covers Cart.Add and Cart.Len; a claim is no requirement link
		{"auth/login.go", 2, []string{}},                 // the file link covers Login and hash
		{"auth/login_test.go", 2, []string{"TestOther"}}, // the tests link names TestLogin
		{"util/util.go", 2, []string{"Other"}},           // #L3-L3 holds Helper only
	} {
		f := fileCoverage(t, c, want.path)
		if f.Symbols != want.symbols || f.Covered != want.symbols-len(want.uncovered) || !slices.Equal(f.Uncovered, want.uncovered) {
			t.Errorf("%s: %d symbols, %d covered, uncovered %q; want %d, %d, %q",
				want.path, f.Symbols, f.Covered, f.Uncovered, want.symbols, want.symbols-len(want.uncovered), want.uncovered)
		}
	}
	for _, f := range c.Files {
		if strings.HasPrefix(f.Path, "gen/") {
			t.Errorf("excluded %s is counted", f.Path)
		}
	}
	want := CoverageCount{Files: 4, Symbols: 10, Covered: 7, Uncovered: 3, Share: 0.7}
	if c.Totals != want {
		t.Errorf("totals %+v, want %+v", c.Totals, want)
	}
	if !slices.Equal(c.Exclude, []string{"gen/**"}) {
		t.Errorf("exclude %q, want the globs applied", c.Exclude)
	}

	// Without the exclude, gen/gen.go counts, uncovered.
	all := coverageOf(t, CoverageInput{})
	if g := fileCoverage(t, all, "gen/gen.go"); g.Covered != 0 || !slices.Equal(g.Uncovered, []string{"Gen"}) {
		t.Errorf("gen/gen.go without exclude: %+v", g)
	}
	if all.Totals.Symbols != 11 || all.Totals.Uncovered != 4 {
		t.Errorf("totals without exclude %+v, want 11 symbols, 4 uncovered", all.Totals)
	}
}

// TestCoverageFolders: each folder rolls up every file under it, and the
// root holds the totals.
func TestCoverageFolders(t *testing.T) {
	c := coverageOf(t, CoverageInput{Exclude: []string{"gen/**"}})
	var names []string
	byName := map[string]CoverageCount{}
	for _, f := range c.Folders {
		names = append(names, f.Folder)
		byName[f.Folder] = f.CoverageCount
	}
	if want := []string{".", "auth", "cart", "util"}; !slices.Equal(names, want) {
		t.Fatalf("folders %q, want %q", names, want)
	}
	if byName["."] != c.Totals {
		t.Errorf("root %+v, want the totals %+v", byName["."], c.Totals)
	}
	if a := byName["auth"]; a.Files != 2 || a.Symbols != 4 || a.Covered != 3 || a.Uncovered != 1 || a.Share != 0.75 {
		t.Errorf("auth: %+v", a)
	}
}

// TestCoverageWaived: a waived file's uncovered symbols are justified: out
// of the share's denominator, still listed.
func TestCoverageWaived(t *testing.T) {
	c := coverageOf(t, CoverageInput{Exclude: []string{"gen/**"}, Waived: map[string]bool{"util/util.go": true}})
	u := fileCoverage(t, c, "util/util.go")
	if !u.Waived || !slices.Equal(u.Uncovered, []string{"Other"}) {
		t.Errorf("util/util.go: %+v, want waived with Other listed", u)
	}
	want := CoverageCount{Files: 4, Symbols: 10, Covered: 7, Justified: 1, Uncovered: 2, Share: 7.0 / 9}
	if c.Totals != want {
		t.Errorf("totals %+v, want %+v", c.Totals, want)
	}
}

// TestCoverageDeterministic: the same workspace, its files handed over in
// another order, gives the same bytes.
func TestCoverageDeterministic(t *testing.T) {
	names := slices.Sorted(maps.Keys(coverageFixture))
	var out [][]byte
	for _, order := range [][]string{names, reversed(names)} {
		g, _, _ := buildGraph(t, coverageFixture, order, codeanchors.NewLock())
		data, err := MarshalJSON(NewCoverage(CoverageInput{Graph: g}))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Errorf("coverage differs with the order of the files:\n%s\n%s", out[0], out[1])
	}
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// TestCoverageRatchet: the comparison with a base is on the counts, and a
// coverage.json reads back to the same totals.
func TestCoverageRatchet(t *testing.T) {
	c := coverageOf(t, CoverageInput{Exclude: []string{"gen/**"}})
	data, err := MarshalJSON(c)
	if err != nil {
		t.Fatal(err)
	}
	base, err := ParseCoverage(data)
	if err != nil {
		t.Fatal(err)
	}
	if base.Totals != c.Totals {
		t.Errorf("read back %+v, want %+v", base.Totals, c.Totals)
	}
	same, less, more := c.Totals, c.Totals, c.Totals
	less.Covered--
	more.Symbols++ // one more symbol, uncovered: 7/11 < 7/10
	if same.Below(base.Totals) || !less.Below(base.Totals) || !more.Below(base.Totals) {
		t.Errorf("Below: same %v, one fewer covered %v, one more symbol %v; want false, true, true",
			same.Below(base.Totals), less.Below(base.Totals), more.Below(base.Totals))
	}
	// 2 of 3 equals 4 of 6 exactly, where floats could differ.
	if (CoverageCount{Symbols: 6, Covered: 4}).Below(CoverageCount{Symbols: 3, Covered: 2}) {
		t.Error("4 of 6 is below 2 of 3")
	}
	for _, bad := range []string{`{"schemaVersion": 99, "totals": {}}`, `{"schemaVersion": 1, "totals": {"symbols": 2, "covered": 3}}`, `[]`} {
		if _, err := ParseCoverage([]byte(bad)); err == nil {
			t.Errorf("ParseCoverage(%s) accepted", bad)
		}
	}
}

// TestPercent: shares are rounded down, so a figure below the minimum never
// reads as the minimum.
func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{0.7999: "79.9%", 0.8: "80.0%", 1: "100.0%", 0: "0.0%", 7.0 / 9: "77.7%"} {
		if got := Percent(share); got != want {
			t.Errorf("Percent(%v) = %s, want %s", share, got, want)
		}
	}
}
