package rust_test

import (
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/rust"
)

// nextestReport is what cargo nextest's JUnit output gives for a package
// my-shop (unit tests of src/cart.rs and src/lib.rs, an integration test
// tests/api.rs), plus a test of another package.
const nextestReport = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="nextest-run" tests="5" failures="1" errors="0">
  <testsuite name="my-shop" tests="3" disabled="0" errors="0" failures="1">
    <testcase name="cart::tests::adds" classname="my-shop" timestamp="2026-12-01T10:00:00Z" time="0.01"/>
    <testcase name="cart::tests::empty" classname="my-shop" timestamp="2026-12-01T10:00:00Z" time="0.01">
      <failure type="test failure">assertion failed</failure>
    </testcase>
    <testcase name="tests::runs" classname="my-shop" timestamp="2026-12-01T10:00:00Z" time="0.01"/>
  </testsuite>
  <testsuite name="my-shop::api" tests="1" disabled="0" errors="0" failures="0">
    <testcase name="adds" classname="my-shop::api" timestamp="2026-12-01T10:00:00Z" time="0.01"/>
  </testsuite>
  <testsuite name="pricing" tests="1" disabled="0" errors="0" failures="0">
    <testcase name="tests::runs" classname="pricing" timestamp="2026-12-01T10:00:00Z" time="0.01"/>
  </testsuite>
</testsuites>
`

func TestMatchTests(t *testing.T) {
	results, err := codeanchors.ParseReport("nextest.xml", []byte(nextestReport))
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]string{
		"src/cart.rs":  "pub fn total() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n    #[test]\n    fn empty() {}\n}\n",
		"src/lib.rs":   "#[cfg(test)]\nmod tests {\n    #[test]\n    fn runs() {}\n    #[test]\n    fn not_run() {}\n}\n",
		"tests/api.rs": "#[test]\nfn adds() {}\n",
	}
	in := lang.TestInput{
		Project: map[string][]byte{
			"Cargo.toml":         []byte("[package]\nname = \"my-shop\"\n"),
			"pricing/Cargo.toml": []byte("[package]\nname = \"pricing\"\n"),
		},
		File: func(p string) *lang.File {
			f, err := rust.Extract(p, []byte(srcs[p]))
			if err != nil || srcs[p] == "" {
				return nil
			}
			return f
		},
	}
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"src/cart.rs@tests.adds", []string{"my-shop cart::tests::adds pass"}},
		{"src/cart.rs@tests", []string{"my-shop cart::tests::adds pass", "my-shop cart::tests::empty fail"}},
		{"src/cart.rs", []string{"my-shop cart::tests::adds pass", "my-shop cart::tests::empty fail"}},
		{"src/lib.rs@tests.runs", []string{"my-shop tests::runs pass"}},
		{"src/lib.rs", nil}, // tests::not_run is not in the report
		{"tests/api.rs@adds", []string{"my-shop::api adds pass"}},
		{"src/cart.rs@tests.gone", nil},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rust.Language.MatchTests(tg, results, in) {
			got = append(got, r.Suite+" "+r.Name+" "+r.Outcome)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("MatchTests(%s) = %q, want %q", tt.target, got, tt.want)
		}
	}
}
