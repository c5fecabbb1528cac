package kotlin_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
)

const driftSample = `package bank

import java.math.BigDecimal

class Account(private var balance: BigDecimal = BigDecimal.ZERO) {

    /** Adds money. */
    @Audited
    fun deposit(amount: BigDecimal) {
        // Reject nonsense.
        require(amount.signum() > 0) { "amount must be positive" }
        balance = balance.add(amount)
    }

    fun balance(): BigDecimal = balance

    companion object {
        fun open() = Account()
    }
}

fun Account.isEmpty() = balance().signum() == 0
`

func TestDrift(t *testing.T) {
	linked, stale := codeanchors.Linked, codeanchors.Stale
	const path = "src/main/kotlin/bank/Account.kt"
	enginetest.Drift{Language: kotlin.Language, Parser: kotlin.Parser, Target: path + "@Account.deposit", Before: driftSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: driftSample, Want: codeanchors.Verdict{State: linked, Start: 8, End: 13}},
		{Name: "moved", After: strings.Replace(driftSample, "import java.math.BigDecimal\n", "import java.math.BigDecimal\nimport java.math.RoundingMode\n\n", 1),
			Want: codeanchors.Verdict{State: linked, Moved: true, Start: 10, End: 15}},
		{Name: "reformatted", After: strings.NewReplacer(
			"        // Reject nonsense.\n", "",
			"    @Audited\n    fun deposit(amount: BigDecimal) {", "    @Audited fun deposit(\n        amount: BigDecimal,\n    )\n    {",
			"require(amount.signum() > 0) {", "require(amount.signum() > 0)  {",
			"balance.add(amount)", "balance.add(amount);",
		).Replace(driftSample), Want: codeanchors.Verdict{State: linked, Reformatted: true, Start: 8, End: 14}},
		{Name: "changed", After: strings.Replace(driftSample, "signum() > 0", "signum() >= 0", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 8, End: 13}},
		{Name: "annotation removed", After: strings.Replace(driftSample, "    @Audited\n", "", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 8, End: 12}},
		{Name: "vanished", After: strings.Replace(driftSample, "fun deposit(", "fun put(", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "expression body", Target: path + "@Account.balance", After: strings.Replace(driftSample, "= balance\n", "=\n        balance\n", 1),
			Want: codeanchors.Verdict{State: linked, Reformatted: true, Start: 15, End: 16}},
		{Name: "companion member", Target: path + "@Account.Companion.open", After: strings.Replace(driftSample, "Account()\n    }", "Account(BigDecimal.ONE)\n    }", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 18, End: 18}},
		// An extension function named like a member makes the name ambiguous.
		{Name: "ambiguous", Target: path + "@Account.balance", After: driftSample + "\nfun Account.balance(scale: Int) = balance()\n",
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
	}}.Run(t)
}
