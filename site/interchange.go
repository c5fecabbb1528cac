package site

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"maps"
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
	"github.com/tracewiki/tracewiki/site/workspace"
)

// Import formats.
var ImportFormats = []string{"doorstop", "strictdoc", "reqif", "openfasttrace", "xlsx"}

// maxImportFile bounds each file an import reads.
const maxImportFile = 64 << 20

// ImportOptions says what [Import] reads.
type ImportOptions struct {
	Format string // doorstop, strictdoc, reqif, openfasttrace or xlsx
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
	Kept      []string // files not overwritten (or not removed), with why
	Removed   []string // files of items the source no longer has, unedited since their import
	Stamped   int      // parent links stamped in the lock
	Suspect   int      // of which stamped suspect
}

// maxImportAsset bounds each image an import copies.
const maxImportAsset = workspace.MaxSourceBytes

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
		case ".yml", ".yaml", ".md", ".markdown", ".sdoc", ".reqif", ".reqifz", ".xml", ".xlsx":
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

// readAsset reads an image an imported item references, from inside the
// source folder only: through an [os.Root], so neither a "../" nor a
// symlink leads out of it, and only a regular file of at most
// maxImportAsset bytes.
func readAsset(src, name string) ([]byte, error) {
	root, err := os.OpenRoot(src)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, cmp.Or(err, fmt.Errorf("not a regular file"))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImportAsset+1))
	if err == nil && len(data) > maxImportAsset {
		err = fmt.Errorf("over %d bytes", maxImportAsset)
	}
	return data, err
}

// importOf runs the importer of a format.
func importOf(format string, files []interchange.File) (*interchange.Result, error) {
	switch format {
	case "doorstop":
		return interchange.ImportDoorstop(files), nil
	case "strictdoc":
		return interchange.ImportStrictDoc(files)
	case "reqif":
		return interchange.ImportReqIF(files)
	case "openfasttrace":
		return interchange.ImportOpenFastTrace(files), nil
	case "xlsx":
		return interchange.ImportXLSX(files)
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(ImportFormats, ", "))
}

// planned is a file an import means to write: its workspace path, bytes,
// and where in the source it comes from (for errors).
type planned struct {
	name, from string
	data       []byte
	asset      bool // an image: written when missing or changed, never parsed
}

