package ruby_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
	"github.com/tracewiki/tracewiki/codeanchors/ruby"
)

const driftSample = `# frozen_string_literal: true

module Bank
  class Account
    # Adds money.
    def deposit(amount)
      raise ArgumentError, 'amount must be positive' if amount <= 0
      @balance += amount
    end

    def self.open = new
  end
end
`

func TestDrift(t *testing.T) {
	linked, stale := codeanchors.Linked, codeanchors.Stale
	enginetest.Drift{Language: ruby.Language, Parser: ruby.Parser, Target: "lib/bank/account.rb@Bank.Account.deposit", Before: driftSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: driftSample, Want: codeanchors.Verdict{State: linked, Start: 6, End: 9}},
		{Name: "moved", After: strings.Replace(driftSample, "module Bank\n", "require 'set'\n\nmodule Bank\n", 1),
			Want: codeanchors.Verdict{State: linked, Moved: true, Start: 8, End: 11}},
		{Name: "reformatted", After: strings.NewReplacer(
			"      raise ArgumentError, 'amount must be positive' if amount <= 0\n",
			"      raise ArgumentError,\n            \"amount must be positive\" if amount<=0 # guard\n",
			"    def deposit(amount)", "    def deposit( amount )",
		).Replace(driftSample), Want: codeanchors.Verdict{State: linked, Reformatted: true, Start: 6, End: 10}},
		{Name: "changed", After: strings.Replace(driftSample, "@balance += amount", "@balance -= amount", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 6, End: 9}},
		{Name: "statements joined", After: strings.Replace(driftSample, "if amount <= 0\n      @balance", "if amount <= 0 and @balance", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 6, End: 8}},
		{Name: "vanished", After: strings.Replace(driftSample, "def deposit(", "def put(", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "endless singleton", Target: "lib/bank/account.rb@Bank.Account.self.open", After: strings.Replace(driftSample, "= new", "= new(0)", 1),
			Want: codeanchors.Verdict{State: stale, Reason: codeanchors.ContentChanged, Start: 11, End: 11}},
		{Name: "redefined", After: strings.Replace(driftSample, "    def self.open", "    def deposit(x) = x\n\n    def self.open", 1),
			Want: codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
	}}.Run(t)
}

// TestLinkAndTests resolves requires through a gemspec's require_paths and
// require_relative, reports the unresolved ones of the workspace's own
// gem only, resolves calls, and matches minitest and RSpec JUnit reports.
func TestLinkAndTests(t *testing.T) {
	files := map[string]string{
		"gems/bank/lib/bank.rb":         "require 'bank/account'\nrequire 'bank/missing'\nrequire 'json'\nrequire_relative 'bank/ledger'\nrequire_relative 'nowhere'\nmodule Bank\n  def self.start = Bank::Ledger.open\nend\n",
		"gems/bank/lib/bank/account.rb": driftSample,
		"gems/bank/lib/bank/ledger.rb":  "module Bank\n  class Ledger\n    def self.open\n      helper(1)\n    end\n\n    def self.helper(x) = x\n  end\nend\n",
		"gems/bank/test/ledger_test.rb": "require 'test_helper'\n\nclass LedgerTest < Minitest::Test\n  def test_open; end\n  def test_close; end\n  def helper; end\nend\n",
		"gems/bank/test/test_helper.rb": "require 'minitest/autorun'\n",
		"gems/bank/spec/ledger_spec.rb": "require 'spec_helper'\nRSpec.describe Bank::Ledger do\n  it('opens') { }\nend\n",
	}
	project := map[string][]byte{
		"gems/bank/bank.gemspec": []byte("Gem::Specification.new do |spec|\n  spec.name = 'bank'\n  spec.require_paths = %w[lib]\nend\n"),
		"gems/bank/Gemfile":      []byte("source 'https://rubygems.org'\ngemspec\n"),
	}
	var fs []*lang.File
	byPath := map[string]*lang.File{}
	for p, src := range files {
		f, err := ruby.Extract(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
		byPath[p] = f
	}
	for name, want := range map[string]bool{"Gemfile": true, "bank.gemspec": true, ".gemspec": false, "Gemfile.lock": false, "Rakefile": false} {
		if ruby.Language.ProjectFile(name) != want {
			t.Errorf("ProjectFile(%q) = %v, want %v", name, !want, want)
		}
	}
	l := ruby.Language.Link(fs, project)
	got, unresolved := l.Imports(byPath["gems/bank/lib/bank.rb"])
	if strings.Join(got, ",") != "gems/bank/lib/bank/account.rb,gems/bank/lib/bank/ledger.rb" || strings.Join(unresolved, ",") != "bank/missing,./nowhere" {
		t.Errorf("Imports = %q, unresolved %q", got, unresolved)
	}
	if got, unresolved := l.Imports(byPath["gems/bank/test/ledger_test.rb"]); strings.Join(got, ",") != "gems/bank/test/test_helper.rb" || len(unresolved) != 0 {
		t.Errorf("test Imports = %q, unresolved %q", got, unresolved)
	}
	resolved := map[string]string{}
	for _, p := range []string{"gems/bank/lib/bank.rb", "gems/bank/lib/bank/ledger.rb"} {
		for _, c := range byPath[p].Calls {
			if ref, ok := l.ResolveCall(byPath[p], c); ok {
				resolved[c.Name] = ref.String()
			}
		}
	}
	if resolved["open"] != "gems/bank/lib/bank/ledger.rb@Bank.Ledger.self.open" || resolved["helper"] != "gems/bank/lib/bank/ledger.rb@Bank.Ledger.self.helper" {
		t.Errorf("resolved calls %v", resolved)
	}
	if s, ok, _ := byPath["gems/bank/test/ledger_test.rb"].Lookup("LedgerTest.test_open"); !ok || s.Kind != lang.KindTest {
		t.Errorf("LedgerTest.test_open = %+v, want a test", s)
	}
	if s, _, _ := byPath["gems/bank/test/ledger_test.rb"].Lookup("LedgerTest.helper"); s.Kind == lang.KindTest {
		t.Error("LedgerTest.helper is a test")
	}
	results := []lang.TestResult{
		{Suite: "LedgerTest", Name: "test_open", File: "test/ledger_test.rb", Outcome: lang.OutcomePass},
		{Suite: "LedgerTest", Name: "test_close", Outcome: lang.OutcomeFail},
		{Suite: "spec.ledger_spec", Name: "Bank::Ledger opens", File: "./spec/ledger_spec.rb", Outcome: lang.OutcomePass},
		{Suite: "spec.other_spec", Name: "Other works", File: "./spec/other_spec.rb", Outcome: lang.OutcomePass},
	}
	in := lang.TestInput{Project: project, File: func(p string) *lang.File { return byPath[p] }}
	match := func(target string) int {
		tg, err := claims.ParseTarget(target)
		if err != nil {
			t.Fatal(err)
		}
		return len(ruby.Language.MatchTests(tg, results, in))
	}
	for target, want := range map[string]int{
		"gems/bank/test/ledger_test.rb@LedgerTest.test_open": 1,
		"gems/bank/test/ledger_test.rb@LedgerTest":           2,
		"gems/bank/test/ledger_test.rb":                      2,
		"gems/bank/test/ledger_test.rb@LedgerTest.test_gone": 0,
		"gems/bank/spec/ledger_spec.rb":                      1,
		"gems/bank/spec/missing_spec.rb":                     0,
	} {
		if n := match(target); n != want {
			t.Errorf("MatchTests(%s) matched %d, want %d", target, n, want)
		}
	}
}
