package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/internal/textdiff"
	"github.com/tracewiki/tracewiki/synth"
)

// listColumns is what the index of a listed kind ([synth.Kind.Listed];
// requirements have the matrix) shows of each node: the column heads, and
// a row's cells before its state, from the node's URL and its file's
// counts of symbols and of anchored ones.
type listColumns struct {
	head  []string
	cells func(n synth.Node, url string, symbols, anchored int) []cell
}

// lists holds the columns of every kind with a list page.
var lists = map[claims.NodeType]listColumns{
	claims.NodeDecision: {[]string{"decision", "title", "status", "state"}, func(n synth.Node, url string, _, _ int) []cell {
		return []cell{{Text: n.Label, URL: url}, {Text: n.Title}, {Text: n.Status}}
	}},
	claims.NodePage: {[]string{"page", "title", "type", "state"}, func(n synth.Node, url string, _, _ int) []cell {
		return []cell{{Text: n.Label, URL: url}, {Text: n.Title}, {Text: n.Kind}}
	}},
	claims.NodeFile: {[]string{"file", "symbols", "anchored", "state"}, func(n synth.Node, url string, symbols, anchored int) []cell {
		return []cell{{Text: n.Path, URL: url, Code: true}, {Text: fmt.Sprint(symbols)}, {Text: fmt.Sprint(anchored)}}
	}},
}

// listOf is the index of one listed node type ([lists]); a code kind's
// (files) counts their symbols and is stale when one of them is.
func listOf(typ claims.NodeType, title string) func(b *Renderer, root string) (*pageData, any, error) {
	cols, code := lists[typ], synth.KindOf(typ).Code
	return func(b *Renderer, root string) (*pageData, any, error) {
		d := &pageData{Title: title, Heading: title}
		t := table{Empty: "none yet", Head: cols.head}
		symbols, anchored := map[string]int{}, map[string]int{}
		staleIn := map[string]bool{}
		for _, n := range b.graph.Nodes {
			if synth.KindOf(n.Type).Named { // a symbol or test
				symbols[n.Path]++
				if n.State != "" {
					anchored[n.Path]++
				}
				if n.Stale {
					staleIn[n.Path] = true
				}
			}
		}
		var nodes []synth.Node
		for _, n := range b.graph.Nodes {
			if n.Type == typ {
				nodes = append(nodes, n)
			}
		}
		// Natural order (ADR-2 before ADR-10), in the page and its JSON.
		slices.SortStableFunc(nodes, func(x, y synth.Node) int { return claims.CompareIDs(x.Label, y.Label) })
		for _, n := range nodes {
			st := cell{}
			if n.Stale || staleIn[n.Path] && code {
				st = cell{Text: "stale", Badge: "stale", Title: n.Why}
			}
			cells := append(cols.cells(n, root+NodeURL(n), symbols[n.Path], anchored[n.Path]), st)
			t.Rows = append(t.Rows, row{Stale: st.Badge == "stale", Cells: cells})
		}
		t.Title = fmt.Sprintf("%d %s", len(nodes), strings.ToLower(title))
		if code {
			// "Code" counts files, and says so, with the symbols in them.
			var nsym, nanch int
			for _, n := range nodes {
				nsym += symbols[n.Path]
				nanch += anchored[n.Path]
			}
			t.Title = fmt.Sprintf("%d source files, %d symbols, %d of them anchored", len(nodes), nsym, nanch)
		}
		d.Tables = []table{t}
		return d, ListJSON{SchemaVersion: synth.SchemaVersion, Kind: typ, Title: title, Nodes: orEmpty(nodes)}, nil
	}
}

func orEmpty(ns []synth.Node) []synth.Node {
	if ns == nil {
		return []synth.Node{}
	}
	return ns
}

