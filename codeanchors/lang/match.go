package lang

import (
	"path"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// MatchByModule matches report results to a tests target by file, or by a
// suite that is the target's dotted module name: results whose File is
// PATH, or whose Suite is PATH's dotted module name ("tests/test_auth.py" →
// "tests.test_auth"), followed by the symbol's enclosing classes; Name is
// the symbol's last part. Without a symbol, every such result of the file.
// It is the rule for paths no language claims, and a base a language's
// MatchTests may use.
func MatchByModule(t claims.Target, results []TestResult) []TestResult {
	module := strings.ReplaceAll(strings.TrimSuffix(t.Path, path.Ext(t.Path)), "/", ".")
	suite, name := module, ""
	if t.IsSymbol() {
		parts := strings.Split(t.Symbol, ".")
		name = parts[len(parts)-1]
		if len(parts) > 1 {
			suite += "." + strings.Join(parts[:len(parts)-1], ".")
		}
	}
	var out []TestResult
	for _, r := range results {
		inFile := r.File == t.Path || (r.File == "" && (r.Suite == module || strings.HasPrefix(r.Suite, module+".")))
		switch {
		case !inFile:
		case !t.IsSymbol():
			out = append(out, r)
		case r.Name == name && (r.File == t.Path || r.Suite == suite):
			out = append(out, r)
		}
	}
	return out
}
