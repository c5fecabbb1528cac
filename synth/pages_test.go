package synth

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestNewPages checks the requirement and run page models: each holds its
// own evidence (in lock order, and newest first), its own parent links and
// its children in id order, and its declared targets with their status.
func TestNewPages(t *testing.T) {
	impl := claims.Target{Path: "src/a.go", Symbol: "F"}
	m := &claims.Model{Requirements: []*claims.Requirement{
		{ID: "REQ-1", Implements: []claims.TargetRef{{Target: impl}}},
		{ID: "REQ-2"}, {ID: "REQ-10"},
	}}
	ev := func(req, run, at string) codeanchors.EvidenceStatus {
		return codeanchors.EvidenceStatus{Evidence: codeanchors.Evidence{Req: req, Run: run, RecordedAt: at}}
	}
	link := func(child, parent string) codeanchors.ParentStatus {
		return codeanchors.ParentStatus{Child: child, Parent: parent}
	}
	rep := &codeanchors.Report{
		Targets: []codeanchors.TargetStatus{{Referenced: codeanchors.Referenced{Target: impl}}},
		Evidence: []codeanchors.EvidenceStatus{
			ev("REQ-1", "r1", "2026-01-01T00:00:00Z"), ev("REQ-1", "r2", "2026-03-01T00:00:00Z"),
			ev("REQ-1", "r3", "2026-02-01T00:00:00Z"), ev("REQ-2", "r2", "2026-03-01T00:00:00Z"),
		},
		Parents: []codeanchors.ParentStatus{link("REQ-10", "REQ-1"), link("REQ-2", "REQ-1"), link("REQ-2", "REQ-2")},
	}
	p := NewPages(PageInput{Model: m, Report: rep})
	runs := func(es []codeanchors.EvidenceStatus) (out []string) {
		for _, e := range es {
			out = append(out, e.Evidence.Req+"@"+e.Evidence.Run)
		}
		return out
	}
	r1 := p.Requirements["REQ-1"]
	if got, want := runs(r1.Evidence), []string{"REQ-1@r1", "REQ-1@r2", "REQ-1@r3"}; !slices.Equal(got, want) {
		t.Errorf("REQ-1 evidence %v, want %v (lock order)", got, want)
	}
	if got, want := runs(r1.History), []string{"REQ-1@r2", "REQ-1@r3", "REQ-1@r1"}; !slices.Equal(got, want) {
		t.Errorf("REQ-1 history %v, want %v (newest first)", got, want)
	}
	if got, want := runs(p.Run("r2").Evidence), []string{"REQ-1@r2", "REQ-2@r2"}; !slices.Equal(got, want) {
		t.Errorf("run r2 evidence %v, want %v", got, want)
	}
	if got := p.Run("r9").Evidence; got != nil {
		t.Errorf("run r9 (no evidence) has %v", got)
	}
	var children []string
	for _, c := range r1.Children {
		children = append(children, c.Child)
	}
	if want := []string{"REQ-2", "REQ-10"}; !slices.Equal(children, want) {
		t.Errorf("REQ-1 children %v, want %v (id order)", children, want)
	}
	// A requirement naming itself as parent: a parent link, not a child.
	if r2 := p.Requirements["REQ-2"]; len(r2.Parents) != 2 || len(r2.Children) != 0 {
		t.Errorf("REQ-2 parents %v, children %v", r2.Parents, r2.Children)
	}
	if got := r1.Implements; len(got) != 1 || got[0].Status != &rep.Targets[0] || got[0].Node != (NodeID{Type: claims.NodeSymbol, Key: "src/a.go@F"}) {
		t.Errorf("REQ-1 implements %+v", got)
	}
}

