package cfamily_test

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/cfamily"
)

// driftCase captures target in before and judges it in after, through the
// engine's registry (so the C/C++ plug-in is registered).
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
	if a.Parser != cfamily.Parser {
		t.Fatalf("captured with %s, want %s", a.Parser, cfamily.Parser)
	}
	s1 := codeanchors.NewSource(codeanchors.Default, tg.Path, []byte(after))
	return codeanchors.Judge(&a, codeanchors.Resolve(tg, &a, s1))
}

func TestCDrift(t *testing.T) {
	const target = "src/account.cpp@bank.Account.deposit"
	tests := []struct {
		name   string
		target string
		after  string
		want   codeanchors.Verdict
	}{
		{"unchanged", target, cppSample, codeanchors.Verdict{State: codeanchors.Linked, Start: 14, End: 20}},
		{"moved", target, strings.Replace(cppSample, "#include <string>\n", "#include <string>\n#include <vector>\n\nstatic const int kLimit = 10;\n", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Moved: true, Start: 17, End: 23}},
		{"reformatted", target, strings.Replace(cppSample,
			"    if (amount <= 0) {\n        return false;\n    }\n",
			"    if (amount <= 0) { return false; }  // nothing to do\n", 1),
			codeanchors.Verdict{State: codeanchors.Linked, Reformatted: true, Start: 14, End: 18}},
		{"changed", target, strings.Replace(cppSample, "balance_ += amount;", "balance_ += 2 * amount;", 1),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.ContentChanged, Start: 14, End: 20}},
		{"vanished", target, strings.ReplaceAll(cppSample, "deposit(", "put("),
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
		{"destructor", "src/account.cpp@bank.Account.~Account", cppSample, codeanchors.Verdict{State: codeanchors.Linked, Start: 22, End: 22}},
		{"defined twice under #if and #else", target, strings.Replace(strings.Replace(cppSample, "bool Account::deposit(long amount) {",
			"#ifdef FAST\nbool Account::deposit(long amount) { return true; }\n#else\nbool Account::deposit(long amount) {", 1),
			"    return true;\n}\n", "    return true;\n}\n#endif\n", 1),
			codeanchors.Verdict{State: codeanchors.Unknown, Reason: codeanchors.Ambiguous}},
		{"does not parse", target, cppSample + "\nvoid broken() {\n",
			codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := driftCase(t, tt.target, cppSample, tt.after)
			got.Note = ""
			if got != tt.want {
				t.Errorf("Judge = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// cppSample is the source the drift tests change.
const cppSample = `// Accounts.
#include <string>

namespace bank {

class Account {
public:
    bool deposit(long amount);
    ~Account();
private:
    long balance_ = 0;
};

bool Account::deposit(long amount) {
    if (amount <= 0) {
        return false;
    }
    balance_ += amount;
    return true;
}

Account::~Account() {}

} // namespace bank
`
