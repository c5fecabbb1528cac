package rust

import (
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// MatchTests returns the results of a JUnit XML report from cargo nextest
// (or cargo2junit) that a tests target stands for. A result's name is the
// test's path inside its test binary, module path included
// (cart::tests::adds for a #[test] fn adds in mod tests of src/cart.rs);
// its suite (classname) names the binary: the package ("my-shop") for the
// library's unit tests, "my-shop::api" for tests/api.rs. A target's test
// path is its file's module path (see [linker]) and its symbol, dots as
// "::"; when the workspace's Cargo.toml files name the file's package, a
// result of another package's binary does not match.
//
// PATH@SYMBOL stands for that test's result; PATH@MOD (a #[cfg(test)]
// module, not itself a symbol) for every result below it; PATH for the
// results of the file's test symbols, and for none unless the report has
// them all.
func MatchTests(t claims.Target, results []lang.TestResult, project map[string][]byte, file func(string) *lang.File) []lang.TestResult {
	l := newLinker(nil, project)
	c := l.crateOf(t.Path)
	m := moduleOf(c, t.Path)
	prefix := ""
	if len(m.path) > 0 {
		prefix = strings.Join(m.path, "::") + "::"
	}
	var pkgs []string
	if c != nil && c.name != "" {
		pkgs = append(pkgs, c.name, strings.ReplaceAll(c.name, "_", "-"))
	}
	suiteOK := func(suite string) bool {
		if len(pkgs) == 0 || suite == "" {
			return true
		}
		for _, p := range pkgs {
			if suite == p || strings.HasPrefix(suite, p+"::") {
				return true
			}
		}
		return false
	}
	var keep func(name string) bool
	switch {
	case t.IsSymbol():
		want := prefix + strings.ReplaceAll(t.Symbol, ".", "::")
		keep = func(name string) bool { return name == want || strings.HasPrefix(name, want+"::") }
	default:
		f := file(t.Path)
		if f == nil {
			return nil
		}
		var tests []string
		for _, s := range f.Symbols {
			if s.Kind == lang.KindTest {
				tests = append(tests, prefix+strings.ReplaceAll(s.Name, ".", "::"))
			}
		}
		keep = func(name string) bool { return slices.Contains(tests, name) }
		// A whole file needs all its tests in the report.
		for _, name := range tests {
			if !slices.ContainsFunc(results, func(r lang.TestResult) bool { return r.Name == name && suiteOK(r.Suite) }) {
				return nil
			}
		}
	}
	var out []lang.TestResult
	for _, r := range results {
		if suiteOK(r.Suite) && keep(r.Name) {
			out = append(out, r)
		}
	}
	return out
}
