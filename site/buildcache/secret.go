package buildcache

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// ConfigDirEnv names the environment variable that moves the folder of
// tracewiki's per-user files (the build cache's secret, [Secret]);
// unset means tracewiki under the user config folder ([os.UserConfigDir]).
// Tests set it so that no test ever touches the user's files.
const ConfigDirEnv = "TRACEWIKI_CONFIG_DIR"

// cacheSecretFile is the file under the config folder that holds the
// build cache's secret, and cacheSecretLen its length in bytes.
const (
	cacheSecretFile = "cache.key"
	cacheSecretLen  = 32
)

var (
	cacheSecretOnce sync.Once
	cacheSecretVal  []byte
)

// Secret is the key of the MACs of the build cache's entries: the
// user's, read from cache.key in the config folder (see [ConfigDirEnv]),
// which it makes (mode 0600) on first use. It lives outside the cache
// folder, so a cache restored from elsewhere (a CI cache of another
// branch, a shared TRACEWIKI_CACHE) carries no valid entry unless it was
// written with the same secret. When there is no usable config folder, or
// the file is not a secret (wrong size, readable by others), each process
// draws a key of its own: the cache then misses across processes, which is
// safe, never an error.
func Secret() []byte {
	cacheSecretOnce.Do(func() {
		dir, err := configDir()
		if err == nil {
			cacheSecretVal, err = loadCacheSecret(dir)
		}
		if err != nil {
			cacheSecretVal = make([]byte, cacheSecretLen)
			rand.Read(cacheSecretVal)
		}
	})
	return cacheSecretVal
}

// configDir is the folder of tracewiki's per-user files.
func configDir() (string, error) {
	if dir := os.Getenv(ConfigDirEnv); dir != "" {
		return dir, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tracewiki"), nil
}

// loadCacheSecret reads the secret in dir, making it when there is none.
// A new secret is written to a temporary file and linked into place, so
// two processes making it at once both end up with the one that won.
func loadCacheSecret(dir string) ([]byte, error) {
	name := filepath.Join(dir, cacheSecretFile)
	key, err := readCacheSecret(name)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key = make([]byte, cacheSecretLen)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "."+cacheSecretFile+".tmp-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(key)
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := os.Link(f.Name(), name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readCacheSecret(name) // another process made it first
		}
		return nil, err
	}
	return key, nil
}

// readCacheSecret reads a secret file: a regular file of exactly
// cacheSecretLen bytes that only its owner may read (where modes say so).
func readCacheSecret(name string) ([]byte, error) {
	st, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	switch {
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", name)
	case st.Size() != cacheSecretLen:
		return nil, fmt.Errorf("%s: %d bytes, want %d", name, st.Size(), cacheSecretLen)
	case runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("%s: mode %v: others may read it", name, st.Mode().Perm())
	}
	key, err := os.ReadFile(name)
	if err == nil && len(key) != cacheSecretLen {
		err = fmt.Errorf("%s: changed while read", name)
	}
	return key, err
}
