package buildcache

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tracewiki/tracewiki/site/render"
)

// Env names the environment variable that moves the build cache (a
// folder), or turns it off ("off"); the --cache and --no-cache flags win
// over it. Tests set it so that no test ever touches the user's cache.
const Env = "TRACEWIKI_CACHE"

// cacheFormat is the version of the entry format and of what each stage
// stores; bump it when either changes, and every older entry is ignored.
const cacheFormat = 2

// Trimming: an entry not used for MaxAge is removed, and when the
// cache still holds more than MaxBytes, the least recently used entries
// go until it does not. A trim runs at the end of a build, at most once per
// TrimEvery.
const (
	MaxAge    = 30 * 24 * time.Hour
	MaxBytes  = 1 << 30
	TrimEvery = 24 * time.Hour
)

// cacheTouchAfter is how stale an entry's mtime (its last use) may get
// before a read refreshes it: refreshed at most daily, it still orders
// entries for trimming.
const cacheTouchAfter = 24 * time.Hour

// Cache is a persistent, content-addressed build cache: a folder of
// entries, each named by the hash of its stage, its key (the hash of the
// stage's inputs) and the tool's version, so an entry of another version
// or for other inputs is never found. Entries are written to a temporary
// file and renamed into place, so builds sharing a cache (also
// concurrently) see whole entries or none; every entry starts with a header
// holding its name hash, length and a MAC of both and the payload, keyed
// by a secret kept outside the cache (see [Secret]), and an entry
// that does not match (truncated, corrupt, foreign, forged) is ignored and
// overwritten, never trusted: whoever can write the cache folder (a CI
// cache restored from another branch, a shared TRACEWIKI_CACHE) cannot put
// HTML into a site. A nil *Cache caches nothing. Safe for concurrent use.
type Cache struct {
	dir     string
	version string // mixed into every entry's name
	secret  []byte // the MAC key of its entries

	mu     sync.Mutex
	hits   int
	misses int
	writes int
}

// DefaultDir is where the build cache lives unless moved:
// tracewiki under the user cache folder ([os.UserCacheDir]).
func DefaultDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	return filepath.Join(dir, "tracewiki"), nil
}

// Open opens (making it if needed) the build cache in dir.
func Open(dir string) (*Cache, error) {
	return openCache(dir, toolVersion())
}

func openCache(dir, version string) (*Cache, error) {
	return openCacheWith(dir, version, Secret())
}

func openCacheWith(dir, version string, secret []byte) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("build cache: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("build cache: %w", err)
	}
	return &Cache{dir: abs, version: version, secret: secret}, nil
}

// Dir is the cache's folder.
func (c *Cache) Dir() string { return c.dir }

// Stats counts a cache's lookups and writes since it was opened.
type Stats struct{ Hits, Misses, Writes int }

// Stats returns the counts so far.
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{c.hits, c.misses, c.writes}
}

var (
	toolVersionOnce sync.Once
	toolVersionStr  string
)

// toolVersion identifies the code that makes the cached values: the cache
// format, the main module's version and VCS revision, and every
// dependency's version (chroma's lexers and styles, goldmark). A build
// that is not a clean release (a development build, a modified tree, a
// test binary) cannot name its code by version, so the hash of its own
// executable is added: a rebuilt binary never reads a stale entry.
func toolVersion() string {
	toolVersionOnce.Do(func() {
		var b strings.Builder
		fmt.Fprintf(&b, "format %d\n", cacheFormat)
		release := false
		if bi, ok := debug.ReadBuildInfo(); ok {
			fmt.Fprintf(&b, "%s %s %s\n", bi.GoVersion, bi.Main.Path, bi.Main.Version)
			release = bi.Main.Version != "" && bi.Main.Version != "(devel)"
			for _, s := range bi.Settings {
				if strings.HasPrefix(s.Key, "vcs.") {
					fmt.Fprintf(&b, "%s=%s\n", s.Key, s.Value)
					if s.Key == "vcs.modified" && s.Value == "true" {
						release = false
					}
				}
			}
			for _, d := range bi.Deps {
				fmt.Fprintf(&b, "%s %s %s\n", d.Path, d.Version, d.Sum)
			}
		}
		if !release {
			fmt.Fprintf(&b, "exe %s\n", executableHash())
		}
		sum := sha256.Sum256([]byte(b.String()))
		toolVersionStr = hex.EncodeToString(sum[:])
	})
	return toolVersionStr
}

