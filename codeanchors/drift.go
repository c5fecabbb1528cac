package codeanchors

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// TextParser names the fallback "adapter" for files no language claims:
// whole-file and line-range targets hash their lines, and their token hash
// uses [WordTokens].
const TextParser = "text@1"

// Source is one source file as read for this run: parsed and hashed once,
// whatever the number of targets on it.
type Source struct {
	Path  string
	Lines [][]byte
	// File is what the language's extractor found; nil when no extractor
	// claims the path or the file does not parse (then ParseErr says why).
	File     *File
	ParseErr error
	// Absent is TargetMissing or PathOutsideWorkspace when the file could
	// not be read; AbsentNote says more.
	Absent     Reason
	AbsentNote string
	// NotIncluded is true when the configuration's [code] include does not
	// name the file (or its exclude does): a PATH@SYMBOL target on it is
	// not_included, whole-file and line-range targets are judged by hash.
	NotIncluded bool
	tokens      []Token
	released    bool // ReleaseTokens dropped the tokens
	// spans, when set ([Source.KeepSpans]), keeps the hashes of the spans
	// judged so far.
	spans *spanMemo
}

// spanMemo is the resolutions of a source's spans by their first and last
// lines.
type spanMemo struct {
	mu sync.Mutex
	m  map[[2]int]Resolution
}

// ReleaseTokens drops s's hash tokens (and its File's), the larger part of
// a parsed source's memory, for a caller that will not judge s again: a
// build once drift is judged, since pages need only the lines. Judging a
// released source panics rather than give wrong token hashes.
func (s *Source) ReleaseTokens() {
	s.tokens, s.released = nil, true
	if s.File != nil {
		s.File.Tokens = nil
	}
}

// KeepSpans makes s remember the hashes of the spans it resolves, for a
// caller that judges the same source again and again: serve keeps the
// sources whose bytes did not change across rebuilds, and their hashes
// with them. A Source is read-only once made, so the hashes stay true.
// Call it before s is shared.
func (s *Source) KeepSpans() { s.spans = &spanMemo{} }

// NewSource splits src into lines and runs the registry's extractor on it.
func NewSource(reg *Registry, p string, src []byte) *Source {
	s := &Source{Path: p, Lines: lang.Lines(src)}
	if e := reg.For(p); e != nil {
		s.File, s.ParseErr = e.Extract(p, src)
		if s.File != nil {
			s.tokens = s.File.Tokens
		}
	}
	if s.tokens == nil && s.File == nil {
		s.tokens = lang.WordTokens(src)
	}
	return s
}

// Parser is the name and version of what resolved symbols in s.
func (s *Source) Parser() string {
	if s.File != nil {
		return s.File.Parser
	}
	return TextParser
}

// Resolution is where a target is in the current code. Reason is empty when
// the target was found; otherwise it is one of TargetMissing,
// PathOutsideWorkspace, SymbolNotFound or Ambiguous (or ContentChanged for a
// line range past the end of the file), and Note may say more.
type Resolution struct {
	Reason          Reason
	Note            string
	Start, End      int
	Hash, TokenHash string
	Parser          string
}

// Missing is the resolution of a target whose file does not exist.
func Missing() Resolution { return Resolution{Reason: TargetMissing} }

// Outside is the resolution of a target that lies outside the workspace.
func Outside() Resolution { return Resolution{Reason: PathOutsideWorkspace} }

