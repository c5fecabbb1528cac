package synth

import (
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// PageInput is what the page models are made of: the graph, the model and
// the judged links.
type PageInput struct {
	Graph  *Graph
	Model  *claims.Model
	Report *codeanchors.Report
}

// Pages holds the typed model of the pages of the kinds that have one so
// far (requirements and runs), made once per build: the judged links are
// indexed once by requirement and by run, so no page scans them all.
// Rendering a page is a function of its model.
type Pages struct {
	Requirements map[string]*RequirementPage // by requirement id
	Runs         map[string]*RunPage         // by run id
}

// RequirementPage is what a requirement's page shows of the graph and the
// lock, besides its node and neighborhood.
type RequirementPage struct {
	Req *claims.Requirement
	// Targets are its declared links to code, implements then tests, as
	// written.
	Implements, Tests []TargetRow
	// Evidence is every entry the lock keeps for it, in lock order;
	// History the same, newest first (by recorded time, then run): the
	// first decides whether it is verified.
	Evidence, History []codeanchors.EvidenceStatus
	// Parents are its links to its parents, as written; Children the
	// links of its children to it, in id order.
	Parents, Children []codeanchors.ParentStatus
}

// TargetRow is one declared link to code: its target, the node it shows
// as, and its judged status (nil when the check has none).
type TargetRow struct {
	Target claims.Target
	Node   NodeID
	Status *codeanchors.TargetStatus
}

// Run is the model of a run's page; an empty one for a run that recorded
// no evidence.
func (p *Pages) Run(id string) *RunPage {
	if rp := p.Runs[id]; rp != nil {
		return rp
	}
	return &RunPage{}
}

// RunPage is what a run's page shows: the evidence entries it recorded, in
// lock order.
type RunPage struct {
	Evidence []codeanchors.EvidenceStatus
}

// NewPages makes the page models of every requirement of the model and
// every run of the lock; a run without evidence has none ([Pages.Run]).
func NewPages(in PageInput) *Pages {
	rep := in.Report
	if rep == nil {
		rep = &codeanchors.Report{}
	}
	targets := make(map[string]*codeanchors.TargetStatus, len(rep.Targets))
	for i := range rep.Targets {
		targets[rep.Targets[i].Target.String()] = &rep.Targets[i]
	}
	byReq, byRun := map[string][]codeanchors.EvidenceStatus{}, map[string][]codeanchors.EvidenceStatus{}
	for _, es := range rep.Evidence {
		byReq[es.Evidence.Req] = append(byReq[es.Evidence.Req], es)
		byRun[es.Evidence.Run] = append(byRun[es.Evidence.Run], es)
	}
	parents, children := map[string][]codeanchors.ParentStatus{}, map[string][]codeanchors.ParentStatus{}
	for _, ps := range rep.Parents {
		parents[ps.Child] = append(parents[ps.Child], ps)
		if ps.Parent != ps.Child { // a link to itself is listed once, as a parent
			children[ps.Parent] = append(children[ps.Parent], ps)
		}
	}
	row := func(t claims.Target) TargetRow {
		return TargetRow{Target: t, Node: in.Graph.TargetNodeID(t), Status: targets[t.String()]}
	}
	p := &Pages{Requirements: make(map[string]*RequirementPage, len(in.Model.Requirements)), Runs: make(map[string]*RunPage, len(byRun))}
	for run, es := range byRun {
		p.Runs[run] = &RunPage{Evidence: es}
	}
	for _, r := range in.Model.Requirements {
		rp := &RequirementPage{Req: r, Evidence: byReq[r.ID], Parents: parents[r.ID], Children: children[r.ID]}
		for _, ref := range r.Implements {
			rp.Implements = append(rp.Implements, row(ref.Target))
		}
		for _, ref := range r.Tests {
			rp.Tests = append(rp.Tests, row(ref.Target))
		}
		rp.History = slices.Clone(rp.Evidence)
		slices.SortStableFunc(rp.History, func(x, y codeanchors.EvidenceStatus) int { return codeanchors.CompareRecorded(y.Evidence, x.Evidence) })
		slices.SortStableFunc(rp.Children, func(x, y codeanchors.ParentStatus) int { return claims.CompareIDs(x.Child, y.Child) })
		p.Requirements[r.ID] = rp
	}
	return p
}
