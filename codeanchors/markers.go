package codeanchors

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Marker formats, the values of [markers] formats (SPEC 1.6).
const (
	FormatTracewiki     = "tracewiki"     // the implements and tests tags (at-sign, then a list of ids)
	FormatStrictDoc     = "strictdoc"     // StrictDoc's relation tag, with its scope
	FormatOpenFastTrace = "openfasttrace" // OpenFastTrace's impl, utest and itest tags (an arrow to an item)
	FormatLobster       = "lobster"       // LOBSTER's trace comments
)

// MarkerFormats are every marker format, the default of [markers] formats.
var MarkerFormats = []string{FormatTracewiki, FormatStrictDoc, FormatOpenFastTrace, FormatLobster}

// StrictDoc's scopes: where an @relation marker's link points.
const (
	ScopeFile       = "file"
	ScopeClass      = "class"
	ScopeFunction   = "function"
	ScopeLine       = "line"
	ScopeRangeStart = "range_start"
	ScopeRangeEnd   = "range_end"
)

// maxMarkerIDs bounds the ids one marker may name: a comment is not a list
// of thousands of requirements, and a fuzzed one must stay cheap.
const maxMarkerIDs = 64

// Marker is one marker as written in a comment: what it declares, not yet
// tied to a symbol ([FindMarkers] does that).
type Marker struct {
	Format string
	Line   int    // the line of the comment the marker is on
	Role   string // RoleImplements or RoleTests
	IDs    []string
	// Scope is StrictDoc's explicit scope; "" for the default rule (the
	// enclosing symbol, else the one the comment precedes, else the file).
	Scope string
	// Skip marks StrictDoc's @relation(skip, ...), which names no id: a
	// skip range_start/range_end pair hides the markers between them
	// (StrictDoc's own examples of its syntax); any other declares nothing.
	Skip bool
	// Artifact is OpenFastTrace's covering artifact type (impl, utest,
	// itest); "" for the other formats.
	Artifact string
}

// The markers' syntax. An id is a requirement id ([claims.ValidID]); a
// list ends where the comment's text goes on with something that is not
// an id (PHPStan's `@implements Foo<Bar>` is no marker).
var (
	markerTracewiki = regexp.MustCompile(`(?:^|[^\w@])@(implements|tests)\b[ \t]*:?[ \t]*([\w.~-]+(?:[ \t]*,[ \t]*[\w.~-]+)*)`)
	markerRelation  = regexp.MustCompile(`@relation\(([^()]*)\)`)
	markerOFT       = regexp.MustCompile(`\[[ \t]*(impl|utest|itest)(?:~[\w.-]+~\d+)?[ \t]*->[ \t]*([\w.-]+~[\w.-]+~\d+)[ \t]*(?:>>[\w, \t]*)?\]`)
	markerLobster   = regexp.MustCompile(`lobster-trace:[ \t]*([\w.~-]+(?:[ \t]*,[ \t]*[\w.~-]+)*)`)
)

// ParseMarkers finds the markers of the given formats (nil: none) in one
// comment, in the order they are written. It is pure: the comment's text
// is all it reads. Ids that are not valid requirement ids make no marker.
func ParseMarkers(c lang.Comment, formats []string) []Marker {
	var out []Marker
	on := func(f string) bool { return slices.Contains(formats, f) }
	for i, line := range strings.Split(c.Text, "\n") {
		n := c.Line + i
		if on(FormatTracewiki) && strings.Contains(line, "@") {
			for _, m := range markerTracewiki.FindAllStringSubmatchIndex(line, -1) {
				if end := m[1]; end < len(line) && !endsList(line[end]) {
					continue
				}
				role := RoleImplements
				if line[m[2]:m[3]] == "tests" {
					role = RoleTests
				}
				out = appendMarker(out, Marker{Format: FormatTracewiki, Line: n, Role: role, IDs: idList(line[m[4]:m[5]])})
			}
		}
		if on(FormatStrictDoc) && strings.Contains(line, "@relation(") {
			for _, m := range markerRelation.FindAllStringSubmatch(line, -1) {
				if mk, ok := parseRelation(m[1]); ok {
					mk.Line = n
					out = appendMarker(out, mk)
				}
			}
		}
		if on(FormatOpenFastTrace) && strings.Contains(line, "->") {
			for _, m := range markerOFT.FindAllStringSubmatch(line, -1) {
				role := RoleImplements
				if m[1] != "impl" {
					role = RoleTests
				}
				out = appendMarker(out, Marker{Format: FormatOpenFastTrace, Line: n, Role: role, IDs: idList(m[2]), Artifact: m[1]})
			}
		}
		if on(FormatLobster) && strings.Contains(line, "lobster-trace:") {
			for _, m := range markerLobster.FindAllStringSubmatch(line, -1) {
				out = appendMarker(out, Marker{Format: FormatLobster, Line: n, Role: RoleImplements, IDs: idList(m[1])})
			}
		}
	}
	return out
}

