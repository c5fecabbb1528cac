package synth

import (
	"cmp"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// externalRequirement adds the node of an external requirement named as
// a parent (requirement:platform:SYS-12) with the title and the derived
// states its bundle gives (SPEC 1.8: it shows its bundle's verified
// state); nothing for this repository's own requirements.
func (b *builder) externalRequirement(id string) {
	if _, _, ok := claims.CutExternal(id); !ok {
		return
	}
	n := b.node(claims.RequirementNode(id))
	r, ok := b.in.Externals.Requirement(id)
	if !ok {
		n.State, n.Reason = string(codeanchors.Unknown), string(codeanchors.TargetMissing)
		n.Why = codeanchors.TargetMissing.Why(b.in.Lang)
		return
	}
	n.Title, n.Revision = r.Title, r.Revision
	n.Implemented, n.Tested, n.Verified = &r.Implemented, &r.Tested, &r.Verified
	n.Stale = r.Stale
}

// bundleLinks lists this repository's links into its externals: every
// implements, tests and claims link to an external's target, and every
// parent link to an external requirement, with their states; by from,
// then to, then kind.
func bundleLinks(rep *codeanchors.Report) []BundleLink {
	out := []BundleLink{}
	for _, ts := range rep.Targets {
		if ts.Target.External == "" {
			continue
		}
		for _, u := range ts.Uses {
			l := BundleLink{From: u.Node, To: ts.Target.String(), Kind: u.Role, State: string(ts.Verdict.State), Reason: string(ts.Verdict.Reason)}
			if a := ts.Anchor; a != nil {
				l.Start, l.End, l.Hash, l.TokenHash, l.Parser = a.Start, a.End, a.Hash, a.TokenHash, a.Parser
			}
			if !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	for _, ps := range rep.Parents {
		if _, _, ok := claims.CutExternal(ps.Parent); ok {
			l := BundleLink{From: claims.RequirementNode(ps.Child), To: ps.Parent, Kind: KindParent,
				State: string(ps.Verdict.State), Reason: string(ps.Verdict.Reason)}
			if ps.Link != nil {
				l.Revision = ps.Link.Revision
			}
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(x, y BundleLink) int {
		return cmp.Or(x.From.Compare(y.From), cmp.Compare(x.To, y.To), cmp.Compare(x.Kind, y.Kind))
	})
	return out
}

// IsExternal reports whether id is the node of an external's requirement
// or code (requirement:platform:SYS-12, symbol:svcgo:src/charge.go@Charge):
// it is shown where it is linked, with its bundle's states, and has no
// page of its own in this repository's wiki.
func IsExternal(id NodeID) bool {
	_, _, ok := claims.CutExternal(id.Key)
	return ok && (id.Type == claims.NodeRequirement || KindOf(id.Type).Code)
}

// ExternalLocal splits an external's node (see [IsExternal]) into the
// external's name and the node as its own repository names it
// (requirement:SYS-12, symbol:src/charge.go@Charge, file:src/charge.go):
// its page in that repository's wiki is the local node's. ok is false for
// this repository's own nodes.
func ExternalLocal(id NodeID) (name string, local Node, ok bool) {
	if !IsExternal(id) {
		return "", Node{}, false
	}
	name, rest, _ := claims.CutExternal(id.Key)
	local = Node{ID: NodeID{Type: id.Type, Key: rest}, Type: id.Type}
	if k := KindOf(id.Type); k.Code {
		local.Path = rest
		if k.Named {
			if t, err := claims.ParseTarget(rest); err == nil {
				local.Path, local.Symbol = t.Path, t.Symbol
			}
		}
	}
	return name, local, true
}
