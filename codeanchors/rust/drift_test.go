package rust_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/rust"
)

// driftCase captures target in before and judges it in after, through the
// engine's registry (so the Rust plug-in is registered).
func driftCase(t *testing.T, target, before, after string) codeanchors.Verdict {
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
	if a.Parser != rust.Parser {
		t.Fatalf("captured with %s, want %s", a.Parser, rust.Parser)
	}
	s1 := codeanchors.NewSource(codeanchors.Default, tg.Path, []byte(after))
	return codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s1))
}

func TestRustDrift(t *testing.T) {
	const target = "src/bank.rs@Account.deposit"
	tests := []struct {
		name   string
		target string
		after  string
		want   codeanchors.Verdict
	}{
		{"unchanged", target, rsSample, codeanchors.Verdict{State: codeanchors.Linked, Start: 13, End: 19}},
		{"moved", target, strings.Replace(rsSample, "use std::fmt;\n", "use std::fmt;\nuse std::io;\n\nconst LIMIT: u64 = 10;\n", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 16, End: 22}},
		{"joined lines", target, strings.Replace(rsSample,
			"        if amount == 0 {\n            return Err(Error::Zero);\n        }\n",
			"        if amount == 0 { return Err(Error::Zero); }\n", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 17}},
		{"semicolon dropped", target, strings.Replace(rsSample, "return Err(Error::Zero);", "return Err(Error::Zero)", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 19}},
		{"trailing commas and comments", target, strings.NewReplacer(
			"pub fn deposit(&mut self, amount: u64) -> Result<u64, Error> {",
			"pub fn deposit(\n        &mut self,\n        amount: u64, // in cents\n    ) -> Result<u64, Error> {",
		).Replace(rsSample), codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 22}},
		{"changed", target, strings.Replace(rsSample, "self.balance += amount;", "self.balance += amount * 2;", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 19}},
		{"attribute added", target, strings.Replace(rsSample, "    /// Adds money.\n", "    /// Adds money.\n    #[must_use]\n", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 20}},
		{"vanished", target, strings.Replace(rsSample, "fn deposit(", "fn put(", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{"second impl block makes it ambiguous", target, rsSample + "\nimpl Account {\n    fn deposit(&self) {}\n}\n",
			codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
		{"does not parse", target, rsSample + "\nfn broken( {\n",
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := driftCase(t, tt.target, rsSample, tt.after)
			got.Note = ""
			if got != tt.want {
				t.Errorf("Judge = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// rsSample is the module the drift tests change.
const rsSample = `//! Accounts.
use std::fmt;

pub struct Account {
    owner: String,
    balance: u64,
}

pub enum Error { Zero }

impl Account {
    /// Adds money.
    pub fn deposit(&mut self, amount: u64) -> Result<u64, Error> {
        if amount == 0 {
            return Err(Error::Zero);
        }
        self.balance += amount;
        Ok(self.balance)
    }
}
`