// home is the front page: the wiki's own index page, counts, and what is
// out of date.
func (b *Renderer) home(root string) (*pageData, any, error) {
	d := &pageData{Title: "Home"}
	if n, ok := b.graph.Node(claims.PageNode("index")); ok {
		var err error
		if d.Body, err = b.body(&b.wiki(n.ID.Key).Doc, root, ""); err != nil {
			return nil, nil, err
		}
	}
	count := map[claims.NodeType]int{}
	staleReqs := 0
	for _, n := range b.graph.Nodes {
		count[n.Type]++
		if n.Type == claims.NodeRequirement && n.Stale {
			staleReqs++
		}
	}
	states := map[codeanchors.State]int{}
	for _, l := range b.drift.Links {
		states[codeanchors.State(l.State)]++
	}
	cov := b.coverage(root)
	all := cov[0]
	d.Matrix = &matrixData{Coverage: cov}
	// Each card links to a page that lists what it counts.
	d.Cards = []card{
		{Text: "requirements", URL: root + indexURL(requirementsDir), Value: all.Total},
		{Text: "implemented", Note: all.Pct(all.Implemented), URL: root + indexURL(filterDir("implemented")), Value: all.Implemented},
		{Text: "tested", Note: all.Pct(all.Tested), URL: root + indexURL(filterDir("tested")), Value: all.Tested},
		{Text: "verified", Note: all.Pct(all.Verified), URL: root + indexURL(filterDir("verified")), Value: all.Verified},
		{Text: "stale requirements", URL: root + indexURL(filterDir("stale")), Value: staleReqs, Stale: staleReqs > 0},
		{Text: "decisions", URL: root + indexURL(decisionsDir), Value: count[claims.NodeDecision]},
		{Text: "pages", URL: root + indexURL(pagesDir), Value: count[claims.NodePage]},
		{Text: "source files", URL: root + indexURL(codeDir), Value: count[claims.NodeFile]},
		b.coverageCard(root),
		{Text: "stale links", URL: root + indexURL(driftDir), Value: states[codeanchors.Stale], Stale: states[codeanchors.Stale] > 0},
		{Text: "unknown links", URL: root + indexURL(driftDir), Value: states[codeanchors.Unknown]},
	}
	d.Cards = append(d.Cards, b.policyCards(root)...)
	d.Cards = append(d.Cards, b.releasesCards(root)...)
	t := table{Title: "Out of date", Head: []string{"link", "reason", "claimed by"}, Empty: "Every link is linked."}
	claimedBy := func(ids []synth.NodeID) cell {
		if len(ids) == 0 {
			return cell{}
		}
		c := cell{Text: ids[0].Key, URL: b.idHref(root, ids[0])}
		if len(ids) > 1 {
			c.Text += fmt.Sprintf(" and %d more", len(ids)-1)
		}
		return c
	}
	for i, l := range b.drift.Links {
		if i == 10 {
			t.Rows = append(t.Rows, row{Cells: []cell{{Text: fmt.Sprintf("… and %d more", len(b.drift.Links)-10), URL: root + indexURL(driftDir)}, {}, {}}})
			break
		}
		t.Rows = append(t.Rows, row{Stale: l.State == string(codeanchors.Stale), Cells: []cell{
			{Text: synth.LinkName(l.Ref, l.ClaimedBy), URL: root + indexURL(driftDir) + "#" + l.Reason, Code: true},
			{Text: l.Reason, Badge: l.State, Title: synth.LinkWhy(l.Ref, l.ClaimedBy, codeanchors.Reason(l.Reason), l.Why, b.lang)}, claimedBy(l.ClaimedBy),
		}})
	}
	d.Tables = []table{t}
	m := synth.NewManifest(b.graph, b.report, b.title, b.baseURL, b.pageCount, b.artifacts, b.truncated)
	return d, m, nil
}

// driftGroup is the drift page's section for one reason.
type driftGroup struct {
	Reason, State, Why string
	Links              []driftEntry
}

type driftEntry struct {
	Ref, URL, Where, Captured, Current, Note string
	Forge                                    string // the current lines (or file) on the forge at the built commit
	ClaimedBy                                []cell
	Diff                                     []diffLine
	// Verified says what a stale evidence entry or parent link was
	// recorded against; Diff is then that text against the current one.
	Verified string
	// Why is the link's own why when it is not its group's (a target that
	// never existed); MovedTo and Suggestions as in the check entry.
	Why         string
	MovedTo     []codeanchors.Relocation
	Suggestions []string
}

type diffLine struct{ Class, Text string }

