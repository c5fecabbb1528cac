//go:build !linux

package site

import "io/fs"

// stampOf cannot tell a file's change time here: no build is ever found
// up to date without being made.
func stampOf(fi fs.FileInfo) (fileStamp, bool) { return fileStamp{}, false }
