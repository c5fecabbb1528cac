//go:build !linux

package output

// exchangePaths is not available here: swaps take two renames.
func exchangePaths(a, b string) error { return errNoExchange }
