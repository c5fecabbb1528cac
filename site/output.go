package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// Output is a folder tracewiki may replace with a site: [Project.Output]
// checked it against the ownership rule. Write to it through
// [output.Folder.Begin] or [Site.Write].
type Output struct {
	output.Folder
	flag string // --out as given; "" for the config's
}

// Output checks the output folder a build would replace and returns it
// resolved. flag is the folder given on the command line (relative to the
// current directory, or absolute; it may lie outside the workspace); ""
// means the config's output, which must resolve inside the workspace, also
// through symlinks. It refuses (wrapping [output.ErrNotOwned]) a folder that is a
// symlink, the workspace or one of its ancestors, inside a .git folder, one
// that equals or contains the content folder, the config, the lock or a
// file the [code] globs include, and an existing folder that is neither
// empty nor a tracewiki site (see [output.IsSite]).
//
// This is the one ownership rule: everything that replaces a site folder
// asks it first.
func (p *Project) Output(flag string) (*Output, error) {
	wsAbs, err := filepath.Abs(p.WS.Dir)
	if err != nil {
		return nil, err
	}
	ws := workspace.Resolve(wsAbs)
	o := &Output{Folder: output.Folder{Name: flag}, flag: flag}
	target := flag
	if flag == "" {
		o.Name = p.Config.Output
		target = filepath.Join(wsAbs, filepath.FromSlash(p.Config.Output))
	} else if target, err = filepath.Abs(flag); err != nil {
		return nil, err
	}
	refuse := func(why string, args ...any) (*Output, error) {
		return nil, fmt.Errorf("output %s: %s; %w", o.Name, fmt.Sprintf(why, args...), output.ErrNotOwned)
	}
	if st, err := os.Lstat(target); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return refuse("is a symlink")
	}
	o.Dir = workspace.Resolve(target)
	inside := workspace.Within(o.Dir, ws)
	p.WS.HideOutput(ws, o.Dir)
	if why, err := p.owned(ws, o.Dir, false); err != nil {
		return nil, fmt.Errorf("output %s: %w", o.Name, err)
	} else if why != "" {
		return refuse("%s", why)
	}
	if flag == "" && !inside {
		return refuse("resolves to %s, outside the workspace (only --out may name a folder outside it)", o.Dir)
	}
	st, err := os.Lstat(o.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", o.Name, err)
	}
	if !st.IsDir() {
		return refuse("exists and is not a folder")
	}
	if err := output.Replaceable(o.Dir); err != nil {
		return refuse("%v", err)
	}
	return o, nil
}

// owned is the ownership rule of everything tracewiki writes on a path the
// user names (build's output folder, export's file): it says why the path
// real (absolute, its parents' symlinks resolved) must not be replaced,
// or "" when it may. The workspace ws (absolute, resolved) and its
// ancestors, anything inside a .git folder, the content folder, the lock
// and the config and any folder holding one of them, and an existing file
// of the [code] globs or a folder holding one are refused. A file
// (export's) is refused inside the content folder too, where it would be
// read as content; a site folder there is not (walks skip sites).
func (p *Project) owned(ws, real string, file bool) (string, error) {
	switch {
	case real == ws:
		return "is the workspace", nil
	case workspace.Within(ws, real):
		return fmt.Sprintf("contains the workspace %s", ws), nil
	case slices.Contains(strings.Split(filepath.ToSlash(real), "/"), ".git"):
		return "lies inside a .git folder", nil
	}
	verb := "holds"
	if file {
		verb = "is"
	}
	for _, o := range []struct{ what, name string }{
		{"the content folder", p.Config.Content},
		{"the lock", p.Config.Lock},
		{"the config", workspace.ConfigFile},
	} {
		path := workspace.Resolve(filepath.Join(ws, filepath.FromSlash(o.name)))
		switch {
		case path == real || workspace.Within(path, real):
			return fmt.Sprintf("%s %s %s", verb, o.what, o.name), nil
		case file && o.name == p.Config.Content && workspace.Within(real, path):
			return fmt.Sprintf("lies inside %s %s", o.what, o.name), nil
		}
	}
	if _, err := os.Lstat(real); err != nil || !workspace.Within(real, ws) {
		return "", nil // only an existing path can be or hold a source file
	}
	rel, _ := filepath.Rel(ws, real)
	rel = filepath.ToSlash(rel)
	code, _, err := p.codeFiles(false)
	if err != nil {
		return "", err
	}
	if i, _ := slices.BinarySearch(code, rel); i < len(code) && (code[i] == rel || strings.HasPrefix(code[i], rel+"/")) {
		if code[i] == rel {
			return fmt.Sprintf("is %s, a source file of the [code] globs", rel), nil
		}
		return fmt.Sprintf("%s %s, a source file of the [code] globs", verb, code[i]), nil
	}
	return "", nil
}

// siteDirs remembers which workspace folders are sites, so walks skip them.
type siteDirs struct {
	fsys fs.FS
	seen map[string]bool
}

// in reports whether the slash path name lies in a site folder of the
// workspace (the root itself is never one).
func (s *siteDirs) in(name string) bool {
	for dir := path.Dir(name); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if s.is(dir) {
			return true
		}
	}
	return false
}

// is reports whether the folder dir is a site.
func (s *siteDirs) is(dir string) bool {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	site, ok := s.seen[dir]
	if !ok {
		sub, err := fs.Sub(s.fsys, dir)
		site = err == nil && output.IsSite(sub)
		s.seen[dir] = site
	}
	return site
}
