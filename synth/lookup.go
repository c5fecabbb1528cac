package synth

import (
	"bytes"
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Bounds of a lookup. Every cut is counted in the answer's truncated.
const (
	// MaxNeighborsPerKind bounds the neighbors listed per edge kind.
	MaxNeighborsPerKind = 32
	// MaxEvidence bounds the evidence entries, newest first.
	MaxEvidence = 8
	// MaxLookupClaims bounds the claims, and MaxLookupDrift the drift
	// entries, of one lookup.
	MaxLookupClaims = 64
	MaxLookupDrift  = 64
	// MaxDocuments bounds each of documents.covering and
	// documents.mentioning.
	MaxDocuments = 32
	// MaxLookupWalk bounds the nodes the walk to --depth visits, as
	// neighborhoods are bounded.
	MaxLookupWalk = MaxNodes
	// BudgetClaims is how many claims a budget never sheds.
	BudgetClaims = 8
)

// The sections a budget sheds, in this order (SPEC 5), as budget.shed
// names them.
const (
	ShedExcerpts    = "excerpts"
	ShedMentioning  = "documents.mentioning"
	ShedDistance3   = "neighbors at distance 3"
	ShedDistance2   = "neighbors at distance 2"
	ShedCovering    = "documents.covering"
	ShedOldEvidence = "evidence beyond the newest"
	ShedLocated1    = "located neighbors at distance 1"
	ShedClaims      = "claims beyond the first 8"
)

// LookupOptions says what [Knowledge.Lookup] returns.
type LookupOptions struct {
	Depth  int // 1-3, clamped; 0 means 1
	Budget int // tokens; 0 means no budget
}

// LookupJSON is the JSON of "tracewiki lookup" and of the MCP lookup tool:
// everything the wiki knows about one entity.
type LookupJSON struct {
	Type          string `json:"type"`
	SchemaVersion int    `json:"schemaVersion"`
	Depth         int    `json:"depth"`
	// Entity is the node looked up; null when the key names none (it is
	// then in Unknown, and every list is empty).
	Entity *Node `json:"entity"`
	// Neighbors are the nodes within Depth hops, grouped by the kind of
	// the edge that first reached them; each list by distance, node type
	// and id.
	Neighbors map[string][]LookupNeighbor `json:"neighbors"`
	Documents LookupDocuments             `json:"documents"`
	Claims    []LookupClaim               `json:"claims"`
	// Drift lists the entity's links that are not linked: check entries.
	Drift    []CheckTarget    `json:"drift"`
	Evidence []LookupEvidence `json:"evidence"` // newest first
	Unknown  []string         `json:"unknown"`
	// Truncated counts, per section, what a named bound left out
	// ("neighbors.calls": 12, "excerpts": 3 excerpts cut).
	Truncated map[string]int `json:"truncated"`
	Budget    *Budget        `json:"budget,omitempty"`
}

// LookupNeighbor is one node near the entity.
type LookupNeighbor struct {
	ID        NodeID          `json:"id"`
	Type      claims.NodeType `json:"type"`
	Title     string          `json:"title"`
	Relation  string          `json:"relation"`  // of the edge that reached it
	Direction string          `json:"direction"` // "out" when that edge leaves Via, "in" when it enters it
	Distance  int             `json:"distance"`
	Via       NodeID          `json:"via"` // the node one hop closer to the entity
	Stale     bool            `json:"stale"`
	Why       string          `json:"why"`
}

// LookupDocuments are the requirements, decisions and pages that cover the
// entity (a declared link to it, or for a file to one of its symbols) and
// those that mention it (a located mention, or its key in their text).
type LookupDocuments struct {
	Covering   []LookupDocument `json:"covering"`
	Mentioning []LookupDocument `json:"mentioning"`
}

// LookupDocument is a requirement, decision or page.
type LookupDocument struct {
	ID    NodeID          `json:"id"`
	Type  claims.NodeType `json:"type"`
	Title string          `json:"title"`
	Path  string          `json:"path"`
}

// LookupClaim is one link from a document to code that concerns the
// entity: a claim sentence, or a requirement's implements or tests.
type LookupClaim struct {
	Text     string `json:"text"`
	Page     NodeID `json:"page"` // the node making the claim
	Ref      string `json:"ref"`
	Captured []int  `json:"captured"` // [start, end] as captured; null when never captured
	State    string `json:"state"`
	// Excerpt is the code now at the target (the captured text when it is
	// gone), at most MaxExcerpt characters.
	Excerpt string `json:"excerpt"`
	// Source is "marker" for a requirement's link a code marker declares,
	// and Marker the marker's PATH:LINE (SPEC 1.6); both empty otherwise.
	Source string `json:"source,omitempty"`
	Marker string `json:"marker,omitempty"`
}

// LookupEvidence is one evidence entry.
type LookupEvidence struct {
	Run    string                     `json:"run"`
	Req    string                     `json:"req"`
	Passed bool                       `json:"passed"`
	State  string                     `json:"state"`
	Why    string                     `json:"why"`
	Tests  []codeanchors.EvidenceTest `json:"tests"`
}

// Lookup answers "tell me about this": key is a node id, a requirement,
// decision or run id, a PATH@SYMBOL or PATH#Lx-Ly target, a file path or a
// content file's path. A key that names nothing is listed in unknown.
func (k *Knowledge) Lookup(key string, o LookupOptions) LookupJSON {
	out := LookupJSON{
		Type: LookupType, SchemaVersion: KnowledgeSchemaVersion, Depth: clampDepth(o.Depth),
		Neighbors: map[string][]LookupNeighbor{}, Documents: LookupDocuments{Covering: []LookupDocument{}, Mentioning: []LookupDocument{}},
		Claims: []LookupClaim{}, Drift: []CheckTarget{}, Evidence: []LookupEvidence{}, Unknown: []string{}, Truncated: map[string]int{},
	}
	n, ok := k.resolve(key)
	if !ok {
		out.Unknown = append(out.Unknown, key)
	} else {
		out.Entity = &n
		k.neighbors(&out, n)
		k.documents(&out, n)
		k.claims(&out, n)
		k.drift(&out, n)
		k.evidence(&out, n)
	}
	if o.Budget > 0 {
		fitLookup(&out, o.Budget)
	}
	return out
}

// resolve finds the node a lookup key names.
func (k *Knowledge) resolve(key string) (Node, bool) {
	g := k.in.Graph
	key = strings.TrimSpace(key)
	if key == "" {
		return Node{}, false
	}
	clean := strings.TrimPrefix(path.Clean(key), "./")
	var ids []NodeID
	if id, err := claims.ParseNodeID(key); err == nil {
		ids = append(ids, id)
	}
	ids = append(ids, claims.RequirementNode(key), claims.DecisionNode(key), claims.DocumentNode(key))
	if strings.Contains(key, "@") || strings.Contains(key, "#L") {
		if t, err := claims.ParseTarget(key); err == nil {
			ids = append(ids, k.in.Graph.TargetNodeID(t), NodeID{Type: claims.NodeSymbol, Key: t.String()}, NodeID{Type: claims.NodeTest, Key: t.String()})
		}
	}
	ids = append(ids, claims.FileNode(clean), claims.PageNode(strings.TrimSuffix(clean, ".md")), claims.RunNode(key))
	for _, id := range ids {
		if n, ok := g.Node(id); ok {
			return n, true
		}
	}
	if id, ok := k.docOf[clean]; ok {
		return g.Node(id)
	}
	return Node{}, false
}

// neighbors walks breadth-first from the entity to the lookup's depth:
// each node is listed once, at the distance it was first reached, under
// the kind of the edge that reached it.
func (k *Knowledge) neighbors(out *LookupJSON, n Node) {
	g := k.in.Graph
	start := g.ids[n.ID]
	dist := map[int32]int{start: 0}
	order := []int32{start}
	refused := map[int32]bool{}
	byKind := map[string][]LookupNeighbor{}
	for head := 0; head < len(order); head++ {
		u := order[head]
		if dist[u] >= out.Depth {
			continue
		}
		for _, e := range g.adj[u] {
			v := g.other(u, e)
			if _, seen := dist[v]; seen {
				continue
			}
			if len(order) >= MaxLookupWalk {
				refused[v] = true
				continue
			}
			dist[v] = dist[u] + 1
			order = append(order, v)
			edge, node := g.Edges[e], g.Nodes[v]
			nb := LookupNeighbor{
				ID: node.ID, Type: node.Type, Title: nodeTitle(node), Relation: edge.Relation, Direction: "in",
				Distance: dist[v], Via: g.Nodes[u].ID, Stale: edge.Stale || node.Stale, Why: cmp.Or(edge.Why, node.Why),
			}
			if g.ends[e][0] == u {
				nb.Direction = "out"
			}
			byKind[edge.Kind] = append(byKind[edge.Kind], nb)
		}
	}
	if len(refused) > 0 {
		out.Truncated["neighbors.walk"] = len(refused)
	}
	for kind, list := range byKind {
		slices.SortStableFunc(list, func(a, b LookupNeighbor) int {
			return cmp.Or(cmp.Compare(a.Distance, b.Distance), cmp.Compare(KindRank(a.Type), KindRank(b.Type)), a.ID.Compare(b.ID))
		})
		if len(list) > MaxNeighborsPerKind {
			out.Truncated["neighbors."+kind] = len(list) - MaxNeighborsPerKind
			list = list[:MaxNeighborsPerKind]
		}
		out.Neighbors[kind] = list
	}
}

// nodeTitle is a node's title, else its label.
func nodeTitle(n Node) string {
	if n.Title != "" {
		return n.Title
	}
	return n.Label
}

// isDoc reports whether a node is a document: a requirement, decision,
// page or requirement document.
func isDoc(n Node) bool {
	return KindOf(n.Type).Doc != nil
}

// documents lists the documents covering and mentioning the entity.
func (k *Knowledge) documents(out *LookupJSON, n Node) {
	g := k.in.Graph
	targets := []int32{g.ids[n.ID]}
	if n.Type == claims.NodeFile {
		// A file is covered by what covers its symbols and tests.
		for _, i := range g.byPath[n.Path] {
			if i != targets[0] && KindOf(g.Nodes[i].Type).Named {
				targets = append(targets, i)
			}
		}
	}
	covering, mentioning := map[int32]bool{}, map[int32]bool{}
	for _, t := range targets {
		for _, e := range g.adj[t] {
			src := g.ends[e][0]
			if src == t || !isDoc(g.Nodes[src]) || src == g.ids[n.ID] {
				continue
			}
			if g.Edges[e].Relation == Located {
				mentioning[src] = true
			} else {
				covering[src] = true
			}
		}
	}
	// Documents whose text names the entity's key as a whole word.
	if key := mentionKey(n); key != "" {
		kb := []byte(key)
		// The node id is made only for the few documents that hold the key.
		check := func(id NodeID, d *claims.Doc) {
			if !bytes.Contains(d.Body, kb) {
				return
			}
			i, ok := g.ids[id]
			if ok && i != g.ids[n.ID] && !covering[i] && !mentioning[i] && hasWordBytes(d.Body, kb) {
				mentioning[i] = true
			}
		}
		m := k.in.Model
		for _, r := range m.Requirements {
			check(claims.RequirementNode(r.ID), &r.Doc)
		}
		for _, d := range m.Decisions {
			check(claims.DecisionNode(d.ID), &d.Doc)
		}
		for _, p := range m.Pages {
			check(claims.PageNode(p.Path), &p.Doc)
		}
	}
	for i := range covering {
		delete(mentioning, i)
	}
	out.Documents.Covering = k.docList(out, "documents.covering", covering)
	out.Documents.Mentioning = k.docList(out, "documents.mentioning", mentioning)
}

// mentionKey is what a document's text names the entity by: a
// requirement's or decision's id, a symbol's name, a file's path.
func mentionKey(n Node) string {
	k := KindOf(n.Type)
	switch {
	case !k.Mentioned:
		return ""
	case k.Named:
		return n.Symbol
	case k.Code:
		return n.Path
	}
	return n.ID.Key
}

// docList lists a set of document nodes in node order, bounded.
func (k *Knowledge) docList(out *LookupJSON, section string, set map[int32]bool) []LookupDocument {
	idx := slices.Sorted(func(yield func(int32) bool) {
		for i := range set {
			if !yield(i) {
				return
			}
		}
	})
	if len(idx) > MaxDocuments {
		out.Truncated[section] = len(idx) - MaxDocuments
		idx = idx[:MaxDocuments]
	}
	list := make([]LookupDocument, 0, len(idx))
	for _, i := range idx {
		d := k.in.Graph.Nodes[i]
		list = append(list, LookupDocument{ID: d.ID, Type: d.Type, Title: nodeTitle(d), Path: k.docPath(d)})
	}
	return list
}

// docPath is the content file of a document node.
func (k *Knowledge) docPath(n Node) string {
	if n.Path != "" {
		return n.Path
	}
	return k.fileOf[n.ID]
}

// claims lists the links to code that concern the entity: those a
// document makes, or those into a code entity (for a file, into any of
// its targets).
func (k *Knowledge) claims(out *LookupJSON, n Node) {
	var list []LookupClaim
	cut := 0
	for _, i := range k.targetIndex()[n.ID] {
		ts := &k.in.Report.Targets[i]
		into := k.in.Graph.TargetNodeID(ts.Target) == n.ID || n.Type == claims.NodeFile && ts.Target.Path == n.Path
		for _, u := range ts.Uses {
			if !into && u.Node != n.ID {
				continue
			}
			if len(list) >= MaxLookupClaims {
				out.Truncated["claims"]++
				continue
			}
			c := LookupClaim{Text: k.claimText(u, ts.Target), Page: u.Node, Ref: ts.Target.String(), State: string(ts.Verdict.State)}
			if u.Marker {
				c.Source, c.Marker = SourceMarker, u.Pos.String()
			}
			if ts.Anchor != nil {
				c.Captured = []int{ts.Anchor.Start, ts.Anchor.End}
			}
			var wasCut bool
			c.Excerpt, wasCut = k.codeExcerpt(ts)
			if wasCut {
				cut++
			}
			list = append(list, c)
		}
	}
	if cut > 0 {
		out.Truncated["excerpts"] = cut
	}
	if list != nil {
		out.Claims = list
	}
}

// targetIndex maps node ids to the report's code targets that concern
// them, in ref order: a target's own node and its file's, and every node
// that links it.
func (k *Knowledge) targetIndex() map[NodeID][]int {
	k.targetsOnce.Do(func() {
		k.targetsBy = map[NodeID][]int{}
		for i, ts := range k.in.Report.Targets {
			keys := []NodeID{k.in.Graph.TargetNodeID(ts.Target), claims.FileNode(ts.Target.Path)}
			for _, u := range ts.Uses {
				keys = append(keys, u.Node)
			}
			slices.SortFunc(keys, NodeID.Compare)
			for _, key := range slices.Compact(keys) {
				k.targetsBy[key] = append(k.targetsBy[key], i)
			}
		}
	})
	return k.targetsBy
}

// claimText is the sentence of a claim, or for a requirement's link its
// role and target ("implements src/a.go@F").
func (k *Knowledge) claimText(u codeanchors.Use, t claims.Target) string {
	if u.Role == codeanchors.RoleClaims {
		if text, ok := k.claimTexts()[claimAt{u.Node, u.Pos}]; ok {
			return text
		}
	}
	return u.Role + " " + t.String()
}

// claimAt is a claim's node and position.
type claimAt struct {
	node NodeID
	pos  claims.Pos
}

// claimTexts maps a claim's node and position to its text.
func (k *Knowledge) claimTexts() map[claimAt]string {
	k.textsOnce.Do(func() {
		k.texts = map[claimAt]string{}
		each(k.in.Model, func(id NodeID, d *claims.Doc) {
			for _, c := range d.Claims {
				k.texts[claimAt{id, c.Pos}] = c.Text
			}
		})
	})
	return k.texts
}

// codeExcerpt is the code now at a target, else its captured text, cut to
// MaxExcerpt characters; it reports whether it was cut.
func (k *Knowledge) codeExcerpt(ts *codeanchors.TargetStatus) (string, bool) {
	var text string
	if src := k.in.Sources[ts.Target.Path]; src != nil && ts.Verdict.Start > 0 && ts.Verdict.End <= len(src.Lines) {
		text = string(bytes.Join(src.Lines[ts.Verdict.Start-1:ts.Verdict.End], []byte("\n")))
	} else if ts.Anchor != nil {
		text = ts.Anchor.CapturedText
	}
	c := clip(text, MaxExcerpt, false)
	return c, c != text
}

// drift lists the entity's links that are stale or unknown: those it makes,
// those into it (for a file, into any of its targets), and its evidence.
func (k *Knowledge) drift(out *LookupJSON, n Node) {
	for _, i := range k.driftIndex()[n.ID] {
		if len(out.Drift) >= MaxLookupDrift {
			out.Truncated["drift"]++
			continue
		}
		out.Drift = append(out.Drift, k.check.Targets[i])
	}
}

// driftIndex maps node ids to the check entries that concern them, in
// check order.
func (k *Knowledge) driftIndex() map[NodeID][]int {
	k.driftOnce.Do(func() {
		byRef := map[string]claims.Target{}
		for _, ts := range k.in.Report.Targets {
			byRef[ts.Target.String()] = ts.Target
		}
		k.driftBy = map[NodeID][]int{}
		for i, t := range k.check.Targets {
			if !codeanchors.State(t.State).Problem() {
				continue
			}
			keys := slices.Clone(t.ClaimedBy)
			if tg, ok := byRef[t.Ref]; ok {
				keys = append(keys, k.in.Graph.TargetNodeID(tg), claims.FileNode(tg.Path))
			} else if id, err := claims.ParseNodeID(t.Ref); err == nil {
				keys = append(keys, id) // run:ID, or a parent link's requirement:PARENT
			}
			slices.SortFunc(keys, NodeID.Compare)
			for _, key := range slices.Compact(keys) {
				k.driftBy[key] = append(k.driftBy[key], i)
			}
		}
	})
	return k.driftBy
}

// evidence lists the evidence entries of a requirement, of a run, or
// covering a test, newest first (by recorded time, then run id).
func (k *Knowledge) evidence(out *LookupJSON, n Node) {
	var list []codeanchors.EvidenceStatus
	for _, es := range k.in.Report.Evidence {
		ev := es.Evidence
		switch {
		case n.ID == claims.RequirementNode(ev.Req), n.ID == claims.RunNode(ev.Run):
		case n.Type == claims.NodeTest && slices.ContainsFunc(ev.Tests, func(t codeanchors.EvidenceTest) bool { return t.Target == n.Ref() }):
		default:
			continue
		}
		list = append(list, es)
	}
	slices.SortStableFunc(list, func(a, b codeanchors.EvidenceStatus) int {
		return cmp.Or(codeanchors.CompareRecorded(b.Evidence, a.Evidence), cmp.Compare(a.Evidence.Req, b.Evidence.Req))
	})
	if len(list) > MaxEvidence {
		out.Truncated["evidence"] = len(list) - MaxEvidence
		list = list[:MaxEvidence]
	}
	for _, es := range list {
		tests := es.Evidence.Tests
		if tests == nil {
			tests = []codeanchors.EvidenceTest{}
		}
		out.Evidence = append(out.Evidence, LookupEvidence{
			Run: es.Evidence.Run, Req: es.Evidence.Req, Passed: es.Evidence.Passed(), State: string(es.Verdict.State),
			Why: cmp.Or(es.Verdict.Why(k.in.Lang), es.Verdict.Note), Tests: tests,
		})
	}
}

// fitLookup sheds sections in SPEC 5's order until out fits. The entity
// and its declared links (declared and verified neighbors at distance 1)
// are never shed.
func fitLookup(out *LookupJSON, tokens int) {
	b := &Budget{Tokens: tokens}
	out.Budget = b
	dropNeighbors := func(label string, drop func(LookupNeighbor) bool) shedStep {
		return func() string {
			shed := false
			for kind, list := range out.Neighbors {
				kept := slices.DeleteFunc(slices.Clone(list), drop)
				if len(kept) == len(list) {
					continue
				}
				shed = true
				if len(kept) == 0 {
					delete(out.Neighbors, kind)
				} else {
					out.Neighbors[kind] = kept
				}
			}
			if !shed {
				return ""
			}
			return label
		}
	}
	fit(out, b, []shedStep{
		func() string {
			shed := false
			for i := range out.Claims {
				shed = shed || out.Claims[i].Excerpt != ""
				out.Claims[i].Excerpt = ""
			}
			if !shed {
				return ""
			}
			return ShedExcerpts
		},
		func() string {
			if len(out.Documents.Mentioning) == 0 {
				return ""
			}
			out.Documents.Mentioning = []LookupDocument{}
			return ShedMentioning
		},
		dropNeighbors(ShedDistance3, func(nb LookupNeighbor) bool { return nb.Distance == 3 }),
		dropNeighbors(ShedDistance2, func(nb LookupNeighbor) bool { return nb.Distance == 2 }),
		func() string {
			if len(out.Documents.Covering) == 0 {
				return ""
			}
			out.Documents.Covering = []LookupDocument{}
			return ShedCovering
		},
		func() string {
			if len(out.Evidence) <= 1 {
				return ""
			}
			out.Evidence = out.Evidence[:1]
			return ShedOldEvidence
		},
		dropNeighbors(ShedLocated1, func(nb LookupNeighbor) bool { return nb.Distance == 1 && nb.Relation == Located }),
		func() string {
			if len(out.Claims) <= BudgetClaims {
				return ""
			}
			out.Claims = out.Claims[:BudgetClaims]
			return ShedClaims
		},
	})
}
