package workspace

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// MaxSourceBytes caps the size of a file tracewiki reads. A larger file is
// an error, not a silent truncation.
const MaxSourceBytes = 16 << 20

// ErrOutside is returned, wrapped, for a path that lies outside the
// workspace, lexically or through a symlink.
var ErrOutside = errors.New("path lies outside the workspace")

// ErrTooLarge is returned, wrapped, for a file larger than it may be.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is returned, wrapped, for a path that names a FIFO, a
// socket or a device: reading one could block forever.
var ErrNotRegular = errors.New("not a regular file")

// Workspace is the root folder every path of the model is relative to.
// Every read goes through an [os.Root], so nothing outside it is ever read,
// symlinks included.
type Workspace struct {
	Dir  string // the root as given
	root *os.Root

	readsMu sync.Mutex
	reads   map[string][sha256.Size]byte // every file read: its bytes' hash, or its error's
	// memo, when set, answers reads of the paths it holds without the
	// disk: serve passes the reads of its last build, less the files
	// changed since. kept, when not nil, collects every read's result.
	memo Reads
	kept Reads
	// stamps records what every path the workspace was asked about was
	// (see [Workspace.Stamps]).
	stamps *stamps
	// swaps hides the output's transient folders from listings, once the
	// output is known ([Workspace.HideOutput]).
	swaps swapFolders
	// gitCalls counts the git processes run ([Workspace.GitCalls]).
	gitCalls atomic.Int64
}

// Open opens dir as the workspace root.
func Open(dir string) (*Workspace, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	return &Workspace{Dir: dir, root: r, stamps: newStamps()}, nil
}

// Close releases the workspace.
func (w *Workspace) Close() error { return w.root.Close() }

// Name is the workspace folder's base name, the default wiki title.
func (w *Workspace) Name() string {
	abs, err := filepath.Abs(w.Dir)
	if err != nil {
		return filepath.Base(w.Dir)
	}
	return filepath.Base(abs)
}

// ReadFile reads the file at the slash-separated, root-relative path p. It
// fails with [ErrOutside] when p leaves the workspace (also through a
// symlink) and with an error matching [fs.ErrNotExist] when it is missing.
func (w *Workspace) ReadFile(p string) ([]byte, error) {
	return w.ReadFileLimit(p, MaxSourceBytes)
}

// ReadFileLimit is [Workspace.ReadFile] for a file that may be larger than a
// source file, such as a test report: it fails past limit bytes.
func (w *Workspace) ReadFileLimit(p string, limit int64) ([]byte, error) {
	var data []byte
	var err error
	var sum [sha256.Size]byte
	if r, ok := w.memo[p]; ok && r.limit == limit {
		data, err, sum = r.data, r.err, r.sum // hashed when it was read
		w.stamps.unsure()                     // not looked at: serve's builds have no record
	} else {
		data, err = w.readFileLimit(p, limit)
		if err != nil {
			sum = sha256.Sum256([]byte("error: " + err.Error()))
		} else {
			sum = sha256.Sum256(data)
		}
	}
	w.readsMu.Lock()
	if w.reads == nil {
		w.reads = map[string][sha256.Size]byte{}
	}
	w.reads[p] = sum
	if w.kept != nil {
		w.kept[p] = Read{data, err, limit, sum}
	}
	w.readsMu.Unlock()
	return data, err
}

// ReadDigest hashes every file read through the workspace so far: each
// path with its bytes (or the error reading it gave), in path order. A
// build's output is a function of what it read, so two builds that read
// the same (with the same options and tool) make the same site.
func (w *Workspace) ReadDigest() []byte { return w.ReadDigestWithout(nil) }

// ReadDigestWithout is [Workspace.ReadDigest] without the files for
// which skip is true: a cache key of pages that depend on some files
// through something other than their bytes.
func (w *Workspace) ReadDigestWithout(skip func(p string) bool) []byte {
	w.readsMu.Lock()
	defer w.readsMu.Unlock()
	return DigestOf(w.reads, skip)
}

// ReadSums returns a copy of what [Workspace.ReadDigest] hashes: each
// path read, with its bytes' hash (or its error's).
func (w *Workspace) ReadSums() map[string][sha256.Size]byte {
	w.readsMu.Lock()
	defer w.readsMu.Unlock()
	return maps.Clone(w.reads)
}

