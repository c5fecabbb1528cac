package site

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/interchange"
)

// Import formats.
var ImportFormats = []string{"doorstop", "strictdoc", "reqif"}

// maxImportFile bounds each file an import reads.
const maxImportFile = 64 << 20

// ImportOptions says what [Import] reads.
type ImportOptions struct {
	Format string // doorstop, strictdoc or reqif
	// Source is a file or folder, as given on the command line (relative
	// to the current folder, or absolute): it is not confined to the
	// workspace.
	Source string
	// Force overwrites files edited since the last import.
	Force bool
	By    string // who stamps the parent links; "" means git's user.email
}

// ImportReport is what an import did.
type ImportReport struct {
	Result    *interchange.Result
	Written   []string // files written (new or updated), in order
	Unchanged []string // files already as the import would write them
	Kept      []string // files not overwritten, with why
	Stamped   int      // parent links stamped in the lock
	Suspect   int      // of which stamped suspect
}

// readSource reads the files of an import source: every file of a folder
// (hidden folders skipped) or one file, named relative to the folder.
func readSource(src string) ([]interchange.File, error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	read := func(name, osPath string) (interchange.File, error) {
		f, err := os.Open(osPath)
		if err != nil {
			return interchange.File{}, err
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxImportFile+1))
		if err == nil && len(data) > maxImportFile {
			err = fmt.Errorf("%s: over %d bytes", osPath, maxImportFile)
		}
		return interchange.File{Name: name, Data: data}, err
	}
	if !st.IsDir() {
		f, err := read(filepath.Base(src), src)
		return []interchange.File{f}, err
	}
	var out []interchange.File
	err = fs.WalkDir(os.DirFS(src), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		switch strings.ToLower(path.Ext(name)) {
		case ".yml", ".yaml", ".md", ".sdoc", ".reqif", ".reqifz", ".xml":
		default:
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := read(name, filepath.Join(src, filepath.FromSlash(name)))
		out = append(out, f)
		return err
	})
	return out, err
}

// Import reads requirements from another tool's files and writes them
// under content/requirements/ of the workspace at root: one folder per
// document, one Markdown file per item, each recording imported: {from,
// hash}. It is idempotent: a file already as it would be written is left
// alone, and a file edited since the last import (or never imported) is
// kept unless opts.Force. Parent links are then stamped in the lock: with
// the parent's revision, or, for a link the source tool calls suspect, with
// a revision that never matches, so it stays parent_changed until
// reviewed. Links already stamped are kept unless their file was written.
func Import(root string, opts ImportOptions, notes io.Writer) (*ImportReport, error) {
	files, err := readSource(opts.Source)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	var res *interchange.Result
	switch opts.Format {
	case "doorstop":
		res = interchange.ImportDoorstop(files)
	case "strictdoc":
		res = interchange.ImportStrictDoc(files)
	case "reqif":
		if res, err = interchange.ImportReqIF(files); err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
	default:
		return nil, fmt.Errorf("import: unknown format %q (want %s)", opts.Format, strings.Join(ImportFormats, ", "))
	}
	p, err := Load(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	rep := &ImportReport{Result: res}
	dir := path.Join(p.Config.Content, "requirements")
	owner := map[string]string{} // id → file, of requirements not written by this import
	for _, r := range p.Model.Requirements {
		owner[strings.ToLower(r.ID)] = r.Doc.File
	}
	written := map[string]bool{}
	for _, d := range res.Documents {
		name := path.Join(dir, d.Path, "_index.md")
		if err := rep.write(p, name, interchange.RenderDocument(d), opts.Force); err != nil {
			return nil, err
		}
	}
	for i := range res.Items {
		it := &res.Items[i]
		it.Implements = slices.DeleteFunc(it.Implements, func(t string) bool {
			if _, err := claims.ParseTarget(t); err != nil || !p.WS.Exists(t) {
				res.Unmapped = append(res.Unmapped, interchange.Unmapped{Where: it.From, What: "implements " + t, Why: "no such file in the workspace"})
				return true
			}
			return false
		})
		name := path.Join(dir, it.Document, it.ID+".md")
		if f, ok := owner[strings.ToLower(it.ID)]; ok && f != name {
			res.Unmapped = append(res.Unmapped, interchange.Unmapped{Where: it.From, What: "item " + it.ID, Why: "the id is already used by " + f})
			continue
		}
		n := len(rep.Written)
		if err := rep.write(p, name, interchange.Render(*it), opts.Force); err != nil {
			return nil, err
		}
		written[it.ID] = len(rep.Written) > n
	}
	p.Close()
	// Stamp the parent links from the content as now written.
	p, err = Load(root)
	if err != nil {
		return nil, fmt.Errorf("the imported content does not load: %w", err)
	}
	defer p.Close()
	by := opts.By
	if by == "" {
		by = p.gitEmail()
	}
	at := Now().Format(time.RFC3339)
	err = p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		for _, it := range res.Items {
			for _, par := range it.Parents {
				key := codeanchors.ParentKey(it.ID, par.ID)
				if _, ok := l.Parents[key]; ok && !written[it.ID] {
					continue
				}
				rev := revisionOf(p.Model, par.ID)
				if rev == "" {
					continue
				}
				if par.Suspect {
					rev = "suspect-on-import: " + par.Why
					rep.Suspect++
				}
				l.StampParent(it.ID, par.ID, codeanchors.ParentLink{Revision: rev, ReviewedAt: at, ReviewedBy: by})
				rep.Stamped++
			}
		}
		return nil
	})
	return rep, err
}

var importedHash = regexp.MustCompile(`(?m)^imported:.*hash: "?(sha256:[0-9a-f]+)"?`)

