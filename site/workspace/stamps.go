package workspace

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/output"
)

// A workspace stamps every path it is asked about (each file read,
// folder listed and path looked up) with what the file system says of it:
// its size, mode, times, inode and device. A build that finds every
// stamped path still so would read the same bytes, which is how site
// finds a build up to date without reading the workspace (like make and
// git do).

// Stamp is what the workspace saw of one path: the file system's record
// of it, or Missing when it did not exist. Two equal stamps of a path
// mean the file was not changed between them (but see Ctime).
type Stamp struct {
	Missing      bool
	Size         int64
	Mode         fs.FileMode
	Mtime, Ctime int64 // nanoseconds; a change within the clock's tick may keep them
	Ino, Dev     uint64
}

// stamps is what a build saw of every path it looked at.
type stamps struct {
	mu       sync.Mutex
	start    int64 // when the build began, nanoseconds
	paths    map[string]Stamp
	lists    map[string][sha256.Size]byte // folders listed: their [listingSum] of the entries walks take
	walks    Walks                        // which entries walks take
	unstable bool                         // some path could not be stamped: no record
}

// Walks tells the entries of a folder that a walk of the workspace
// may take from the others, which no walk does whatever they are: content
// files ([ContentName]), files the code globs include, the languages'
// project files (go.mod, package.json: site lists the code's folders for
// them), folders, and symlinks (a walk refuses one that
// leaves the workspace). A build's listings are of those only, so that a
// vim swap file or an editor's backup beside a page is not a change.
type Walks struct {
	include []string // the config's [code] include globs; nil takes every entry
	globs   Globs
}

// NewWalks returns the walks of a workspace whose config's [code] include
// globs are include; nil takes every entry.
func NewWalks(include []string) Walks {
	return Walks{include: include, globs: NewGlobs(include)}
}

// Include returns the include globs w was made of.
func (w Walks) Include() []string { return w.include }

// taken returns the entries of the folder dir that a walk may take.
func (w Walks) taken(dir string, entries []fs.DirEntry) []fs.DirEntry {
	if w.include == nil {
		return entries
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e fs.DirEntry) bool {
		if e.IsDir() {
			return output.IsSwapFolder(e.Name()) // never walked
		}
		return e.Type()&fs.ModeSymlink == 0 && !w.TakesFile(path.Join(dir, e.Name()))
	})
}

// TakesFile reports whether a walk may take the file p (a slash path in
// the workspace) by its name.
func (w Walks) TakesFile(p string) bool {
	return ContentName(path.Base(p)) || codeanchors.Default.ProjectFile(path.Base(p)) || w.globs.Match(p)
}

// Walked sets the code globs that tell which entries the walks of the
// workspace take (the config's [code] include); until then, a listing
// stamps every entry.
func (w *Workspace) Walked(include []string) {
	w.stamps.mu.Lock()
	defer w.stamps.mu.Unlock()
	w.stamps.walks = NewWalks(slices.Clone(include))
}

func newStamps() *stamps {
	return &stamps{start: time.Now().UnixNano(), paths: map[string]Stamp{}, lists: map[string][sha256.Size]byte{}}
}

// list records what the folder p held: entries, less what swaps hides.
func (s *stamps) list(p string, swaps swapFolders, entries []fs.DirEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := s.walks.listing(p, swaps, entries)
	if old, seen := s.lists[p]; seen && old != sum {
		s.unstable = true // it changed while the build looked
	}
	s.lists[p] = sum
}

// listing is what a build records of the folder dir that holds entries
// (the swap folders hidden already): the [listingSum] of those a walk may
// take, but the output folder.
func (w Walks) listing(dir string, swaps swapFolders, entries []fs.DirEntry) [sha256.Size]byte {
	return listingSum(w.taken(dir, swaps.inputs(dir, entries)))
}

// listingSum hashes a folder's entries, in order: their names and types.
func listingSum(entries []fs.DirEntry) [sha256.Size]byte {
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%d:%s %d\n", len(e.Name()), e.Name(), uint32(e.Type()))
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// Unsure says some path changed without the workspace looking (a file it
// removed, say): its stamps are no record of a build.
func (w *Workspace) Unsure() { w.stamps.unsure() }

// unsure says some path was not looked at.
func (s *stamps) unsure() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unstable = true
}

// see records what p was: fi, or the error that looking gave.
func (s *stamps) see(p string, fi fs.FileInfo, err error) {
	var st Stamp
	ok := true
	switch {
	case err == nil:
		st, ok = StampOf(fi)
	case errors.Is(err, fs.ErrNotExist):
		st.Missing = true
	default:
		ok = false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		s.unstable = true
		return
	}
	old, seen := s.paths[p]
	switch {
	case !seen:
		s.paths[p] = st
	case old.Mode.IsDir() && st.Mode.IsDir():
		// A folder's times change with its entries, which [stamps.list]
		// compares. The first stamp is kept: a later one could postdate
		// a change its listing missed.
	case old != st:
		s.unstable = true // it changed while the build looked
	}
}

