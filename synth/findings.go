package synth

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Findings is every judged link of a build, computed once from its drift
// report by [NewFindings]. The check report (text and JSON), SARIF, GitHub
// annotations and api/drift.json (whence the drift page and the PR diff)
// are views of it: none of them judges, re-derives a state or a reason, or
// looks a link's places up again.
type Findings struct {
	// Links holds one entry per link target, linked ones included: in ref
	// order, then by who claims it.
	Links []Finding
	// Requirements are the derived fields of every requirement, in model
	// order.
	Requirements []codeanchors.RequirementStatus
	// Lang is the language of the whys.
	Lang string
	// Policy is the policy judged against these links' requirements
	// ([EvaluatePolicy]); nil when it was not judged (no rules, no needs
	// fields: an empty policy).
	Policy *Policy
}

// LinkKind says what a [Finding] is a link to.
type LinkKind int

// The kinds of link, as SPEC 5 lists check's entries.
const (
	LinkTarget   LinkKind = iota // a code target: PATH@SYMBOL, PATH or PATH#Lx-Ly
	LinkEvidence                 // an evidence entry: run:ID, claimed by its requirement
	LinkParent                   // a parent link: requirement:PARENT, claimed by the child
	LinkMarker                   // a code marker's link to a requirement that does not exist: requirement:ID, claimed by the code
	LinkExternal                 // an external's bundle against its pin: external:NAME, claimed by nothing (SPEC 1.8)
)

// Finding is one judged link: its verdict, why, where it is written and
// where a report shows it.
type Finding struct {
	Kind LinkKind
	// Ref is the link's ref as check prints it: the target notation,
	// run:ID or requirement:PARENT.
	Ref string
	// Target is the code target (LinkTarget only).
	Target  claims.Target
	Verdict codeanchors.Verdict
	// Why is the reason's why in [Findings.Lang]; "" when linked.
	Why string
	// Rule is the index of the reason in [codeanchors.Reasons] (the SARIF
	// rule); -1 when linked.
	Rule int
	// ClaimedBy lists the node ids that make the link, without repeats.
	ClaimedBy []NodeID
	// Written lists every place the link is written, in use order: a claim
	// or a requirement's link for a target, the requirement's file for
	// evidence, the child's parent entry for a parent link.
	Written []Written
	// At is where a report shows the finding: a target's current lines
	// when it still exists, else the first place it is written, else (for
	// evidence and parent links) the lock file; Path "" for nowhere.
	At Place
	// Relocated and Suggestions, for a missing target (see
	// [codeanchors.Locate]).
	Relocated   []codeanchors.Relocation
	Suggestions []string
	// Captured is the captured anchor of a code target; nil when never
	// captured.
	Captured *codeanchors.Anchor
	// Passed is whether every test of an evidence entry passed; nil for
	// other links.
	Passed *bool
}

// Place is a file and a line range in it (End 0: a single line; Start 0:
// the whole file).
type Place struct {
	Path       string
	Start, End int
}

// Written is one place a link is written: by a node, in a role. Pos is the
// position as the content gives it (zero for evidence, which is written in
// the lock and placed at its requirement's file).
type Written struct {
	Place
	Pos  claims.Pos
	Node NodeID
	Role string
	// Marker is true for a place in the code: a marker that declares the
	// link (SPEC 1.6); Pos is its PATH:LINE.
	Marker bool
}

// Markers are the PATH:LINE of the code markers that declare the link, in
// written order, once each (one marker may name several requirements);
// none for a link only the content declares.
func (l Finding) Markers() []string {
	var out []string
	for _, w := range l.Written {
		if !w.Marker {
			continue // written in the content: no place to write out
		}
		if at := w.Pos.String(); !slices.Contains(out, at) {
			out = append(out, at)
		}
	}
	return out
}

