package synth

import (
	"cmp"
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

// Pages holds the typed model of every node page, made once per build: the
// judged links are indexed once by target, by requirement and by run, the
// symbols once by file and the requirements and documents once by
// document, so no page scans them all. Rendering a page is a function of
// its model.
type Pages struct {
	Requirements map[string]*RequirementPage // by requirement id
	Decisions    map[string]*DecisionPage    // by decision id
	Wiki         map[string]*WikiPageModel   // by content path
	Files        map[string]*FilePage        // by path: every file with a code node on it
	Tests        map[string]*TestPage        // by test node key
	Documents    map[string]*DocumentPage    // by folder
	Runs         map[string]*RunPage         // by run id
	// Targets is every judged target by ref, for what links code outside
	// a page's own rows (a target in Markdown text, the matrix, drift).
	Targets map[string]*codeanchors.TargetStatus
	// Coverage counts every normative requirement, in a document or not.
	Coverage DocumentCoverage
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
	Claims            []ClaimRow
}

// ClaimRow is one claim of a document's claims table: its text and, when
// it points at code, its target row, whose status holds the captured
// range (Anchor) and the state (Verdict).
type ClaimRow struct {
	Text string
	Code *TargetRow // nil for a claim without code
}

// DecisionPage is what a decision's page shows besides its node.
type DecisionPage struct {
	Dec    *claims.Decision
	Claims []ClaimRow
}

// WikiPageModel is what a wiki page's page shows besides its node.
type WikiPageModel struct {
	Page   *claims.Page
	Claims []ClaimRow
}

// FilePage is what a file's page shows: its symbols (and tests) with the
// code that claims anchor, and the file's own anchored code.
type FilePage struct {
	// Symbols are the named code nodes in the file, by first line then id.
	Symbols []SymbolRow
	// Around is the file's node and its symbols' in graph order: the
	// nodes whose neighborhood the page draws.
	Around []NodeID
	// Whole is the file's own target row when a claim anchors the whole
	// file; nil otherwise.
	Whole *TargetRow
}

// SymbolRow is a symbol of a file's page; Code is its target row when a
// claim anchors it, nil otherwise.
type SymbolRow struct {
	Node Node
	Code *TargetRow
}

// TestPage is what a test's page shows: its code; Code is nil when its
// key is no target.
type TestPage struct {
	Code *TargetRow
}

// DocumentPage is a requirement document's printable tree: its
// requirements in level order, then its nested documents, in model order.
type DocumentPage struct {
	Doc          *claims.Document
	Requirements []*RequirementPage
	Sections     []*DocumentPage
	// Coverage counts its normative requirements and those of every
	// folder below it.
	Coverage DocumentCoverage
}

// TargetRow is one declared link to code: its target, the node it shows
// as, and its judged status (nil when the check has none).
type TargetRow struct {
	Target claims.Target
	Node   NodeID
	Status *codeanchors.TargetStatus
	// Marker is the PATH:LINE of the code marker that declares the link;
	// "" for a link the front matter declares.
	Marker string
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

// NewPages makes the page models of every requirement, decision, wiki page
// and document of the model, every file and test of the graph and every
// run of the lock; a run without evidence has none ([Pages.Run]).
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
	// A document's rows and their target rows are each one allocation:
	// at 50,000 claims, growing them claim by claim is a good share of a
	// rebuild's garbage.
	claimRows := func(cs []claims.Claim) []ClaimRow {
		if len(cs) == 0 {
			return nil
		}
		out := make([]ClaimRow, len(cs))
		n := 0
		for _, c := range cs {
			if c.HasTarget {
				n++
			}
		}
		trs := make([]TargetRow, 0, n)
		for i, c := range cs {
			out[i].Text = c.Text
			if c.HasTarget {
				trs = append(trs, row(c.Target))
				out[i].Code = &trs[len(trs)-1]
			}
		}
		return out
	}
	p := &Pages{
		Requirements: make(map[string]*RequirementPage, len(in.Model.Requirements)),
		Decisions:    make(map[string]*DecisionPage, len(in.Model.Decisions)),
		Wiki:         make(map[string]*WikiPageModel, len(in.Model.Pages)),
		Documents:    make(map[string]*DocumentPage, len(in.Model.Documents)),
		Runs:         make(map[string]*RunPage, len(byRun)),
		Targets:      targets,
	}
	for run, es := range byRun {
		p.Runs[run] = &RunPage{Evidence: es}
	}
	for _, d := range in.Model.Decisions {
		p.Decisions[d.ID] = &DecisionPage{Dec: d, Claims: claimRows(d.Doc.Claims)}
	}
	for _, pg := range in.Model.Pages {
		p.Wiki[pg.Path] = &WikiPageModel{Page: pg, Claims: claimRows(pg.Doc.Claims)}
	}
	p.Files, p.Tests = codePages(in.Graph, row, targets)
	byDoc := map[string][]*RequirementPage{}
	for _, r := range in.Model.Requirements {
		rp := &RequirementPage{Req: r, Evidence: byReq[r.ID], Parents: parents[r.ID], Children: children[r.ID], Claims: claimRows(r.Doc.Claims)}
		for _, ref := range r.Implements {
			rp.Implements = append(rp.Implements, markerRow(row(ref.Target), ref))
		}
		for _, ref := range r.Tests {
			rp.Tests = append(rp.Tests, markerRow(row(ref.Target), ref))
		}
		rp.History = slices.Clone(rp.Evidence)
		slices.SortStableFunc(rp.History, func(x, y codeanchors.EvidenceStatus) int { return codeanchors.CompareRecorded(y.Evidence, x.Evidence) })
		slices.SortStableFunc(rp.Children, func(x, y codeanchors.ParentStatus) int { return claims.CompareIDs(x.Child, y.Child) })
		p.Requirements[r.ID] = rp
		byDoc[r.Document] = append(byDoc[r.Document], rp)
	}
	p.documents(in.Model, byDoc)
	p.coverage(in.Model, rep, parents)
	return p
}

// codePages makes the page model of every file with a code node on it and
// of every test, with the graph's named nodes indexed once by file.
func codePages(g *Graph, row func(claims.Target) TargetRow, targets map[string]*codeanchors.TargetStatus) (map[string]*FilePage, map[string]*TestPage) {
	files, tests := map[string]*FilePage{}, map[string]*TestPage{}
	if g == nil {
		return files, tests
	}
	code := func(ref string) *TargetRow {
		if ts := targets[ref]; ts != nil {
			tr := row(ts.Target)
			return &tr
		}
		return nil
	}
	file := func(path string) *FilePage {
		fp := files[path]
		if fp == nil {
			// Sized once for the nodes on the path (its symbols, and the
			// requirements targeting it, a few too many), not grown
			// symbol by symbol: a row holds a whole node.
			n := len(g.byPath[path])
			fp = &FilePage{Symbols: make([]SymbolRow, 0, n), Around: append(make([]NodeID, 0, 1+n), claims.FileNode(path)), Whole: code(path)}
			files[path] = fp
		}
		return fp
	}
	for _, n := range g.Nodes {
		k := KindOf(n.Type)
		if !k.Code {
			continue
		}
		fp := file(n.Path)
		if k.Named {
			fp.Symbols = append(fp.Symbols, SymbolRow{Node: n, Code: code(n.Ref())})
			fp.Around = append(fp.Around, n.ID)
		}
		if n.Type == claims.NodeTest {
			tp := &TestPage{}
			if t, err := claims.ParseTarget(n.Ref()); err == nil {
				tr := row(t)
				tp.Code = &tr
			}
			tests[n.ID.Key] = tp
		}
	}
	for _, fp := range files {
		slices.SortStableFunc(fp.Symbols, func(x, y SymbolRow) int {
			return cmp.Or(cmp.Compare(x.Node.Start, y.Node.Start), x.Node.ID.Compare(y.Node.ID))
		})
	}
	return files, tests
}

// documents makes the page model of every requirement document from its
// requirements' models by folder (in model order), with its nested
// documents indexed once by parent folder.
func (p *Pages) documents(m *claims.Model, byDoc map[string][]*RequirementPage) {
	for _, d := range m.Documents {
		dp := &DocumentPage{Doc: d, Requirements: slices.Clone(byDoc[d.Path]), Coverage: DocumentCoverage{Document: d.Path}}
		slices.SortStableFunc(dp.Requirements, func(x, y *RequirementPage) int { return claims.CompareInDocument(x.Req, y.Req) })
		p.Documents[d.Path] = dp
	}
	for _, d := range m.Documents {
		if up := d.Parent(); up != d.Path {
			if parent := p.Documents[up]; parent != nil {
				parent.Sections = append(parent.Sections, p.Documents[d.Path])
			}
		}
	}
}

// markerRow is tr with the place of the marker that declares ref, when a
// code marker does.
func markerRow(tr TargetRow, ref claims.TargetRef) TargetRow {
	if ref.Marker {
		tr.Marker = ref.Pos.String()
	}
	return tr
}
