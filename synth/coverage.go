package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tracewiki/tracewiki/claims"
)

// Code coverage by requirements (SPEC 1.7): which symbols of the code index
// some requirement implements or tests. A symbol is covered when an
// implements or tests link of a requirement names it, its file, a type that
// contains it (a link to Cart covers Cart.Add, by the qualified names every
// language's extractor gives members), or a line range that holds all of
// its lines. The links are read from the graph's declared edges, so every
// way of declaring one (front matter, and markers in the code, SPEC 1.6)
// counts the same once it is an edge; a link counts whatever its drift
// state: a stale link still names the code, and drift is reported apart.

// CoverageFile is the artifact of code coverage, api/coverage.json.
const CoverageFile = "api/coverage.json"

// CoverageInput is what [NewCoverage] computes from.
type CoverageInput struct {
	Graph *Graph // its code index gives the symbols, its declared edges the links
	// Exclude holds doublestar globs over workspace paths ([coverage]
	// exclude): the files they match are left out of the count.
	Exclude []string
	// Waived holds the paths whose uncovered symbols a waiver justifies
	// ([[coverage.waivers]], SPEC 1.7): they leave the share's
	// denominator, like an exclude, but stay listed. The policy code
	// decides which waivers hold (an expired one is left out); nil
	// justifies nothing.
	Waived map[string]bool
}

// CoverageJSON is api/coverage.json.
type CoverageJSON struct {
	SchemaVersion int              `json:"schemaVersion"`
	Exclude       []string         `json:"exclude"` // the [coverage] exclude globs applied
	Totals        CoverageCount    `json:"totals"`
	Folders       []CoverageFolder `json:"folders"` // by path; "." is the root
	Files         []CoverageOfFile `json:"files"`   // by path
}

// CoverageCount counts the symbols of a file, a folder or the whole code.
type CoverageCount struct {
	Files   int `json:"files"`   // files counted (with at least one symbol)
	Symbols int `json:"symbols"` // every symbol of those files
	Covered int `json:"covered"`
	// Justified counts the uncovered symbols of waived files: neither
	// covered nor a gap.
	Justified int `json:"justified"`
	Uncovered int `json:"uncovered"` // Symbols - Covered - Justified
	// Share is Covered / (Symbols - Justified), 1 when that is 0.
	Share float64 `json:"share"`
}

// CoverageFolder is the roll-up of a folder: every counted file under it,
// at any depth.
type CoverageFolder struct {
	Folder string `json:"folder"`
	CoverageCount
}

// CoverageOfFile is one counted file.
type CoverageOfFile struct {
	Path    string `json:"path"`
	Symbols int    `json:"symbols"`
	Covered int    `json:"covered"`
	// Waived says a waiver justifies the file's uncovered symbols.
	Waived bool `json:"waived"`
	// Uncovered names the symbols not covered, in the file's order (by
	// line); they are justified when Waived.
	Uncovered []string `json:"uncovered"`
}

// NewCoverage computes code coverage by requirements over the graph's code
// index. It is deterministic: files and folders by path, symbols by line.
func NewCoverage(in CoverageInput) CoverageJSON {
	c := CoverageJSON{SchemaVersion: SchemaVersion, Exclude: orEmpty(in.Exclude), Folders: []CoverageFolder{}, Files: []CoverageOfFile{}}
	links := coverLinks(in.Graph)
	folders := map[string]*CoverageCount{}
	if ix := in.Graph.index; ix != nil {
		for _, f := range ix.Files {
			if len(f.Symbols) == 0 || excluded(in.Exclude, f.Path) {
				continue
			}
			cf := CoverageOfFile{Path: f.Path, Symbols: len(f.Symbols), Waived: in.Waived[f.Path], Uncovered: []string{}}
			l := links[f.Path]
			for _, s := range f.Symbols {
				if l.covers(s.Name, s.Start, s.End) {
					cf.Covered++
				} else {
					cf.Uncovered = append(cf.Uncovered, s.Name)
				}
			}
			c.Files = append(c.Files, cf)
			for dir := f.Path; dir != "."; {
				dir = path.Dir(dir)
				if folders[dir] == nil {
					folders[dir] = &CoverageCount{}
				}
				folders[dir].add(cf)
			}
			c.Totals.add(cf)
		}
	}
	c.Totals.share()
	for _, dir := range slices.Sorted(maps.Keys(folders)) {
		folders[dir].share()
		c.Folders = append(c.Folders, CoverageFolder{Folder: dir, CoverageCount: *folders[dir]})
	}
	return c
}

