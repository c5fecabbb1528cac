package codeanchors

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
)

// Externals (SPEC 1.8): other repositories whose published bundles this
// one links into. A link into an external is judged like a link into
// this repository's code, by its own captured hashes, against the
// bundle as it is now: the bundle's symbol or anchor stands for the
// source file. The bundle itself is pinned by its sha256 in the lock; a
// bundle that differs from its pin is one finding on the external.

// ExternalParser is the parser recorded with an anchor captured from a
// bundle's code index: the bundle gives hashes, not a parse.
const ExternalParser = "bundle@1"

// ExternalRefPrefix prefixes an external's name in its own finding's ref
// (external:payments) and in a capture's explicit refs.
const ExternalRefPrefix = "external:"

// External is what this repository knows of one external's bundle, as
// read now. The caller that reads bundles (site) fills it.
type External struct {
	Name string
	URL  string // its published wiki ("" when not given)
	// Sum is "sha256:" + hex of the bundle file's bytes; "" when it could
	// not be read.
	Sum string
	// Revision is the commit the bundle was built from.
	Revision string
	// Err says why the bundle could not be read; "" when it was. Every
	// link into an unreadable bundle is target_missing.
	Err string
	// Code holds the hashes of the bundle's symbols and anchors, by the
	// ref as the external writes it (PATH@SYMBOL, PATH, PATH#Lx-Ly).
	Code map[string]ExternalCode
	// Files are the paths the bundle has code of: a symbol target on one
	// of them that Code lacks is symbol_not_found, not target_missing.
	Files map[string]bool
	// Requirements are the bundle's requirements by id.
	Requirements map[string]ExternalRequirement
}

// ExternalCode is the current hashes of one symbol or anchor of a bundle.
type ExternalCode struct {
	Start, End                int
	Hash, TokenHash, BodyHash string
}

// ExternalRequirement is one requirement of a bundle: its revision (for
// suspect parent links) and the states its repository derived.
type ExternalRequirement struct {
	Title                         string
	Revision                      string
	Implemented, Tested, Verified bool
	Stale                         bool
}

// Externals are the externals of a workspace, by name.
type Externals map[string]*External

// BundleSum is the pin of a bundle's bytes: "sha256:" + hex.
func BundleSum(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:])
}

// ExternalFileHash combines the hashes of a file's symbols (in the order given,
// the bundle's: by line) into the hash of the whole file, for a NAME:PATH
// target that the other repository does not anchor itself: a change to
// any of its symbols changes it.
func ExternalFileHash(hashes []string) string {
	h := sha256.Sum256([]byte(strings.Join(hashes, "\n")))
	return "sha256:" + hex.EncodeToString(h[:])
}

// Resolve finds an external's target t in its bundle. A bundle that could
// not be read, or is not declared, gives target_missing.
func (x Externals) Resolve(t claims.Target) Resolution {
	e := x[t.External]
	if e == nil || e.Err != "" {
		r := Missing()
		if e != nil {
			r.Note = e.Err
		}
		return r
	}
	local := t.Local().String()
	c, ok := e.Code[local]
	switch {
	case ok && c.Hash != "":
		return Resolution{Start: c.Start, End: c.End, Hash: c.Hash, TokenHash: c.TokenHash, Parser: ExternalParser}
	case t.IsSymbol() && e.Files[t.Path]:
		return Resolution{Reason: SymbolNotFound, Parser: ExternalParser}
	}
	return Missing()
}

// CaptureExternal makes an anchor of an external's target from its
// resolution in the bundle: the bundle's hashes, no captured text (the
// bundle has none). It fails, with the reason, when not found.
func (x Externals) CaptureExternal(t claims.Target, r Resolution, at, by string) (Anchor, error) {
	if r.Reason != "" {
		return Anchor{}, fmt.Errorf("%s: %s: %s", t, r.Reason, r.Reason.Why("en"))
	}
	a := Anchor{CapturedAt: at, CapturedBy: by, Start: r.Start, End: r.End, Hash: r.Hash, TokenHash: r.TokenHash,
		Parser: r.Parser, Path: t.Path, Symbol: t.Symbol}
	if c, ok := x[t.External].Code[t.Local().String()]; ok && t.IsSymbol() {
		a.BodyHash = c.BodyHash
	}
	if a.Start < 1 { // a whole file the bundle has no lines of
		a.Start, a.End = 1, 0
	}
	return a, nil
}

