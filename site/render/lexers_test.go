package render

import (
	"slices"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestUntimedLexesAlike checks that [untimed] changes no token: the same
// text gives the same tokens with chroma's own lexer and with the untimed
// copy, for lexers with includes, states and embedded languages.
func TestUntimedLexesAlike(t *testing.T) {
	texts := map[string]string{
		"go":         "package p\n\n// F does x.\nfunc F(a []int) (n int) {\n\tfor _, v := range a { n += v }\n\treturn `raw` + \"s\"\n}\n",
		"python":     "@dec\nclass A:\n    def f(self, x: int) -> str:\n        return f\"{x!r:>{w}}\"  # c\n",
		"typescript": "export class A<T> { m(x: T): void { const r = /a+/g; `${x}`; } }\n",
		"markdown":   "# T\n\n```go\nfunc f() {}\n```\n\n- a *b* `c`\n",
		"html":       "<script>let a = 1;</script><style>p { color: red }</style>\n",
	}
	for name, text := range texts {
		l := lexers.Get(name)
		if l == nil {
			t.Fatalf("no chroma lexer %q", name)
		}
		want, err := chroma.Tokenise(l, nil, text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := chroma.Tokenise(untimed(l), nil, text)
		if err != nil {
			t.Fatalf("%s: untimed: %v", name, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: untimed lexer gives %v, chroma's %v", name, got, want)
		}
	}
}

// TestUntimedSetsTimeout checks that every compiled rule of an untimed
// lexer carries [matchTimeout], read back from the lexer's own state while
// it lexes.
func TestUntimedSetsTimeout(t *testing.T) {
	var seen []string
	l := chroma.MustNewLexer(&chroma.Config{Name: "probe"}, func() chroma.Rules {
		return chroma.Rules{
			"root": {
				{Pattern: `x`, Type: chroma.Text, Mutator: chroma.MutatorFunc(func(s *chroma.LexerState) error {
					for state, rs := range s.Rules {
						for _, r := range rs {
							if r.Regexp.MatchTimeout != matchTimeout {
								seen = append(seen, state+": "+r.Pattern+": "+r.Regexp.MatchTimeout.String())
							}
						}
					}
					return nil
				})},
				chroma.Include("other"),
			},
			"other": {{Pattern: `.|\n`, Type: chroma.Text}},
		}
	})
	if _, err := chroma.Tokenise(untimed(l), nil, "ax\n"); err != nil {
		t.Fatal(err)
	}
	if len(seen) > 0 {
		t.Errorf("rules without the untimed limit: %v", seen)
	}
	// The probe itself fails on chroma's own lexer: the test can fail.
	seen = nil
	if _, err := chroma.Tokenise(l, nil, "ax\n"); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Error("chroma's own lexer already has the untimed limit: the probe proves nothing")
	}
}