// endsList reports whether c may follow a marker's list of ids: a space or
// a comment's or sentence's punctuation, not a generic's '<' (PHPStan's
// `@implements Foo<Bar>` is no marker).
func endsList(c byte) bool {
	return strings.IndexByte(" \t;:)*/!?\"'", c) >= 0
}

// appendMarker appends m when it names at least one id (a list of bad ids
// is no marker), or is a skip.
func appendMarker(out []Marker, m Marker) []Marker {
	if len(m.IDs) == 0 && !m.Skip {
		return out
	}
	return append(out, m)
}

// idList splits a comma-separated list of ids, keeping the valid ones
// (a sentence's full stop after the last is not part of it), at most
// maxMarkerIDs.
func idList(s string) []string {
	var ids []string
	for _, id := range strings.Split(s, ",") {
		id = strings.TrimRight(strings.TrimSpace(id), ".")
		if claims.ValidID(id) && len(ids) < maxMarkerIDs {
			ids = append(ids, id)
		}
	}
	return ids
}

// parseRelation reads the arguments of StrictDoc's @relation(...): ids and
// key=value options, of which scope is read (role and others are
// StrictDoc's own). Without a scope the default rule places the marker,
// as StrictDoc does in a function's or class's doc comment; a scope
// StrictDoc does not have makes no marker. @relation(skip, ...) (also
// "skip..." in prose about it) is a skip marker.
func parseRelation(args string) (Marker, bool) {
	m := Marker{Format: FormatStrictDoc, Role: RoleImplements}
	for i, a := range strings.Split(args, ",") {
		a = strings.TrimRight(strings.TrimSpace(a), ".")
		if key, val, ok := strings.Cut(a, "="); ok {
			if strings.TrimSpace(key) == "scope" {
				m.Scope = strings.TrimSpace(val)
			}
			continue
		}
		if i == 0 && a == "skip" {
			m.Skip = true
			continue
		}
		if claims.ValidID(a) && len(m.IDs) < maxMarkerIDs && !m.Skip {
			m.IDs = append(m.IDs, a)
		}
	}
	switch m.Scope {
	case "", ScopeFile, ScopeClass, ScopeFunction, ScopeLine, ScopeRangeStart, ScopeRangeEnd:
		return m, m.Skip || len(m.IDs) > 0
	}
	return Marker{}, false
}

// MarkerLink is a link a marker declares: from the requirement Req to the
// code Target, in Role, written at Pos (the marker's PATH:LINE).
type MarkerLink struct {
	Req    string
	Role   string
	Target claims.Target
	Pos    claims.Pos
	Format string
	// Artifact is the marker's OpenFastTrace artifact type, "" for the
	// other formats ([Marker.Artifact]).
	Artifact string
}

// FindMarkers reads the markers of the given formats in the comments the
// extractor of s found (no second parse of the file) and ties each to its
// target (SPEC 1.6): StrictDoc's explicit scope when it has one, else the
// innermost symbol that holds the marker, else the symbol the comment
// block immediately precedes, else the file. A source without a File (no
// extractor, or it did not parse) has no markers. The links are in the
// order the markers are written.
func FindMarkers(s *Source, formats []string) []MarkerLink {
	if s == nil || s.File == nil || len(formats) == 0 || len(s.File.Comments) == 0 {
		return nil
	}
	sc := newScoper(s)
	var out []MarkerLink
	var open []openRange // StrictDoc range_start markers waiting for their range_end
	emit := func(m Marker, t claims.Target) {
		for _, id := range m.IDs {
			out = append(out, MarkerLink{Req: id, Role: m.Role, Target: t, Pos: claims.Pos{File: s.Path, Line: m.Line}, Format: m.Format, Artifact: m.Artifact})
		}
	}
	skipping := 0 // open skip ranges
	for ci, c := range s.File.Comments {
		for _, m := range ParseMarkers(c, formats) {
			switch {
			case m.Skip && m.Scope == ScopeRangeStart:
				skipping++
				continue
			case m.Skip && m.Scope == ScopeRangeEnd:
				skipping = max(skipping-1, 0)
				continue
			case m.Skip || skipping > 0:
				continue
			}
			switch m.Scope {
			case ScopeFile:
				emit(m, claims.Target{Path: s.Path})
			case ScopeLine:
				if l := sc.nextCodeLine(ci); l > 0 {
					emit(m, claims.Target{Path: s.Path, Start: l, End: l})
				}
			case ScopeRangeStart:
				open = append(open, openRange{m, c.EndLine + 1})
			case ScopeRangeEnd:
				// The first open range_start naming the same ids closes; a
				// range_end without one declares nothing.
				i := slices.IndexFunc(open, func(o openRange) bool { return slices.Equal(o.start.IDs, m.IDs) })
				if i < 0 {
					continue
				}
				r := open[i]
				open = slices.Delete(open, i, i+1)
				if last := c.Line - 1; r.first <= last {
					emit(r.start, claims.Target{Path: s.Path, Start: r.first, End: last})
				}
			default:
				emit(m, sc.symbolScope(c, m))
			}
		}
	}
	return out
}

