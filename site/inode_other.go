//go:build !unix

package site

import (
	"io/fs"
	"os"
)

// inode is 0 where the system has no inode numbers: an output file is then
// told unchanged by its size, mode and modification time.
func inode(fs.FileInfo) uint64 { return 0 }

// dirNames returns the names in the folder dir, in no order.
func dirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
