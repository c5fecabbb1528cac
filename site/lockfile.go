package site

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

// ReadLock reads the lock file for a command that only reads it (check,
// build --frozen). A missing lock is empty; a corrupt one (see
// [codeanchors.ParseLock]) or one over [codeanchors.MaxLockBytes] is an
// error that names it and says how to recover, and it is left exactly as
// it is.
func (p *Project) ReadLock() (*codeanchors.Lock, error) {
	return p.corruptHint(p.readLock())
}

// corruptHint adds to a corrupt lock's error how to repair it.
func (p *Project) corruptHint(l *codeanchors.Lock, err error) (*codeanchors.Lock, error) {
	if errors.Is(err, codeanchors.ErrCorruptLock) {
		err = fmt.Errorf("%w\n%s is never overwritten: repair it by hand, or run \"tracewiki capture\" to keep it aside and start a new lock", err, p.Config.Lock)
	}
	return l, err
}

// readLock reads and parses the lock.
func (p *Project) readLock() (*codeanchors.Lock, error) {
	return p.parseLock(p.WS.ReadFileLimit(p.Config.Lock, codeanchors.MaxLockBytes))
}

// parseLock parses the lock's bytes as read: a lock that does not exist is
// empty.
func (p *Project) parseLock(data []byte, err error) (*codeanchors.Lock, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return codeanchors.NewLock(), nil
	}
	if errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("%s: %w: more than the %d bytes a lock may have", p.Config.Lock, codeanchors.ErrCorruptLock, codeanchors.MaxLockBytes)
	}
	if err != nil {
		return nil, err
	}
	return codeanchors.ParseLock(p.Config.Lock, data)
}

// UpdateLock changes the lock file under an exclusive file lock: it reads
// the lock, calls fn, and writes the result atomically (a temporary file
// renamed over the old one), so a reader never sees half a lock and a failed
// fn leaves the file untouched. Evidence beyond [EvidenceConfig.Keep] per
// requirement is dropped, oldest first, and the drop is reported on notes.
// A corrupt lock is an error, as for [Project.ReadLock], and is left
// exactly as it is: review, relink, import and build only change a lock
// they could read, so a corrupt one never becomes a new one holding fresh
// captures of drifted code (SPEC 1.4).
// Temporary files of killed writers are removed.
func (p *Project) UpdateLock(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return p.updateLock(notes, false, fn)
}

// RenewLock is [Project.UpdateLock] for the two commands whose purpose is
// to write the lock, capture and evidence: a corrupt lock is never
// overwritten, but renamed to LOCK.corrupt-<timestamp>, with -2, -3, ...
// added when that name is taken; fn starts from an empty lock, and the
// rename is reported on notes.
func (p *Project) RenewLock(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return p.updateLock(notes, true, fn)
}

func (p *Project) updateLock(notes io.Writer, renew bool, fn func(*codeanchors.Lock) error) error {
	name := p.Config.Lock
	if err := p.refuseSymlink(name); err != nil {
		return err
	}
	mutexName := name + ".lk"
	if err := p.refuseSymlink(mutexName); err != nil {
		return err
	}
	// Create the mutex file through the workspace root first, so that a
	// lock folder leading out of the workspace is refused before flock
	// creates anything there.
	f, err := p.WS.root.OpenFile(filepath.FromSlash(mutexName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("lock %s: %w", mutexName, p.WS.classify(mutexName, err))
	}
	f.Close()
	mu := flock.New(filepath.Join(p.WS.Dir, filepath.FromSlash(mutexName)))
	if err := mu.Lock(); err != nil {
		return fmt.Errorf("lock %s: %w", mutexName, err)
	}
	defer mu.Unlock()
	p.removeLockTemps()

	old, _ := p.WS.ReadFileLimit(name, codeanchors.MaxLockBytes)
	l, err := p.readLock()
	if errors.Is(err, codeanchors.ErrCorruptLock) && !renew {
		_, err = p.corruptHint(l, err)
		return err
	}
	if errors.Is(err, codeanchors.ErrCorruptLock) {
		old = nil
		aside, rerr := p.keepAside(name)
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
	keep := p.Config.Evidence.Kept()
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
	return p.writeAtomic(name, data)
}

// pluralY is the ending of "entry" for n of them: "y" or "ies".
func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// keepAside renames the corrupt lock name to a name never used before,
// NAME.corrupt-<timestamp>[-N], and returns it. The caller holds the file
// lock, so no other tracewiki takes the name meanwhile.
func (p *Project) keepAside(name string) (string, error) {
	base := name + ".corrupt-" + Now().Format("20060102T150405Z")
	aside := base
	for n := 2; ; n++ {
		if _, err := p.WS.root.Lstat(filepath.FromSlash(aside)); errors.Is(err, fs.ErrNotExist) {
			break
		} else if err != nil {
			return "", err
		}
		aside = base + "-" + strconv.Itoa(n)
	}
	return aside, p.WS.root.Rename(filepath.FromSlash(name), filepath.FromSlash(aside))
}

// removeLockTemps removes LOCK.tmp-PID files that killed writers left; the
// caller holds the file lock, so none of them is being written.
func (p *Project) removeLockTemps() {
	dir, base := path.Split(p.Config.Lock)
	if dir == "" {
		dir = "."
	}
	entries, err := fs.ReadDir(p.WS.FS(), path.Clean(dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), base+".tmp-") {
			p.WS.root.Remove(filepath.FromSlash(path.Join(dir, e.Name())))
		}
	}
}

// writeAtomic writes data to name in the workspace through a synced
// temporary file in the same folder and a rename.
func (p *Project) writeAtomic(name string, data []byte) error {
	osName := filepath.FromSlash(name)
	tmp := tempName(osName)
	f, err := p.WS.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = p.WS.root.Rename(tmp, osName)
	}
	if err != nil {
		p.WS.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// refuseSymlink fails when name is a symlink: tracewiki replaces the files
// it writes, and must not be tricked into writing somewhere else.
func (p *Project) refuseSymlink(name string) error {
	st, err := p.WS.root.Lstat(filepath.FromSlash(name))
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; refusing to replace it", name)
	}
	return nil
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

// restampLegacy rewrites the lock's revisions recorded by the legacy form
// of their requirement's current text in the current form
// ([codeanchors.Lock.RestampLegacy]) and says how many on notes. capture,
// evidence, review, relink and import call it when they write the lock;
// build never does, and a frozen build writes nothing.
func (p *Project) restampLegacy(l *codeanchors.Lock, notes io.Writer) {
	if n := l.RestampLegacy(p.Model); n > 0 {
		fmt.Fprintf(notes, "tracewiki: re-stamped %d revision(s) recorded in the earlier form (lines as written) in the current form (paragraphs unwrapped); their text is the one recorded\n", n)
	}
}
