//go:build unix

package output

import (
	"os"
	"syscall"
)

// lockFolder takes an exclusive advisory lock on the folder dir, waiting
// for it, and returns its release. Builds lock the output's parent folder,
// so that two builds never update one output at the same time; the lock
// creates no file.
func lockFolder(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing releases the lock
}
