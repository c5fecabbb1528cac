//go:build !unix

package workspace

import (
	"io/fs"
	"os"
)

// Inode is 0 where the system has no inode numbers: an output file is then
// told unchanged by its size, mode and modification time.
func Inode(fs.FileInfo) uint64 { return 0 }

// DirNames returns the names in the folder dir, in no order.
func DirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