// executableHash is the SHA-256 of the running executable, or a value that
// is new with every process when it cannot be read (nothing is then shared
// between runs, which is safe).
func executableHash() string {
	h := sha256.New()
	name, err := os.Executable()
	if err == nil {
		var f *os.File
		if f, err = os.Open(name); err == nil {
			_, err = io.Copy(h, f)
			f.Close()
		}
	}
	if err != nil {
		return fmt.Sprintf("unreadable-%d-%d", os.Getpid(), time.Now().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cacheMagic starts every entry.
const cacheMagic = "tracewiki-cache\n"

// headerLen is the magic, the entry's name hash, the payload length and the
// entry's MAC (HMAC-SHA256 of the name hash, the length and the payload).
const headerLen = len(cacheMagic) + sha256.Size + 8 + sha256.Size

// entryMAC is the MAC of an entry: HMAC-SHA256, keyed by the cache's
// secret, of its name hash, its payload's length (big-endian) and the
// payload.
func entryMAC(secret []byte, name [sha256.Size]byte, payload []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(name[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(payload)))
	m.Write(n[:])
	m.Write(payload)
	return m.Sum(nil)
}

// name is an entry's name hash: its stage, key and the tool version.
func (c *Cache) name(stage string, key []byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00", c.version, len(stage), stage)
	h.Write(key)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// path is where an entry lives: a folder per stage, then per first byte.
func (c *Cache) path(stage string, name [sha256.Size]byte) string {
	x := hex.EncodeToString(name[:])
	return filepath.Join(c.dir, stage, x[:2], x)
}

// Get returns the payload stored for (stage, key), or false when there is
// none or the entry does not check out.
func (c *Cache) Get(stage string, key []byte) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	name := c.name(stage, key)
	p := c.path(stage, name)
	data, err := os.ReadFile(p)
	payload, ok := []byte(nil), false
	if err == nil {
		payload, ok = checkEntry(data, name, c.secret)
	}
	c.mu.Lock()
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	if ok {
		if st, err := os.Stat(p); err == nil && time.Since(st.ModTime()) > cacheTouchAfter {
			now := time.Now()
			os.Chtimes(p, now, now) // the last use, for trimming
		}
	}
	return payload, ok
}

// checkEntry returns an entry's payload when its header names it and its
// length and MAC (keyed by secret) match.
func checkEntry(data []byte, name [sha256.Size]byte, secret []byte) ([]byte, bool) {
	if len(data) < headerLen || string(data[:len(cacheMagic)]) != cacheMagic {
		return nil, false
	}
	h := data[len(cacheMagic):]
	if !bytes.Equal(h[:sha256.Size], name[:]) {
		return nil, false
	}
	n := binary.BigEndian.Uint64(h[sha256.Size:])
	payload := data[headerLen:]
	if uint64(len(payload)) != n {
		return nil, false
	}
	if !hmac.Equal(h[sha256.Size+8:sha256.Size+8+sha256.Size], entryMAC(secret, name, payload)) {
		return nil, false
	}
	return payload, true
}

// Put stores payload for (stage, key), replacing whatever entry was there.
// A failure to write is not an error of the build: the entry is just not
// cached.
func (c *Cache) Put(stage string, key, payload []byte) {
	if c == nil {
		return
	}
	name := c.name(stage, key)
	p := c.path(stage, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-")
	if err != nil {
		return
	}
	sum := entryMAC(c.secret, name, payload)
	var hdr [headerLen]byte
	copy(hdr[:], cacheMagic)
	copy(hdr[len(cacheMagic):], name[:])
	binary.BigEndian.PutUint64(hdr[len(cacheMagic)+sha256.Size:], uint64(len(payload)))
	copy(hdr[len(cacheMagic)+sha256.Size+8:], sum[:])
	_, err = f.Write(hdr[:])
	if err == nil {
		_, err = f.Write(payload)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return
	}
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
}

// trimStamp is the file whose mtime says when the cache was last trimmed.
const trimStamp = "trimmed"

// Trim removes what the trimming policy says (see [MaxAge]) when the
// last trim is older than [TrimEvery]: entries unused for MaxAge,
// then the least recently used ones while the cache exceeds MaxBytes,
// and temporary files a killed build left (older than an hour). It
// touches nothing but entries and the cache's own temporary files.
func (c *Cache) Trim() error {
	if c == nil {
		return nil
	}
	stamp := filepath.Join(c.dir, trimStamp)
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < TrimEvery {
		return nil
	}
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	return c.trim(time.Now(), MaxAge, MaxBytes)
}

type cacheFile struct {
	path string
	size int64
	used time.Time
}

func (c *Cache) trim(now time.Time, maxAge time.Duration, maxBytes int64) error {
	var kept []cacheFile
	var total int64
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == c.dir {
				return err
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(c.dir, p)
		if rel == trimStamp {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		base := d.Name()
		switch {
		case strings.HasPrefix(base, ".tmp-"):
			if now.Sub(info.ModTime()) > time.Hour {
				os.Remove(p)
			}
		case !isEntryName(base):
			// Not ours: left alone.
		case now.Sub(info.ModTime()) > maxAge:
			os.Remove(p)
		default:
			kept = append(kept, cacheFile{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("build cache: %w", err)
	}
	if total <= maxBytes {
		return nil
	}
	slices.SortFunc(kept, func(a, b cacheFile) int { return a.used.Compare(b.used) })
	for _, f := range kept {
		if total <= maxBytes {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	return nil
}

// isEntryName reports whether a file name is an entry's: 64 hex digits.
func isEntryName(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// FromEnv opens the cache the environment selects: [Env] names a
// folder, or "off"; unset means [DefaultDir]. It returns nil, nil when
// the cache is off.
func FromEnv() (*Cache, error) {
	dir := os.Getenv(Env)
	if dir == "off" {
		return nil, nil
	}
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	return Open(dir)
}

// cacheKey hashes the parts of a key, each length-prefixed ([render.Key]).
func cacheKey(parts ...[]byte) []byte { return render.Key(parts...) }

// Fragments is the cache as rendering's store of highlighted fragments;
// nil, caching nothing, for no cache.
func (c *Cache) Fragments() render.FragmentStore {
	if c == nil {
		return nil
	}
	return c
}
