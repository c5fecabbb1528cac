package golex

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// matchTimeout is the per-match limit of [chromaGo]'s regular expressions,
// site's highlighter's (site/lexers.go): chroma's own 250 ms is reached on
// a loaded machine, which turns the rest of a text into Error tokens, a
// difference that is not golex's.
const matchTimeout = 30 * time.Second

// chromaGo is chroma's Go lexer, the one golex stands in for, as site's
// highlighter runs it: coalesced, with [matchTimeout] per match.
var chromaGo = sync.OnceValue(func() chroma.Lexer {
	rl := lexers.Go.(*chroma.RegexLexer)
	rules, err := rl.Rules()
	if err != nil {
		panic(err)
	}
	copied := chroma.Rules{}
	for state, rs := range rules {
		copied[state] = rs
	}
	// chroma offers no option for the limit; a mutator, which chroma calls
	// once the rules are compiled, sets it. Its rule matches nothing.
	copied["root"] = append(slices.Clone(rules["root"]), chroma.Rule{Pattern: `[^\s\S]`, Mutator: timeoutMutator{}})
	l, err := chroma.NewLexer(rl.Config(), func() chroma.Rules { return copied })
	if err != nil {
		panic(err)
	}
	l.SetRegistry(lexers.GlobalLexerRegistry) // Go templates in raw strings
	return chroma.Coalesce(l)
})

// timeoutMutator sets [matchTimeout] on every compiled rule of a lexer and
// removes its own rule.
type timeoutMutator struct{}

func (timeoutMutator) MutateLexer(rules chroma.CompiledRules, state string, rule int) error {
	for _, rs := range rules {
		for _, r := range rs {
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = matchTimeout
			}
		}
	}
	rules[state] = append(rules[state][:rule:rule], rules[state][rule+1:]...)
	return nil
}

func (timeoutMutator) Mutate(*chroma.LexerState) error { return nil }

// compareGo lexes src with golex and with chroma's Go lexer. It returns
// whether golex left src to chroma, and an error describing the first
// difference when both lexed it and they differ.
func compareGo(src string) (fallback bool, err error) {
	fast, ok := Tokens(src)
	if !ok {
		return true, nil
	}
	slow, err := chroma.Tokenise(chromaGo(), nil, src)
	if err != nil {
		return false, err
	}
	if slices.Equal(fast, slow) {
		return false, nil
	}
	i := 0
	for i < len(fast) && i < len(slow) && fast[i] == slow[i] {
		i++
	}
	at := func(ts []chroma.Token) string {
		var b strings.Builder
		for _, t := range ts[max(0, i-2):min(len(ts), i+3)] {
			fmt.Fprintf(&b, " %s:%q", t.Type, t.Value)
		}
		return b.String()
	}
	off := 0
	for _, t := range slow[:i] {
		off += len(t.Value)
	}
	return false, fmt.Errorf("token %d (byte %d) differs:\n golex: %s\nchroma: %s", i, off, at(fast), at(slow))
}

// goSrc returns $(go env GOROOT)/src, Go's own sources.
func goSrc(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// FuzzGoLexer checks that golex, on any text, returns chroma's Go lexer's
// tokens or leaves the text to chroma. The seeds are quirky snippets and
// small files of Go's own sources.
func FuzzGoLexer(f *testing.F) {
	for _, s := range []string{
		"package p\n\nfunc f(x int) string { return fmt.Sprint(len(x), 'a', `raw`, \"s\\\"\") }\n",
		"len (x) any(y) float(z) 0x_1F 0b1 0B1 1.e5 .5i 1e+3i 0777 08 '\\1234' '''\n",
		"/* a */ /\\\n* b *\\\n/ //go:build x\n// c\n\"open\n`{{.X}}` `{`",
		"x\u200dif if\u200d é9 ٣ 1٣i\u00a0\u2003\r\n$@#?\\~",
	} {
		f.Add(s)
	}
	dir := filepath.Join(goSrc(f), "go", "printer", "testdata")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(b) < 4<<10 {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Count(src, `\\`) > 12 {
			// chroma's string rule backtracks 2^n times over n escaped
			// backslashes when no quote closes the string (golex does
			// not: it tells no match at once), and would stall the
			// fuzzer for its 30 s match limit.
			return
		}
		if _, err := compareGo(src); err != nil {
			t.Fatal(err)
		}
	})
}
