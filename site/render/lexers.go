package render

import (
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// matchTimeout is how long one of a lexer's regular expressions may run on
// one match before chroma gives up on it. chroma sets 250 ms per rule, and
// on a loaded machine (a CI runner running tests in parallel) a match that
// takes longer turns the rest of the text into Error tokens, so two builds
// of the same sources differed. A limit this long is never reached by the
// lexers' normal work, so a result no longer depends on the machine's load,
// and it still ends a catastrophic backtrack on hostile text.
const matchTimeout = 30 * time.Second

// untimed returns a lexer that lexes as l does, with [matchTimeout] in
// place of chroma's per-match limit. chroma offers no option for it; its
// compiled expressions are reached through a [chroma.LexerMutator], the
// hook chroma calls once the lexer's rules are compiled. The mutator's rule
// never matches and removes itself, leaving the lexer's own rules as they
// were. Lexers that are not regular-expression lexers are returned as is.
func untimed(l chroma.Lexer) chroma.Lexer {
	rl, ok := l.(*chroma.RegexLexer)
	if !ok {
		return l
	}
	rules, err := rl.Rules()
	if err != nil {
		return l
	}
	copied := chroma.Rules{}
	for state, rs := range rules {
		copied[state] = rs
	}
	copied["root"] = append(append([]chroma.Rule(nil), rules["root"]...),
		chroma.Rule{Pattern: `[^\s\S]`, Mutator: &timeoutMutator{}})
	nl, err := chroma.NewLexer(rl.Config(), func() chroma.Rules { return copied })
	if err != nil {
		return l
	}
	// Lexers that embed others (HTML's scripts, Markdown's fences) find
	// them in the registry chroma's own lexer belongs to.
	nl.SetRegistry(lexers.GlobalLexerRegistry)
	return nl
}

// timeoutMutator sets [matchTimeout] on every compiled rule of a lexer.
type timeoutMutator struct{}

// MutateLexer sets the limit and removes the mutator's own rule.
func (*timeoutMutator) MutateLexer(rules chroma.CompiledRules, state string, rule int) error {
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

// Mutate is never called: the rule's pattern matches nothing.
func (*timeoutMutator) Mutate(*chroma.LexerState) error { return nil }
