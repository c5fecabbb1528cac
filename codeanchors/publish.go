package codeanchors

import (
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// What a repository publishes of its code in its bundle (SPEC 1.8), so
// that another repository can link any of its symbols and judge the link
// by hash: the hashes of every symbol of the code index and of every
// target the content links, as the code is now. They are computed from
// the sources' tokens, so before a build releases them
// ([Source.ReleaseTokens]).

// PublishedSymbol is one symbol of the code index with the hashes of its
// current lines.
type PublishedSymbol struct {
	Ref             string // PATH@SYMBOL
	Kind            string // the extractor's kind: func, method, type, test...
	Start, End      int
	Hash, TokenHash string
}

// PublishedTarget is the current hashes of a target the content links,
// where its verdict found it. Hashes are empty when it was not found;
// BodyHash is set for a found symbol only.
type PublishedTarget struct {
	Hash, TokenHash, BodyHash string
	// Parser is the parser of the file as it is now, else (the file is
	// gone) the captured anchor's, else "".
	Parser string
}

// Published is the code part of a bundle.
type Published struct {
	// Symbols are every symbol of the index's files, in the index's
	// order: by path, then as the file lists them (by line, then name).
	Symbols []PublishedSymbol
	// Targets holds each target of the report by ref.
	Targets map[string]PublishedTarget
}

// Publish hashes every symbol of the index ix and every target of the
// report at the lines its verdict found, in sources (the ones the report
// was judged from, tokens not released).
func Publish(rep *Report, ix *Index, sources map[string]*Source) *Published {
	p := &Published{Targets: make(map[string]PublishedTarget, len(rep.Targets))}
	if ix != nil {
		n := 0
		for _, f := range ix.Files {
			n += len(f.Symbols)
		}
		p.Symbols = make([]PublishedSymbol, 0, n)
		for _, f := range ix.Files {
			s := sources[f.Path]
			if s == nil || s.File != f {
				continue // not the parse the index was built from
			}
			for _, sym := range f.Symbols {
				r := s.span(sym.Start, sym.End)
				p.Symbols = append(p.Symbols, PublishedSymbol{
					Ref: claims.Target{Path: f.Path, Symbol: sym.Name}.String(), Kind: sym.Kind,
					Start: sym.Start, End: sym.End, Hash: r.Hash, TokenHash: r.TokenHash,
				})
			}
		}
	}
	for _, ts := range rep.Targets {
		p.Targets[ts.Target.String()] = publishTarget(ts, sources[ts.Target.Path])
	}
	return p
}

// publishTarget hashes a target at its verdict's current lines in s.
func publishTarget(ts TargetStatus, s *Source) PublishedTarget {
	var out PublishedTarget
	if ts.Anchor != nil {
		out.Parser = ts.Anchor.Parser
	}
	if s == nil || s.Absent != "" {
		return out
	}
	out.Parser = s.Parser()
	v := ts.Verdict
	if v.Start <= 0 || v.End > len(s.Lines) {
		return out // not found
	}
	r := s.span(v.Start, v.End)
	out.Hash, out.TokenHash = r.Hash, r.TokenHash
	if t := ts.Target; t.IsSymbol() {
		out.BodyHash = lang.HashBody(s.tokens, v.Start, v.End, lang.BodyName(t.Symbol))
	}
	return out
}
