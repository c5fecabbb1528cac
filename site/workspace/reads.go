package workspace

import "crypto/sha256"

// Reads are the results of a workspace's reads, by slash path: what serve
// keeps of one build's workspace to answer the next one's reads of the
// files that did not change since, without the disk.
type Reads map[string]Read

// Read is one read's outcome, at one size limit.
type Read struct {
	data  []byte
	err   error
	limit int64
	sum   [sha256.Size]byte // of data, or of err: what the read digest takes
}

// Remember makes the workspace answer its reads of the paths in r from r
// (at the same size limit) instead of the disk. Such reads are not looked
// at, so the workspace's stamps are then no record ([Workspace.Stable]).
func (w *Workspace) Remember(r Reads) { w.memo = r }

// Keep makes the workspace collect the result of every read from now on,
// for [Workspace.Kept].
func (w *Workspace) Keep() {
	w.readsMu.Lock()
	defer w.readsMu.Unlock()
	w.kept = Reads{}
}

// Kept returns the reads collected since [Workspace.Keep]; nil without
// Keep. The map is the workspace's: read it once the reads are done.
func (w *Workspace) Kept() Reads {
	w.readsMu.Lock()
	defer w.readsMu.Unlock()
	return w.kept
}
