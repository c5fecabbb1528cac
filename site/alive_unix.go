//go:build unix

package site

import (
	"errors"
	"syscall"
)

// processAlive reports whether the process pid exists, so that the
// leftovers of a running build are never taken for those of a killed one.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
