package csharp_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/csharp"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
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

func TestDrift(t *testing.T) {
	linked, stale := codeanchors.Linked, codeanchors.Stale
	enginetest.Drift{Language: csharp.Language, Parser: csharp.Parser, Target: "src/Bank/Account.cs@Account.Deposit", Before: driftSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: driftSample, Want: codeanchors.Verdict{State: linked, Start: 10, End: 19}},
		{Name: "moved", After: strings.Replace(driftSample, "using System;\n", "using System;\nusing System.Linq;\n\n", 1),
			Want: codeanchors.Verdict{State: linked, Moved: true, Start: 12, End: 21}},
		{Name: "reformatted", After: strings.NewReplacer(
			"            // Reject nonsense.\n", "",
			"        public void Deposit(decimal amount)\n        {", "        public void Deposit(decimal amount) {",
			"if (amount <= 0)\n            {", "if ( amount<=0 ) {",
		).Replace(driftSample), Want: codeanchors.Verdict{State: linked, Reformatted: true, Start: 10, End: 16}},
		{Name: "changed", After: strings.Replace(driftSample, "balance += amount;", "balance -= amount;", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 10, End: 19}},
		{Name: "attribute removed", After: strings.Replace(driftSample, "        [Audited]\n", "", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 10, End: 18}},
		{Name: "vanished", After: strings.Replace(driftSample, "void Deposit(", "void Put(", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "property", Target: "src/Bank/Account.cs@Account.Balance", After: strings.Replace(driftSample, "=> balance;", "=> balance * 1;", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 21, End: 21}},
		{Name: "ambiguous", Target: "src/Bank/Account.cs@Account.Balance", After: strings.Replace(driftSample, "        public decimal Balance",
			"        public decimal Balance() => 0;\n        public decimal Balance", 1),
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
	}}.Run(t)
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
