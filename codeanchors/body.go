package codeanchors

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Body returns a's body hash (SPEC 1.4): the recorded one, else, for a
// symbol anchor captured before body hashes were recorded, the one its
// captured text gives. That text is tokenized by reg's language for a.Path,
// alone and then in each of the language's [lang.Fragmenter] wraps,
// and a result is trusted only when the same tokens give a's recorded token
// hash: the text then holds the very tokens that were captured. It is ""
// for a file or line range, a text that was capped ([MaxCapturedLines]) or
// lacks lines, and a text no wrap makes tokenize as captured.
func (a *Anchor) Body(reg *Registry) string {
	if a.BodyHash != "" || a.Symbol == "" || a.TextCapped || a.CapturedText == "" {
		return a.BodyHash
	}
	n := a.End - a.Start + 1
	if len(lang.Lines([]byte(a.CapturedText))) != n {
		return "" // capped by a writer that did not record it
	}
	l := reg.Language(a.Path)
	if l == nil {
		return ""
	}
	wraps := []lang.Wrap{{}}
	if f, ok := l.(lang.Fragmenter); ok {
		wraps = append(wraps, f.Wraps()...)
	}
	for _, w := range wraps {
		f, err := l.Extract(a.Path, []byte(w.Before+a.CapturedText+w.After))
		if err != nil || f == nil {
			continue
		}
		k := strings.Count(w.Before, "\n") // the wrap's lines come first
		if lang.HashTokens(f.Tokens, k+1, k+n) == a.TokenHash {
			return lang.HashBody(f.Tokens, k+1, k+n, lang.BodyName(a.Symbol))
		}
	}
	return ""
}
