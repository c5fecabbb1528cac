package php_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest/enginetest"
	"github.com/tracewiki/tracewiki/codeanchors/php"
)

func TestPHPDrift(t *testing.T) {
	enginetest.Drift{Language: php.Language, Parser: php.Parser, Target: "src/Bank/Account.php@Account.deposit", Before: phpSample, Cases: []enginetest.DriftCase{
		{Name: "unchanged", After: phpSample, Want: codeanchors.Verdict{State: codeanchors.Linked, Start: 13, End: 20}},
		{Name: "moved", After: strings.Replace(phpSample, "use InvalidArgumentException;\n", "use InvalidArgumentException;\nuse RuntimeException;\n\nconst LIMIT = 10;\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 16, End: 23}},
		{Name: "reformatted", After: strings.NewReplacer(
			"        if ($amount <= 0 || $this->closed && !$this->overdraft) {\n            throw new InvalidArgumentException('zero');\n        }\n",
			"        if ($amount <= 0 || ($this->closed && !$this->overdraft)) { throw new InvalidArgumentException(\"zero\"); }\n",
		).Replace(phpSample), Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 18}},
		{Name: "trailing comma and comment", After: strings.Replace(phpSample, "public function deposit(int $amount): int",
			"public function deposit(\n        int $amount, // in cents\n    ): int", 1),
			Want: codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 13, End: 22}},
		{Name: "semantic parentheses", After: strings.Replace(phpSample, "$amount <= 0 || $this->closed && !$this->overdraft", "($amount <= 0 || $this->closed) && !$this->overdraft", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 20}},
		{Name: "escape in double quotes", After: strings.Replace(phpSample, "'zero'", `"zero\n"`, 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 20}},
		{Name: "changed", After: strings.Replace(phpSample, "$this->balance += $amount;", "$this->balance += $amount * 2;", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 20}},
		{Name: "attribute added", After: strings.Replace(phpSample, "    /** Adds money. */\n", "    /** Adds money. */\n    #[Deprecated]\n", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 13, End: 21}},
		{Name: "vanished", After: strings.Replace(phpSample, "function deposit(", "function put(", 1),
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{Name: "does not parse", After: phpSample + "\nfunction broken( {\n",
			Want: codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}}.Run(t)
}

// phpSample is the class the drift tests change.
const phpSample = `<?php
declare(strict_types=1);

namespace App\Bank;

use InvalidArgumentException;

final class Account
{
    private int $balance = 0;

    /** Adds money. */
    public function deposit(int $amount): int
    {
        if ($amount <= 0 || $this->closed && !$this->overdraft) {
            throw new InvalidArgumentException('zero');
        }
        $this->balance += $amount;
        return $this->balance;
    }
}
`

// TestPHPLinkAndTests resolves imports through composer.json's PSR-4 map,
// reports the unresolved ones under a mapped prefix only, resolves
// static calls to the one class, and matches a PHPUnit JUnit report.
func TestPHPLinkAndTests(t *testing.T) {
	files := map[string]string{
		"src/Bank/Account.php": phpSample,
		"src/Bank/Ledger.php": `<?php
namespace App\Bank;
use App\Bank\Account;
use App\Bank\Missing;
use Psr\Log\LoggerInterface;
class Ledger {
    public static function open(): Account { return Factory::make(); }
}
class Factory { public static function make() { return helper(); } }
function helper() {}
`,
		"tests/Unit/AccountTest.php": `<?php
namespace Tests\Unit;
use PHPUnit\Framework\TestCase;
final class AccountTest extends TestCase {
    public function testDeposit(): void {}
    public function testZero(): void {}
}
`,
	}
	project := map[string][]byte{"composer.json": []byte(`{"autoload": {"psr-4": {"App\\": "src/"}}, "autoload-dev": {"psr-4": {"Tests\\": ["tests/"]}}}`)}
	var fs []*lang.File
	byPath := map[string]*lang.File{}
	for _, p := range []string{"src/Bank/Account.php", "src/Bank/Ledger.php", "tests/Unit/AccountTest.php"} {
		f, err := php.Extract(p, []byte(files[p]))
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
		byPath[p] = f
	}
	if !php.Language.ProjectFile("composer.json") || php.Language.ProjectFile("package.json") {
		t.Error("ProjectFile: want composer.json only")
	}
	l := php.Language.Link(fs, project)
	got, unresolved := l.Imports(byPath["src/Bank/Ledger.php"])
	if strings.Join(got, ",") != "src/Bank/Account.php" || strings.Join(unresolved, ",") != `App\Bank\Missing` {
		t.Errorf("Imports = %q, unresolved %q", got, unresolved)
	}
	ledger := byPath["src/Bank/Ledger.php"]
	for _, c := range ledger.Calls {
		ref, ok := l.ResolveCall(ledger, c)
		switch c.Name {
		case "make":
			if !ok || ref.String() != "src/Bank/Ledger.php@Factory.make" {
				t.Errorf("ResolveCall(%+v) = %v, %v", c, ref, ok)
			}
		case "helper":
			if !ok || ref.String() != "src/Bank/Ledger.php@helper" {
				t.Errorf("ResolveCall(%+v) = %v, %v", c, ref, ok)
			}
		}
	}
	// The tests/ folder makes the methods tests through the engine's rule
	// and the *Test.php name through the plug-in's.
	if s, ok, _ := byPath["tests/Unit/AccountTest.php"].Lookup("AccountTest.testZero"); !ok || s.Kind != lang.KindTest {
		t.Errorf("AccountTest.testZero = %+v, want a test", s)
	}
	results := []lang.TestResult{
		{Suite: "Tests.Unit.AccountTest", Name: "testDeposit", File: "/ci/work/tests/Unit/AccountTest.php", Outcome: lang.OutcomePass},
		{Suite: "Tests.Unit.AccountTest", Name: "testZero with data set #0", File: "/ci/work/tests/Unit/AccountTest.php", Outcome: lang.OutcomeFail},
		{Suite: "Tests.Unit.OtherTest", Name: "testZero", File: "/ci/work/tests/Unit/OtherTest.php", Outcome: lang.OutcomePass},
	}
	in := lang.TestInput{Project: project, File: func(p string) *lang.File { return byPath[p] }}
	match := func(target string) int {
		tg, err := claims.ParseTarget(target)
		if err != nil {
			t.Fatal(err)
		}
		return len(php.Language.MatchTests(tg, results, in))
	}
	if n := match("tests/Unit/AccountTest.php@AccountTest.testZero"); n != 1 {
		t.Errorf("method target matched %d, want 1", n)
	}
	if n := match("tests/Unit/AccountTest.php"); n != 2 {
		t.Errorf("file target matched %d, want 2", n)
	}
	if n := match("tests/Unit/AccountTest.php@AccountTest.testMissing"); n != 0 {
		t.Errorf("a test the report lacks matched %d, want 0", n)
	}
}
