package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Lockfile is the lock file of a workspace (SPEC 1.4): where it is, and
// how much evidence it keeps. It reads the lock for commands that only
// read it and changes it for those that write it, under a file lock and
// atomically, and never overwrites one it cannot read.
type Lockfile struct {
	ws   *Workspace
	name string // slash path in the workspace
	keep int    // evidence entries kept per requirement
}

// NewLockfile returns the lock file name (a slash path in ws, the
// config's lock) that keeps at most keep evidence entries per
// requirement (the config's [evidence] keep).
func NewLockfile(ws *Workspace, name string, keep int) *Lockfile {
	return &Lockfile{ws: ws, name: name, keep: keep}
}

// Read reads the lock file for a command that only reads it (check,
// build --frozen). A missing lock is empty; a corrupt one (see
// [codeanchors.ParseLock]) or one over [codeanchors.MaxLockBytes] is an
// error that names it and says how to recover, and it is left exactly as
// it is.
func (f *Lockfile) Read() (*codeanchors.Lock, error) {
	return f.Parse(f.ws.ReadFileLimit(f.name, codeanchors.MaxLockBytes))
}

// Parse is [Lockfile.Read] of the lock's bytes and error as
// [Workspace.ReadFileLimit] read them, up to [codeanchors.MaxLockBytes]:
// for a caller that compares the bytes with an earlier read's.
func (f *Lockfile) Parse(data []byte, err error) (*codeanchors.Lock, error) {
	return f.corruptHint(f.parse(data, err))
}

// corruptHint adds to a corrupt lock's error how to repair it.
func (f *Lockfile) corruptHint(l *codeanchors.Lock, err error) (*codeanchors.Lock, error) {
	if errors.Is(err, codeanchors.ErrCorruptLock) {
		err = fmt.Errorf("%w\n%s is never overwritten: repair it by hand, or run \"tracewiki capture\" to keep it aside and start a new lock", err, f.name)
	}
	return l, err
}

// read reads and parses the lock.
func (f *Lockfile) read() (*codeanchors.Lock, error) {
	return f.parse(f.ws.ReadFileLimit(f.name, codeanchors.MaxLockBytes))
}

// parse parses the lock's bytes as read: a lock that does not exist is
// empty.
func (f *Lockfile) parse(data []byte, err error) (*codeanchors.Lock, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return codeanchors.NewLock(), nil
	}
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("%s: %w: more than the %d bytes a lock may have", f.name, codeanchors.ErrCorruptLock, codeanchors.MaxLockBytes)
	}
	if err != nil {
		return nil, err
	}
	return codeanchors.ParseLock(f.name, data)
}

// Update changes the lock file under an exclusive file lock: it reads
// the lock, calls fn, and writes the result atomically (a temporary file
// renamed over the old one), so a reader never sees half a lock and a failed
// fn leaves the file untouched. Evidence beyond the lock file's keep per
// requirement is dropped, oldest first, and the drop is reported on notes.
// A corrupt lock is an error, as for [Lockfile.Read], and is left
// exactly as it is: review, relink, import and build only change a lock
// they could read, so a corrupt one never becomes a new one holding fresh
// captures of drifted code (SPEC 1.4).
// Temporary files of killed writers are removed.
func (f *Lockfile) Update(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return f.update(notes, false, fn)
}

// Renew is [Lockfile.Update] for the two commands whose purpose is
// to write the lock, capture and evidence: a corrupt lock is never
// overwritten, but renamed to LOCK.corrupt-<timestamp>, with -2, -3, ...
// added when that name is taken; fn starts from an empty lock, and the
// rename is reported on notes.
func (f *Lockfile) Renew(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return f.update(notes, true, fn)
}

