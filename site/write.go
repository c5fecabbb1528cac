package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// writeTree writes files (slash paths) into a fresh folder beside out and
// swaps it in: out is renamed aside, the new folder renamed to out, and the
// old one removed. Until the first rename, out is untouched; a failure
// removes the new folder and leaves out as it was.
func writeTree(out string, files map[string][]byte) error {
	if out == "" {
		return errNoOutput
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	if st, err := os.Lstat(abs); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("write site: %s is a symlink; refusing to replace it", out)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".new-")
	if err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	for _, name := range sortedKeys(files) {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("write site: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("write site: %w", err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("write site: %w", err)
	}
	old := ""
	if _, err := os.Lstat(abs); err == nil {
		old = filepath.Join(parent, "."+filepath.Base(abs)+".old-"+strconv.Itoa(os.Getpid()))
		os.RemoveAll(old)
		if err := os.Rename(abs, old); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("write site: %w", err)
		}
	}
	if err := os.Rename(tmp, abs); err != nil {
		if old != "" {
			os.Rename(old, abs)
		}
		os.RemoveAll(tmp)
		return fmt.Errorf("write site: %w", err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