// TestNewPagesClaimsAndCode checks the decision, wiki page, file and test
// page models: claims keep their text and carry their target's status (nil
// code for a claim without one), a file lists its symbols by first line
// with the code a claim anchors, and a test holds its own code.
func TestNewPagesClaimsAndCode(t *testing.T) {
	f := claims.Target{Path: "src/a.go", Symbol: "F"}
	file := claims.Target{Path: "src/a.go"}
	claim := func(text string, tg *claims.Target) claims.Claim {
		if tg == nil {
			return claims.Claim{Text: text}
		}
		return claims.Claim{Text: text, Target: *tg, HasTarget: true}
	}
	m := &claims.Model{
		Decisions: []*claims.Decision{{ID: "ADR-1", Doc: claims.Doc{Claims: []claims.Claim{claim("uses F", &f), claim("a note", nil)}}}},
		Pages:     []*claims.Page{{Path: "guide", Doc: claims.Doc{Claims: []claims.Claim{claim("the file", &file)}}}},
	}
	rep := &codeanchors.Report{Targets: []codeanchors.TargetStatus{
		{Referenced: codeanchors.Referenced{Target: f}}, {Referenced: codeanchors.Referenced{Target: file}},
	}}
	g := &Graph{Nodes: []Node{
		{ID: NodeID{Type: claims.NodeFile, Key: "src/a.go"}, Type: claims.NodeFile, Path: "src/a.go"},
		{ID: NodeID{Type: claims.NodeSymbol, Key: "src/a.go@G"}, Type: claims.NodeSymbol, Path: "src/a.go", Start: 20},
		{ID: NodeID{Type: claims.NodeSymbol, Key: "src/a.go@F"}, Type: claims.NodeSymbol, Path: "src/a.go", Start: 3},
		{ID: NodeID{Type: claims.NodeTest, Key: "src/a_test.go@TestF"}, Type: claims.NodeTest, Path: "src/a_test.go", Start: 1},
	}}
	p := NewPages(PageInput{Graph: g, Model: m, Report: rep})
	dc := p.Decisions["ADR-1"].Claims
	if len(dc) != 2 || dc[0].Text != "uses F" || dc[0].Code == nil || dc[0].Code.Status != &rep.Targets[0] || dc[1].Code != nil {
		t.Errorf("ADR-1 claims %+v", dc)
	}
	if wc := p.Wiki["guide"].Claims; len(wc) != 1 || wc[0].Code == nil || wc[0].Code.Status != &rep.Targets[1] {
		t.Errorf("guide claims %+v", wc)
	}
	fp := p.Files["src/a.go"]
	var syms []string
	for _, s := range fp.Symbols {
		syms = append(syms, s.Node.ID.Key)
	}
	if want := []string{"src/a.go@F", "src/a.go@G"}; !slices.Equal(syms, want) {
		t.Errorf("src/a.go symbols %v, want %v (by first line)", syms, want)
	}
	if fp.Symbols[0].Code == nil || fp.Symbols[1].Code != nil || fp.Whole == nil || fp.Whole.Status != &rep.Targets[1] {
		t.Errorf("src/a.go code: F %v, G %v, whole %v", fp.Symbols[0].Code, fp.Symbols[1].Code, fp.Whole)
	}
	if want := []NodeID{g.Nodes[0].ID, g.Nodes[1].ID, g.Nodes[2].ID}; !slices.Equal(fp.Around, want) {
		t.Errorf("src/a.go around %v, want %v (graph order)", fp.Around, want)
	}
	if tf := p.Files["src/a_test.go"]; tf == nil || len(tf.Symbols) != 1 || tf.Whole != nil {
		t.Errorf("src/a_test.go (a file with a test only) %+v", tf)
	}
	if tp := p.Tests["src/a_test.go@TestF"]; tp == nil || tp.Code == nil || tp.Code.Target.Symbol != "TestF" || tp.Code.Status != nil {
		t.Errorf("test page %+v", tp)
	}
}

// TestNewPagesDocuments checks the document page models: each holds its
// own requirements in level order and its nested documents in model order,
// not a document nested deeper.
func TestNewPagesDocuments(t *testing.T) {
	m := &claims.Model{
		Requirements: []*claims.Requirement{
			{ID: "SYS-2", Document: "sys", Level: "2"}, {ID: "SYS-1", Document: "sys", Level: "1"},
			{ID: "SW-1", Document: "sys/sw", Level: "1"}, {ID: "LOOSE-1"},
		},
		Documents: []*claims.Document{{Path: "sys"}, {Path: "sys/sw"}, {Path: "sys/hw"}, {Path: "sys/sw/deep"}},
	}
	p := NewPages(PageInput{Model: m})
	ids := func(dp *DocumentPage) (reqs, secs []string) {
		for _, rp := range dp.Requirements {
			reqs = append(reqs, rp.Req.ID)
		}
		for _, s := range dp.Sections {
			secs = append(secs, s.Doc.Path)
		}
		return reqs, secs
	}
	reqs, secs := ids(p.Documents["sys"])
	if want := []string{"SYS-1", "SYS-2"}; !slices.Equal(reqs, want) {
		t.Errorf("sys requirements %v, want %v (level order)", reqs, want)
	}
	if want := []string{"sys/sw", "sys/hw"}; !slices.Equal(secs, want) {
		t.Errorf("sys sections %v, want %v (model order, direct children only)", secs, want)
	}
	if reqs, secs := ids(p.Documents["sys/sw"]); !slices.Equal(reqs, []string{"SW-1"}) || !slices.Equal(secs, []string{"sys/sw/deep"}) {
		t.Errorf("sys/sw requirements %v, sections %v", reqs, secs)
	}
	if p.Requirements["SYS-1"] != p.Documents["sys"].Requirements[0] {
		t.Errorf("a document's requirement is not its requirement page model")
	}
}

