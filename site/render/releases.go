package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/tracewiki/tracewiki/synth"
)

// releasesDir is the folder of the Releases page (SPEC 4).
const releasesDir = "releases"

// releasesPages is the Releases page when the config names baselines:
// [Renderer.pages] appends it. It is not keyed: it is rendered by every
// build, from baselines the build cache keeps by commit.
func (b *Renderer) releasesPages() []Page {
	if b.baselines == nil {
		return nil
	}
	return []Page{{dir: releasesDir, tmpl: "list", data: (*Renderer).releasesPage}}
}

// releasesCards is the home page's card of the Releases page; none
// without baselines.
func (b *Renderer) releasesCards(root string) []card {
	if b.baselines == nil {
		return nil
	}
	return []card{{Text: "releases", URL: root + indexURL(releasesDir), Value: len(b.baselines.Baselines)}}
}

// writeChangelog writes api/changelog.json when there are baselines.
func (b *Renderer) writeChangelog(put func(name string, data []byte) error) error {
	if b.baselines == nil {
		return nil
	}
	data, err := synth.MarshalJSON(b.baselines)
	if err != nil {
		return err
	}
	return put(synth.ChangelogFile, data)
}

// releasesPage lists the baselines, newest first: each with its
// changelog to the previous one (the changelog command's sections) and
// the matrix at that baseline. Its JSON twin is api/changelog.json.
func (b *Renderer) releasesPage(root string) (*pageData, any, error) {
	d := &pageData{Title: "Releases", Heading: "Releases"}
	d.Body = template.HTML(`<p>Each baseline (a tag that <code>[baselines] tags</code> names in <code>tracewiki.toml</code>) with what changed in the requirements since the one before it, and the traceability matrix at that baseline. ` +
		`<code>tracewiki changelog --base REV --head REV</code> gives the same between any two revisions.</p>`)
	bs := b.baselines.Baselines
	for i := len(bs) - 1; i >= 0; i-- {
		bl := bs[i]
		req := func(id string) cell { return cell{Text: id, URL: b.reqURL(root, id)} }
		t := table{Title: fmt.Sprintf("%s (%s, commit %s)", bl.Tag, bl.Date, bl.Commit[:min(12, len(bl.Commit))]), Head: []string{"requirement", "change", "detail"}}
		if c := bl.Changelog; c == nil {
			t.Empty = "The first baseline."
		} else {
			t.Empty = "No change in the requirements since " + c.Base + "."
			for _, r := range c.Added {
				t.Rows = append(t.Rows, row{Cells: []cell{req(r.ID), {Text: "added"}, {Text: r.Title}}})
			}
			for _, r := range c.Removed {
				t.Rows = append(t.Rows, row{Stale: true, Cells: []cell{{Text: r.ID}, {Text: "removed"}, {Text: r.Title}}})
			}
			for _, r := range c.Changed {
				t.Rows = append(t.Rows, row{Cells: []cell{req(r.ID), {Text: "changed: " + strings.Join(r.Fields, ", ")}, {Text: r.Diff, Code: r.Diff != ""}}})
			}
			for _, l := range c.Parents {
				t.Rows = append(t.Rows, row{Cells: []cell{req(l.ID), {Text: "parents"}, {Text: linksText(l)}}})
			}
			for _, l := range c.Links {
				t.Rows = append(t.Rows, row{Cells: []cell{req(l.ID), {Text: "links"}, {Text: linksText(l), Code: true}}})
			}
			for _, v := range c.Verification {
				t.Rows = append(t.Rows, row{Stale: v.To != synth.VerifiedState, Cells: []cell{req(v.ID), {Text: v.From + " → " + v.To}, {Text: v.Why}}})
			}
			if p := c.Policy; p != nil {
				t.Rows = append(t.Rows, row{Stale: p.Head > p.Base, Cells: []cell{{Text: "policy"}, {Text: fmt.Sprintf("%d → %d problems", p.Base, p.Head)}, {Text: fmt.Sprintf("%d new, %d resolved", len(p.New), len(p.Resolved))}}})
			}
			if cv := c.Coverage; cv != nil && cv.Base != cv.Head {
				t.Rows = append(t.Rows, row{Cells: []cell{{Text: "coverage"}, {Text: cv.Base.String() + " → " + cv.Head.String()}, {}}})
			}
		}
		d.Tables = append(d.Tables, t)
		m := table{Title: "Matrix at " + bl.Tag, Head: []string{"requirement", "title", "status", "implemented", "tested", "verified"}, Empty: "No requirements."}
		for _, r := range bl.Matrix {
			m.Rows = append(m.Rows, row{Cells: []cell{req(r.ID), {Text: r.Title}, {Text: r.Status}, {Text: yesNo(r.Implemented)}, {Text: yesNo(r.Tested)}, {Text: yesNo(r.Verified)}}})
		}
		d.Tables = append(d.Tables, m)
	}
	return d, b.baselines, nil
}

// changedIn is the baseline that last added or changed a requirement,
// for its page ("changed in v1.3"); "" when none did.
func (b *Renderer) changedIn(id string) string {
	if b.baselines == nil {
		return ""
	}
	return b.changed[id]
}

// reqURL is the URL of a requirement's page, "" when the site has none
// (a requirement of an old baseline since removed).
func (b *Renderer) reqURL(root, id string) string {
	if u := b.relURL(synth.NodeID{Type: "requirement", Key: id}); u != "" {
		return root + u
	}
	return ""
}

// linksText is a requirement's links added and removed, one a line.
func linksText(l synth.ChangedLinks) string {
	var parts []string
	for _, s := range l.Added {
		parts = append(parts, "+ "+s)
	}
	for _, s := range l.Removed {
		parts = append(parts, "- "+s)
	}
	return strings.Join(parts, "\n")
}

// yesNo is a matrix cell of a derived field.
func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
