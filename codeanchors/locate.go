package codeanchors

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// MaxSuggestions caps the suggestions of one target.
const MaxSuggestions = 5

// Locate fills Relocated and Suggestions for every target_missing and
// symbol_not_found target of rep (SPEC 2). l is the lock rep was judged
// against. sources holds every file the code may be in now: the code
// index's files and the referenced ones. It is language-independent: it
// reads only the symbols, lines and tokens the extractors found, and is
// linear in the workspace's symbols plus, per missing target, its
// candidates.
//
// Relocated is where the captured code is now: the symbols (for a symbol
// target), files (for a file) or line ranges (for a range) whose hash is
// the captured hash (same_text); else whose token hash is the captured
// token hash (same_tokens); else, for a symbol, whose body hash is the
// captured one ([Anchor.Body]: the code is the same but for the symbol's
// own name, a rename: same_body); else, for a symbol, the same name
// defined in exactly one other file (for a file, the same base name:
// same_name). A target never captured has nothing to relocate. Body hashes
// of the workspace's symbols are computed only when a lost symbol has no
// same_text or same_tokens candidate, once per symbol.
//
// Suggestions are the nearest existing targets, at most [MaxSuggestions];
// see [locIndex.suggest].
func Locate(rep *Report, l *Lock, sources map[string]*Source) {
	var idx *locIndex
	for i := range rep.Targets {
		ts := &rep.Targets[i]
		if r := ts.Verdict.Reason; r != TargetMissing && r != SymbolNotFound || ts.Target.External != "" {
			continue // an external's code is not in this workspace
		}
		if idx == nil {
			idx = newLocIndex(sources)
		}
		ts.Relocated = idx.relocate(ts)
		ts.Suggestions = idx.suggest(ts, l)
	}
}

// locIndex is every file and symbol of the workspace by hash and by name.
type locIndex struct {
	sources map[string]*Source
	paths   []string // sorted, present files only
	// byText and byTokens map a hash to the refs that have it; symbols
	// and files are kept apart, as a symbol target relocates to a symbol.
	symText, symTokens   map[string][]string
	fileText, fileTokens map[string][]string
	symPaths             map[string][]string // symbol name → paths defining it
	baseNames            map[string][]string // file base name → paths
	// symBody maps a body hash to the symbols that have it; nil until a
	// lost symbol needs it ([locIndex.bodies]).
	symBody map[string][]string
}

// bodies returns the symbols of the workspace by body hash, hashing each
// symbol once, on first use.
func (x *locIndex) bodies() map[string][]string {
	if x.symBody != nil {
		return x.symBody
	}
	x.symBody = map[string][]string{}
	for _, p := range x.paths {
		s := x.sources[p]
		if s.File == nil {
			continue
		}
		for _, sym := range s.File.Symbols {
			h := lang.HashBody(s.tokens, sym.Start, sym.End, lang.BodyName(sym.Name))
			x.symBody[h] = append(x.symBody[h], claims.Target{Path: p, Symbol: sym.Name}.String())
		}
	}
	return x.symBody
}

func newLocIndex(sources map[string]*Source) *locIndex {
	x := &locIndex{
		sources: sources,
		symText: map[string][]string{}, symTokens: map[string][]string{},
		fileText: map[string][]string{}, fileTokens: map[string][]string{},
		symPaths: map[string][]string{}, baseNames: map[string][]string{},
	}
	for p, s := range sources {
		if s != nil && s.Absent == "" {
			x.paths = append(x.paths, p)
		}
	}
	slices.Sort(x.paths)
	for _, p := range x.paths {
		s := sources[p]
		whole := s.span(1, len(s.Lines))
		x.fileText[whole.Hash] = append(x.fileText[whole.Hash], p)
		x.fileTokens[whole.TokenHash] = append(x.fileTokens[whole.TokenHash], p)
		x.baseNames[path.Base(p)] = append(x.baseNames[path.Base(p)], p)
		if s.File == nil || s.NotIncluded { // its symbols would be not_included
			continue
		}
		for _, sym := range s.File.Symbols {
			r := s.span(sym.Start, sym.End)
			ref := claims.Target{Path: p, Symbol: sym.Name}.String()
			x.symText[r.Hash] = append(x.symText[r.Hash], ref)
			x.symTokens[r.TokenHash] = append(x.symTokens[r.TokenHash], ref)
			x.symPaths[sym.Name] = append(x.symPaths[sym.Name], p)
		}
	}
	return x
}

