//go:build unix

package site

import (
	"io/fs"
	"syscall"
)

// inode is the file's inode number.
func inode(st fs.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Ino)
	}
	return 0
}