// write writes one imported file unless it is unchanged, or was edited
// since the last import (or never imported) and force is off.
func (rep *ImportReport) write(p *Project, name string, data []byte, force bool) error {
	old, err := p.WS.ReadFile(name)
	switch {
	case err == nil && bytes.Equal(old, data):
		rep.Unchanged = append(rep.Unchanged, name)
		return nil
	case err == nil && !force:
		m := importedHash.FindSubmatch(old)
		if m == nil {
			rep.Kept = append(rep.Kept, name+": not written by tracewiki import (--force overwrites it)")
			return nil
		}
		if string(m[1]) != interchange.ImportedHash(old) {
			rep.Kept = append(rep.Kept, name+": edited since the last import (--force overwrites it)")
			return nil
		}
	case err != nil && !isNotExist(err):
		return err
	}
	if err := p.WS.root.MkdirAll(filepath.FromSlash(path.Dir(name)), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := p.refuseSymlink(name); err != nil {
		return err
	}
	if err := p.writeAtomic(name, data); err != nil {
		return err
	}
	rep.Written = append(rep.Written, name)
	return nil
}

func isNotExist(err error) bool {
	return err != nil && (os.IsNotExist(err) || strings.Contains(err.Error(), "no such file"))
}

// String is the report of SPEC 5: items imported, parents linked, and
// each item or relation not mapped, with why.
func (rep *ImportReport) String() string {
	var b strings.Builder
	r := rep.Result
	fmt.Fprintf(&b, "imported %d items (%d headings or sections) in %d documents from %s; %d parent links\n",
		len(r.Items), r.Sections, len(r.Documents), r.Format, r.Parents())
	fmt.Fprintf(&b, "wrote %d files, %d unchanged, %d kept; stamped %d parent links (%d suspect)\n",
		len(rep.Written), len(rep.Unchanged), len(rep.Kept), rep.Stamped, rep.Suspect)
	for _, k := range rep.Kept {
		fmt.Fprintf(&b, "kept %s\n", k)
	}
	fmt.Fprintf(&b, "%d not mapped\n", len(r.Unmapped))
	for _, u := range r.Unmapped {
		fmt.Fprintf(&b, "not mapped: %s: %s: %s\n", u.Where, u.What, u.Why)
	}
	return b.String()
}

// Export collects every requirement with its document, level, parents,
// links and their states, tags, fields and derived fields, in document
// order then level order.
func (p *Project) Export() (*interchange.Export, error) {
	rep, err := p.Check()
	if err != nil {
		return nil, err
	}
	e := &interchange.Export{SchemaVersion: interchange.ExportSchemaVersion, ProjectID: p.Config.Slug(),
		Documents: []interchange.ExportDocument{}, Requirements: []interchange.Row{}}
	for _, d := range p.Model.Documents {
		e.Documents = append(e.Documents, interchange.ExportDocument{Path: d.Path, Title: d.Title})
	}
	targets := map[string]codeanchors.Verdict{}
	for _, ts := range rep.Targets {
		targets[ts.Target.String()] = ts.Verdict
	}
	status := map[string]codeanchors.RequirementStatus{}
	for _, s := range rep.Requirements {
		status[s.ID] = s
	}
	link := func(ref string, v codeanchors.Verdict) interchange.Link {
		return interchange.Link{Ref: ref, State: string(v.State), Reason: string(v.Reason)}
	}
	reqs := slices.Clone(p.Model.Requirements)
	slices.SortStableFunc(reqs, func(a, b *claims.Requirement) int {
		if c := strings.Compare(a.Document, b.Document); c != 0 {
			return c
		}
		return claims.CompareInDocument(a, b)
	})
	for _, r := range reqs {
		s := status[r.ID]
		row := interchange.Row{ID: r.ID, Document: r.Document, Level: r.Level, Title: r.Title, Status: r.Status,
			Normative: r.Normative, Derived: r.Derived, Text: strings.TrimSpace(string(r.Doc.Body)),
			Parents: []interchange.Link{}, Implements: []interchange.Link{}, Tests: []interchange.Link{},
			Tags: slices.Clone(r.Tags), Fields: r.Fields, Implemented: s.Implemented, Tested: s.Tested, Verified: s.Verified,
			Reasons: []string{}}
		if row.Tags == nil {
			row.Tags = []string{}
		}
		if row.Fields == nil {
			row.Fields = map[string]string{}
		}
		for _, ps := range rep.Parents {
			if ps.Child == r.ID {
				row.Parents = append(row.Parents, link(claims.RequirementNode(ps.Parent).String(), ps.Verdict))
			}
		}
		for _, t := range r.Implements {
			row.Implements = append(row.Implements, link(t.Target.String(), targets[t.Target.String()]))
		}
		for _, t := range r.Tests {
			row.Tests = append(row.Tests, link(t.Target.String(), targets[t.Target.String()]))
		}
		var reasons []string
		for _, l := range slices.Concat(row.Parents, row.Implements, row.Tests) {
			if l.Reason != "" {
				reasons = append(reasons, l.Reason)
			}
			row.Stale = row.Stale || l.State == string(codeanchors.Stale)
		}
		for _, es := range rep.Evidence {
			if es.Evidence.Req == r.ID && es.Verdict.Reason != "" {
				reasons = append(reasons, string(es.Verdict.Reason))
				row.Stale = row.Stale || es.Verdict.State == codeanchors.Stale
			}
		}
		slices.Sort(reasons)
		row.Reasons = append(row.Reasons, slices.Compact(reasons)...)
		e.Requirements = append(e.Requirements, row)
	}
	return e, nil
}