// Resolve finds t in s. For a bare line range whose lines no longer hash as
// captured in a (nil when never captured), it looks for the captured lines
// elsewhere in the file, so a moved range is found as a moved symbol is.
func Resolve(t claims.Target, a *Anchor, s *Source) Resolution {
	n := len(s.Lines)
	switch {
	case t.IsSymbol():
		if s.File == nil {
			note := fmt.Sprintf("no symbol parser for %q files", path.Ext(t.Path))
			if s.ParseErr != nil {
				note = "the file does not parse: " + s.ParseErr.Error()
			}
			return Resolution{Reason: SymbolNotFound, Note: note, Parser: s.Parser()}
		}
		sym, ok, amb := s.File.Lookup(t.Symbol)
		switch {
		case amb:
			return Resolution{Reason: Ambiguous, Parser: s.Parser()}
		case !ok:
			return Resolution{Reason: SymbolNotFound, Parser: s.Parser()}
		}
		return s.span(sym.Start, sym.End)
	case t.IsRange():
		if a != nil && (t.End > n || lang.HashLines(s.Lines, t.Start, t.End) != a.Hash) {
			if start, ok := s.find(a, t.End-t.Start+1); ok {
				return s.span(start, start+t.End-t.Start)
			}
		}
		if t.End > n {
			return Resolution{Reason: ContentChanged, Parser: s.Parser(),
				Note: fmt.Sprintf("lines %d-%d are past the end of the file (%d lines)", t.Start, t.End, n)}
		}
		return s.span(t.Start, t.End)
	}
	return s.span(1, n)
}

func (s *Source) span(start, end int) Resolution {
	if s.released {
		panic("codeanchors: " + s.Path + ": token hash of a source whose tokens were released")
	}
	if m := s.spans; m != nil {
		m.mu.Lock()
		r, ok := m.m[[2]int{start, end}]
		m.mu.Unlock()
		if ok {
			return r
		}
	}
	r := Resolution{Start: start, End: end, Parser: s.Parser()}
	if end >= start {
		r.Hash = lang.HashLines(s.Lines, start, end)
		r.TokenHash = lang.HashTokens(s.tokens, start, end)
	} else { // an empty file
		r.Hash = lang.HashLines(nil, 1, 0)
		r.TokenHash = lang.HashTokens(nil, 1, 0)
	}
	if m := s.spans; m != nil {
		m.mu.Lock()
		if m.m == nil {
			m.m = map[[2]int]Resolution{}
		}
		m.m[[2]int{start, end}] = r
		m.mu.Unlock()
	}
	return r
}

// find returns the first line of the first window of size lines that
// hashes as a did when captured. Only windows whose first line equals the
// captured first line are hashed, so the scan stays linear in practice.
func (s *Source) find(a *Anchor, size int) (int, bool) {
	first, _, _ := bytes.Cut([]byte(a.CapturedText), []byte("\n"))
	first = bytes.TrimRight(first, " \t")
	for start := 1; start+size-1 <= len(s.Lines); start++ {
		if !bytes.Equal(bytes.TrimRight(s.Lines[start-1], " \t"), first) {
			continue
		}
		if lang.HashLines(s.Lines, start, start+size-1) == a.Hash {
			return start, true
		}
	}
	return 0, false
}

// Capture makes an anchor of a resolution. It fails, with the reason, when
// the target was not found: a failed capture leaves no anchor behind.
func Capture(t claims.Target, r Resolution, s *Source, at, by string) (Anchor, error) {
	if r.Reason != "" {
		msg := r.Reason.Why("en")
		if r.Note != "" {
			msg += " (" + r.Note + ")"
		}
		return Anchor{}, fmt.Errorf("%s: %s: %s", t, r.Reason, msg)
	}
	a := Anchor{
		CapturedAt: at, CapturedBy: by,
		Start: r.Start, End: r.End, Hash: r.Hash, TokenHash: r.TokenHash,
		Parser: r.Parser, Path: t.Path, Symbol: t.Symbol,
	}
	if t.IsSymbol() {
		a.BodyHash = lang.HashBody(s.tokens, r.Start, r.End, lang.BodyName(t.Symbol))
	}
	end := min(r.End, r.Start+MaxCapturedLines-1)
	a.TextCapped = end < r.End
	if r.End >= r.Start {
		a.CapturedText = string(bytes.Join(s.Lines[r.Start-1:end], []byte("\n"))) + "\n"
	}
	return a, nil
}

