package java_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/java"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
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

func TestDrift(t *testing.T) {
	linked, stale := codeanchors.Linked, codeanchors.Stale
	enginetest.Drift{Language: java.Language, Parser: java.Parser, Target: "src/main/java/bank/Account.java@Account.deposit", Before: driftSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: driftSample, Want: codeanchors.Verdict{State: linked, Start: 9, End: 16}},
		{Name: "moved", After: strings.Replace(driftSample, "import java.math.BigDecimal;\n", "import java.math.BigDecimal;\nimport java.util.List;\n\n", 1),
			Want: codeanchors.Verdict{State: linked, Moved: true, Start: 11, End: 18}},
		{Name: "reformatted", After: strings.NewReplacer(
			"        // Reject nonsense.\n", "",
			"    @Audited\n    public void deposit(BigDecimal amount) {", "    public @Audited void deposit(\n            BigDecimal amount) {",
			"if (amount.signum() <= 0) {", "if ((amount.signum()) <= 0)\n        {",
		).Replace(driftSample), Want: codeanchors.Verdict{State: linked, Reformatted: true, Start: 9, End: 16}},
		{Name: "changed", After: strings.Replace(driftSample, "balance.add(amount)", "balance.subtract(amount)", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 16}},
		{Name: "parenthesized differently", After: strings.Replace(driftSample, "amount.signum() <= 0", "amount.signum() <= (0 - 1)", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 16}},
		{Name: "annotation removed", After: strings.Replace(driftSample, "    @Audited\n", "", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 15}},
		{Name: "vanished", After: strings.Replace(driftSample, "void deposit(", "void put(", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "overload added", After: strings.Replace(driftSample, "    public BigDecimal balance() {",
			"    public void deposit(long cents) {\n        deposit(BigDecimal.valueOf(cents, 2));\n    }\n\n    public BigDecimal balance() {", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 9, End: 20}},
		{Name: "ambiguous", Target: "src/main/java/bank/Account.java@Account.balance", After: strings.Replace(driftSample, "    public BigDecimal balance() {",
			"    class balance {}\n\n    public BigDecimal balance() {", 1),
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
	}}.Run(t)
}