// openRange is a StrictDoc range_start marker and the first line of its
// range: the line after its comment.
type openRange struct {
	start Marker
	first int
}

// scoper ties markers to the symbols of one source.
type scoper struct {
	s       *Source
	comment []bool // comment[l]: line l holds nothing but comment text (or nothing)
}

func newScoper(s *Source) *scoper {
	sc := &scoper{s: s, comment: make([]bool, len(s.Lines)+2)}
	for l := 1; l <= len(s.Lines); l++ {
		sc.comment[l] = len(strings.TrimSpace(string(s.Lines[l-1]))) == 0
	}
	for _, c := range s.File.Comments {
		for l := max(c.Line, 1); l <= min(c.EndLine, len(s.Lines)); l++ {
			if l == c.Line || l == c.EndLine {
				sc.comment[l] = sc.comment[l] || onlyComment(s.Lines[l-1], c, l)
			} else {
				sc.comment[l] = true
			}
		}
	}
	return sc
}

// onlyComment reports whether line l, the first or last line of c, holds
// nothing else than c's text.
func onlyComment(line []byte, c lang.Comment, l int) bool {
	text := strings.TrimSpace(string(line))
	parts := strings.Split(c.Text, "\n")
	part := parts[0]
	if l == c.EndLine && l != c.Line {
		part = parts[len(parts)-1]
	}
	return text == strings.TrimSpace(part)
}

// nextCodeLine is the first line after comment ci that holds code: what
// StrictDoc's scope=line points at; 0 when there is none.
func (sc *scoper) nextCodeLine(ci int) int {
	for l := sc.s.File.Comments[ci].EndLine + 1; l <= len(sc.s.Lines); l++ {
		if !sc.comment[l] {
			return l
		}
	}
	return 0
}

// symbolScope is the target of a marker in comment c by the default rule,
// or by StrictDoc's class or function scope: the symbol the comment block
// immediately precedes when it lies within the innermost symbol holding
// the marker (a method's doc comment inside its class), else that holder,
// else the preceded symbol, else the file. With a class or function scope,
// only symbols of that kind count, and a marker no such symbol takes
// falls back to the default rule.
func (sc *scoper) symbolScope(c lang.Comment, m Marker) claims.Target {
	kind := func(sym lang.Symbol) bool { return true }
	switch m.Scope {
	case ScopeClass:
		kind = func(sym lang.Symbol) bool { return sym.Kind == lang.KindType }
	case ScopeFunction:
		kind = func(sym lang.Symbol) bool { return sym.Kind != lang.KindType }
	}
	if sym, ok := sc.scope(c, m.Line, kind); ok {
		return claims.Target{Path: sc.s.Path, Symbol: sym.Name}
	}
	if m.Scope != "" {
		if sym, ok := sc.scope(c, m.Line, func(lang.Symbol) bool { return true }); ok {
			return claims.Target{Path: sc.s.Path, Symbol: sym.Name}
		}
	}
	return claims.Target{Path: sc.s.Path}
}

// scope finds the symbol, among those kind accepts, for a marker on line
// of comment c.
func (sc *scoper) scope(c lang.Comment, line int, kind func(lang.Symbol) bool) (lang.Symbol, bool) {
	holder, held := sc.holder(line, kind)
	next, preceded := sc.preceded(c, kind)
	switch {
	case preceded && (!held || holder.Start <= next.Start && next.End <= holder.End):
		return next, true
	case held:
		return holder, true
	}
	return lang.Symbol{}, false
}

// holder is the innermost symbol whose range holds line.
func (sc *scoper) holder(line int, kind func(lang.Symbol) bool) (lang.Symbol, bool) {
	var best lang.Symbol
	found := false
	for _, sym := range sc.s.File.Symbols {
		if sym.Start > line {
			break
		}
		if line <= sym.End && kind(sym) && (!found || sym.End-sym.Start <= best.End-best.Start) {
			best, found = sym, true
		}
	}
	return best, found
}