// Verdict is the live state of one link and what the display needs to say
// about it.
type Verdict struct {
	State  State
	Reason Reason // "" when linked
	// Moved is true when the anchored text is unchanged but now sits on
	// other lines; Reformatted when only formatting or comments changed.
	Moved, Reformatted bool
	// Start and End are the target's current lines, 0 when not found.
	Start, End int
	// Note is extra detail: a re-resolution by a newer parser, a parse error.
	Note string
	// NeverExisted is true for a target that was never captured and is not
	// found: a typo rather than drift. Its why says so ([Verdict.Why]).
	NeverExisted bool
	// SupersededBy is the run id of the requirement's newest evidence
	// entry, for an entry in state [Superseded]; "" otherwise.
	SupersededBy string
}

// Why is the verdict's explanation in lang: the reason's why, worded as
// "does not exist" for a target that never existed; "superseded by
// run:ID" for a superseded evidence entry.
func (v Verdict) Why(lang string) string {
	if v.State == Superseded {
		w, ok := supersededWhy[lang]
		if !ok {
			w = supersededWhy["en"]
		}
		return fmt.Sprintf(w, claims.RunNode(v.SupersededBy))
	}
	if v.NeverExisted {
		return v.Reason.WhyNever(lang)
	}
	return v.Reason.Why(lang)
}

// Judge compares a target's captured anchor (nil when never captured) with
// where it is now. This is the only place a code link's state is decided.
func Judge(a *Anchor, r Resolution) Verdict {
	v := Verdict{Start: r.Start, End: r.End, Note: r.Note}
	switch {
	case r.Reason != "":
		v.Reason = r.Reason
		v.NeverExisted = a == nil && (r.Reason == SymbolNotFound || r.Reason == TargetMissing)
	case a == nil:
		v.Reason = Uncaptured
	case r.Hash == a.Hash:
		v.Moved = r.Start != a.Start || r.End != a.End
	case r.TokenHash == a.TokenHash:
		v.Reformatted = true
		v.Moved = r.Start != a.Start
	default:
		v.Reason = ContentChanged
	}
	if a != nil && r.Reason == "" && r.Parser != a.Parser {
		note := fmt.Sprintf("captured with %s, re-resolved with %s", a.Parser, r.Parser)
		if r.End-r.Start != a.End-a.Start {
			note += fmt.Sprintf(": the range is now lines %d-%d, was %d-%d", r.Start, r.End, a.Start, a.End)
		}
		v.Note = joinNotes(v.Note, note)
	}
	v.State = v.Reason.State()
	return v
}

// JudgeEvidence gives the state of a requirement's evidence entry. It is
// unknown (target missing) when the requirement no longer exists; otherwise
// stale with the first reason that applies, in this order: tests_failed (not
// every linked test passed), requirement_changed_since_verification
// (recorded against a revision that is not current's in either form),
// code_changed_since_verification (a
// linked target's token hash differs from the one recorded with the run);
// else linked. tokenHash returns a target's current token hash, ok false
// when it is not found now (which counts as changed).
func JudgeEvidence(e Evidence, current claims.Revisions, reqExists bool, tokenHash func(ref string) (string, bool)) Verdict {
	var v Verdict
	switch {
	case !reqExists:
		v.Reason = TargetMissing
	case !e.Passed():
		v.Reason = TestsFailed
	case !current.Matches(e.Revision):
		v.Reason = RequirementChanged
	default:
		var changed []string
		for _, ref := range slices.Sorted(maps.Keys(e.TokenHashes)) {
			if h, ok := tokenHash(ref); !ok || h != e.TokenHashes[ref] {
				changed = append(changed, ref)
			}
		}
		if len(changed) > 0 {
			v.Reason = CodeChanged
			v.Note = "changed since the run: " + strings.Join(changed, ", ")
		}
	}
	v.State = v.Reason.State()
	return v
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
