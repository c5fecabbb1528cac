package site

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/fsnotify/fsnotify"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// watcher watches a workspace for changes that may change what tracewiki
// makes of it: the content, the code and the config, but not .git, the
// output folder or the lock's helper files. serve rebuilds the site on its
// signal, mcp its answers; a [Session] owns it.
type watcher struct {
	dir      string // the workspace root, absolute
	debounce time.Duration
	log      io.Writer
	w        *fsnotify.Watcher
	// watchCfg is the config the watch set was made from; the goroutine
	// running run owns it.
	watchCfg workspace.Config
}

// newWatcher watches every folder of the workspace at dir (absolute) but
// the skipped ones.
func newWatcher(dir string, debounce time.Duration, log io.Writer) (*watcher, error) {
	s := &watcher{dir: dir, debounce: debounce, log: log}
	var err error
	if s.w, err = fsnotify.NewWatcher(); err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	s.watchCfg = s.readConfig()
	if err := s.watchTree("."); err != nil {
		s.w.Close()
		return nil, err
	}
	return s, nil
}

// Close stops watching; run then returns.
func (s *watcher) Close() error { return s.w.Close() }

// run calls rebuild after each burst of relevant changes, until ctx is
// done: a rebuild starts when no change came for the debounce time, or at
// the latest 10 of them after the burst began, so a steady stream of
// changes cannot starve it.
//
// rebuild gets what changed in the burst, so a rebuild can re-read only
// that.
func (s *watcher) run(ctx context.Context, rebuild func(changeSet)) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time // when the pending burst began; zero when none
	rescan := false
	pending := changeSet{paths: map[string]bool{}}
	schedule := func() {
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		timer.Reset(min(s.debounce, first.Add(10*s.debounce).Sub(now)))
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-s.w.Events:
			if !ok {
				return
			}
			rel, relevant := s.relevant(ev)
			if !relevant {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
					s.watchTree(rel)
				}
			}
			if rel == workspace.ConfigFile {
				rescan = true
				pending.all = true
			}
			pending.paths[rel] = true
			if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				pending.tree = true
			}
			schedule()
		case err, ok := <-s.w.Errors:
			if !ok {
				return
			}
			fmt.Fprintf(s.log, "tracewiki: watch: %v\n", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				rescan = true
				pending.all = true
				schedule()
			}
		case <-timer.C:
			first = time.Time{}
			if rescan {
				rescan = false
				s.watchCfg = s.readConfig()
				s.watchTree(".")
			}
			if ctx.Err() == nil {
				rebuild(pending)
			}
			pending = changeSet{paths: map[string]bool{}}
		}
	}
}

// changeSet is what changed in a burst of events: the paths (slash,
// relative to the root), whether something was created, removed or renamed
// (the folder walks must run again, and what was under a path is gone), and
// whether everything must be read again (the config changed, or events
// were lost).
type changeSet struct {
	paths     map[string]bool
	tree, all bool
}

// add adds the changes o to c.
func (c *changeSet) add(o changeSet) {
	if c.paths == nil {
		c.paths = map[string]bool{}
	}
	for p := range o.paths {
		c.paths[p] = true
	}
	c.tree = c.tree || o.tree
	c.all = c.all || o.all
}

// isDirOrLink reports whether name (a file path) is a folder or a
// symlink.
func isDirOrLink(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && (fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0)
}

// under reports whether the path p is one of the changed paths or lies
// under one.
func (c changeSet) under(p string) bool {
	for d := p; ; {
		if c.paths[d] {
			return true
		}
		i := strings.LastIndexByte(d, '/')
		if i < 0 {
			return false
		}
		d = d[:i]
	}
}

// relevant reports whether a file event may change the site, and the
// event's slash-separated path relative to the root. Attribute changes,
// the ignored folders (.git, the output folder and its temporary twins)
// and the lock's helper files are not.
func (s *watcher) relevant(ev fsnotify.Event) (string, bool) {
	if ev.Op == fsnotify.Chmod {
		return "", false
	}
	r, err := filepath.Rel(s.dir, ev.Name)
	if err != nil {
		return "", false
	}
	rel := filepath.ToSlash(r)
	if rel == ".." || strings.HasPrefix(rel, "../") || s.ignoredDir(rel, s.watchCfg) {
		return rel, false
	}
	lock := s.watchCfg.Lock
	if rel == lock+".lk" || strings.HasPrefix(rel, lock+".tmp-") {
		return rel, false
	}
	return rel, true
}

// ignoredDir reports whether a folder is never watched: .git, the output
// folder and the temporary folders a build writes beside it.
func (s *watcher) ignoredDir(rel string, cfg workspace.Config) bool {
	if rel == ".git" || strings.HasSuffix(rel, "/.git") || rel == cfg.Output {
		return true
	}
	dir, base := path.Split(cfg.Output)
	d, b := path.Split(rel)
	swap := output.IsSwapOf(base, b)
	return d == dir && swap
}

// skipDir reports whether the watch leaves out a folder: the ignored ones,
// and those a code exclude glob covers entirely ("DIR/**"), unless content
// lives in or under it.
func (s *watcher) skipDir(rel string, cfg workspace.Config) bool {
	if s.ignoredDir(rel, cfg) {
		return true
	}
	c := cfg.Content
	if rel == c || strings.HasPrefix(rel, c+"/") || strings.HasPrefix(c, rel+"/") {
		return false
	}
	for _, x := range cfg.Code.Exclude {
		if prefix, ok := strings.CutSuffix(x, "/**"); ok && matchGlob(prefix, rel) {
			return true
		}
	}
	return false
}

func matchGlob(pattern, name string) bool {
	ok, _ := doublestar.Match(pattern, name)
	return ok
}

// watchTree watches the folder rel and every folder under it but the
// skipped ones. Symlinked folders are not followed, as in the code walk.
func (s *watcher) watchTree(rel string) error {
	cfg := s.watchCfg
	return filepath.WalkDir(filepath.Join(s.dir, filepath.FromSlash(rel)), func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == s.dir {
				return err
			}
			return nil // gone already, or unreadable: the build will say so
		}
		if !d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(s.dir, name)
		r = filepath.ToSlash(r)
		if r != "." && s.skipDir(r, cfg) {
			return filepath.SkipDir
		}
		if err := s.w.Add(name); err != nil {
			fmt.Fprintf(s.log, "tracewiki: watch %s: %v\n", r, err)
		}
		return nil
	})
}

// watchTargets watches the folders of referenced files that the tree walk
// skipped (a claim may point into an excluded folder).
func (s *watcher) watchTargets(targets []codeanchors.Referenced) {
	dirs := map[string]bool{}
	for _, r := range targets {
		dirs[path.Dir(r.Target.Path)] = true
	}
	for _, d := range sortedKeys(dirs) {
		if d == "." || !workspace.Local(d) || !s.skipDir(d, s.watchCfg) || s.ignoredDir(d, s.watchCfg) {
			continue
		}
		if st, err := os.Stat(filepath.Join(s.dir, filepath.FromSlash(d))); err == nil && st.IsDir() {
			s.w.Add(filepath.Join(s.dir, filepath.FromSlash(d)))
		}
	}
}

// readConfig reads the config for the watch set; a broken one falls back
// to the defaults (the build reports it).
func (s *watcher) readConfig() workspace.Config {
	data, _ := os.ReadFile(filepath.Join(s.dir, workspace.ConfigFile))
	c, err := workspace.ParseConfig(workspace.ConfigFile, data, filepath.Base(s.dir))
	if err != nil {
		c = workspace.Config{}
		c.Fill(filepath.Base(s.dir))
	}
	return c
}
