//go:build linux

package workspace

import (
	"io/fs"
	"syscall"
)

// StampOf describes fi as a [Stamp]; false where the system does not
// say enough (no change time): nothing is then found unchanged by it.
func StampOf(fi fs.FileInfo) (Stamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return Stamp{
		Size:  fi.Size(),
		Mode:  fi.Mode(),
		Mtime: fi.ModTime().UnixNano(),
		Ctime: st.Ctim.Nano(),
		Ino:   uint64(st.Ino),
		Dev:   uint64(st.Dev),
	}, true
}
