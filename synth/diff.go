package synth

import (
	"github.com/tracewiki/tracewiki/claims"

	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// DiffSchemaVersion is the version of the JSON of "tracewiki diff".
const DiffSchemaVersion = 1

// MaxArtifactBytes caps the size of one JSON artifact [ReadSnapshot] reads.
// A larger file is an error, not a silent truncation.
const MaxArtifactBytes = 256 << 20

// MaxDiffItems caps each section of the Markdown of a diff; the rest is
// counted ("… and 3 more"). The JSON lists everything.
const MaxDiffItems = 20

// Snapshot is what a built site says about itself: the JSON artifacts of
// its api/ folder.
type Snapshot struct {
	Manifest ManifestJSON
	Graph    GraphJSON
	Drift    DriftJSON
	Search   SearchJSON
}

// ReadSnapshot reads the artifacts of the site built into fsys. dir names
// fsys in errors, which read "dir/api/graph.json: message".
func ReadSnapshot(fsys fs.FS, dir string) (*Snapshot, error) {
	s := &Snapshot{}
	for _, a := range []struct {
		name    string
		v       any
		version *int
		want    int
	}{
		{"api/manifest.json", &s.Manifest, &s.Manifest.SchemaVersion, SchemaVersion},
		{"api/graph.json", &s.Graph, &s.Graph.SchemaVersion, GraphSchemaVersion},
		{"api/drift.json", &s.Drift, &s.Drift.SchemaVersion, SchemaVersion},
		{"api/search.json", &s.Search, &s.Search.SchemaVersion, SchemaVersion},
	} {
		name := path.Join(dir, a.name)
		data, err := readArtifact(fsys, a.name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := json.Unmarshal(data, a.v); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if *a.version != a.want {
			return nil, fmt.Errorf("%s: schemaVersion %d, want %d (not built by this version of tracewiki?)", name, *a.version, a.want)
		}
	}
	return s, nil
}

func readArtifact(fsys fs.FS, name string) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err == nil && st.Size() > MaxArtifactBytes {
		err = fmt.Errorf("%d bytes, more than the %d an artifact may have", st.Size(), MaxArtifactBytes)
	}
	var data []byte
	if err == nil {
		data, err = fs.ReadFile(fsys, name)
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the caller names the file
	}
	return data, err
}

// DiffJSON is what changed between two builds, as "tracewiki diff --format
// json" prints it. Every list is sorted and present (empty, never null).
type DiffJSON struct {
	SchemaVersion int `json:"schemaVersion"`
	// PreviewURL prefixes every url when set; otherwise urls are relative
	// to the new site's root.
	PreviewURL string     `json:"preview_url,omitempty"`
	Counts     DiffCounts `json:"counts"`
	// Broken lists the links of the new build that are stale or unknown
	// and were not so, for the same reason, in the old one; in ref order.
	Broken []LinkChange `json:"broken"`
	// Fixed lists the links that were stale or unknown and now are linked
	// or no longer referenced; in ref order.
	Fixed []LinkChange `json:"fixed"`
	// Requirements lists the requirements whose implemented, tested or
	// verified changed, or that were added or removed; in id order.
	Requirements []RequirementChange `json:"requirements"`
	// ClaimsAdded and ClaimsRemoved list the declared links to code (kind
	// claims, implements or tests) in one build and not the other; by src,
	// kind and ref.
	ClaimsAdded   []ClaimChange `json:"claims_added"`
	ClaimsRemoved []ClaimChange `json:"claims_removed"`
	// Pages lists the requirements, decisions and wiki pages that changed,
	// in node order.
	Pages []PageChange `json:"pages"`
}

// DiffCounts counts each list of a [DiffJSON].
type DiffCounts struct {
	Broken        int `json:"broken"`
	Fixed         int `json:"fixed"`
	Requirements  int `json:"requirements"`
	ClaimsAdded   int `json:"claims_added"`
	ClaimsRemoved int `json:"claims_removed"`
	Pages         int `json:"pages"`
}

// LinkChange is a link whose state changed.
type LinkChange struct {
	Ref string `json:"ref"` // PATH@SYMBOL, PATH, PATH#Lx-Ly or run:ID
	// Before is the link's state in the old build: null when it was not
	// there. After is its state in the new build: null when it is no
	// longer referenced.
	Before *LinkState `json:"before"`
	After  *LinkState `json:"after"`
	// ClaimedBy lists the node ids that make the link, in the build where
	// it is stale or unknown.
	ClaimedBy []NodeID `json:"claimed_by"`
	URL       string   `json:"url,omitempty"` // the target's page in the new build
	// Relocated and Suggestions are those of the new build's drift entry
	// (broken links only; absent when there are none).
	Relocated   []codeanchors.Relocation `json:"relocated,omitempty"`
	Suggestions []string                 `json:"suggestions,omitempty"`
}

// LinkState is the drift verdict of a link.
type LinkState struct {
	State  string `json:"state"`
	Reason string `json:"reason"`
	Why    string `json:"why"`
}

// RequirementChange is a requirement whose derived fields changed.
type RequirementChange struct {
	ID     NodeID            `json:"id"` // requirement:ID
	Title  string            `json:"title"`
	Before *RequirementFlags `json:"before"` // null: added
	After  *RequirementFlags `json:"after"`  // null: removed
	URL    string            `json:"url,omitempty"`
}

// RequirementFlags are the derived fields of a requirement (SPEC 2).
type RequirementFlags struct {
	Implemented bool `json:"implemented"`
	Tested      bool `json:"tested"`
	Verified    bool `json:"verified"`
}

// ClaimChange is a declared link to code added or removed.
type ClaimChange struct {
	Src   NodeID `json:"src"`   // the node that makes it
	Kind  string `json:"kind"`  // claims, implements, tests
	Ref   string `json:"ref"`   // the code target
	State string `json:"state"` // in the build that has it
	URL   string `json:"url,omitempty"`
}

// PageChange is a requirement, decision or wiki page that changed, with
// what changed, in this order: added, removed, title, status, text, stale,
// claims, links.
type PageChange struct {
	ID      NodeID   `json:"id"`
	Title   string   `json:"title"`
	Changes []string `json:"changes"`
	URL     string   `json:"url,omitempty"`
}

// Empty reports whether nothing changed.
func (d *DiffJSON) Empty() bool { return d.Counts == DiffCounts{} }

// Diff compares two builds. previewURL, when set, is where the new build
// is served; every url of the result is then absolute under it.
//
// Rules: a link is keyed by its ref (and, for evidence, its requirement).
// It is broken when the new drift lists it and the old one did not, or
// with another state or reason; fixed when the old drift lists it and the
// new one does not. A page changed when its title, status, text (its
// search text, and a requirement's revision), stale badge or why, or the
// set of its outgoing declared links changed.
func Diff(old, new *Snapshot, previewURL string) DiffJSON {
	d := DiffJSON{
		SchemaVersion: DiffSchemaVersion, PreviewURL: previewURL,
		Broken: []LinkChange{}, Fixed: []LinkChange{}, Requirements: []RequirementChange{},
		ClaimsAdded: []ClaimChange{}, ClaimsRemoved: []ClaimChange{}, Pages: []PageChange{},
	}
	urls := new.urls(previewURL)
	d.diffLinks(old, new, urls)
	oldNodes, newNodes := nodesByID(old.Graph), nodesByID(new.Graph)
	d.diffRequirements(oldNodes, newNodes, urls)
	d.diffClaims(old.Graph, new.Graph, urls)
	d.diffPages(old, new, oldNodes, newNodes, urls)
	d.Counts = DiffCounts{
		Broken: len(d.Broken), Fixed: len(d.Fixed), Requirements: len(d.Requirements),
		ClaimsAdded: len(d.ClaimsAdded), ClaimsRemoved: len(d.ClaimsRemoved), Pages: len(d.Pages),
	}
	return d
}

// urls maps node ids and code targets' refs to their page URLs in the
// build: from the search index, and the drift links' URLs (made relative
// to the base) for code targets.
func (s *Snapshot) urls(preview string) map[string]string {
	m := map[string]string{}
	for _, e := range s.Search.Entries {
		if e.URL != "" {
			m[e.ID.String()] = e.URL
		}
	}
	for _, l := range s.Drift.Links {
		if u, ok := strings.CutPrefix(l.URL, s.Manifest.BaseURL); ok && l.URL != "" && linkNode(l).IsZero() {
			m[l.Ref] = u
		}
	}
	if preview != "" {
		preview = strings.TrimRight(preview, "/") + "/"
		for k, u := range m {
			m[k] = preview + u
		}
	}
	return m
}

// linkNode is the node a drift link's ref names when it is not a code
// target: run:ID for an evidence entry, requirement:PARENT for a parent
// link; the zero id for a code target.
func linkNode(l DriftLink) NodeID {
	id, err := claims.ParseNodeID(l.Ref)
	if err != nil || id.Type != claims.NodeRun && id.Type != claims.NodeRequirement {
		return NodeID{}
	}
	return id
}

// linkKey identifies a link across builds: its ref, and for an evidence
// entry or a parent link its claimer too (one run may evidence several
// requirements, one parent have several children).
func linkKey(l DriftLink) string {
	if !linkNode(l).IsZero() && len(l.ClaimedBy) > 0 {
		return l.Ref + " " + l.ClaimedBy[0].String()
	}
	return l.Ref
}

// linkStates returns the state of every link of a graph by [linkKey]: code
// targets from their nodes, evidence from the evidences edges.
func linkStates(g GraphJSON) map[string]LinkState {
	m := map[string]LinkState{}
	for _, n := range g.Nodes {
		if n.State != "" {
			m[n.Ref()] = LinkState{State: n.State, Reason: n.Reason, Why: n.Why}
		}
	}
	for _, e := range g.Edges {
		if e.Kind == KindEvidences || e.Kind == KindParent {
			m[e.Dst.String()+" "+e.Src.String()] = LinkState{State: e.State, Reason: e.Reason, Why: e.Why}
		}
	}
	return m
}

func (d *DiffJSON) diffLinks(old, new *Snapshot, urls map[string]string) {
	oldDrift := map[string]DriftLink{}
	for _, l := range old.Drift.Links {
		oldDrift[linkKey(l)] = l
	}
	newDrift := map[string]bool{}
	oldStates := linkStates(old.Graph)
	for _, l := range new.Drift.Links {
		key := linkKey(l)
		newDrift[key] = true
		after := &LinkState{State: l.State, Reason: l.Reason, Why: l.Why}
		var before *LinkState
		if o, ok := oldDrift[key]; ok {
			if o.State == l.State && o.Reason == l.Reason {
				continue
			}
			before = &LinkState{State: o.State, Reason: o.Reason, Why: o.Why}
		} else if s, ok := oldStates[key]; ok {
			before = &s
		}
		d.Broken = append(d.Broken, LinkChange{Ref: l.Ref, Before: before, After: after, ClaimedBy: nonNil(l.ClaimedBy), URL: linkURL(l, urls),
			Relocated: l.Relocated, Suggestions: l.Suggestions})
	}
	newStates := linkStates(new.Graph)
	for _, l := range old.Drift.Links {
		key := linkKey(l)
		if newDrift[key] {
			continue
		}
		c := LinkChange{Ref: l.Ref, Before: &LinkState{State: l.State, Reason: l.Reason, Why: l.Why}, ClaimedBy: nonNil(l.ClaimedBy)}
		if s, ok := newStates[key]; ok {
			c.After = &s
			c.URL = linkURL(l, urls)
		}
		d.Fixed = append(d.Fixed, c)
	}
	// Both drifts are in ref order already; sort anyway, for hand-made input.
	for _, list := range [][]LinkChange{d.Broken, d.Fixed} {
		slices.SortStableFunc(list, func(a, b LinkChange) int {
			return cmp.Or(cmp.Compare(a.Ref, b.Ref), slices.CompareFunc(a.ClaimedBy, b.ClaimedBy, NodeID.Compare))
		})
	}
}

// linkURL is the page of a link's code target, or for an evidence entry
// or a parent link the page of its claimer (as api/drift.json links them).
func linkURL(l DriftLink, urls map[string]string) string {
	if !linkNode(l).IsZero() {
		if len(l.ClaimedBy) > 0 {
			return urls[l.ClaimedBy[0].String()]
		}
		return ""
	}
	if u := urls[l.Ref]; u != "" {
		return u
	}
	for _, typ := range []claims.NodeType{claims.NodeSymbol, claims.NodeTest} {
		if u := urls[NodeID{Type: typ, Key: l.Ref}.String()]; u != "" {
			return u
		}
	}
	return ""
}

func nodesByID(g GraphJSON) map[NodeID]Node {
	m := make(map[NodeID]Node, len(g.Nodes))
	for _, n := range g.Nodes {
		m[n.ID] = n
	}
	return m
}

func flags(n Node, ok bool) *RequirementFlags {
	if !ok {
		return nil
	}
	deref := func(b *bool) bool { return b != nil && *b }
	return &RequirementFlags{Implemented: deref(n.Implemented), Tested: deref(n.Tested), Verified: deref(n.Verified)}
}

func (d *DiffJSON) diffRequirements(oldNodes, newNodes map[NodeID]Node, urls map[string]string) {
	ids := map[NodeID]bool{}
	for _, m := range []map[NodeID]Node{oldNodes, newNodes} {
		for id, n := range m {
			if n.Type == claims.NodeRequirement {
				ids[id] = true
			}
		}
	}
	for _, id := range slices.SortedFunc(maps.Keys(ids), NodeID.Compare) {
		o, okO := oldNodes[id]
		n, okN := newNodes[id]
		before, after := flags(o, okO && o.Type == claims.NodeRequirement), flags(n, okN && n.Type == claims.NodeRequirement)
		if before != nil && after != nil && *before == *after {
			continue
		}
		title := n.Title
		if !okN {
			title = o.Title
		}
		c := RequirementChange{ID: id, Title: title, Before: before, After: after}
		if after != nil {
			c.URL = urls[id.String()]
		}
		d.Requirements = append(d.Requirements, c)
	}
}

// claimKinds are the declared links to code a diff lists as claims.
var claimKinds = []string{KindClaims, KindImplements, KindTests}

// isCodeNode says whether a link's end is code (a symbol, a test, a file).
func isCodeNode(id NodeID) bool {
	return KindOf(id.Type).Code
}

func claimEdges(g GraphJSON) map[[3]string]Edge {
	m := map[[3]string]Edge{}
	for _, e := range g.Edges {
		if e.Relation == Declared && slices.Contains(claimKinds, e.Kind) && isCodeNode(e.Dst) {
			m[[3]string{e.Src.String(), e.Kind, e.Dst.String()}] = e
		}
	}
	return m
}

func (d *DiffJSON) diffClaims(old, new GraphJSON, urls map[string]string) {
	o, n := claimEdges(old), claimEdges(new)
	change := func(e Edge, url string) ClaimChange {
		return ClaimChange{Src: e.Src, Kind: e.Kind, Ref: e.Dst.Key, State: e.State, URL: url}
	}
	for _, k := range slices.SortedFunc(maps.Keys(n), compareKeys) {
		if _, ok := o[k]; !ok {
			d.ClaimsAdded = append(d.ClaimsAdded, change(n[k], urls[k[0]]))
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(o), compareKeys) {
		if _, ok := n[k]; !ok {
			d.ClaimsRemoved = append(d.ClaimsRemoved, change(o[k], urls[k[0]]))
		}
	}
}

func compareKeys(a, b [3]string) int { return slices.Compare(a[:], b[:]) }

// pageInfo is what a page diff compares of one document node.
type pageInfo struct {
	node          Node
	text          string
	claims, links []string // outgoing declared links to code, and the others: "kind dst"
}

func pageInfos(s *Snapshot) map[NodeID]*pageInfo {
	m := map[NodeID]*pageInfo{}
	for _, n := range s.Graph.Nodes {
		if KindOf(n.Type).Authored {
			m[n.ID] = &pageInfo{node: n}
		}
	}
	for _, e := range s.Search.Entries {
		if p := m[e.ID]; p != nil {
			p.text = e.Text
		}
	}
	for _, e := range s.Graph.Edges {
		p := m[e.Src]
		if p == nil || e.Relation == Located {
			continue
		}
		if slices.Contains(claimKinds, e.Kind) && isCodeNode(e.Dst) {
			p.claims = append(p.claims, e.Kind+" "+e.Dst.String())
		} else {
			p.links = append(p.links, e.Kind+" "+e.Dst.String())
		}
	}
	for _, p := range m {
		slices.Sort(p.claims)
		slices.Sort(p.links)
	}
	return m
}

func (d *DiffJSON) diffPages(old, new *Snapshot, oldNodes, newNodes map[NodeID]Node, urls map[string]string) {
	o, n := pageInfos(old), pageInfos(new)
	var ids []NodeID
	for id := range o {
		ids = append(ids, id)
	}
	for id := range n {
		if o[id] == nil {
			ids = append(ids, id)
		}
	}
	node := func(id NodeID) Node {
		if x, ok := newNodes[id]; ok {
			return x
		}
		return oldNodes[id]
	}
	slices.SortFunc(ids, func(a, b NodeID) int { return compareNodes(node(a), node(b)) })
	for _, id := range ids {
		a, b := o[id], n[id]
		var changes []string
		switch {
		case a == nil:
			changes = []string{"added"}
		case b == nil:
			changes = []string{"removed"}
		default:
			x, y := a.node, b.node
			for _, c := range []struct {
				name    string
				changed bool
			}{
				{"title", x.Title != y.Title},
				{"status", x.Status != y.Status},
				{"text", a.text != b.text || x.Revision != y.Revision},
				{"stale", x.Stale != y.Stale || x.Why != y.Why},
				{"claims", !slices.Equal(a.claims, b.claims)},
				{"links", !slices.Equal(a.links, b.links)},
			} {
				if c.changed {
					changes = append(changes, c.name)
				}
			}
		}
		if changes == nil {
			continue
		}
		c := PageChange{ID: id, Title: node(id).Title, Changes: changes}
		if b != nil {
			c.URL = urls[id.String()]
		}
		d.Pages = append(d.Pages, c)
	}
}

func nonNil(s []NodeID) []NodeID {
	if s == nil {
		return []NodeID{}
	}
	return s
}

// Markdown renders the diff as a pull-request comment: a heading with the
// counts, then one short section per non-empty list, each capped at
// [MaxDiffItems] items. An empty diff is the one line "No traceability
// changes.".
func (d *DiffJSON) Markdown() string {
	if d.Empty() {
		return "No traceability changes.\n"
	}
	var b strings.Builder
	var counts []string
	for _, c := range []struct {
		n                int
		one, many, whatV string
	}{
		{d.Counts.Broken, "link", "links", "went stale or unknown"},
		{d.Counts.Fixed, "link", "links", "fixed"},
		{d.Counts.Requirements, "requirement", "requirements", "changed"},
		{d.Counts.ClaimsAdded, "claim", "claims", "added"},
		{d.Counts.ClaimsRemoved, "claim", "claims", "removed"},
		{d.Counts.Pages, "page", "pages", "changed"},
	} {
		if c.n == 1 {
			counts = append(counts, fmt.Sprintf("1 %s %s", c.one, c.whatV))
		} else if c.n > 1 {
			counts = append(counts, fmt.Sprintf("%d %s %s", c.n, c.many, c.whatV))
		}
	}
	fmt.Fprintf(&b, "### Traceability: %s\n", strings.Join(counts, ", "))

	section(&b, "Went stale or unknown", d.Broken, func(c LinkChange) string {
		r := codeanchors.Reason(c.After.Reason)
		why := LinkWhy(c.Ref, c.ClaimedBy, r, c.After.Why, whyLang(r, c.After.Why))
		s := fmt.Sprintf("%s **%s** (`%s`): %s", link(code(LinkName(c.Ref, c.ClaimedBy)), c.URL), c.After.State, c.After.Reason, escape(why))
		switch {
		case c.Before == nil:
			s += "; new link"
		case c.Before.Reason == "":
			s += "; was " + c.Before.State
		default:
			s += fmt.Sprintf("; was %s (`%s`)", c.Before.State, c.Before.Reason)
		}
		for i, r := range c.Relocated {
			if i == 0 {
				s += "; moved to "
			} else {
				s += ", "
			}
			s += code(r.Ref) + " (" + r.How + ")"
		}
		for i, r := range c.Suggestions {
			if i == 0 {
				s += "; did you mean "
			} else {
				s += ", "
			}
			s += code(r)
		}
		return s + claimedBy(c.ClaimedBy)
	})
	section(&b, "Fixed", d.Fixed, func(c LinkChange) string {
		s := link(code(LinkName(c.Ref, c.ClaimedBy)), c.URL)
		switch {
		case c.After == nil && strings.HasPrefix(c.Ref, "run:"):
			// An evidence entry leaves the graph when a newer run of its
			// requirement supersedes it (SPEC 1.5): history, not a link.
			s += ": no longer live, a newer run superseded it"
		case c.After == nil:
			s += ": no longer referenced"
		default:
			s += ": now " + c.After.State
		}
		return s + fmt.Sprintf("; was %s (`%s`)", c.Before.State, c.Before.Reason) + claimedBy(c.ClaimedBy)
	})
	section(&b, "Requirements", d.Requirements, func(c RequirementChange) string {
		s := link(code(c.ID.String()), c.URL)
		if c.Title != "" {
			s += " " + escape(c.Title)
		}
		switch {
		case c.Before == nil:
			return s + ": added (" + c.After.String() + ")"
		case c.After == nil:
			return s + ": removed"
		}
		var parts []string
		for _, f := range []struct {
			name string
			a, b bool
		}{
			{"implemented", c.Before.Implemented, c.After.Implemented},
			{"tested", c.Before.Tested, c.After.Tested},
			{"verified", c.Before.Verified, c.After.Verified},
		} {
			if f.a != f.b {
				parts = append(parts, fmt.Sprintf("%s %s → %s", f.name, yesNo(f.a), yesNo(f.b)))
			}
		}
		return s + ": " + strings.Join(parts, ", ")
	})
	claim := func(c ClaimChange) string {
		s := fmt.Sprintf("%s %s %s", link(code(c.Src.String()), c.URL), c.Kind, code(c.Ref))
		if c.State != "" && c.State != "linked" {
			s += " (" + c.State + ")"
		}
		return s
	}
	section(&b, "Claims added", d.ClaimsAdded, claim)
	section(&b, "Claims removed", d.ClaimsRemoved, claim)
	section(&b, "Pages changed", d.Pages, func(c PageChange) string {
		s := link(code(c.ID.String()), c.URL)
		if c.Title != "" {
			s += " " + escape(c.Title)
		}
		return s + ": " + strings.Join(c.Changes, ", ")
	})
	return b.String()
}

// String lists the flags for people: "implemented yes, tested no, verified no".
func (f *RequirementFlags) String() string {
	return fmt.Sprintf("implemented %s, tested %s, verified %s", yesNo(f.Implemented), yesNo(f.Tested), yesNo(f.Verified))
}

func section[T any](b *strings.Builder, title string, items []T, line func(T) string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### %s (%d)\n\n", title, len(items))
	for _, it := range items[:min(len(items), MaxDiffItems)] {
		fmt.Fprintf(b, "- %s\n", line(it))
	}
	if n := len(items) - MaxDiffItems; n > 0 {
		fmt.Fprintf(b, "- … and %d more\n", n)
	}
}

func claimedBy(ids []NodeID) string {
	if len(ids) == 0 {
		return ""
	}
	const max = 5
	var parts []string
	for _, id := range ids[:min(len(ids), max)] {
		parts = append(parts, code(id.String()))
	}
	s := "; claimed by " + strings.Join(parts, ", ")
	if len(ids) > max {
		s += fmt.Sprintf(" and %d more", len(ids)-max)
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// link makes text a Markdown link to url, or leaves it as it is without a
// url.
func link(text, url string) string {
	if url == "" {
		return text
	}
	return "[" + text + "](" + strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(url) + ")"
}

// code is s as a Markdown code span, fenced with more backticks than it
// holds.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.Contains(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// escape backslash-escapes the characters that would make text Markdown
// or HTML, and breaks @mentions with a zero-width space (as Dependabot
// does), so a title cannot ping a user or a team from a PR comment.
var escape = strings.NewReplacer(
	"@", "@&#8203;", `\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`,
	"#", `\#`, "|", `\|`, "~", `\~`, "\n", " ",
).Replace

// whyLang is the language a reason's why was written in (the builds a PR
// diff compares say it only through their whys); "en" when none matches.
func whyLang(r codeanchors.Reason, why string) string {
	for _, lang := range codeanchors.Languages {
		if r.Why(lang) == why {
			return lang
		}
	}
	return "en"
}