// Import reads requirements from another tool's files and writes them
// under content/requirements/ of the workspace at root: one folder per
// document, one Markdown file per item, each recording imported: {from,
// hash}, and the images the items reference beside them. It is idempotent:
// a file already as it would be written is left alone, and a file edited
// since the last import (or never imported) is kept unless opts.Force. A
// file an earlier import of the same format wrote in one of the documents'
// folders, for an item the source no longer has, is removed when unedited
// and kept (and reported) when edited. Nothing is written unless the
// content as it would then be loads (ids, parent cycles, sizes): a bad
// source leaves the workspace as it was. Parent links are then stamped in
// the lock: with the parent's revision, or, for a link the source tool
// calls suspect, with a revision that never matches, so it stays
// parent_changed until reviewed. Links already stamped are kept unless
// their file was written. A source with no item in it is an error.
func Import(root string, opts ImportOptions, notes io.Writer) (*ImportReport, error) {
	files, err := readSource(opts.Source)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	res, err := importOf(opts.Format, files)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if len(res.Items) == 0 {
		var why strings.Builder
		for _, u := range res.Unmapped {
			fmt.Fprintf(&why, "\nnot mapped: %s: %s: %s", u.Where, u.What, u.Why)
		}
		return nil, fmt.Errorf("import: %s: no %s item read, nothing written%s", opts.Source, opts.Format, why.String())
	}
	p, err := Load(root)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	// A corrupt lock stops the import before it writes a file (SPEC 1.4).
	if _, err := p.ReadLock(); err != nil {
		return nil, err
	}
	p.removeContentTemps(notes)
	rep := &ImportReport{Result: res}
	plan, err := rep.plan(p, opts)
	if err != nil {
		return nil, err
	}
	removals := rep.removals(p, plan)
	if err := p.validateImport(plan, removals, opts.Force); err != nil {
		return nil, err
	}
	written := map[string]bool{}
	for _, f := range plan {
		n := len(rep.Written)
		if err := rep.write(p, f, opts.Force); err != nil {
			return nil, err
		}
		written[f.name] = len(rep.Written) > n
	}
	for _, name := range removals {
		if err := p.WS.Remove(name); err != nil {
			return nil, fmt.Errorf("remove %s: %w", name, err)
		}
		rep.Removed = append(rep.Removed, name)
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
	dir := path.Join(p.Config.Content, "requirements")
	at := Now().Format(time.RFC3339)
	err = p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		for _, it := range res.Items {
			for _, par := range it.Parents {
				key := codeanchors.ParentKey(it.ID, par.ID)
				if _, ok := l.Parents[key]; ok && !written[path.Join(dir, it.Document, it.ID+".md")] {
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

// plan renders every file the import would write: documents, items (those
// whose id another file owns are reported instead) and images.
func (rep *ImportReport) plan(p *Project, opts ImportOptions) ([]planned, error) {
	res := rep.Result
	dir := path.Join(p.Config.Content, "requirements")
	owner := map[string]string{} // id → file, of the requirements there now
	for _, r := range p.Model.Requirements {
		owner[strings.ToLower(r.ID)] = r.Doc.File
	}
	var plan []planned
	for _, d := range res.Documents {
		plan = append(plan, planned{name: path.Join(dir, d.Path, "_index.md"), from: d.From, data: interchange.RenderDocument(d)})
	}
	items := res.Items[:0]
	for _, it := range res.Items {
		it.Implements = p.existingTargets(res, it, "implements", it.Implements)
		it.Tests = p.existingTargets(res, it, "tests", it.Tests)
		name := path.Join(dir, it.Document, it.ID+".md")
		if f, ok := owner[strings.ToLower(it.ID)]; ok && f != name && !rep.replaces(p, f, opts.Format) {
			res.Unmapped = append(res.Unmapped, interchange.Unmapped{Where: it.From, What: "item " + it.ID, Why: "the id is already used by " + f})
			continue
		}
		items = append(items, it)
		plan = append(plan, planned{name: name, from: it.From, data: interchange.Render(it)})
	}
	res.Items = items
	src := opts.Source
	if st, err := os.Stat(src); err == nil && !st.IsDir() {
		src = filepath.Dir(src)
	}
	for _, a := range res.Assets {
		data, err := readAsset(src, a.Source)
		if err != nil {
			res.Unmapped = append(res.Unmapped, interchange.Unmapped{Where: a.From, What: "image " + a.Source, Why: "not copied: " + err.Error()})
			continue
		}
		plan = append(plan, planned{name: path.Join(dir, a.Dest), from: a.From, data: data, asset: true})
	}
	return plan, nil
}

// existingTargets is the code targets of an imported item whose file the
// workspace has (a symbol or line range in it is checked by the build);
// the others are reported.
func (p *Project) existingTargets(res *interchange.Result, it interchange.Item, kind string, targets []string) []string {
	return slices.DeleteFunc(targets, func(t string) bool {
		tg, err := claims.ParseTarget(t)
		if err != nil || !p.WS.Exists(tg.Path) {
			res.Unmapped = append(res.Unmapped, interchange.Unmapped{Where: it.From, What: kind + " " + t, Why: "no such file in the workspace"})
			return true
		}
		return false
	})
}

// replaces reports whether an import of format may take an id from the
// file that has it: a file an earlier import of the same format wrote (the
// item moved to another document, and that file goes).
func (rep *ImportReport) replaces(p *Project, file, format string) bool {
	old, err := p.WS.ReadFile(file)
	if err != nil {
		return false
	}
	m := importedFrom.FindSubmatch(old)
	return m != nil && strings.HasPrefix(string(m[1]), format+":")
}

// removals lists the files an earlier import of the same format wrote in
// the folders of this import's documents, for items the source no longer
// has: those unedited since their import go; the edited ones are kept and
// reported.
func (rep *ImportReport) removals(p *Project, plan []planned) []string {
	dir := path.Join(p.Config.Content, "requirements")
	folders := map[string]bool{}
	for _, d := range rep.Result.Documents {
		folders[path.Join(dir, d.Path)] = true
	}
	planned := map[string]bool{}
	for _, f := range plan {
		planned[f.name] = true
	}
	var out []string
	for _, r := range p.Model.Requirements {
		f := r.Doc.File
		if planned[f] || !folders[path.Dir(f)] || r.Imported == nil || !strings.HasPrefix(r.Imported.From, rep.Result.Format+":") {
			continue
		}
		old, err := p.WS.ReadFile(f)
		if err != nil {
			continue
		}
		if _, edited := keepReason(old, false); edited {
			rep.Kept = append(rep.Kept, f+": its item is no longer in the source, but the file was edited since the import (delete it by hand)")
			continue
		}
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// validateImport loads the content as the import would leave it, in
// memory, with the same checks a build makes (ids, parents, cycles,
// sizes), and fails with every problem, each named by where in the source
// it comes from, so that nothing is written when the result would not load.
func (p *Project) validateImport(plan []planned, removals []string, force bool) error {
	files, err := p.contentFiles()
	if err != nil {
		return err
	}
	from := map[string]string{}
	next := map[string][]byte{}
	var errs []string
	for _, f := range plan {
		if int64(len(f.data)) > workspace.MaxSourceBytes {
			errs = append(errs, fmt.Sprintf("%s: %s would be %d bytes, more than the %d a content file may have", sourceWhere(f.from), f.name, len(f.data), workspace.MaxSourceBytes))
		}
		if !f.asset && workspace.ContentName(path.Base(f.name)) {
			from[f.name], next[f.name] = f.from, f.data
		}
	}
	var merged []claims.File
	for _, f := range files {
		if slices.Contains(removals, f.Name) {
			continue
		}
		if data, ok := next[f.Name]; ok {
			if _, keep := keepReason(f.Data, force); !keep {
				f.Data = data
			}
			delete(next, f.Name)
		}
		merged = append(merged, f)
	}
	for _, name := range slices.Sorted(maps.Keys(next)) {
		merged = append(merged, claims.File{Name: name, Data: next[name]})
	}
	slices.SortFunc(merged, func(a, b claims.File) int { return strings.Compare(a.Name, b.Name) })
	var parser *claims.Parser
	model, diags := parser.Parse(p.Config.Content, merged)
	if len(diags) == 0 {
		diags = p.importImages(model, plan)
	}
	if len(diags) > 0 {
		for _, d := range diags.Sort() {
			msg := d.String()
			if w, ok := from[d.Pos.File]; ok {
				msg = fmt.Sprintf("%s: %s: %s (in %s as imported)", sourceWhere(w), d.Code, d.Msg, d.Pos.File)
			}
			errs = append(errs, msg)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("import: the imported content would not load; nothing written:\n%s", strings.Join(errs, "\n"))
	}
	return nil
}

// sourceWhere turns an item's From ("strictdoc:docs/a.sdoc:12") into the
// file:line it names.
func sourceWhere(from string) string {
	_, w, ok := strings.Cut(from, ":")
	if !ok {
		return from
	}
	return w
}

var (
	importedHash = regexp.MustCompile(`(?m)^imported:.*hash: "?(sha256:[0-9a-f]+)"?`)
	importedFrom = regexp.MustCompile(`(?m)^imported: \{from: "?([^,"]*)`)
)

// write writes one imported file unless it is unchanged, or was edited
// since the last import (or never imported) and force is off. An image is
// written when missing; one that differs from the source's is kept unless
// force.
func (rep *ImportReport) write(p *Project, f planned, force bool) error {
	name, data := f.name, f.data
	old, err := p.WS.ReadFile(name)
	switch {
	case err == nil && bytes.Equal(old, data):
		rep.Unchanged = append(rep.Unchanged, name)
		return nil
	case err == nil && !force && f.asset:
		rep.Kept = append(rep.Kept, name+": differs from the source's image (--force overwrites it)")
		return nil
	case err == nil:
		if why, keep := keepReason(old, force); keep {
			rep.Kept = append(rep.Kept, name+": "+why)
			return nil
		}
	case !isNotExist(err):
		return err
	}
	if err := p.WS.MkdirAll(path.Dir(name)); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := p.WS.WriteFile(name, data); err != nil {
		return err
	}
	rep.Written = append(rep.Written, name)
	return nil
}

// keepReason says whether an import keeps a file that is there, and why:
// it was not written by an import, or was edited since, and force is off.
func keepReason(old []byte, force bool) (string, bool) {
	m := importedHash.FindSubmatch(old)
	switch {
	case force:
		return "", false
	case m == nil:
		return "not written by tracewiki import (--force overwrites it)", true
	case string(m[1]) != interchange.ImportedHash(old):
		return "edited since the last import (--force overwrites it)", true
	}
	return "", false
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
	fmt.Fprintf(&b, "wrote %d files, %d unchanged, %d kept, %d removed; stamped %d parent links (%d suspect)\n",
		len(rep.Written), len(rep.Unchanged), len(rep.Kept), len(rep.Removed), rep.Stamped, rep.Suspect)
	for _, k := range rep.Kept {
		fmt.Fprintf(&b, "kept %s\n", k)
	}
	for _, f := range rep.Removed {
		fmt.Fprintf(&b, "removed %s: its item is no longer in the source\n", f)
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

// importImages reports the images the content as imported would show but
// the build could not publish (see [Project.readImages]): those the import
// did not copy (outside the item's folder, or a symlink out of the source)
// and the workspace does not have either.
func (p *Project) importImages(m *claims.Model, plan []planned) claims.Diagnostics {
	copied := map[string]bool{}
	for _, f := range plan {
		if f.asset {
			copied[f.name] = true
		}
	}
	var diags claims.Diagnostics
	check := func(d *claims.Doc) {
		for _, im := range d.Images {
			name := path.Join(p.Config.Content, im.To)
			if copied[name] {
				continue
			}
			if st, err := p.WS.Stat(name); err != nil || !st.Mode().IsRegular() {
				diags.Add(im.Pos, claims.CodeUnknownRef, "missing image %q", name)
			}
		}
	}
	for _, r := range m.Requirements {
		check(&r.Doc)
	}
	for _, d := range m.Documents {
		check(&d.Doc)
	}
	return diags
}
