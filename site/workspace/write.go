package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// TempSuffix joins a file's name and the id of the process that writes it
// in the temporary file [Workspace.WriteFile] renames over it:
// NAME.tmp-PID. A run killed between the two steps leaves the temporary
// file behind.
const TempSuffix = ".tmp-"

// tempName is the temporary file the process writes name through.
func tempName(name string) string {
	return name + TempSuffix + strconv.Itoa(os.Getpid())
}

// WriteFile replaces the file name (a slash path in the workspace) with
// data, or creates it, through a synced temporary file in the same folder
// and a rename, so that a reader never sees half a file. It refuses to
// replace a symlink.
func (w *Workspace) WriteFile(name string, data []byte) error {
	if err := w.refuseSymlink(name); err != nil {
		return err
	}
	return w.writeAtomic(name, data)
}

// writeAtomic writes data to name in the workspace through a synced
// temporary file in the same folder and a rename.
func (w *Workspace) writeAtomic(name string, data []byte) error {
	osName := filepath.FromSlash(name)
	tmp := tempName(osName)
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.root.Rename(tmp, osName)
	}
	if err != nil {
		w.root.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// refuseSymlink fails when name is a symlink: tracewiki replaces the files
// it writes, and must not be tricked into writing somewhere else.
func (w *Workspace) refuseSymlink(name string) error {
	st, err := w.root.Lstat(filepath.FromSlash(name))
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; refusing to replace it", name)
	}
	return nil
}

// MkdirAll makes the folder p (a slash path in the workspace) and the
// folders above it that are missing, all inside the workspace.
func (w *Workspace) MkdirAll(p string) error {
	return w.root.MkdirAll(filepath.FromSlash(p), 0o755)
}

// Remove removes the file or empty folder p (a slash path in the
// workspace).
func (w *Workspace) Remove(p string) error {
	return w.root.Remove(filepath.FromSlash(p))
}
