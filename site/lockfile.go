package site

import (
	"fmt"
	"io"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// lockfile is the workspace's lock file, as the config names it.
func (p *Project) lockfile() *workspace.Lockfile {
	return workspace.NewLockfile(p.WS, p.Config.Lock, p.Config.Evidence.Kept())
}

// ReadLock reads the lock file for a command that only reads it (check,
// build --frozen): see [workspace.Lockfile.Read].
func (p *Project) ReadLock() (*codeanchors.Lock, error) { return p.lockfile().Read() }

// UpdateLock changes the lock file under an exclusive file lock, and only
// a lock it could read: see [workspace.Lockfile.Update].
func (p *Project) UpdateLock(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return p.lockfile().Update(notes, fn)
}

// RenewLock is [Project.UpdateLock] for capture and evidence, which keep
// a corrupt lock aside and start a new one: see
// [workspace.Lockfile.Renew].
func (p *Project) RenewLock(notes io.Writer, fn func(*codeanchors.Lock) error) error {
	return p.lockfile().Renew(notes, fn)
}

// Now is the time recorded in captures and evidence ([workspace.Now]).
func Now() time.Time { return workspace.Now() }

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
