package site

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// stampNew stamps every parent link of m that l has never stamped with the
// parent's current revision (SPEC 1.2: a link never stamped is stamped by
// the first build, capture or import that sees it), and returns their keys
// in model order.
func (p *Project) stampNew(l *codeanchors.Lock, at, by string) []string {
	var out []string
	for _, ps := range codeanchors.CheckParentsWith(p.Model, l, p.Externals) {
		rev := p.parentRevision(ps.Parent)
		if ps.Link != nil || rev == "" {
			continue // stamped, or an external parent its bundle lacks
		}
		l.StampParent(ps.Child, ps.Parent, codeanchors.ParentLink{Revision: rev, ReviewedAt: at, ReviewedBy: by})
		out = append(out, codeanchors.ParentKey(ps.Child, ps.Parent))
	}
	return out
}

// revisionOf is the current revision of the requirement with the id.
func revisionOf(m *claims.Model, id string) string {
	i, ok := slices.BinarySearchFunc(m.Requirements, id, func(r *claims.Requirement, id string) int {
		return claims.CompareIDs(r.ID, id)
	})
	if !ok {
		return ""
	}
	return m.Requirements[i].Revision
}

// ReviewOptions says what [Project.Review] records.
type ReviewOptions struct {
	// IDs are the child requirements reviewed against their parents.
	IDs []string
	// AllSuspect reviews every requirement with a suspect parent link.
	AllSuspect bool
	// By names the reviewer; "" means git's user.email.
	By string
}

// ReviewResult lists the parent links a review stamped.
type ReviewResult struct {
	Reviewed []ReviewedLink
}

// ReviewedLink is one parent link stamped by a review, with the state it
// had before.
type ReviewedLink struct {
	Child, Parent string
	Before        codeanchors.Reason // "" when it was not suspect
}

// Review records that requirements were reviewed against their parents'
// current revisions: every parent link of each requirement is stamped in
// the lock with the parent's revision, who and when. An id that is not a
// requirement, or one without parents, is an error and nothing is written.
func (p *Project) Review(opts ReviewOptions, notes io.Writer) (*ReviewResult, error) {
	if len(opts.IDs) == 0 && !opts.AllSuspect {
		return nil, fmt.Errorf("review: name the requirements reviewed, or --all-suspect")
	}
	byID := map[string]*claims.Requirement{}
	for _, r := range p.Model.Requirements {
		byID[r.ID] = r
	}
	for _, id := range opts.IDs {
		r := byID[id]
		if r == nil {
			return nil, fmt.Errorf("review: no requirement %q", id)
		}
		if len(r.Parents) == 0 {
			return nil, fmt.Errorf("review: requirement %q has no parent to review against (%s)", id, r.Doc.File)
		}
	}
	by := opts.By
	if by == "" {
		by = p.gitEmail()
	}
	at := Now().Format(time.RFC3339)
	res := &ReviewResult{}
	err := p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		for _, ps := range codeanchors.CheckParentsWith(p.Model, l, p.Externals) {
			named := slices.Contains(opts.IDs, ps.Child)
			suspect := ps.Verdict.Reason == codeanchors.ParentChanged
			if !named && !(opts.AllSuspect && suspect) {
				continue
			}
			rev := p.parentRevision(ps.Parent)
			if rev == "" {
				continue // an external parent its bundle lacks
			}
			l.StampParent(ps.Child, ps.Parent, codeanchors.ParentLink{Revision: rev, ReviewedAt: at, ReviewedBy: by})
			res.Reviewed = append(res.Reviewed, ReviewedLink{Child: ps.Child, Parent: ps.Parent, Before: ps.Verdict.Reason})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// String formats the result for people, one line per link.
func (r *ReviewResult) String() string {
	var b strings.Builder
	for _, x := range r.Reviewed {
		switch x.Before {
		case codeanchors.ParentChanged:
			fmt.Fprintf(&b, "reviewed %s against %s (was suspect: parent changed)\n", x.Child, x.Parent)
		default:
			fmt.Fprintf(&b, "reviewed %s against %s\n", x.Child, x.Parent)
		}
	}
	if len(r.Reviewed) == 0 {
		b.WriteString("no parent link to review\n")
	}
	return b.String()
}