// NewFindings lists every link of a drift report, with whys in lang. m is
// the model the report was judged from: it places evidence at its
// requirement's file (nil: evidence is placed at the lock). lock is the
// lock file's root-relative path, where a link with no other place is
// shown.
func NewFindings(rep *codeanchors.Report, m *claims.Model, lang, lock string) *Findings {
	f := &Findings{Requirements: rep.Requirements, Lang: lang, Links: make([]Finding, 0, len(rep.Targets)+len(rep.Evidence)+len(rep.Parents))}
	reqFile := map[string]Place{}
	if m != nil {
		for _, r := range m.Requirements {
			reqFile[r.ID] = Place{Path: r.Doc.File, Start: 1, End: lastLine(r.Doc)}
		}
	}
	for _, ts := range rep.Targets {
		l := Finding{Kind: LinkTarget, Ref: ts.Target.String(), Target: ts.Target, Verdict: ts.Verdict, Why: ts.Verdict.Why(lang),
			Relocated: ts.Relocated, Suggestions: ts.Suggestions, Captured: ts.Anchor}
		if len(ts.Uses) > 0 { // each grown once, not use by use
			l.ClaimedBy, l.Written = make([]NodeID, 0, len(ts.Uses)), make([]Written, 0, len(ts.Uses))
		}
		for _, u := range ts.Uses {
			l.ClaimedBy = append(l.ClaimedBy, u.Node)
			l.Written = append(l.Written, Written{Place: Place{Path: u.Pos.File, Start: u.Pos.Line}, Pos: u.Pos, Node: u.Node, Role: u.Role, Marker: u.Marker})
		}
		switch {
		case ts.Verdict.Start > 0 && ts.Target.Path != "":
			l.At = Place{Path: ts.Target.Path, Start: ts.Verdict.Start, End: ts.Verdict.End}
		case len(l.Written) > 0:
			l.At = l.Written[0].Place
		}
		f.add(l)
	}
	for _, es := range rep.Evidence {
		passed := es.Evidence.Passed()
		req := claims.RequirementNode(es.Evidence.Req)
		l := Finding{Kind: LinkEvidence, Ref: claims.RunNode(es.Evidence.Run).String(), Verdict: es.Verdict, Why: es.Verdict.Why(lang),
			ClaimedBy: []NodeID{req}, Passed: &passed, At: Place{Path: lock, Start: 1}}
		if p, ok := reqFile[es.Evidence.Req]; ok {
			l.Written = []Written{{Place: p, Node: req, Role: codeanchors.RoleEvidences}}
			l.At = p
		}
		f.add(l)
	}
	for _, ps := range rep.Parents {
		child := claims.RequirementNode(ps.Child)
		w := Written{Place: Place{Path: ps.Pos.File, Start: ps.Pos.Line}, Pos: ps.Pos, Node: child, Role: KindParent}
		f.add(Finding{Kind: LinkParent, Ref: claims.RequirementNode(ps.Parent).String(), Verdict: ps.Verdict, Why: ps.Verdict.Reason.Why(lang),
			ClaimedBy: []NodeID{child}, Written: []Written{w}, At: w.Place})
	}
	for _, ms := range rep.Markers {
		code := targetNodeID(nil, ms.Link.Target)
		w := Written{Place: Place{Path: ms.Link.Pos.File, Start: ms.Link.Pos.Line}, Pos: ms.Link.Pos, Node: code, Role: ms.Link.Role, Marker: true}
		f.add(Finding{Kind: LinkMarker, Ref: claims.RequirementNode(ms.Link.Req).String(), Verdict: ms.Verdict, Why: ms.Verdict.Why(lang),
			ClaimedBy: []NodeID{code}, Written: []Written{w}, At: w.Place, Suggestions: ms.Suggestions})
	}
	for _, es := range rep.Externals {
		why := es.Verdict.Why(lang)
		if es.Verdict.Note != "" && es.Verdict.Reason == codeanchors.ExternalChanged {
			why += " (" + es.Verdict.Note + ")"
		}
		f.add(Finding{Kind: LinkExternal, Ref: es.Ref(), Verdict: es.Verdict, Why: why, At: Place{Path: lock, Start: 1}})
	}
	slices.SortStableFunc(f.Links, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Ref, b.Ref), slices.CompareFunc(a.ClaimedBy, b.ClaimedBy, NodeID.Compare))
	})
	return f
}

