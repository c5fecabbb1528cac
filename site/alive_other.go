//go:build !unix

package site

// processAlive cannot tell here, so it says yes: leftovers are kept rather
// than risk removing a running build's folder.
func processAlive(pid int) bool { return true }
