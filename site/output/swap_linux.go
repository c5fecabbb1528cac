package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangePaths swaps a and b in one step with renameat2(RENAME_EXCHANGE).
// File systems that cannot give errNoExchange.
func exchangePaths(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errNoExchange
	}
	return err
}
