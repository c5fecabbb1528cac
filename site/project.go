// Package site runs tracewiki's commands against a workspace on disk: it
// loads the configuration ([workspace.ParseConfig]) and the content, reads
// source files (confined to the workspace), keeps the lock file, and, for
// build, renders the site and writes it into the output folder. It and the
// packages beneath it are the only ones that touch the disk.
package site

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// Project is a loaded workspace: its configuration and content model.
type Project struct {
	WS     *workspace.Workspace
	Config workspace.Config
	Model  *claims.Model
	// Workers bounds the parallel stages; zero means GOMAXPROCS.
	Workers int

	skipped []string          // content files that are not regular, and why
	temps   []string          // temporary files of content files the walk found (see [contentTemp])
	images  map[string][]byte // the content's images by content path (see [Project.readImages])
	// memo, when set, is the memos of the [Session] that loaded the
	// project: the folder walks, the content, code and lock parses and
	// the code index of its earlier loads. Nil for a one-shot load.
	memo *memos

	// Externals are the externals' bundles as read now, by name (SPEC
	// 1.8); nil without [[externals]]. bundles holds the same bundles
	// whole, for the organisation's wiki.
	Externals codeanchors.Externals
	bundles   map[string]*synth.BundleJSON

	// markers is what the code's markers added to Model (SPEC 1.6).
	markers markerState

	targetsMu  sync.Mutex
	targetsOf  *claims.Model // the model targetList was collected from
	targetList []codeanchors.Referenced
}

// walkMemo is what the content and code walks found.
type walkMemo struct {
	content, contentSkipped []string
	code, codeSkipped       []string
	haveContent, haveCode   bool
}

// Load opens the workspace at dir, reads tracewiki.toml (optional) and parses
// the content. Content problems come back as [claims.Diagnostics], all of
// them; other failures as plain errors.
func Load(dir string) (*Project, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return nil, err
	}
	return loadIn(ws, nil)
}

// loadIn is [Load] in an open workspace, with the memos of a session's
// earlier loads (nil: none); it closes the workspace when it fails.
func loadIn(ws *workspace.Workspace, memo *memos) (*Project, error) {
	p := &Project{WS: ws, memo: memo}
	var parser *claims.Parser // nil parses afresh
	if memo != nil {
		parser = &memo.parser
	}
	cfgData, err := ws.ReadFile(workspace.ConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		ws.Close()
		return nil, err
	}
	if p.Config, err = workspace.ParseConfig(workspace.ConfigFile, cfgData, ws.Name()); err != nil {
		ws.Close()
		return nil, err
	}
	ws.Walked(p.Config.Code.Include)
	files, err := p.contentFiles()
	if err != nil {
		ws.Close()
		return nil, err
	}
	model, diags := parser.Parse(p.Config.Content, files)
	diags = append(diags, p.checkPolicyContent(model)...)
	diags = append(diags, p.loadExternals(model)...)
	if len(diags) == 0 {
		p.images, diags = p.readImages(model)
	}
	if len(diags) > 0 {
		ws.Close()
		return nil, diags.Sort()
	}
	p.Model = model
	return p, nil
}

// Close releases the workspace.
func (p *Project) Close() error { return p.WS.Close() }

// contentFiles reads every Markdown and claim-record file under the content
// folder, in lexical order. A missing content folder is an empty wiki; one
// that leaves the workspace (through a symlink) is an error, and so is a
// symlink in it that leaves the workspace. Site folders are not content;
// files that are not regular are skipped and named in p.skipped.
func (p *Project) contentFiles() ([]claims.File, error) {
	dir := p.Config.Content
	if _, err := p.WS.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("content folder: %w", err)
	}
	var names []string
	w := p.walks()
	if w != nil && w.haveContent {
		names, p.skipped = w.content, slices.Clone(w.contentSkipped)
	} else if err := p.walkContent(dir, &names); err != nil {
		return nil, err
	} else if w != nil {
		w.content, w.contentSkipped, w.haveContent = names, slices.Clone(p.skipped), true
	}
	files := make([]claims.File, len(names))
	irregular := make([]bool, len(names))
	err := p.parallel(len(names), func(i int) error {
		data, err := p.WS.ReadFile(names[i])
		files[i] = claims.File{Name: names[i], Data: data}
		if errors.Is(err, workspace.ErrNotRegular) {
			irregular[i], err = true, nil // a symlink to a FIFO or a device
		}
		return err
	})
	kept := files[:0]
	for i, f := range files {
		if irregular[i] {
			p.skipped = append(p.skipped, fmt.Sprintf("%s: skipped: not a regular file", f.Name))
			continue
		}
		kept = append(kept, f)
	}
	return kept, err
}