// Revision is the revision of the external requirement NAME:ID; ok is
// false when its bundle cannot be read or has no such requirement.
func (x Externals) Revision(id string) (string, bool) {
	name, rid, ok := claims.CutExternal(id)
	if !ok {
		return "", false
	}
	e := x[name]
	if e == nil || e.Err != "" {
		return "", false
	}
	r, ok := e.Requirements[rid]
	return r.Revision, ok
}

// Requirement returns the external requirement NAME:ID as its bundle
// gives it.
func (x Externals) Requirement(id string) (ExternalRequirement, bool) {
	name, rid, ok := claims.CutExternal(id)
	if !ok || x[name] == nil {
		return ExternalRequirement{}, false
	}
	r, ok := x[name].Requirements[rid]
	return r, ok
}

// ExternalPin is an external's bundle as capture pinned it in the lock.
type ExternalPin struct {
	PinnedAt string `json:"pinned_at"` // RFC 3339, UTC
	PinnedBy string `json:"pinned_by,omitempty"`
	Revision string `json:"revision"` // the bundle's revision when pinned
	Sum      string `json:"sha256"`   // BundleSum of the pinned bytes
}

// invalid says what is impossible in the pin of the external name, or "".
func (p ExternalPin) invalid(name string) string {
	switch {
	case !claims.ValidExternalName(name):
		return "not an external's name"
	case !strings.HasPrefix(p.Sum, "sha256:"):
		return "no sha256"
	case p.PinnedAt == "":
		return "no pinned_at"
	}
	return ""
}

// PinExternal records e's bundle as reviewed: its sum and revision.
func (l *Lock) PinExternal(e *External, at, by string) {
	if l.Externals == nil {
		l.Externals = map[string]ExternalPin{}
	}
	l.Externals[e.Name] = ExternalPin{PinnedAt: at, PinnedBy: by, Revision: e.Revision, Sum: e.Sum}
}

// ExternalStatus is the state of one external's bundle against its pin:
// linked when it is the pinned bundle; unknown external_changed when it
// differs (the note names the pinned and current revisions), uncaptured
// when never pinned, target_missing when it cannot be read.
type ExternalStatus struct {
	Name    string
	Pin     *ExternalPin
	Current *External
	Verdict Verdict
}

// Ref is the status's ref in findings: external:NAME.
func (s ExternalStatus) Ref() string { return ExternalRefPrefix + s.Name }

// JudgeExternals judges every external of x against its pin in l, by
// name. This is the only place an external's state is decided.
func JudgeExternals(x Externals, l *Lock) []ExternalStatus {
	out := make([]ExternalStatus, 0, len(x))
	for _, name := range slices.Sorted(maps.Keys(x)) {
		e := x[name]
		s := ExternalStatus{Name: name, Current: e}
		if p, ok := l.Externals[name]; ok {
			s.Pin = &p
		}
		switch {
		case e.Err != "":
			s.Verdict = Verdict{Reason: TargetMissing, Note: e.Err}
		case s.Pin == nil:
			s.Verdict = Verdict{Reason: Uncaptured}
		case s.Pin.Sum != e.Sum:
			s.Verdict = Verdict{Reason: ExternalChanged,
				Note: fmt.Sprintf("pinned at revision %s, now %s", cmp.Or(s.Pin.Revision, `""`), cmp.Or(e.Revision, `""`))}
		}
		s.Verdict.State = s.Verdict.Reason.State()
		out = append(out, s)
	}
	return out
}

// Unsettled lists the externals that a release build (--strict) refuses:
// unpinned, changed since pinned, or unreadable; one line each.
func Unsettled(statuses []ExternalStatus) []string {
	var out []string
	for _, s := range statuses {
		switch s.Verdict.Reason {
		case Uncaptured:
			out = append(out, fmt.Sprintf("external %s is not pinned: run tracewiki capture", s.Name))
		case ExternalChanged:
			out = append(out, fmt.Sprintf("external %s changed since it was pinned (%s): review its links, then run tracewiki capture", s.Name, s.Verdict.Note))
		case TargetMissing:
			out = append(out, fmt.Sprintf("external %s: bundle cannot be read: %s", s.Name, s.Verdict.Note))
		}
	}
	return out
}