// driftPage lists every stale and unknown link grouped by reason, in the
// order of SPEC 2, each with a captured-versus-current diff.
func (b *Renderer) driftPage(root string) (*pageData, any, error) {
	d := &pageData{Title: "Out of date", Heading: "Out of date"}
	byReason := map[string][]synth.DriftLink{}
	for _, l := range b.drift.Links {
		byReason[l.Reason] = append(byReason[l.Reason], l)
	}
	for _, r := range codeanchors.Reasons {
		links := byReason[string(r)]
		if len(links) == 0 {
			continue
		}
		g := driftGroup{Reason: string(r), State: string(r.State()), Why: r.Why(b.lang)}
		for _, l := range links {
			e := driftEntry{Ref: synth.LinkName(l.Ref, l.ClaimedBy), Note: l.Note, Where: strings.Join(l.ClaimedAt, ", "), MovedTo: l.Relocated, Suggestions: l.Suggestions}
			if why := synth.LinkWhy(l.Ref, l.ClaimedBy, r, l.Why, b.lang); why != g.Why {
				e.Why = why // a target that never existed; a parent link, naming its child
			}
			if u := strings.TrimPrefix(l.URL, b.baseURL); l.URL != "" {
				e.URL = root + u
			}
			for _, c := range l.ClaimedBy {
				e.ClaimedBy = append(e.ClaimedBy, cell{Text: c.Key, URL: b.idHref(root, c)})
			}
			if l.CapturedStart > 0 {
				e.Captured = fmt.Sprintf("%d–%d", l.CapturedStart, l.CapturedEnd)
			}
			if l.Start > 0 {
				e.Current = fmt.Sprintf("%d–%d", l.Start, l.End)
			}
			if ts := b.targets[l.Ref]; ts != nil {
				if src := b.sources[ts.Target.Path]; src != nil && src.Absent == "" {
					e.Forge = b.forge.Lines(ts.Target.Path, l.Start, l.End)
				}
			}
			e.Diff = b.captureDiff(l.Ref, l.Start, l.End, 3)
			if note, diff, ok := b.verifiedFor(l); ok {
				e.Verified, e.Diff = note, diff
			}
			g.Links = append(g.Links, e)
		}
		d.Groups = append(d.Groups, g)
	}
	return d, b.drift, nil
}

// captureDiff is the unified diff, with context lines of context, between
// a target's captured text and its current lines start..end (none when it
// was never captured; start 0: no current lines).
func (b *Renderer) captureDiff(ref string, start, end, context int) []diffLine {
	ts := b.targets[ref]
	if ts == nil || ts.Anchor == nil {
		return nil
	}
	old := strings.Split(strings.TrimSuffix(ts.Anchor.CapturedText, "\n"), "\n")
	var cur []string
	if src := b.sources[ts.Target.Path]; src != nil && src.Absent == "" && start > 0 {
		for _, line := range src.Lines[start-1 : min(end, len(src.Lines))] {
			cur = append(cur, string(line))
		}
	}
	text := textdiff.Unified(fmt.Sprintf("captured %s (lines %d–%d)", ref, ts.Anchor.Start, ts.Anchor.End), "current", old, cur, context)
	return diffLines(text, func(hunk string) string { return fileLineHunk(hunk, ts.Anchor.Start, start) })
}

// diffLines splits a unified diff into the lines the site shows, each with
// its class; hunk, when not nil, rewrites each hunk header.
func diffLines(text string, hunk func(string) string) []diffLine {
	var out []diffLine
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		class := ""
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			class = "file"
		case strings.HasPrefix(line, "@@"):
			class = "hunk"
			if hunk != nil {
				line = hunk(line)
			}
		case strings.HasPrefix(line, "+"):
			class = "add"
		case strings.HasPrefix(line, "-"):
			class = "del"
		}
		out = append(out, diffLine{Class: class, Text: line})
	}
	return out
}

// fileLineHunk renumbers a hunk header of a diff between two excerpts so
// that it names the lines of the file: the captured excerpt started at
// line oldStart, the current one at newStart (0: no current lines, left
// as is). Ranges keep GNU diff's form: "n" for one line, "n,count" else.
func fileLineHunk(h string, oldStart, newStart int) string {
	body, ok := strings.CutPrefix(h, "@@ ")
	body, ok2 := strings.CutSuffix(body, " @@")
	fields := strings.Fields(body)
	if !ok || !ok2 || len(fields) != 2 {
		return h
	}
	for i, start := range []int{oldStart, newStart} {
		sign, rng := fields[i][:1], fields[i][1:]
		num, count, hasCount := strings.Cut(rng, ",")
		n, err := strconv.Atoi(num)
		if err != nil || start == 0 {
			continue
		}
		fields[i] = sign + strconv.Itoa(n+start-1)
		if hasCount {
			fields[i] += "," + count
		}
	}
	return "@@ " + fields[0] + " " + fields[1] + " @@"
}
