package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// WriteExport writes an export to the file name (export --out: relative
// to the current folder, or absolute; it may lie outside the workspace).
// It refuses, wrapping [output.ErrNotOwned], what a build refuses to replace (see
// [Project.owned]: the lock, the config, the workspace, a source file...),
// anything in the content folder, and a folder. The file is written to a
// temporary file in the same folder and renamed over name, so a symlink
// there is replaced, never written through, and a failed write (a full
// disk) leaves the old file as it was.
func (p *Project) WriteExport(name string, data []byte) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	wsAbs, err := filepath.Abs(p.WS.Dir)
	if err != nil {
		return err
	}
	ws := workspace.Resolve(wsAbs)
	dir := workspace.Resolve(filepath.Dir(abs))
	real := filepath.Join(dir, filepath.Base(abs))
	refuse := func(why string) error {
		return fmt.Errorf("export --out %s: %s; %w", name, why, output.ErrNotOwned)
	}
	why, err := p.owned(ws, real, true)
	if err != nil {
		return fmt.Errorf("export --out %s: %w", name, err)
	}
	if why != "" {
		return refuse(why)
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Lstat(real); err == nil {
		switch {
		case st.IsDir():
			return refuse("is a folder")
		case st.Mode().IsRegular():
			mode = st.Mode().Perm()
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("export --out %s: %w", name, err)
	}
	return replaceFile(real, data, mode)
}

// replaceFile writes data to a temporary file beside name, syncs it and
// renames it over name: readers see the old file or the new one, a symlink
// at name is replaced, and a failure leaves name as it was.
func replaceFile(name string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
