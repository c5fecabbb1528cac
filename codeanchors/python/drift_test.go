package python_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
	"github.com/tracewiki/tracewiki/codeanchors/python"
)

func TestPythonDrift(t *testing.T) {
	enginetest.Drift{Language: python.Language, Parser: python.Parser, Target: "bank/accounts.py@Account.deposit", Before: pySample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: pySample, Want: codeanchors.Verdict{State: codeanchors.Linked, Start: 12, End: 17}},
		{Name: "moved", After: strings.Replace(pySample, "import os\n", "import os\nimport sys\n\nLIMIT = 10\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 15, End: 20}},
		{Name: "changed", After: strings.Replace(pySample, "self.balance += amount", "self.balance += amount * 2", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 17}},
		{Name: "vanished", After: strings.Replace(pySample, "def deposit(", "def put(", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "decorator added", After: strings.Replace(pySample, "    def deposit(", "    @audited\n    def deposit(", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 18}},
		{Name: "reformatted", After: strings.NewReplacer(
			"        # Reject nonsense.\n", "",
			"raise ValueError(\"amount must be positive\")", "raise ValueError('amount must be positive')  # say why",
			"        self.balance += amount\n", "\n        self.balance += amount\n\n",
		).Replace(pySample), Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 12, End: 18}},
		{Name: "reindented", After: strings.Replace(pySample, "            raise", "              raise", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 12, End: 17}},
		{Name: "dedented", After: strings.Replace(pySample, "        self.balance += amount\n", "            self.balance += amount\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 17}},
		{Name: "property setter added", Target: "bank/accounts.py@Account.label", After: strings.Replace(pySample,
			"        return f\"{self.owner}: {self.balance}\"\n",
			"        return f\"{self.owner}: {self.balance}\"\n\n    @label.setter\n    def label(self, v):\n        self.owner = v\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 19, End: 25}},
		{Name: "redefined", Target: "bank/accounts.py@open_account", After: pySample + "\n\ndef open_account(owner, kind):\n    return Account(owner)\n",
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
		{Name: "does not parse", After: pySample + "\ndef broken(:\n",
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}}.Run(t)
}

// pySample is the module the drift and index tests change.
const pySample = `"""Accounts."""
import os


class Account:
    """An account."""

    def __init__(self, owner):
        self.owner = owner
        self.balance = 0

    def deposit(self, amount):
        # Reject nonsense.
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.balance += amount
        return self.balance

    @property
    def label(self):
        return f"{self.owner}: {self.balance}"


def open_account(owner):
    return Account(owner)
`

// TestPythonDriftOwnText is the case of issue 10 item 8, found on a real
// history: capture A.g, then simplify f before it and drop g's comment.
// g's tokens did not change, so the verdict is linked and reformatted; with
// the DEDENTs that close f's blocks counted in g's token hash it was stale.
func TestPythonDriftOwnText(t *testing.T) {
	const before = "class A:\n    def f(self):\n        if a:\n            if x:\n                pass\n\n    def g(self):\n        return 1  # one\n"
	const after = "class A:\n    def f(self): pass\n\n    def g(self):\n        return 1\n"
	const sameF = "class A:\n    def f(self):\n        if a:\n            if x:\n                pass\n\n    def g(self):\n        return 1\n"
	a := enginetest.Capture(t, python.Language, python.Parser, "m.py@A.g", before)
	for _, c := range []struct {
		name, after string
		want        codeanchors.Verdict
	}{
		{"f simplified", after, codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Moved: true, Start: 4, End: 5}},
		{"f unchanged", sameF, codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 7, End: 8}},
	} {
		if got := enginetest.Judge(t, python.Language, a, "m.py@A.g", c.after); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