// TestNewPagesDocumentCoverage checks the coverage the page models count
// once: all normative requirements, and per document those in its folder
// and every folder below it (a document or not), by their status and
// their stale parent links; a heading is not counted, nor a sibling folder
// whose name only starts the same.
func TestNewPagesDocumentCoverage(t *testing.T) {
	req := func(id, doc string, normative bool) *claims.Requirement {
		return &claims.Requirement{ID: id, Document: doc, Normative: normative}
	}
	m := &claims.Model{
		Requirements: []*claims.Requirement{
			req("SYS-0", "sys", false), req("SYS-1", "sys", true), req("SW-1", "sys/sw", true),
			req("SW-2", "sys/sw/x/y", true), req("SWX-1", "sys/swx", true), req("LOOSE-1", "", true),
		},
		// sys/sw/x is no document: its requirements count for sys/sw.
		Documents: []*claims.Document{{Path: "sys"}, {Path: "sys/sw"}, {Path: "sys/swx"}, {Path: "sys/sw/x/y"}},
	}
	stale := codeanchors.ParentStatus{Child: "SW-2", Parent: "SYS-1", Verdict: codeanchors.Verdict{State: codeanchors.Stale}}
	linked := codeanchors.ParentStatus{Child: "SW-1", Parent: "SYS-1", Verdict: codeanchors.Verdict{State: codeanchors.Linked}}
	rep := &codeanchors.Report{
		Requirements: []codeanchors.RequirementStatus{
			{ID: "SYS-0", Implemented: true}, {ID: "SW-1", Implemented: true, Tested: true},
			{ID: "SW-2", Implemented: true, Verified: true}, {ID: "LOOSE-1", Tested: true},
		},
		Parents: []codeanchors.ParentStatus{linked, stale},
	}
	p := NewPages(PageInput{Model: m, Report: rep})
	if want := (DocumentCoverage{Normative: 5, Implemented: 2, Tested: 2, Verified: 1, Suspect: 1}); p.Coverage != want {
		t.Errorf("coverage of all = %+v, want %+v", p.Coverage, want)
	}
	for folder, want := range map[string]DocumentCoverage{
		"sys":        {Document: "sys", Normative: 4, Implemented: 2, Tested: 1, Verified: 1, Suspect: 1},
		"sys/sw":     {Document: "sys/sw", Normative: 2, Implemented: 2, Tested: 1, Verified: 1, Suspect: 1},
		"sys/swx":    {Document: "sys/swx", Normative: 1},
		"sys/sw/x/y": {Document: "sys/sw/x/y", Normative: 1, Implemented: 1, Verified: 1, Suspect: 1},
	} {
		if got := p.Documents[folder].Coverage; got != want {
			t.Errorf("coverage of %s = %+v, want %+v", folder, got, want)
		}
	}
	if got, want := p.Documents["sys"].Coverage.String(), "4 normative: 2 implemented, 1 tested, 1 verified, 1 suspect"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// BenchmarkNewPagesDocuments makes the page models of 4,000 requirements
// in 400 nested documents (40 top-level ones with 9 below each), the
// coverage of each counted once per build: the cost per document stays
// flat as documents are added, where a scan of every requirement per
// document page grew with both.
func BenchmarkNewPagesDocuments(b *testing.B) {
	m, rep := benchModel()
	b.ReportAllocs()
	for b.Loop() {
		NewPages(PageInput{Model: m, Report: rep})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(m.Documents)), "ns/document")
}

func benchModel() (*claims.Model, *codeanchors.Report) {
	const tops, subs, reqs = 40, 9, 4000
	m, rep := &claims.Model{}, &codeanchors.Report{}
	for i := range tops {
		m.Documents = append(m.Documents, &claims.Document{Path: fmt.Sprintf("d%02d", i)})
		for j := range subs {
			m.Documents = append(m.Documents, &claims.Document{Path: fmt.Sprintf("d%02d/s%d", i, j)})
		}
	}
	for i := range reqs {
		id := fmt.Sprintf("REQ-%d", i)
		m.Requirements = append(m.Requirements, &claims.Requirement{ID: id, Document: m.Documents[i%len(m.Documents)].Path, Normative: i%10 != 0})
		rep.Requirements = append(rep.Requirements, codeanchors.RequirementStatus{ID: id, Implemented: i%2 == 0, Tested: i%3 == 0})
		if i > 0 {
			rep.Parents = append(rep.Parents, codeanchors.ParentStatus{Child: id, Parent: fmt.Sprintf("REQ-%d", i-1)})
		}
	}
	return m, rep
}
