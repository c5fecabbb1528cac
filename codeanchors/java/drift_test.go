package java_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/java"
)

const driftSample = `package bank;

import java.math.BigDecimal;

public class Account {
    private BigDecimal balance = BigDecimal.ZERO;

    /** Adds money. */
    @Audited
    public void deposit(BigDecimal amount) {
        // Reject nonsense.
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        balance = balance.add(amount);
    }

    public BigDecimal balance() {
        return balance;
    }
}
`

// driftCase captures target in before and judges it in after, through a
// registry that knows only Java.
func driftCase(t *testing.T, target, before, after string) codeanchors.Verdict {
	t.Helper()
	reg := codeanchors.NewRegistry(java.Language)
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
	if a.Parser != java.Parser {
		t.Fatalf("captured with %s, want %s", a.Parser, java.Parser)
	}
	s1 := codeanchors.NewSource(reg, tg.Path, []byte(after))
	return codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s1))
}

func TestDrift(t *testing.T) {
	const target = "src/main/java/bank/Account.java@Account.deposit"
	linked, stale := codeanchors.Linked, codeanchors.Stale
	tests := []struct {
		name, target, after string
		want                codeanchors.Verdict
	}{
		{"unchanged", target, driftSample, codeanchors.Verdict{State: linked, Start: 9, End: 16}},
		{"moved", target, strings.Replace(driftSample, "import java.math.BigDecimal;\n", "import java.math.BigDecimal;\nimport java.util.List;\n\n", 1),
			codeanchors.Verdict{State: linked, Moved: true, Start: 11, End: 18}},
		{"reformatted", target, strings.NewReplacer(
			"        // Reject nonsense.\n", "",
			"    @Audited\n    public void deposit(BigDecimal amount) {", "    public @Audited void deposit(\n            BigDecimal amount) {",
			"if (amount.signum() <= 0) {", "if ((amount.signum()) <= 0)\n        {",
		).Replace(driftSample), codeanchors.Verdict{State: linked, Reformatted: true, Start: 9, End: 16}},
		{"changed", target, strings.Replace(driftSample, "balance.add(amount)", "balance.subtract(amount)", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 16}},
		{"parenthesized differently", target, strings.Replace(driftSample, "amount.signum() <= 0", "amount.signum() <= (0 - 1)", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 16}},
		{"annotation removed", target, strings.Replace(driftSample, "    @Audited\n", "", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 15}},
		{"vanished", target, strings.Replace(driftSample, "void deposit(", "void put(", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{"overload added", target, strings.Replace(driftSample, "    public BigDecimal balance() {",
			"    public void deposit(long cents) {\n        deposit(BigDecimal.valueOf(cents, 2));\n    }\n\n    public BigDecimal balance() {", 1),
			codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 20}},
		{"ambiguous", "src/main/java/bank/Account.java@Account.balance", strings.Replace(driftSample, "    public BigDecimal balance() {",
			"    class balance {}\n\n    public BigDecimal balance() {", 1),
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
