package rust_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
	"github.com/tracewiki/tracewiki/codeanchors/rust"
)

func TestRustDrift(t *testing.T) {
	enginetest.Drift{Language: rust.Language, Parser: rust.Parser, Target: "src/bank.rs@Account.deposit", Before: rsSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: rsSample, Want: codeanchors.Verdict{State: codeanchors.Linked, Start: 13, End: 19}},
		{Name: "moved", After: strings.Replace(rsSample, "use std::fmt;\n", "use std::fmt;\nuse std::io;\n\nconst LIMIT: u64 = 10;\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 16, End: 22}},
		{Name: "reformatted", After: strings.Replace(rsSample,
			"        if amount == 0 {\n            return Err(Error::Zero);\n        }\n",
			"        if amount == 0 { return Err(Error::Zero); }\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 17}},
		{Name: "semicolon dropped", After: strings.Replace(rsSample, "return Err(Error::Zero);", "return Err(Error::Zero)", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 19}},
		{Name: "trailing commas and comments", After: strings.NewReplacer(
			"pub fn deposit(&mut self, amount: u64) -> Result<u64, Error> {",
			"pub fn deposit(\n        &mut self,\n        amount: u64, // in cents\n    ) -> Result<u64, Error> {",
		).Replace(rsSample), Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 22}},
		{Name: "changed", After: strings.Replace(rsSample, "self.balance += amount;", "self.balance += amount * 2;", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 19}},
		{Name: "attribute added", After: strings.Replace(rsSample, "    /// Adds money.\n", "    /// Adds money.\n    #[must_use]\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 20}},
		{Name: "vanished", After: strings.Replace(rsSample, "fn deposit(", "fn put(", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "second impl block makes it ambiguous", After: rsSample + "\nimpl Account {\n    fn deposit(&self) {}\n}\n",
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
		{Name: "does not parse", After: rsSample + "\nfn broken( {\n",
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}}.Run(t)
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
