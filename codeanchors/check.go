package codeanchors

import (
	"cmp"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
)

// Use says where a target is referenced: by a node (its SPEC 3 id, e.g.
// "requirement:REQ-3" or "page:guides/login") at a position, in a role.
type Use struct {
	Node claims.NodeID
	Role string // implements, tests, claims
	Pos  claims.Pos
	// Marker is true for a link a code marker declares: Pos is the
	// marker's PATH:LINE (SPEC 1.6).
	Marker bool
}

// Link roles.
const (
	RoleImplements = "implements"
	RoleTests      = "tests"
	RoleClaims     = "claims"
	RoleEvidences  = "evidences"
)

// Referenced is a code target and every place that references it.
type Referenced struct {
	Target claims.Target
	Uses   []Use // sorted by node, role, position
}

// Targets collects every code target the model references: requirement
// implements and tests links and every claim with a target, in ref order.
func Targets(m *claims.Model) []Referenced {
	// Every use, with the index of its target (by ref) in first-use order;
	// then each target's uses are placed in one shared array (a counting
	// sort), not appended target by target.
	n := 0 // uses, at most
	for _, r := range m.Requirements {
		n += len(r.Implements) + len(r.Tests) + len(r.Doc.Claims)
	}
	for _, d := range m.Decisions {
		n += len(d.Doc.Claims)
	}
	for _, p := range m.Pages {
		n += len(p.Doc.Claims)
	}
	byRef := map[string]int32{}
	var firsts []claims.Target // each ref's target as first used
	var refs []string
	uses := make([]Use, 0, n)
	of := make([]int32, 0, n) // the target of each use
	add := func(t claims.Target, u Use) {
		key := t.String()
		i, ok := byRef[key]
		if !ok {
			i = int32(len(firsts))
			byRef[key] = i
			firsts, refs = append(firsts, t), append(refs, key)
		}
		uses, of = append(uses, u), append(of, i)
	}
	addClaims := func(node claims.NodeID, d claims.Doc) {
		for _, c := range d.Claims {
			if c.HasTarget {
				add(c.Target, Use{Node: node, Role: RoleClaims, Pos: c.Pos})
			}
		}
	}
	for _, r := range m.Requirements {
		node := claims.RequirementNode(r.ID)
		for _, t := range r.Implements {
			add(t.Target, Use{Node: node, Role: RoleImplements, Pos: t.Pos, Marker: t.Marker})
		}
		for _, t := range r.Tests {
			add(t.Target, Use{Node: node, Role: RoleTests, Pos: t.Pos, Marker: t.Marker})
		}
		addClaims(node, r.Doc)
	}
	for _, d := range m.Decisions {
		addClaims(claims.DecisionNode(d.ID), d.Doc)
	}
	for _, p := range m.Pages {
		addClaims(claims.PageNode(p.Path), p.Doc)
	}
	start := make([]int, len(firsts)+1) // target i's uses are all[start[i]:start[i+1]]
	for _, i := range of {
		start[i+1]++
	}
	for i := range firsts {
		start[i+1] += start[i]
	}
	all := make([]Use, len(uses))
	next := slices.Clone(start[:len(firsts)])
	for j, i := range of {
		all[next[i]] = uses[j]
		next[i]++
	}
	// Sorted by the refs, as keyed: a comparison that wrote each ref
	// would cost two strings per comparison.
	order := make([]int32, len(firsts))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(refs[a], refs[b]) })
	out := make([]Referenced, len(order))
	for k, i := range order {
		us := all[start[i]:start[i+1]:start[i+1]]
		slices.SortFunc(us, func(a, b Use) int {
			return cmp.Or(a.Node.Compare(b.Node), cmp.Compare(a.Role, b.Role),
				cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
		out[k] = Referenced{Target: firsts[i], Uses: us}
	}
	return out
}

// TargetStatus is the live state of one code target.
type TargetStatus struct {
	Referenced
	Verdict Verdict
	Anchor  *Anchor // the captured anchor; nil when never captured
	// Relocated lists where a missing target's captured code is now
	// (target_missing and symbol_not_found only), and Suggestions the
	// nearest existing names; both are filled by [Locate].
	Relocated   []Relocation
	Suggestions []string
}

// EvidenceStatus is the live state of one evidence entry: judged when it
// is its requirement's newest, else [Superseded].
type EvidenceStatus struct {
	Evidence Evidence
	Verdict  Verdict
}

// ParentStatus is the live state of one parent link: stale
// (parent_changed) when the parent's revision is not the one the child was
// last reviewed against, unknown (uncaptured) when never stamped.
type ParentStatus struct {
	Child, Parent string     // requirement ids
	Pos           claims.Pos // where the child names the parent
	Link          *ParentLink
	Verdict       Verdict
}

// RequirementStatus holds the three derived fields of a requirement.
type RequirementStatus struct {
	ID          string
	Implemented bool // some implements link is linked
	Tested      bool // some tests link is linked
	Verified    bool // the newest evidence entry is linked
	// TestArtifacts are the OpenFastTrace artifact types (utest, itest)
	// of its linked tests links when each of them names some (they all
	// come from OpenFastTrace tags); nil when one names none, which
	// tests it in every way.
	TestArtifacts []string
}

// TestedAs reports whether r is tested by a linked tests link that may
// stand for OpenFastTrace's artifact type (utest or itest): one of that
// type, or one that names no type.
func (r RequirementStatus) TestedAs(artifact string) bool {
	return r.Tested && (len(r.TestArtifacts) == 0 || slices.Contains(r.TestArtifacts, artifact))
}

// Report is the drift state of a whole model.
type Report struct {
	Targets      []TargetStatus      // in ref order
	Evidence     []EvidenceStatus    // in lock order: requirement, run
	Requirements []RequirementStatus // in model order
	Parents      []ParentStatus      // by child in model order, then as written
	// Markers are the code markers naming requirements that do not exist
	// ([JudgeMarkers]), in the order they are written; the caller that
	// read the markers fills them.
	Markers []MarkerStatus
	// Externals are the externals' bundles against their pins, by name
	// ([JudgeExternals]); none without externals.
	Externals []ExternalStatus
}

// Check judges every link of m against the lock and the current sources.
// sources maps each referenced path to its source; a path missing from it is
// treated as a missing file. Check is the only place that derives
// implemented, tested and verified.
func Check(m *claims.Model, l *Lock, sources map[string]*Source) *Report {
	return CheckTargets(m, Targets(m), l, sources)
}

// CheckTargets is [Check] with m's targets, [Targets](m), already
// collected: a caller that needs them too collects them once.
func CheckTargets(m *claims.Model, targets []Referenced, l *Lock, sources map[string]*Source) *Report {
	return CheckWith(m, targets, l, sources, nil)
}

// CheckWith is [CheckTargets] in a workspace with externals x: a link
// into an external is judged against its bundle ([Externals.Resolve]),
// a parent link to an external requirement against the bundle's revision,
// and each bundle against its pin ([JudgeExternals]).
func CheckWith(m *claims.Model, targets []Referenced, l *Lock, sources map[string]*Source, x Externals) *Report {
	rep := &Report{Targets: make([]TargetStatus, 0, len(targets))}
	resolve := func(t claims.Target, a *Anchor) Resolution {
		if t.External != "" {
			return x.Resolve(t)
		}
		return ResolveIn(t, a, sources[t.Path])
	}
	state := make(map[string]State, len(targets))
	resolved := make(map[string]Resolution, len(targets))
	for _, ref := range targets {
		key := ref.Target.String()
		ts := TargetStatus{Referenced: ref}
		if a, ok := l.Anchors[key]; ok {
			ts.Anchor = &a
		}
		res := resolve(ref.Target, ts.Anchor)
		resolved[key] = res
		ts.Verdict = Judge(ts.Anchor, res)
		state[key] = ts.Verdict.State
		rep.Targets = append(rep.Targets, ts)
	}
	revision := map[string]claims.Revisions{}
	for _, r := range m.Requirements {
		revision[r.ID] = r.Revisions()
	}
	tokenHash := func(ref string) (string, bool) {
		r, ok := resolved[ref]
		if !ok {
			// A target the content no longer links: resolve it where it
			// is now (its file is among sources when the caller read it).
			t, err := claims.ParseTarget(ref)
			if err != nil {
				return "", false
			}
			var a *Anchor
			if la, ok := l.Anchors[ref]; ok {
				a = &la
			}
			r = resolve(t, a)
		}
		return r.TokenHash, r.Reason == ""
	}
	// Only each requirement's newest entry is a live link: it alone is
	// judged and decides whether the requirement is verified; the older
	// ones are superseded by it (SPEC 1.5).
	newest := NewestEvidence(l.Evidence)
	verified := map[string]bool{}
	for _, e := range l.Evidence {
		var v Verdict
		if n := newest[e.Req]; n.Run != e.Run {
			v = Verdict{State: Superseded, SupersededBy: n.Run}
		} else {
			rev, ok := revision[e.Req]
			v = JudgeEvidence(e, rev, ok, tokenHash)
			verified[e.Req] = v.State == Linked
		}
		rep.Evidence = append(rep.Evidence, EvidenceStatus{Evidence: e, Verdict: v})
	}
	rep.Parents = CheckParentsWith(m, l, x)
	if len(x) > 0 {
		rep.Externals = JudgeExternals(x, l)
	}
	anyLinked := func(refs []claims.TargetRef) bool {
		return slices.ContainsFunc(refs, func(t claims.TargetRef) bool { return state[t.Target.String()] == Linked })
	}
	for _, r := range m.Requirements {
		rep.Requirements = append(rep.Requirements, RequirementStatus{
			ID:            r.ID,
			Implemented:   anyLinked(r.Implements),
			Tested:        anyLinked(r.Tests),
			Verified:      verified[r.ID],
			TestArtifacts: linkedArtifacts(r.Tests, state),
		})
	}
	Locate(rep, l, sources)
	return rep
}

// linkedArtifacts are the artifact types of the linked refs, sorted, when
// each linked ref names some; nil when one names none or none is linked.
func linkedArtifacts(refs []claims.TargetRef, state map[string]State) []string {
	var out []string
	for _, t := range refs {
		if state[t.Target.String()] != Linked {
			continue
		}
		if len(t.Artifacts) == 0 {
			return nil
		}
		for _, a := range t.Artifacts {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	slices.Sort(out)
	return out
}

// NeedsLocate reports whether some target of rep is missing, so that
// [Locate] would look through the whole workspace for it.
func (rep *Report) NeedsLocate() bool {
	for _, ts := range rep.Targets {
		if ts.Verdict.Reason == TargetMissing || ts.Verdict.Reason == SymbolNotFound {
			return true
		}
	}
	return false
}

// CheckParents judges every parent link of m against its review stamp in
// l. This is the only place a parent link's state is decided.
func CheckParents(m *claims.Model, l *Lock) []ParentStatus {
	return CheckParentsWith(m, l, nil)
}

// CheckParentsWith is [CheckParents] with externals x: a parent link to
// an external requirement (platform:SYS-12) is judged against the
// revision its bundle gives, and is target_missing when the bundle
// cannot be read or no longer has it.
func CheckParentsWith(m *claims.Model, l *Lock, x Externals) []ParentStatus {
	revision := make(map[string]claims.Revisions, len(m.Requirements))
	for _, r := range m.Requirements {
		revision[r.ID] = r.Revisions()
	}
	var out []ParentStatus
	for _, r := range m.Requirements {
		for _, p := range r.Parents {
			rev, ok := revision[p.ID]
			if _, _, external := claims.CutExternal(p.ID); external {
				var cur string
				cur, ok = x.Revision(p.ID)
				rev = claims.Revisions{Current: cur, Legacy: cur}
				if !ok {
					ps := ParentStatus{Child: r.ID, Parent: p.ID, Pos: p.Pos, Verdict: Verdict{State: Unknown, Reason: TargetMissing}}
					if link, stamped := l.Parents[ParentKey(r.ID, p.ID)]; stamped {
						ps.Link = &link
					}
					out = append(out, ps)
					continue
				}
			}
			if !ok {
				continue // an unknown parent is a content diagnostic
			}
			ps := ParentStatus{Child: r.ID, Parent: p.ID, Pos: p.Pos}
			if link, ok := l.Parents[ParentKey(r.ID, p.ID)]; ok {
				ps.Link = &link
				if !rev.Matches(link.Revision) {
					ps.Verdict.Reason = ParentChanged
				}
			} else {
				ps.Verdict.Reason = Uncaptured
			}
			ps.Verdict.State = ps.Verdict.Reason.State()
			out = append(out, ps)
		}
	}
	return out
}

// ResolveIn resolves t in s, where s may be nil (missing) or absent. A
// symbol target on a file the configuration does not include is
// not_included (SPEC 2): outside the workspace wins over it, and it wins
// over a missing file.
func ResolveIn(t claims.Target, a *Anchor, s *Source) Resolution {
	switch {
	case s == nil:
		return Missing()
	case s.Absent == PathOutsideWorkspace:
		return Resolution{Reason: s.Absent, Note: s.AbsentNote}
	case s.NotIncluded && t.IsSymbol():
		return Resolution{Reason: NotIncluded, Parser: s.Parser()}
	case s.Absent != "":
		return Resolution{Reason: s.Absent, Note: s.AbsentNote}
	}
	return Resolve(t, a, s)
}

// Relocation is a place a missing target's captured code may have moved
// to: Ref in target notation, How one of the Same* constants.
type Relocation struct {
	Ref string `json:"ref"`
	How string `json:"how"`
}

// How a relocation candidate was found, most certain first.
const (
	SameText   = "same_text"   // the captured hash
	SameTokens = "same_tokens" // the captured token hash
	SameBody   = "same_body"   // the captured body hash: renamed, same code
	SameName   = "same_name"   // the symbol's name, in one other file
)