// add counts a file.
func (n *CoverageCount) add(f CoverageOfFile) {
	n.Files++
	n.Symbols += f.Symbols
	n.Covered += f.Covered
	if f.Waived {
		n.Justified += len(f.Uncovered)
	} else {
		n.Uncovered += len(f.Uncovered)
	}
}

// share sets Share from the counts.
func (n *CoverageCount) share() {
	n.Share = 1
	if d := n.Symbols - n.Justified; d > 0 {
		n.Share = float64(n.Covered) / float64(d)
	}
}

// counted is the denominator of the share: the symbols that must be
// covered.
func (n CoverageCount) counted() int { return n.Symbols - n.Justified }

// Below reports whether n's share is below base's, compared exactly on the
// counts (no rounding): covered/counted < base.covered/base.counted.
func (n CoverageCount) Below(base CoverageCount) bool {
	a, b := n.counted(), base.counted()
	if a == 0 || b == 0 {
		return n.Share < base.Share // one of them is 1 by definition
	}
	return n.Covered*b < base.Covered*a
}

// BelowMin reports whether n's share is below min (0 to 1).
func (n CoverageCount) BelowMin(min float64) bool { return n.Share < min }

// String gives the figures for messages: "812 of 1000 symbols covered
// (81.2%)", with the justified ones when there are.
func (n CoverageCount) String() string {
	s := fmt.Sprintf("%d of %d symbols covered (%s)", n.Covered, n.counted(), Percent(n.Share))
	if n.Justified > 0 {
		s += fmt.Sprintf(", %d justified by waivers", n.Justified)
	}
	return s
}

// Percent writes a share (0 to 1) as a percentage with one decimal,
// rounded down so that 79.96% never reads as a passing 80.0%.
func Percent(share float64) string {
	tenths := int(share*1000 + 1e-9)
	return fmt.Sprintf("%d.%d%%", tenths/10, tenths%10)
}

// fileLinks are the coverage links into one file.
type fileLinks struct {
	whole   bool            // a link names the file
	symbols map[string]bool // the symbols links name
	ranges  [][2]int        // the line ranges links name
}

// covers reports whether the links cover the symbol name at lines
// start-end: the file, the symbol, a symbol whose member it is (name
// "A.B.c" is a member of "A.B" and of "A"), or a range holding its lines.
func (l *fileLinks) covers(name string, start, end int) bool {
	if l == nil {
		return false
	}
	if l.whole || l.symbols[name] {
		return true
	}
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if l.symbols[name[:i]] {
			return true
		}
	}
	for _, r := range l.ranges {
		if r[0] <= start && end <= r[1] {
			return true
		}
	}
	return false
}

// coverLinks collects, by path, what the requirements' implements and
// tests links name: every declared edge of those kinds from a requirement
// to code. Marker links (SPEC 1.6) are such edges too.
func coverLinks(g *Graph) map[string]*fileLinks {
	out := map[string]*fileLinks{}
	for _, e := range g.Edges {
		if e.Relation != Declared || (e.Kind != KindImplements && e.Kind != KindTests) || e.Src.Type != claims.NodeRequirement {
			continue
		}
		if !KindOf(e.Dst.Type).Code {
			continue
		}
		t, err := claims.ParseTarget(e.Dst.Key)
		if err != nil {
			continue // an external requirement's code, not this index's
		}
		l := out[t.Path]
		if l == nil {
			l = &fileLinks{symbols: map[string]bool{}}
			out[t.Path] = l
		}
		switch {
		case t.IsSymbol():
			l.symbols[t.Symbol] = true
		case t.IsRange():
			l.ranges = append(l.ranges, [2]int{t.Start, t.End})
		default:
			l.whole = true
		}
	}
	return out
}

// excluded reports whether one of the globs matches the path.
func excluded(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// ParseCoverage reads an api/coverage.json, the base of a coverage ratchet.
// It checks what the comparison relies on: the schema version and totals
// that add up.
func ParseCoverage(data []byte) (CoverageJSON, error) {
	var c CoverageJSON
	if err := json.Unmarshal(data, &c); err != nil {
		return CoverageJSON{}, fmt.Errorf("not a coverage.json: %v", err)
	}
	if c.SchemaVersion != SchemaVersion {
		return CoverageJSON{}, fmt.Errorf("schemaVersion %d: want %d, a coverage.json of this version of tracewiki", c.SchemaVersion, SchemaVersion)
	}
	t := c.Totals
	if t.Symbols < 0 || t.Covered < 0 || t.Justified < 0 || t.Covered+t.Justified > t.Symbols {
		return CoverageJSON{}, errors.New("totals do not add up: want 0 <= covered + justified <= symbols")
	}
	c.Totals.share() // the counts decide, not a rounded share
	return c, nil
}
