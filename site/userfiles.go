package site

import (
	"fmt"
	"io"
	"os"

	"github.com/tracewiki/tracewiki/site/workspace"
)

// ErrNoWorkspace is returned, wrapped, by [FindWorkspace] when no folder at
// or above the start is a workspace.
var ErrNoWorkspace = workspace.ErrNoWorkspace

// FindWorkspace finds the workspace the way git finds its repository
// (SPEC 1.5), as [workspace.Find] does: the commands' root when --root is
// not given.
func FindWorkspace(dir string) (string, error) { return workspace.Find(dir) }

// ReadFileLimit reads a file named on the command line (relative to the
// current folder, or absolute): such paths are the user's own and not
// confined to the workspace (SPEC 1.5). It fails past limit bytes.
func ReadFileLimit(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: more than the %d bytes it may have", name, limit)
	}
	return data, nil
}