// relocate returns the relocation candidates of a missing target.
func (x *locIndex) relocate(ts *TargetStatus) []Relocation {
	a, t := ts.Anchor, ts.Target
	if a == nil {
		return nil
	}
	self := t.String()
	others := func(refs []string, how string) []Relocation {
		var out []Relocation
		for _, r := range slices.Compact(slices.Sorted(slices.Values(refs))) {
			if r != self {
				out = append(out, Relocation{Ref: r, How: how})
			}
		}
		return out
	}
	oneOther := func(paths []string, ref func(p string) string) []Relocation {
		paths = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(paths))), func(p string) bool { return p == t.Path })
		if len(paths) != 1 {
			return nil
		}
		return []Relocation{{Ref: ref(paths[0]), How: SameName}}
	}
	switch {
	case t.IsSymbol():
		if c := others(x.symText[a.Hash], SameText); len(c) > 0 {
			return c
		}
		if c := others(x.symTokens[a.TokenHash], SameTokens); len(c) > 0 {
			return c
		}
		if body := a.Body(Default); body != "" {
			if c := others(x.bodies()[body], SameBody); len(c) > 0 {
				return c
			}
		}
		return oneOther(x.symPaths[t.Symbol], func(p string) string { return claims.Target{Path: p, Symbol: t.Symbol}.String() })
	case t.IsRange():
		size := t.End - t.Start + 1
		var out []Relocation
		for _, p := range x.paths {
			if start, ok := x.sources[p].find(a, size); ok {
				if ref := fmt.Sprintf("%s#L%d-L%d", p, start, start+size-1); ref != self {
					out = append(out, Relocation{Ref: ref, How: SameText})
				}
			}
		}
		return out
	}
	if c := others(x.fileText[a.Hash], SameText); len(c) > 0 {
		return c
	}
	if c := others(x.fileTokens[a.TokenHash], SameTokens); len(c) > 0 {
		return c
	}
	return oneOther(x.baseNames[path.Base(t.Path)], func(p string) string { return p })
}

// suggest returns the nearest existing targets to a missing one, nearest
// first, ties by ref, at most [MaxSuggestions]. For a symbol that was
// captured and is lost from its file (symbol_not_found), they are the
// file's symbols that no anchor of l names (an anchored symbol is followed
// by its own link, so it is not where the lost one went): its same_body
// candidates first, then by edit distance of the name ([NameDistance]),
// however far. For a target never captured (a typo), they are the symbols
// whose name is near enough ([NameDistance]), anchored or not. For a
// missing file, they are the nearest paths and the files of the same name
// in other folders (and in them the symbols near enough by name, those no
// anchor names when the target was captured, same_body ones first).
func (x *locIndex) suggest(ts *TargetStatus, l *Lock) []string {
	t := ts.Target
	if t.IsRange() {
		return nil
	}
	type cand struct {
		ref  string
		cost int
	}
	lost := ts.Anchor != nil // captured, then lost: not a typo
	body := map[string]bool{}
	for _, r := range ts.Relocated {
		if r.How == SameBody {
			body[r.Ref] = true
		}
	}
	var cands []cand
	symbolsOf := func(p string, base int, near bool) {
		s := x.sources[p]
		if s == nil || s.File == nil {
			return
		}
		for _, sym := range s.File.Symbols {
			ref := claims.Target{Path: p, Symbol: sym.Name}.String()
			if _, named := l.Anchors[ref]; lost && named {
				continue
			}
			c, ok := NameDistance(t.Symbol, sym.Name)
			switch {
			case body[ref]:
				c = -1 // the same code under a new name
			case near && !ok:
				continue
			}
			cands = append(cands, cand{ref, base + c})
		}
	}
	if ts.Verdict.Reason == SymbolNotFound {
		symbolsOf(t.Path, 0, !lost)
	} else {
		limit := max(2, len(path.Base(t.Path))/3)
		for _, p := range x.paths {
			d := Levenshtein(t.Path, p, limit)
			if path.Base(p) == path.Base(t.Path) {
				d = min(d, 1) // the same file name in another folder: a moved file
			}
			if d > limit {
				continue
			}
			if !t.IsSymbol() {
				cands = append(cands, cand{p, d})
				continue
			}
			symbolsOf(p, d, true)
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Or(cmp.Compare(a.cost, b.cost), cmp.Compare(a.ref, b.ref)) })
	var out []string
	for _, c := range cands {
		if len(out) == MaxSuggestions {
			break
		}
		if !slices.Contains(out, c.ref) {
			out = append(out, c.ref)
		}
	}
	return out
}

// NameDistance says how far an existing symbol name is from a wanted one,
// and whether it is near enough to suggest: the edit distance between the
// names, or between the wanted name and the other's last part plus one
// ("Add" is 1 from "Cart.Add"; "Cart.Add" is 1 from "Add"). Near enough
// is at most max(2, len(want)/3) edits.
func NameDistance(want, have string) (int, bool) {
	limit := max(2, len(want)/3)
	d := Levenshtein(want, have, limit+1)
	if i := strings.LastIndexByte(have, '.'); i >= 0 && !strings.Contains(want, ".") {
		d = min(d, Levenshtein(want, have[i+1:], limit)+1)
	}
	if i := strings.LastIndexByte(want, '.'); i >= 0 && !strings.Contains(have, ".") {
		d = min(d, Levenshtein(want[i+1:], have, limit)+1)
	}
	return d, d <= limit
}

// Levenshtein returns the edit distance between a and b, counting an
// insertion, a deletion, a substitution or a swap of two adjacent bytes as
// one edit (the optimal string alignment distance: the common one-key
// typos), or a value above limit as soon as the distance is known to
// exceed it.
func Levenshtein(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		pp, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
				if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
					c = min(c, pp[j-2]+1)
				}
			}
			cur[j] = c
			best = min(best, c)
		}
		if best > limit {
			return limit + 1
		}
		rows[0], rows[1], rows[2] = prev, cur, pp
	}
	return rows[1][len(b)]
}