// preceded is the symbol that starts on the first line after c's block of
// comments (comments and nothing else on the lines between, no blank
// line): the symbol c documents. Of several symbols starting on that line,
// the outermost.
func (sc *scoper) preceded(c lang.Comment, kind func(lang.Symbol) bool) (lang.Symbol, bool) {
	l := c.EndLine + 1
	for l <= len(sc.s.Lines) && sc.comment[l] && len(strings.TrimSpace(string(sc.s.Lines[l-1]))) > 0 {
		l++
	}
	var best lang.Symbol
	found := false
	for _, sym := range sc.s.File.Symbols {
		if sym.Start == l && kind(sym) && (!found || sym.End-sym.Start > best.End-best.Start) {
			best, found = sym, true
		}
	}
	return best, found
}

// WithMarkers returns m with the links of the markers added to their
// requirements' implements and tests, marked as markers' (m itself and its
// requirements are not changed: a requirement that gains links is a
// copy). A link the front matter or an earlier marker already declares
// (same requirement, role and target) is one link: the first written
// stands, and gains the later marker's OpenFastTrace artifact type
// ([claims.TargetRef.Artifacts]: a method tagged utest and itest meets
// both needs). Markers naming a requirement m does not have come back in
// unknown, in their order.
func WithMarkers(m *claims.Model, links []MarkerLink) (out *claims.Model, unknown []MarkerLink) {
	if len(links) == 0 {
		return m, nil
	}
	byID := make(map[string]int, len(m.Requirements))
	for i, r := range m.Requirements {
		byID[r.ID] = i
	}
	reqs := slices.Clone(m.Requirements)
	copied := map[int]bool{}
	for _, l := range links {
		i, ok := byID[l.Req]
		if !ok {
			unknown = append(unknown, l)
			continue
		}
		list := func() *[]claims.TargetRef {
			if l.Role == RoleTests {
				return &reqs[i].Tests
			}
			return &reqs[i].Implements
		}
		k := slices.IndexFunc(*list(), func(t claims.TargetRef) bool { return t.Target == l.Target })
		if k >= 0 {
			arts := (*list())[k].Artifacts
			if len(arts) == 0 || slices.Contains(arts, l.Artifact) {
				continue // the same link, nothing to add
			}
		}
		if !copied[i] {
			c := *reqs[i]
			c.Implements, c.Tests = slices.Clone(c.Implements), slices.Clone(c.Tests)
			reqs[i], copied[i] = &c, true
		}
		if k < 0 {
			*list() = append(*list(), claims.TargetRef{Target: l.Target, Pos: l.Pos, Marker: true, Artifacts: artifactsOf(l)})
			continue
		}
		// The lists were cloned when copied, and mergeArtifacts clips:
		// nothing here writes into m's requirements.
		(*list())[k].Artifacts = mergeArtifacts((*list())[k].Artifacts, l.Artifact)
	}
	if len(copied) == 0 {
		return m, unknown
	}
	c := *m
	c.Requirements = reqs
	return &c, unknown
}

// artifactsOf is the artifact types a marker link gives its link.
func artifactsOf(l MarkerLink) []string {
	if l.Artifact == "" {
		return nil
	}
	return []string{l.Artifact}
}

// mergeArtifacts adds a later declaration's artifact type to a link's:
// one that names none ("") makes the link meet any need of its role.
func mergeArtifacts(arts []string, artifact string) []string {
	if artifact == "" {
		return nil
	}
	out := append(slices.Clip(arts), artifact)
	slices.Sort(out)
	return out
}

// MarkerStatus is a marker link whose requirement does not exist: unknown
// target_missing (never existed), with the nearest requirement ids as
// suggestions (SPEC 1.6).
type MarkerStatus struct {
	Link        MarkerLink
	Verdict     Verdict
	Suggestions []string
}

// JudgeMarkers judges the links of markers naming requirements m does
// not have ([WithMarkers]' unknown), in their order.
func JudgeMarkers(unknown []MarkerLink, m *claims.Model) []MarkerStatus {
	if len(unknown) == 0 {
		return nil
	}
	ids := make([]string, len(m.Requirements))
	for i, r := range m.Requirements {
		ids[i] = r.ID
	}
	out := make([]MarkerStatus, len(unknown))
	for i, l := range unknown {
		out[i] = MarkerStatus{Link: l, Verdict: Verdict{State: Unknown, Reason: TargetMissing, NeverExisted: true},
			Suggestions: SuggestIDs(l.Req, ids)}
	}
	return out
}

// SuggestIDs are the ids nearest to want ([NameDistance]), nearest first,
// ties by id, at most [MaxSuggestions].
func SuggestIDs(want string, ids []string) []string {
	type near struct {
		id string
		d  int
	}
	var ns []near
	for _, id := range ids {
		if d, ok := NameDistance(want, id); ok {
			ns = append(ns, near{id, d})
		}
	}
	slices.SortFunc(ns, func(a, b near) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.id, b.id)) })
	var out []string
	for _, n := range ns[:min(len(ns), MaxSuggestions)] {
		out = append(out, n.id)
	}
	return out
}