// DigestOf is [Workspace.ReadDigest] of reads as [Workspace.ReadSums]
// returns them, less the paths for which skip (when not nil) is true.
func DigestOf(reads map[string][sha256.Size]byte, skip func(p string) bool) []byte {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(reads)) {
		if skip != nil && skip(p) {
			continue
		}
		sum := reads[p]
		fmt.Fprintf(h, "%d:%s", len(p), p)
		h.Write(sum[:])
	}
	return h.Sum(nil)
}

func (w *Workspace) readFileLimit(p string, limit int64) ([]byte, error) {
	name, err := w.osPath(p)
	if err != nil {
		return nil, err
	}
	// Opening a FIFO would block until a writer comes, but not with
	// O_NONBLOCK, which regular files ignore; the file's type is checked
	// once it is open.
	f, err := w.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		err = w.classify(p, err)
		w.stamps.see(p, nil, err)
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	w.stamps.see(p, st, err) // before reading: a later change shows
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", p, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("read %q: is a directory", p)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("read %q: %w", p, ErrNotRegular)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("read %q: %d bytes, more than the %d it may have: %w", p, st.Size(), limit, ErrTooLarge)
	}
	// The size is known: one allocation, and one byte more to notice a
	// file that grew since.
	data := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		data = data[:n]
	case err != nil:
		return nil, fmt.Errorf("read %q: %w", p, err)
	default:
		rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(n)))
		if err != nil {
			return nil, fmt.Errorf("read %q: %w", p, err)
		}
		data = append(data, rest...)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %q: more than the %d bytes it may have: %w", p, limit, ErrTooLarge)
	}
	return data, nil
}

// Exists reports whether p names an existing file or folder in the workspace.
func (w *Workspace) Exists(p string) bool {
	name, err := w.osPath(p)
	if err != nil {
		return false
	}
	st, err := w.root.Stat(name)
	w.stamps.see(p, st, err)
	return err == nil
}

// Stat describes the file or folder at the slash path p, following
// symlinks that stay inside the workspace; it fails with [ErrOutside] for
// one that leaves it.
func (w *Workspace) Stat(p string) (fs.FileInfo, error) {
	name, err := w.osPath(p)
	if err != nil {
		return nil, err
	}
	st, err := w.root.Stat(name)
	w.stamps.see(p, st, err)
	if err != nil {
		return nil, w.classify(p, err)
	}
	return st, nil
}

// FS returns the workspace as an [fs.FS], for walking.
func (w *Workspace) FS() fs.FS { return stampedFS{fs: w.root.FS(), w: w} }

// osPath checks p lexically and converts it for the os.Root methods.
func (w *Workspace) osPath(p string) (string, error) {
	if !Local(p) || strings.ContainsRune(p, '\\') {
		return "", fmt.Errorf("read %q: %w", p, ErrOutside)
	}
	return filepath.FromSlash(path.Clean(p)), nil
}

// classify turns an os.Root error into ErrOutside or a not-exist error.
// os.Root does not export its "escapes" error, so it is recognized by its
// text; TestWorkspaceSymlinks fails if that text ever changes.
func (w *Workspace) classify(p string, err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("read %q: %w", p, ErrOutside)
	}
	return fmt.Errorf("read %q: %w", p, err)
}

// ErrNoWorkspace is returned, wrapped, by [Find] when no folder at
// or above the start is a workspace.
var ErrNoWorkspace = errors.New("no tracewiki workspace")

// Find finds the workspace the way git finds its repository
// (SPEC 1.5): the nearest folder at or above dir that holds tracewiki.toml
// or tracewiki.lock; else dir itself when it holds a content/ folder; else
// an error wrapping [ErrNoWorkspace]. dir should be absolute; the result is
// then absolute too.
func Find(dir string) (string, error) {
	for d := dir; ; {
		for _, marker := range []string{ConfigFile, "tracewiki.lock"} {
			if st, err := os.Stat(filepath.Join(d, marker)); err == nil && !st.IsDir() {
				return d, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if st, err := os.Stat(filepath.Join(dir, "content")); err == nil && st.IsDir() {
		return dir, nil
	}
	return "", fmt.Errorf("%w in %s or any folder above it: no %s or tracewiki.lock, and no content/ folder here; run \"tracewiki init\" to start one, or pass --root DIR", ErrNoWorkspace, dir, ConfigFile)
}
