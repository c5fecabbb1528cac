package claims

import "testing"

// withSymbolSyntax registers syntaxes for one test and restores the
// grammar after it.
func withSymbolSyntax(t *testing.T, syntaxes ...SymbolSyntax) {
	t.Helper()
	saved := syntax.Load()
	t.Cleanup(func() { syntax.Store(saved) })
	for _, s := range syntaxes {
		RegisterSymbolSyntax(s)
	}
}

// The syntaxes the built-in languages register (codeanchors checks the
// real ones against the grammar they replaced).
var (
	jsSyntax   = SymbolSyntax{IdentRunes: "$", Prefixes: "#"}
	rubySyntax = SymbolSyntax{Suffixes: "?!="}
	cppSyntax  = SymbolSyntax{MemberPrefixes: "~"}
)

func TestParseTarget(t *testing.T) {
	withSymbolSyntax(t, jsSyntax, rubySyntax, cppSyntax)
	tests := []struct {
		in   string
		want Target
		err  bool
	}{
		{in: "src/auth.py@login", want: Target{Path: "src/auth.py", Symbol: "login"}},
		{in: "code:site/build.go@Builder.Render", want: Target{Path: "site/build.go", Symbol: "Builder.Render"}},
		{in: "./a/../b.go@F", want: Target{Path: "b.go", Symbol: "F"}},
		{in: "src/order.go", want: Target{Path: "src/order.go"}},
		{in: "src/order.go#L10-L24", want: Target{Path: "src/order.go", Start: 10, End: 24}},
		{in: "src/order.go#L7", want: Target{Path: "src/order.go", Start: 7, End: 7}},
		{in: "web/cart.ts@Cart.#total", want: Target{Path: "web/cart.ts", Symbol: "Cart.#total"}},
		{in: "node_modules/@scope/x/index.js@f", want: Target{Path: "node_modules/@scope/x/index.js", Symbol: "f"}},
		{in: "node_modules/@scope/x/index.js", want: Target{Path: "node_modules/@scope/x/index.js"}},
		{in: "../outside.go@F", want: Target{Path: "../outside.go", Symbol: "F"}},
		{in: "lib/a.rb@A.valid?", want: Target{Path: "lib/a.rb", Symbol: "A.valid?"}},
		{in: "lib/a.rb@A.self.save!", want: Target{Path: "lib/a.rb", Symbol: "A.self.save!"}},
		{in: "lib/a.rb@A.name=", want: Target{Path: "lib/a.rb", Symbol: "A.name="}},
		{in: "", err: true},
		{in: "a.rb@?", err: true},
		{in: "a.rb@A.?", err: true},
		{in: "a.rb@A?.b", err: true},
		{in: "a.rb@A.b?!", err: true},
		{in: "a.rb@A.==", err: true},
		{in: "code:", err: true},
		{in: "a.go@", err: true},
		{in: "a.go@1x", err: true},
		{in: "a.go@A..B", err: true},
		{in: "a.go@#", err: true},
		{in: "src/vec.hpp@Vec.~Vec", want: Target{Path: "src/vec.hpp", Symbol: "Vec.~Vec"}},
		{in: "a.cpp@~Vec", err: true},
		{in: "a.cpp@Vec.~", err: true},
		{in: "a.cpp@Vec.~~Vec", err: true},
		{in: "a.go#L9-L3", err: true},
		{in: "a.go#10-24", err: true},
		{in: "dir/@F", err: true},
		{in: ".@F", err: true},
	}
	for _, tt := range tests {
		got, err := ParseTarget(tt.in)
		switch {
		case tt.err && err == nil:
			t.Errorf("ParseTarget(%q) = %+v, want an error", tt.in, got)
		case !tt.err && err != nil:
			t.Errorf("ParseTarget(%q): %v", tt.in, err)
		case !tt.err && got != tt.want:
			t.Errorf("ParseTarget(%q) = %+v, want %+v", tt.in, got, tt.want)
		case !tt.err:
			if back, err := ParseTarget(got.String()); err != nil || back != got {
				t.Errorf("ParseTarget(%q).String() = %q does not parse back: %+v, %v", tt.in, got.String(), back, err)
			}
		}
	}
}

func TestParseCodeURI(t *testing.T) {
	tests := []struct {
		in, repo string
		want     Target
		err      bool
	}{
		{in: "code://acme/src/order.go#symbol-OrderService.Validate", repo: "acme", want: Target{Path: "src/order.go", Symbol: "OrderService.Validate"}},
		{in: "code://acme/src/order.go", repo: "acme", want: Target{Path: "src/order.go"}},
		{in: "code://acme/src/order.go#L3-L9", repo: "acme", want: Target{Path: "src/order.go", Start: 3, End: 9}},
		{in: "https://acme/x.go", err: true},
		{in: "code://acme", err: true},
		{in: "code:///x.go", err: true},
	}
	for _, tt := range tests {
		repo, got, err := ParseCodeURI(tt.in)
		switch {
		case tt.err && err == nil:
			t.Errorf("ParseCodeURI(%q) = %q, %+v; want an error", tt.in, repo, got)
		case !tt.err && (err != nil || repo != tt.repo || got != tt.want):
			t.Errorf("ParseCodeURI(%q) = %q, %+v, %v; want %q, %+v", tt.in, repo, got, err, tt.repo, tt.want)
		case !tt.err && got.URI(repo) != tt.in:
			t.Errorf("URI of ParseCodeURI(%q) = %q, want it back", tt.in, got.URI(repo))
		}
	}
}

// TestSymbolSyntaxRegistry checks that the symbol grammar is the languages':
// claims alone accepts dotted identifiers only, and each registered syntax
// opens exactly what it names.
func TestSymbolSyntaxRegistry(t *testing.T) {
	withSymbolSyntax(t)
	syntax.Store(&SymbolSyntax{})
	special := []string{"A.valid?", "Vec.~Vec", "Cart.#total", "$x"}
	for _, s := range special {
		if validSymbol(s) {
			t.Errorf("%q valid with no language registered", s)
		}
	}
	if !validSymbol("Outer.Inner.f_2") {
		t.Error("a dotted identifier refused")
	}
	RegisterSymbolSyntax(rubySyntax)
	RegisterSymbolSyntax(rubySyntax) // twice changes nothing
	if got := *syntax.Load(); got != rubySyntax {
		t.Errorf("union %+v, want %+v", got, rubySyntax)
	}
	for _, c := range []struct {
		s    string
		want bool
	}{{"A.valid?", true}, {"A.name=", true}, {"A.b?!", false}, {"Vec.~Vec", false}, {"?", false}} {
		if got := validSymbol(c.s); got != c.want {
			t.Errorf("with Ruby's syntax, validSymbol(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	RegisterSymbolSyntax(cppSyntax)
	if !validSymbol("Vec.~Vec") || validSymbol("~Vec") || !validSymbol("A.valid?") {
		t.Error("C++'s syntax did not join Ruby's")
	}
}
