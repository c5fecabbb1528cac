//go:build unix

package output

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether the process pid exists, so that the
// leftovers of a running build are never taken for those of a killed one.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
