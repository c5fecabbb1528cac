package site

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/internal/textdiff"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// changelogContext is the lines of context around each change of a
// changelog's diffs.
const changelogContext = 3

// Changelog compares the requirements at two git revisions of the
// workspace (SPEC 5): each is read from git's object store (no checkout,
// nothing written), parsed like a build parses the working tree, and
// judged against its own lock and code. A revision git does not have is
// an error naming it ([workspace.ErrUnknownRevision]).
// The working tree is not read: the workspace folder only locates the
// repository and the workspace's place in it.
func Changelog(dir, base, head string) (*synth.Changelog, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	b, err := revisionSide(ws, base)
	if err != nil {
		return nil, err
	}
	h, err := revisionSide(ws, head)
	if err != nil {
		return nil, err
	}
	return newChangelog(b.side, h.side, h.cfg.Language), nil
}

// newChangelog compares two sides with the site's text diff, the why
// texts in lang.
func newChangelog(base, head synth.ChangelogSide, lang string) *synth.Changelog {
	diff := func(id, old, cur string) string {
		return textdiff.Unified(base.Rev+":"+id, head.Rev+":"+id, textLines(old), textLines(cur), changelogContext)
	}
	return synth.NewChangelog(synth.ChangelogInput{Base: base, Head: head, Diff: diff, Lang: lang})
}

// textLines splits a text into lines for [textdiff.Unified].
func textLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// revision is the workspace judged at one revision: the changelog's side
// and the config it was judged with.
type revision struct {
	side synth.ChangelogSide
	cfg  workspace.Config
}

// revisionSide reads and judges the workspace at the revision rev.
func revisionSide(ws *workspace.Workspace, rev string) (*revision, error) {
	snap, err := ws.GitSnapshot(rev)
	if err != nil {
		return nil, err
	}
	return judgeSnapshot(ws, snap)
}

// judgeSnapshot parses the content of a snapshot with the config and
// lock it holds, and judges it the way a frozen build judges the working
// tree: drift against its lock and its code (so a requirement's
// verification at that revision is what a build then would have said,
// SPEC 1.5), the policy, and the coverage of its code. Every file is read
// from git in one cat-file per kind (config, content, code).
func judgeSnapshot(ws *workspace.Workspace, snap *workspace.Snapshot) (*revision, error) {
	side := synth.ChangelogSide{Rev: snap.Rev}
	at := func(name string) string { return snap.Rev + ":" + name }
	cfgData := snap.Read([]string{workspace.ConfigFile})[workspace.ConfigFile]
	cfg, err := workspace.ParseConfig(at(workspace.ConfigFile), cfgData, ws.Name())
	if err != nil {
		return nil, err
	}
	var contentNames, codeNames, projectNames []string
	prefix := cfg.Content + "/"
	if cfg.Content == "." || cfg.Content == "" {
		prefix = ""
	}
	include := workspace.NewGlobs(cfg.Code.Include)
	exclude := slices.Concat(cfg.Code.Exclude, []string{cfg.Output + "/**"})
	for _, name := range snap.Paths {
		if rel, ok := strings.CutPrefix(name, prefix); ok && !hiddenPath(rel) && workspace.ContentName(path.Base(name)) {
			contentNames = append(contentNames, name)
		}
		if include.Match(name) && !workspace.MatchAny(exclude, name) {
			codeNames = append(codeNames, name)
		}
		if codeanchors.Default.ProjectFile(path.Base(name)) {
			projectNames = append(projectNames, name)
		}
	}
	blobs := snap.Read(append([]string{cfg.Lock}, contentNames...))
	files := make([]claims.File, 0, len(contentNames))
	for _, name := range contentNames {
		files = append(files, claims.File{Name: name, Data: blobs[name]})
	}
	model, diags := claims.Parse(cfg.Content, files)
	if len(diags) > 0 {
		return nil, fmt.Errorf("%s: the content does not parse:\n%v", snap.Rev, diags.Sort())
	}
	lock, err := codeanchors.ParseLock(at(cfg.Lock), blobs[cfg.Lock])
	if err != nil {
		return nil, err
	}
	targets := codeanchors.Targets(model)
	var paths []string
	for _, r := range targets {
		paths = append(paths, r.Target.Path)
	}
	code := snap.Read(append(append(paths, codeNames...), projectNames...))
	sources := map[string]*codeanchors.Source{}
	for _, name := range append(paths, codeNames...) {
		if sources[name] != nil {
			continue
		}
		data, ok := code[name]
		if !ok {
			sources[name] = &codeanchors.Source{Path: name, Absent: codeanchors.TargetMissing}
			continue
		}
		s := codeanchors.NewSource(codeanchors.Default, name, data)
		if !include.Match(name) || workspace.MatchAny(cfg.Code.Exclude, name) {
			s.NotIncluded = true
		}
		sources[name] = s
	}
	side.Model = model
	side.Report = codeanchors.CheckTargets(model, targets, lock, sources)
	side.Policy = synth.EvaluatePolicy(synth.PolicyInput{Model: model, Rules: cfg.Policy.Rules, Status: side.Report.Requirements, Waivers: lock.Waivers})
	if len(codeNames) > 0 {
		cov := snapshotCoverage(cfg, model, side.Report, lock, sources, codeNames, code, projectNames)
		side.Coverage = &cov
	}
	return &revision{side: side, cfg: cfg}, nil
}

// snapshotCoverage is a snapshot's code coverage: its code index, its
// graph, and the [[coverage.waivers]] that hold by its lock (never
// stamped, or stamped with the file as it is at the snapshot).
func snapshotCoverage(cfg workspace.Config, model *claims.Model, rep *codeanchors.Report, lock *codeanchors.Lock, sources map[string]*codeanchors.Source, codeNames []string, code map[string][]byte, projectNames []string) synth.CoverageJSON {
	var files []*codeanchors.File
	for _, name := range codeNames {
		if f := sources[name].File; f != nil {
			files = append(files, f)
		}
	}
	project := map[string][]byte{}
	for _, name := range projectNames {
		if data, ok := code[name]; ok {
			project[name] = data
		}
	}
	index := codeanchors.BuildIndex(codeanchors.IndexInput{Files: files, Project: project})
	g := synth.Build(synth.Input{ProjectID: cfg.Slug(), Model: model, Report: rep, Index: index, Lang: cfg.Language})
	waived := map[string]bool{}
	for _, w := range cfg.Coverage.Waivers {
		data, ok := code[w.Path]
		if !ok {
			continue
		}
		stamp, stamped := lock.Waivers[codeanchors.WaiverKey(w.Path, w.Rule)]
		if !stamped || stamp.Hash == codeanchors.FileHash(data) {
			waived[w.Path] = true
		}
	}
	return synth.NewCoverage(synth.CoverageInput{Graph: g, Exclude: cfg.Coverage.Exclude, Waived: waived})
}

// hiddenPath reports whether a content path lies in a folder whose name
// starts with a dot, which the content walk does not enter.
func hiddenPath(rel string) bool {
	dir, _ := path.Split(rel)
	for part := range strings.SplitSeq(strings.TrimSuffix(dir, "/"), "/") {
		if strings.HasPrefix(part, ".") && part != "" {
			return true
		}
	}
	return false
}

// IsUnknownRevision reports whether err is a revision git does not have.
func IsUnknownRevision(err error) bool { return errors.Is(err, workspace.ErrUnknownRevision) }
