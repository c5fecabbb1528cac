package synth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// DocumentCoverage counts the normative requirements of a document (and
// the documents nested in it) by their derived fields (SPEC 2: coverage
// counts normative requirements only).
type DocumentCoverage struct {
	Document    string // folder; "" for every requirement
	Normative   int
	Implemented int
	Tested      int
	Verified    int
	Suspect     int // with a stale parent link
}

// String is "4 normative: 3 implemented, 2 tested, 1 verified, 0 suspect".
func (c DocumentCoverage) String() string {
	return fmt.Sprintf("%d normative: %d implemented, %d tested, %d verified, %d suspect", c.Normative, c.Implemented, c.Tested, c.Verified, c.Suspect)
}

// add counts one normative requirement with its status.
func (c *DocumentCoverage) add(s codeanchors.RequirementStatus, suspect bool) {
	c.Normative++
	c.Implemented += b2i(s.Implemented)
	c.Tested += b2i(s.Tested)
	c.Verified += b2i(s.Verified)
	c.Suspect += b2i(suspect)
}

// coverage counts every normative requirement once into the coverage of
// all requirements and of each document whose folder holds it, at any
// depth, so that no document page scans the requirements again. parents
// are the requirements' parent links by child.
func (p *Pages) coverage(m *claims.Model, rep *codeanchors.Report, parents map[string][]codeanchors.ParentStatus) {
	status := make(map[string]codeanchors.RequirementStatus, len(rep.Requirements))
	for _, s := range rep.Requirements {
		status[s.ID] = s
	}
	stale := func(ps codeanchors.ParentStatus) bool { return ps.Verdict.State == codeanchors.Stale }
	for _, r := range m.Requirements {
		if !r.Normative {
			continue
		}
		s, suspect := status[r.ID], slices.ContainsFunc(parents[r.ID], stale)
		p.Coverage.add(s, suspect)
		// The folder and every folder above it: a document counts the
		// requirements of the folders below its own, documents or not.
		for folder := r.Document; folder != ""; {
			if dp := p.Documents[folder]; dp != nil {
				dp.Coverage.add(s, suspect)
			}
			i := strings.LastIndexByte(folder, '/')
			folder = folder[:max(i, 0)]
		}
	}
}