// walkContent lists the content files under dir into names, noting the
// ones that are not regular in p.skipped.
func (p *Project) walkContent(dir string, names *[]string) error {
	sites := &siteDirs{fsys: p.WS.FS()}
	err := fs.WalkDir(p.WS.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != dir && (strings.HasPrefix(d.Name(), ".") || sites.is(name)) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if _, err := p.WS.Stat(name); errors.Is(err, workspace.ErrOutside) {
				return err
			}
		}
		if _, ok := contentTemp(d.Name()); ok && d.Type().IsRegular() {
			p.temps = append(p.temps, name)
		}
		if workspace.ContentName(d.Name()) {
			if t := d.Type(); !t.IsRegular() && t&fs.ModeSymlink == 0 {
				p.skipped = append(p.skipped, fmt.Sprintf("%s: skipped: not a regular file (%v)", name, t))
				return nil
			}
			*names = append(*names, name)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walk %s: %w", dir, err)
	}
	return nil
}

// Sources reads and parses each path once, in parallel, for the drift check.
// A path that is missing or outside the workspace gets a Source that says
// so; any other read failure is an error. A path the config's [code]
// include does not name (or its exclude does) is marked NotIncluded, so
// its symbol targets are not_included (SPEC 2).
func (p *Project) Sources(paths []string) (map[string]*codeanchors.Source, error) {
	paths = slices.Compact(slices.Sorted(slices.Values(paths)))
	out := make([]*codeanchors.Source, len(paths))
	include := workspace.NewGlobs(p.Config.Code.Include)
	err := p.parallel(len(paths), func(i int) error {
		name := paths[i]
		if s := p.markers.parsed[name]; s != nil {
			out[i] = s // parsed already, to read its markers
			return nil
		}
		data, err := p.WS.ReadFile(name)
		switch {
		case errors.Is(err, workspace.ErrOutside):
			out[i] = &codeanchors.Source{Path: name, Absent: codeanchors.PathOutsideWorkspace}
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, workspace.ErrNotRegular):
			// A FIFO or a device is no source file: reading it could block.
			out[i] = &codeanchors.Source{Path: name, Absent: codeanchors.TargetMissing}
		case err != nil:
			return err
		default:
			out[i] = p.parseSource(name, data)
		}
		if !include.Match(name) || workspace.MatchAny(p.Config.Code.Exclude, name) {
			// A copy: a parsed Source may be shared by serve's builds.
			s := *out[i]
			s.NotIncluded = true
			out[i] = &s
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m := make(map[string]*codeanchors.Source, len(paths))
	for i, name := range paths {
		m[name] = out[i]
	}
	return m, nil
}

// parseSource parses a file read by Sources, or takes the parse of the
// same bytes from the session's earlier loads.
func (p *Project) parseSource(name string, data []byte) *codeanchors.Source {
	if p.memo != nil {
		return p.memo.sources.parse(name, data)
	}
	return newSource(name, data)
}

// newSource parses a source file: the one place in site that calls
// [codeanchors.NewSource], so that a test can count parses
// (testHookParse).
func newSource(name string, data []byte) *codeanchors.Source {
	if testHookParse != nil {
		testHookParse(name)
	}
	return codeanchors.NewSource(codeanchors.Default, name, data)
}

// testHookParse, when set by a test, is called once per source parse,
// with the file's name.
var testHookParse func(name string)

// walks is the session's memo of the folder walks; nil for a one-shot
// load.
func (p *Project) walks() *walkMemo {
	if p.memo == nil {
		return nil
	}
	return p.memo.walks
}

// parallel runs fn(0..n-1) on up to Workers goroutines. Each call writes its
// own slot; the errors are joined in index order, so they are deterministic
// too.
func (p *Project) parallel(n int, fn func(i int) error) error {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	var next atomic.Int64 // the next i: a channel's handoff per item cost more than fn of a stat
	for range min(workers, n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = fn(i)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
