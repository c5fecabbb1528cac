package python_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/python"
)

// pyDriftCase captures target in before and judges it in after.
func pyDriftCase(t *testing.T, target, before, after string) codeanchors.Verdict {
	t.Helper()
	tg, err := claims.ParseTarget(target)
	if err != nil {
		t.Fatal(err)
	}
	s0 := codeanchors.NewSource(codeanchors.Default, tg.Path, []byte(before))
	if s0.ParseErr != nil {
		t.Fatal(s0.ParseErr)
	}
	a, err := codeanchors.Capture(tg, codeanchors.Resolve(tg, nil, s0), s0, "t", "me")
	if err != nil {
		t.Fatal(err)
	}
	if a.Parser != python.Parser {
		t.Fatalf("captured with %s, want %s", a.Parser, python.Parser)
	}
	s1 := codeanchors.NewSource(codeanchors.Default, tg.Path, []byte(after))
	return codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s1))
}

func TestPythonDrift(t *testing.T) {
	const target = "bank/accounts.py@Account.deposit"
	tests := []struct {
		name   string
		target string
		after  string
		want   codeanchors.Verdict
	}{
		{"unchanged", target, pySample, codeanchors.Verdict{State: codeanchors.Linked, Start: 12, End: 17}},
		{"moved", target, strings.Replace(pySample, "import os\n", "import os\nimport sys\n\nLIMIT = 10\n", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 15, End: 20}},
		{"changed", target, strings.Replace(pySample, "self.balance += amount", "self.balance += amount * 2", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 17}},
		{"vanished", target, strings.Replace(pySample, "def deposit(", "def put(", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{"decorator added", target, strings.Replace(pySample, "    def deposit(", "    @audited\n    def deposit(", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 18}},
		{"reformatted", target, strings.NewReplacer(
			"        # Reject nonsense.\n", "",
			"raise ValueError(\"amount must be positive\")", "raise ValueError('amount must be positive')  # say why",
			"        self.balance += amount\n", "\n        self.balance += amount\n\n",
		).Replace(pySample), codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 12, End: 18}},
		{"reindented", target, strings.Replace(pySample, "            raise", "              raise", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 12, End: 17}},
		{"dedented", target, strings.Replace(pySample, "        self.balance += amount\n", "            self.balance += amount\n", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 12, End: 17}},
		{"property setter added", "bank/accounts.py@Account.label", strings.Replace(pySample,
			"        return f\"{self.owner}: {self.balance}\"\n",
			"        return f\"{self.owner}: {self.balance}\"\n\n    @label.setter\n    def label(self, v):\n        self.owner = v\n", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 19, End: 25}},
		{"redefined", "bank/accounts.py@open_account", pySample + "\n\ndef open_account(owner, kind):\n    return Account(owner)\n",
			codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
		{"does not parse", target, pySample + "\ndef broken(:\n",
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := pyDriftCase(t, tt.target, pySample, tt.after)
			got.Note = ""
			if got != tt.want {
				t.Errorf("Judge = %+v, want %+v", got, tt.want)
			}
		})
	}
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
	for _, c := range []struct {
		name, after string
		want        codeanchors.Verdict
	}{
		{"f simplified", after, codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Moved: true, Start: 4, End: 5}},
		{"f unchanged", sameF, codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 7, End: 8}},
	} {
		if got := pyDriftCase(t, "m.py@A.g", before, c.after); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
