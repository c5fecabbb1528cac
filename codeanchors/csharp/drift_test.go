package csharp_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/csharp"
)

const driftSample = `using System;

namespace Bank
{
    public class Account
    {
        private decimal balance;

        /// <summary>Adds money.</summary>
        [Audited]
        public void Deposit(decimal amount)
        {
            // Reject nonsense.
            if (amount <= 0)
            {
                throw new ArgumentException("amount must be positive");
            }
            balance += amount;
        }

        public decimal Balance => balance;
    }
}
`

// driftCase captures target in before and judges it in after, through a
// registry that knows only C#.
func driftCase(t *testing.T, target, before, after string) codeanchors.Verdict {
	t.Helper()
	reg := codeanchors.NewRegistry(csharp.Language)
	tg, err := claims.ParseTarget(target)
	if err != nil {
		t.Fatal(err)
	}
	s0 := codeanchors.NewSource(reg, tg.Path, []byte(before))
	if s0.ParseErr != nil {
		t.Fatal(s0.ParseErr)
	}
	a, err := codeanchors.Capture(tg, codeanchors.Resolve(tg, nil, s0), s0, "t", "me")
	if err != nil {
		t.Fatal(err)
	}
	if a.Parser != csharp.Parser {
		t.Fatalf("captured with %s, want %s", a.Parser, csharp.Parser)
	}
	s1 := codeanchors.NewSource(reg, tg.Path, []byte(after))
	return codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s1))
}

func TestDrift(t *testing.T) {
	const target = "src/Bank/Account.cs@Account.Deposit"
	linked, stale := codeanchors.Linked, codeanchors.Stale
	tests := []struct {
		name, target, after string
		want                codeanchors.Verdict
	}{
		{"unchanged", target, driftSample, codeanchors.Verdict{State: linked, Start: 10, End: 19}},
		{"moved", target, strings.Replace(driftSample, "using System;\n", "using System;\nusing System.Linq;\n\n", 1),
			codeanchors.Verdict{State: linked, Moved: true, Start: 12, End: 21}},
		{"reformatted", target, strings.NewReplacer(
			"            // Reject nonsense.\n", "",
			"        public void Deposit(decimal amount)\n        {", "        public void Deposit(decimal amount) {",
			"if (amount <= 0)\n            {", "if ( amount<=0 ) {",
		).Replace(driftSample), codeanchors.Verdict{State: linked, Reformatted: true, Start: 10, End: 16}},
		{"changed", target, strings.Replace(driftSample, "balance += amount;", "balance -= amount;", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 10, End: 19}},
		{"attribute removed", target, strings.Replace(driftSample, "        [Audited]\n", "", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 10, End: 18}},
		{"vanished", target, strings.Replace(driftSample, "void Deposit(", "void Put(", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{"property", "src/Bank/Account.cs@Account.Balance", strings.Replace(driftSample, "=> balance;", "=> balance * 1;", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 21, End: 21}},
		{"ambiguous", "src/Bank/Account.cs@Account.Balance", strings.Replace(driftSample, "        public decimal Balance",
			"        public decimal Balance() => 0;\n        public decimal Balance", 1),
			codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := driftCase(t, tt.target, driftSample, tt.after)
			got.Note = ""
			if got != tt.want {
				t.Errorf("Judge = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestTokensSemantic checks that edits a formatter never makes change the
// tokens, and layout, comments and directive spacing do not.
func TestTokensSemantic(t *testing.T) {
	texts := func(src string) string {
		f, err := csharp.Extract("T.cs", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		var b strings.Builder
		for _, tok := range f.Tokens {
			b.WriteString(tok.Text + "\x00")
		}
		return b.String()
	}
	base := "class T {\n#if A && B\n  int F(int x) => x * (x + 1); // c\n#endif\n  string S => \"\"\"\n    a\n      b\n    \"\"\";\n}\n"
	same := []string{
		"class T\n{\n#if A&&B\n    int F( int x ) =>\n        x * ( x + 1 );\n#endif\n    string S => \"\"\"\n        a\n          b\n        \"\"\";\n}\n",
		"class T { /* x */\n  #if  A  &&  B\n  int F(int x)=>x*(x+1);\n  #endif\n  string S => \"\"\"\n    a\n      b\n    \"\"\";\n}\n",
	}
	differ := []string{
		strings.Replace(base, "x * (x + 1)", "x * x + 1", 1),
		strings.Replace(base, "A && B", "A || B", 1),
		strings.Replace(base, "      b", "       b", 1),
		strings.Replace(base, "int F", "long F", 1),
		strings.Replace(base, "=> x", "=> -x", 1),
	}
	want := texts(base)
	for _, src := range same {
		if texts(src) != want {
			t.Errorf("tokens of\n%s\ndiffer from those of\n%s", src, base)
		}
	}
	for _, src := range differ {
		if texts(src) == want {
			t.Errorf("tokens of\n%s\nequal those of\n%s", src, base)
		}
	}
}