// stampedFS is the workspace's [fs.FS] stamping every path it is asked
// about, and each folder before it is listed.
type stampedFS struct {
	fs fs.FS // the root's: also fs.ReadDirFS, fs.ReadFileFS, fs.StatFS
	w  *Workspace
}

func (f stampedFS) Open(name string) (fs.File, error) {
	f.Stat(name)
	return f.fs.Open(name)
}

func (f stampedFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(f.fs, name)
	f.w.stamps.see(name, fi, err)
	return fi, err
}

func (f stampedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.Stat(name)
	entries, err := fs.ReadDir(f.fs, name)
	if err == nil {
		entries = f.w.swaps.hide(name, entries)
		f.w.stamps.list(name, f.w.swaps, entries)
	}
	return entries, err
}

func (f stampedFS) ReadFile(name string) ([]byte, error) {
	f.Stat(name)
	return fs.ReadFile(f.fs, name)
}

// swapFolders is what a workspace hides of the folder that holds the
// output of its build, when that folder is in the workspace: the output's
// transient folders (see [output.Swap]), which the build makes and removes while
// it runs, and, from what the build records of the folder's entries, the
// output itself, which the first build makes. A walk that saw them would
// find the workspace changed by the build itself, and never up to date.
type swapFolders struct {
	dir string // the folder, a slash path in the workspace; "" hides nothing
	out string // the output's name in it
}

// HideOutput hides from the workspace's listings what a build into the
// output folder out makes there: its transient folders, and, from what
// is stamped of its folder's entries, out itself. root is the
// workspace's folder; both are absolute, with their symlinks resolved.
// An output outside the workspace hides nothing.
func (w *Workspace) HideOutput(root, out string) {
	w.swaps = newSwapFolders(root, out)
}

// newSwapFolders returns what a workspace at root hides for the output
// folder out; both are absolute, with their symlinks resolved.
func newSwapFolders(root, out string) swapFolders {
	if !Within(out, root) {
		return swapFolders{}
	}
	rel, err := filepath.Rel(root, filepath.Dir(out))
	if err != nil {
		return swapFolders{}
	}
	return swapFolders{dir: filepath.ToSlash(rel), out: filepath.Base(out)}
}

// Within reports whether p lies strictly inside dir; both are clean and
// absolute.
func Within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// hide returns the entries of the folder dir but the swap folders.
func (b swapFolders) hide(dir string, entries []fs.DirEntry) []fs.DirEntry {
	return b.without(dir, entries, func(name string) bool {
		swap := output.IsSwapOf(b.out, name)
		return swap
	})
}

// inputs returns the entries of the folder dir, swap folders hidden, that
// a build's output depends on: all but the output folder.
func (b swapFolders) inputs(dir string, entries []fs.DirEntry) []fs.DirEntry {
	return b.without(dir, entries, func(name string) bool { return name == b.out })
}

func (b swapFolders) without(dir string, entries []fs.DirEntry, hidden func(name string) bool) []fs.DirEntry {
	if b.dir == "" || dir != b.dir {
		return entries
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e fs.DirEntry) bool { return hidden(e.Name()) })
}

// Stamps is what a workspace stamped: every path it was asked about, and
// the listing of every folder it listed.
type Stamps struct {
	Start int64 // when the workspace was opened, nanoseconds
	Paths map[string]Stamp
	Lists map[string][sha256.Size]byte // folders listed: a hash of the entries walks take
	Walks Walks                        // which entries the listings are of
}

// Stamps returns a copy of what the workspace stamped so far; false when
// some path changed while it looked, or could not be stamped, so that
// the stamps are no record of what it read.
func (w *Workspace) Stamps() (Stamps, bool) {
	s := w.stamps
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stamps{Start: s.start, Paths: maps.Clone(s.paths), Lists: maps.Clone(s.lists), Walks: s.walks}, !s.unstable
}

// Stable reports whether every path the workspace looked at could be
// stamped and stayed as stamped while it looked (what [Workspace.Stamps]
// reports), without copying the stamps.
func (w *Workspace) Stable() bool {
	w.stamps.mu.Lock()
	defer w.stamps.mu.Unlock()
	return !w.stamps.unstable
}

// Opened is when the workspace was opened, in nanoseconds: its stamps
// are of paths as they were since.
func (w *Workspace) Opened() int64 { return w.stamps.start }

// StampOfPath returns the stamp of the path p, as the workspace first saw
// it; false when it did not look at p.
func (w *Workspace) StampOfPath(p string) (Stamp, bool) {
	w.stamps.mu.Lock()
	defer w.stamps.mu.Unlock()
	st, ok := w.stamps.paths[p]
	return st, ok
}

// Listing is what the workspace stamps of the folder dir as it is now,
// without stamping it: the hash of the entries walks takes, with the
// output's folders hidden ([Workspace.HideOutput]). A folder whose
// listing is the one stamped holds what a walk took from it.
func (w *Workspace) Listing(dir string, walks Walks) ([sha256.Size]byte, error) {
	entries, err := fs.ReadDir(w.root.FS(), dir)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return walks.listing(dir, w.swaps, w.swaps.hide(dir, entries)), nil
}
