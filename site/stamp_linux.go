//go:build linux

package site

import (
	"io/fs"
	"syscall"
)

// stampOf describes fi as a [fileStamp]; false where the system does not
// say enough (no change time).
func stampOf(fi fs.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{
		size:  fi.Size(),
		mode:  fi.Mode(),
		mtime: fi.ModTime().UnixNano(),
		ctime: st.Ctim.Nano(),
		ino:   uint64(st.Ino),
		dev:   uint64(st.Dev),
	}, true
}