func (f *Lockfile) update(notes io.Writer, renew bool, fn func(*codeanchors.Lock) error) error {
	name := f.name
	if err := f.ws.refuseSymlink(name); err != nil {
		return err
	}
	mutexName := name + ".lk"
	if err := f.ws.refuseSymlink(mutexName); err != nil {
		return err
	}
	// Create the mutex file through the workspace root first, so that a
	// lock folder leading out of the workspace is refused before flock
	// creates anything there.
	mf, err := f.ws.root.OpenFile(filepath.FromSlash(mutexName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("lock %s: %w", mutexName, f.ws.classify(mutexName, err))
	}
	mf.Close()
	mu := flock.New(filepath.Join(f.ws.Dir, filepath.FromSlash(mutexName)))
	if err := mu.Lock(); err != nil {
		return fmt.Errorf("lock %s: %w", mutexName, err)
	}
	defer mu.Unlock()
	f.removeTemps()

	old, _ := f.ws.ReadFileLimit(name, codeanchors.MaxLockBytes)
	l, err := f.read()
	if errors.Is(err, codeanchors.ErrCorruptLock) && !renew {
		_, err = f.corruptHint(l, err)
		return err
	}
	if errors.Is(err, codeanchors.ErrCorruptLock) {
		old = nil
		aside, rerr := f.keepAside()
		if rerr != nil {
			return fmt.Errorf("%v; keeping it aside failed: %w", err, rerr)
		}
		fmt.Fprintf(notes, "tracewiki: %v\ntracewiki: kept the corrupt lock aside as %s; starting a new lock\n", err, aside)
		l, err = codeanchors.NewLock(), nil
	}
	if err != nil {
		return err
	}
	if err := fn(l); err != nil {
		return err
	}
	keep := f.keep
	if n := l.KeepEvidence(keep); n > 0 {
		fmt.Fprintf(notes, "tracewiki: dropped %d old evidence entr%s from %s: at most %d kept per requirement ([evidence] keep)\n",
			n, pluralY(n), name, keep)
	}
	data, err := l.Marshal()
	if err != nil {
		return err
	}
	if bytes.Equal(data, old) || (old == nil && len(l.Anchors) == 0 && len(l.Evidence) == 0 && len(l.Parents) == 0 && len(l.Waivers) == 0) {
		return nil // nothing changed: keep the file, and its mtime, as it is
	}
	return f.ws.writeAtomic(name, data)
}

// pluralY is the ending of "entry" for n of them: "y" or "ies".
func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// keepAside renames the corrupt lock to a name never used before,
// NAME.corrupt-<timestamp>[-N], and returns it. The caller holds the file
// lock, so no other tracewiki takes the name meanwhile.
func (f *Lockfile) keepAside() (string, error) {
	name := f.name
	base := name + ".corrupt-" + Now().Format("20060102T150405Z")
	aside := base
	for n := 2; ; n++ {
		if _, err := f.ws.root.Lstat(filepath.FromSlash(aside)); errors.Is(err, fs.ErrNotExist) {
			break
		} else if err != nil {
			return "", err
		}
		aside = base + "-" + strconv.Itoa(n)
	}
	return aside, f.ws.root.Rename(filepath.FromSlash(name), filepath.FromSlash(aside))
}

// removeTemps removes LOCK.tmp-PID files that killed writers left; the
// caller holds the file lock, so none of them is being written.
func (f *Lockfile) removeTemps() {
	dir, base := path.Split(f.name)
	if dir == "" {
		dir = "."
	}
	entries, err := fs.ReadDir(f.ws.FS(), path.Clean(dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), base+TempSuffix) {
			f.ws.root.Remove(filepath.FromSlash(path.Join(dir, e.Name())))
		}
	}
}

// Now is the time recorded in captures and evidence: SOURCE_DATE_EPOCH when
// set (reproducible runs and tests), else the clock, in UTC, to the second.
func Now() time.Time {
	if s := strings.TrimSpace(os.Getenv("SOURCE_DATE_EPOCH")); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Now().UTC().Truncate(time.Second)
}
