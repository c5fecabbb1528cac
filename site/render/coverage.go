package render

import (
	"fmt"
	"path"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// Code coverage by requirements (SPEC 1.7): api/coverage.json and the
// coverage page, computed by [synth.NewCoverage] from the graph.

// coverageDir is the folder of the coverage page.
const coverageDir = "coverage"

// writeCoverage writes api/coverage.json (every write path goes through
// [Renderer.addStatic]).
func (b *Renderer) writeCoverage(put func(name string, data []byte) error) error {
	data, err := synth.MarshalJSON(b.codeCov)
	if err != nil {
		return err
	}
	return put(synth.CoverageFile, data)
}

// coverageData is what the coverage page shows besides the common parts.
type coverageData struct {
	Totals  synth.CoverageCount
	Exclude []string
	Min     string // the configured minimum as a percentage; "" for none
	Folders []*coverageFolderRow
}

// coverageFolderRow is one folder: its roll-up and the files directly in
// it.
type coverageFolderRow struct {
	Folder, Anchor string
	synth.CoverageCount
	List []coverageFileRow // the files directly in the folder
}

// coverageFileRow is one file with its uncovered symbols.
type coverageFileRow struct {
	Path, URL                 string
	Symbols, Covered, Percent int // Percent rounded down, for sorting
	Share                     string
	Waived                    bool
	Uncovered                 []cell // each a link to the symbol on its file's page
}

// coveragePage is the coverage page: a sortable table of folders, each
// with its files and their uncovered symbols. Its JSON twin is
// api/coverage.json.
func (b *Renderer) coveragePage(root string) (*pageData, any, error) {
	c := b.codeCov
	cd := &coverageData{Totals: c.Totals, Exclude: c.Exclude}
	if m := b.covMin; m > 0 {
		cd.Min = synth.Percent(m)
	}
	rows := map[string]*coverageFolderRow{}
	for _, f := range c.Folders {
		r := &coverageFolderRow{Folder: f.Folder, Anchor: folderAnchor(f.Folder), CoverageCount: f.CoverageCount}
		rows[f.Folder] = r
		cd.Folders = append(cd.Folders, r)
	}
	for _, f := range c.Files {
		fr := coverageFileRow{Path: f.Path, URL: root + idURL(claims.FileNode(f.Path)), Symbols: f.Symbols, Covered: f.Covered, Waived: f.Waived}
		share := 1.0
		if f.Symbols > 0 {
			share = float64(f.Covered) / float64(f.Symbols)
		}
		fr.Share, fr.Percent = synth.Percent(share), int(share*100)
		for _, name := range f.Uncovered {
			u := ""
			if id := b.graph.TargetNodeID(claims.Target{Path: f.Path, Symbol: name}); b.relURL(id) != "" {
				u = root + b.relURL(id)
			}
			fr.Uncovered = append(fr.Uncovered, cell{Text: name, URL: u, Code: true})
		}
		dir := path.Dir(f.Path)
		rows[dir].List = append(rows[dir].List, fr)
	}
	d := &pageData{Title: "Code coverage", Heading: "Code coverage", CodeCoverage: cd}
	return d, c, nil
}

// coverageCard is the home page's card of code coverage.
func (b *Renderer) coverageCard(root string) card {
	t := b.codeCov.Totals
	return card{Text: "symbols covered", Note: synth.Percent(t.Share), URL: root + indexURL(coverageDir), Value: t.Covered, Stale: t.Uncovered > 0 && t.BelowMin(b.covMin)}
}

// String is a folder's heading text.
func (r coverageFolderRow) String() string {
	if r.Folder == "." {
		return "(root)"
	}
	return fmt.Sprintf("%s/", r.Folder)
}

// SharePct is a folder's share as a percentage.
func (r coverageFolderRow) SharePct() string { return synth.Percent(r.Share) }