// add appends a link, with its rule and its claimers without repeats.
func (f *Findings) add(l Finding) {
	l.Rule = slices.Index(codeanchors.Reasons, l.Verdict.Reason)
	l.ClaimedBy = slices.Compact(l.ClaimedBy)
	f.Links = append(f.Links, l)
}

// Problems returns the links that are stale or unknown, in order: what
// SARIF, GitHub annotations and api/drift.json list. Superseded evidence
// entries are history, not problems.
func (f *Findings) Problems() []Finding {
	var out []Finding
	for _, l := range f.Links {
		if l.Verdict.State.Problem() {
			out = append(out, l)
		}
	}
	return out
}

// CapturedLines are the lines the lock recorded for a code target; 0, 0
// when never captured.
func (l Finding) CapturedLines() (start, end int) {
	if l.Captured == nil {
		return 0, 0
	}
	return l.Captured.Start, l.Captured.End
}

// A parent link's entry (ref requirement:PARENT, claimed by the child) is
// about the child: the child is suspect because its parent changed; the
// parent is not stale. ParentLink, LinkName, LinkWhy and LinkToDo word an
// entry so wherever it is shown (check's text, SARIF and GitHub messages,
// the drift and home pages, the PR diff); the JSON keeps SPEC's ref and why.

// ParentLink returns the child and parent ids of a parent link's entry; ok
// is false for any other entry.
func ParentLink(ref string, claimedBy []NodeID) (child, parent string, ok bool) {
	parent, ok = strings.CutPrefix(ref, string(claims.NodeRequirement)+":")
	if !ok || len(claimedBy) != 1 || claimedBy[0].Type != claims.NodeRequirement {
		return "", "", false
	}
	return claimedBy[0].Key, parent, true
}

// MarkerRef returns the requirement id of a code marker's entry (ref
// requirement:ID claimed by the code that holds the marker); ok is false
// for any other entry.
func MarkerRef(ref string, claimedBy []NodeID) (id string, ok bool) {
	id, ok = strings.CutPrefix(ref, string(claims.NodeRequirement)+":")
	if !ok || len(claimedBy) != 1 || claimedBy[0].Type == claims.NodeRequirement {
		return "", false
	}
	return id, true
}

// LinkName names an entry's link to a reader: its ref, or for a parent
// link the child's link, "requirement:CHILD -> requirement:PARENT".
func LinkName(ref string, claimedBy []NodeID) string {
	if _, _, ok := ParentLink(ref, claimedBy); ok {
		return claimedBy[0].String() + " -> " + ref
	}
	return ref
}

// LinkWhy is an entry's why (as the JSON gives it) as a reader sees it, in
// lang: for a parent link, the reason's why that names the child and the
// parent when it has one.
func LinkWhy(ref string, claimedBy []NodeID, reason codeanchors.Reason, why, lang string) string {
	child, parent, ok := ParentLink(ref, claimedBy)
	if w := reason.WhyLink(lang); ok && w != "" {
		return codeanchors.Fill(w, ref, child, parent)
	}
	return why
}

// LinkToDo is what to do about an entry, in lang, with its ref and ids put
// in ("tracewiki review SW-1"); empty for a linked one.
func LinkToDo(ref string, claimedBy []NodeID, reason codeanchors.Reason, lang string) string {
	if id, ok := MarkerRef(ref, claimedBy); ok && reason == codeanchors.TargetMissing {
		if lang == "es" {
			return "corrija el id del marcador en el código, o cree el requisito " + id
		}
		return "fix the marker's id in the code, or write requirement " + id
	}
	child, parent, _ := ParentLink(ref, claimedBy)
	return codeanchors.Fill(reason.ToDo(lang), ref, child, parent)
}

// lastLine is the last line of a document's file: where its body ends.
func lastLine(d claims.Doc) int {
	if d.BodyLine == 0 {
		return 0
	}
	n := bytes.Count(d.Body, []byte("\n"))
	if len(d.Body) > 0 && d.Body[len(d.Body)-1] != '\n' {
		n++
	}
	return max(d.BodyLine+n-1, 1)
}

// joinIDs writes ids separated by sep.
func joinIDs(ids []NodeID, sep string) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(id.String())
	}
	return b.String()
}
