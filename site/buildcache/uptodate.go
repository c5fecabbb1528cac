package buildcache

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// A build of an unchanged workspace into an output it already holds makes
// nothing ([Site.Reused]), but finding that out reads and parses every
// file: two seconds at 11,000 pages. Like make and git, [UpToDate] finds
// it out from the file system's own record instead: the last such build
// stamped every path it looked at (each file read, folder listed and path
// it asked about) with its size, mode, times, inode and device, and when
// every path is still so, the build would read the same bytes and make
// the same site.
//
// A file changed within the same tick of the clock as its stamp could keep
// its times, so a path changed shortly before the build that stamped it
// (racyWindow) is trusted only after its bytes are read and hashed again.
// A folder the build listed is trusted by its listing, the names and types
// of its entries: a file saved by renaming a new one over it, as editors
// and git do, changes its folder's times but not what a build finds there.

// racyWindow is how long before a build a path's change makes its stamp
// one to check by content. A variable for TestUpToDateRacy, which makes
// every path racy; tests that write a workspace a moment before they build
// it keep it: its paths are checked by content, which finds them the same.
var racyWindow = 2 * time.Second

// upToDateStage names the build cache's records of builds whose workspace
// was stamped, one per workspace, output and options.
const upToDateStage = "uptodate"

// Counts are a build's check report in numbers: links by state and by
// reason.
type Counts struct {
	States, Reasons map[string]int
}

// Count returns how many links have the state.
func (c Counts) Count(s codeanchors.State) int { return c.States[string(s)] }

// CountReason returns how many links have the reason.
func (c Counts) CountReason(r codeanchors.Reason) int { return c.Reasons[string(r)] }

// Summary is what a build reports: its pages, its check report's counts,
// and the notes it wrote.
type Summary struct {
	Pages  int
	Counts Counts
	Notes  string
	// Output is the config's output folder (slash path in the
	// workspace), for a build without --out.
	Output string
}

// upToDate is the record of a build that made its site from stamped
// paths.
type upToDate struct {
	start   int64  // when the build began, nanoseconds
	out     string // the output folder, absolute
	siteKey []byte
	gitRev  string // the revision forge links were resolved from, if any
	commit  string // and the commit it was
	summary Summary
	paths   map[string]workspace.Stamp
	sums    map[string][sha256.Size]byte // files read: their bytes' hash, or their error's ([workspace.Workspace.ReadSums])
	lists   map[string][sha256.Size]byte // folders listed: the hash of their entries ([workspace.Stamps])
	walks   workspace.Walks              // which entries the listings are of
}

// Options are what a build was asked for beyond its workspace and output:
// the builds of one workspace into one output with other options have
// records of their own.
type Options struct {
	Frozen          bool
	BaseURL, Commit string
}

// Built is what a build that wrote its site into an output folder tells
// the cache of itself, for [UpToDate] and [BuildEdited]: the workspace it
// read (its stamps and what it read), where it wrote, and what it made.
type Built struct {
	WS      *workspace.Workspace
	Flag    string // --out as given; "" for the config's output
	Out     string // the output folder, absolute
	Options Options
	SiteKey []byte
	Summary Summary
	// Revision is the commit built (the forge links' and the bundle's),
	// resolved by git unless --commit named it as a hash.
	Revision string
	// HistoryRead says the build read texts from the git history, at
	// HEAD GitHead.
	HistoryRead bool
	GitHead     string
	// Edits, when set, is the record of the build's editable pages.
	Edits *Edits
	// Language is the config's, the language of the search index it
	// wrote ([CachedSearch]).
	Language string
}

// Record records the build b for [UpToDate] and [BuildEdited], when it
// made its site from stamped paths only (the next build would do the
// same); the caller records only a build that captured or stamped nothing
// into the lock.
func (c *Cache) Record(b Built) {
	if c == nil {
		return
	}
	st, stable := b.WS.Stamps()
	if !stable {
		return
	}
	key, err := upToDateKey(b.WS.Dir, b.Flag, b.Options)
	if err != nil {
		return
	}
	rec := &upToDate{start: st.Start, out: b.Out, siteKey: b.SiteKey, paths: st.Paths, sums: b.WS.ReadSums(), lists: st.Lists, walks: st.Walks,
		summary: b.Summary}
	if b.Options.Commit == "" || b.Revision != b.Options.Commit {
		// The commit built (the forge links' and the bundle's) was
		// resolved by git: the record holds while git resolves it so.
		rec.gitRev, rec.commit = cmp.Or(b.Options.Commit, "HEAD"), b.Revision
	}
	if b.HistoryRead {
		// The texts found in the git history hold while HEAD does.
		if rec.gitRev != "" && rec.gitRev != "HEAD" {
			return // one revision is recorded: the forge's, not HEAD
		}
		rec.gitRev, rec.commit = "HEAD", b.GitHead
	}
	c.Put(upToDateStage, key, rec.encode())
	recordSearchSource(c, b.WS.Dir, key, b.Language)
	if b.Edits != nil {
		c.Put(editsStage, key, b.Edits.encode())
	}
}

// CountsOf counts a check report's links by state and reason.
func CountsOf(r *synth.CheckReport) Counts {
	c := Counts{States: map[string]int{}, Reasons: map[string]int{}}
	for state, n := range r.Totals {
		c.States[state] = n
	}
	for _, t := range r.Targets {
		if t.Reason != "" {
			c.Reasons[t.Reason]++
		}
	}
	return c
}

// upToDateKey names the record of builds of the workspace root into the
// output --out flag (as given; "" for the config's) with opts.
func upToDateKey(root, flag string, opts Options) ([]byte, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if flag != "" {
		if flag, err = filepath.Abs(flag); err != nil {
			return nil, err
		}
	}
	return cacheKey([]byte(abs), []byte(flag), []byte(strconv.FormatBool(opts.Frozen)), []byte(opts.BaseURL), []byte(opts.Commit)), nil
}

// UpToDate reports whether a build of the workspace root into the output
// --out flag with opts, with the cache c, would make the very site the output holds, without
// reading the workspace: the last build recorded, with the cache, what it
// saw of every path, and every path, the forge's commit and the output are
// still as it saw them. It returns that build's summary.
func UpToDate(c *Cache, root, flag string, opts Options) (*Summary, bool) {
	rec, _ := loadUpToDate(c, root, flag, opts)
	if rec == nil {
		return nil, false
	}
	idx := rec.holds(c, root)
	if idx == nil || !idx.intact(rec.out) {
		return nil, false
	}
	return &rec.summary, true
}

// holds returns the output record of the build rec describes when nothing
// that build looked at in the workspace root changed since and the cache
// still has the record of the output it wrote; nil otherwise. Whether the
// output's files are still those is the caller's question (all of them,
// or the one it reads).
func (rec *upToDate) holds(c *Cache, root string) *outputIndex {
	ws, err := rec.openWorkspace(root)
	if err != nil {
		return nil
	}
	defer ws.Close()
	if changed, _ := rec.changed(ws, root, false); len(changed) > 0 {
		return nil
	}
	idx := loadOutputIndex(c, rec.out)
	if idx == nil || !bytes.Equal(idx.key, rec.siteKey) {
		return nil
	}
	return idx
}

// loadUpToDate returns the record of the last build of root into --out
// flag with opts, and its key; nil when there is none, or when the forge
// commit it resolved changed since.
func loadUpToDate(c *Cache, root, flag string, opts Options) (*upToDate, []byte) {
	if c == nil {
		return nil, nil
	}
	key, err := upToDateKey(root, flag, opts)
	if err != nil {
		return nil, nil
	}
	rec := recordAt(c, root, key)
	if rec == nil {
		return nil, nil
	}
	return rec, key
}

// recordAt reads the up-to-date record of the workspace root under key;
// nil when there is none, or it was made at another git commit than the
// one checked out now.
func recordAt(c *Cache, root string, key []byte) *upToDate {
	data, ok := c.Get(upToDateStage, key)
	if !ok {
		return nil
	}
	rec, err := parseUpToDate(data)
	if err != nil || rec.gitRev != "" && workspace.GitRev(root, rec.gitRev) != rec.commit {
		return nil
	}
	return rec
}

// openWorkspace opens the workspace root to check it against the record:
// with the transient folders of the record's output hidden, as they were
// from the build.
func (rec *upToDate) openWorkspace(root string) (*workspace.Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	ws.HideOutput(workspace.Resolve(abs), rec.out)
	return ws, nil
}

// changed returns the paths of the record that are no longer what the
// build saw, in order, looked at on GOMAXPROCS goroutines; only the first
// found unless all. fresh holds the new stamps of the paths whose stamps
// changed but not what the build saw of them (a folder listed as before).
func (rec *upToDate) changed(ws *workspace.Workspace, root string, all bool) (changed []string, fresh map[string]workspace.Stamp) {
	names := slices.Sorted(maps.Keys(rec.paths))
	gone := make([]bool, len(names))
	now := make([]workspace.Stamp, len(names))
	var found atomic.Bool // after the first change, the rest need no look
	parallel(len(names), func(i int) error {
		if all || !found.Load() {
			var same bool
			if same, now[i] = rec.same(ws, root, names[i]); !same {
				gone[i] = true
				found.Store(true)
			}
		}
		return nil
	})
	fresh = map[string]workspace.Stamp{}
	for i, name := range names {
		switch {
		case gone[i]:
			changed = append(changed, name)
		case now[i] != rec.paths[name] && now[i] != workspace.Stamp{}:
			fresh[name] = now[i]
		}
	}
	return changed, fresh
}

// same reports whether the path name is what the record saw, and returns
// its stamp now.
func (rec *upToDate) same(ws *workspace.Workspace, root, name string) (bool, workspace.Stamp) {
	want := rec.paths[name]
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		return want.Missing && errors.Is(err, fs.ErrNotExist), want
	}
	st, ok := workspace.StampOf(fi)
	if !ok || want.Missing {
		return false, st
	}
	trusted := st == want && st.Ctime < rec.racyBefore()
	if fi.IsDir() {
		if trusted {
			return true, st
		}
		// Its times changed, or just before the build that stamped it:
		// what it holds decides.
		sum, listed := rec.lists[name]
		now, err := ws.Listing(name, rec.walks)
		return listed && err == nil && now == sum, st
	}
	if st != want {
		return false, st
	}
	if trusted {
		return true, st
	}
	// Changed just before the build that stamped it: the bytes decide.
	sum, isFile := rec.sums[name]
	if !isFile {
		return false, st
	}
	data, err := ws.ReadFileLimit(name, st.Size)
	return err == nil && sha256.Sum256(data) == sum, st
}

// racyBefore is the change time before which a stamp is trusted.
func (rec *upToDate) racyBefore() int64 { return rec.start - int64(racyWindow) }

// upToDateMagic starts a record; a record of another format is ignored.
const upToDateMagic = "tracewiki-uptodate 2"

// encode writes the record as lines of tab-separated fields, strings
// quoted.
func (rec *upToDate) encode() []byte {
	var b bytes.Buffer
	q := strconv.Quote
	fmt.Fprintf(&b, "%s\nstart\t%d\nout\t%s\nsitekey\t%x\ngit\t%s\t%s\npages\t%d\noutput\t%s\nnotes\t%s\n",
		upToDateMagic, rec.start, q(rec.out), rec.siteKey, q(rec.gitRev), q(rec.commit),
		rec.summary.Pages, q(rec.summary.Output), q(rec.summary.Notes))
	for _, glob := range rec.walks.Include() {
		fmt.Fprintf(&b, "include\t%s\n", q(glob))
	}
	for _, name := range slices.Sorted(maps.Keys(rec.summary.Counts.States)) {
		fmt.Fprintf(&b, "state\t%s\t%d\n", q(name), rec.summary.Counts.States[name])
	}
	for _, name := range slices.Sorted(maps.Keys(rec.summary.Counts.Reasons)) {
		fmt.Fprintf(&b, "reason\t%s\t%d\n", q(name), rec.summary.Counts.Reasons[name])
	}
	for _, name := range slices.Sorted(maps.Keys(rec.paths)) {
		st := rec.paths[name]
		sum, list := "-", "-"
		if s, ok := rec.sums[name]; ok {
			sum = fmt.Sprintf("%x", s)
		}
		if s, ok := rec.lists[name]; ok {
			list = fmt.Sprintf("%x", s)
		}
		fmt.Fprintf(&b, "path\t%s\t%t\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n",
			q(name), st.Missing, st.Size, uint32(st.Mode), st.Mtime, st.Ctime, st.Ino, st.Dev, sum, list)
	}
	return b.Bytes()
}

var errBadRecord = errors.New("bad up-to-date record")

// parseUpToDate reads what encode wrote; anything else is an error.
func parseUpToDate(data []byte) (*upToDate, error) {
	rec := &upToDate{paths: map[string]workspace.Stamp{}, sums: map[string][sha256.Size]byte{}, lists: map[string][sha256.Size]byte{}}
	rec.summary.Counts = Counts{States: map[string]int{}, Reasons: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() || sc.Text() != upToDateMagic {
		return nil, errBadRecord
	}
	var bad bool
	var include []string // the record's walks' globs
	str := func(s string) string {
		v, err := strconv.Unquote(s)
		bad = bad || err != nil
		return v
	}
	num := func(s string) int64 {
		v, err := strconv.ParseInt(s, 10, 64)
		bad = bad || err != nil
		return v
	}
	unum := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 10, 64)
		bad = bad || err != nil
		return v
	}
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch {
		case f[0] == "start" && len(f) == 2:
			rec.start = num(f[1])
		case f[0] == "out" && len(f) == 2:
			rec.out = str(f[1])
		case f[0] == "sitekey" && len(f) == 2:
			var err error
			rec.siteKey, err = hex.DecodeString(f[1])
			bad = bad || err != nil
		case f[0] == "git" && len(f) == 3:
			rec.gitRev, rec.commit = str(f[1]), str(f[2])
		case f[0] == "pages" && len(f) == 2:
			rec.summary.Pages = int(num(f[1]))
		case f[0] == "output" && len(f) == 2:
			rec.summary.Output = str(f[1])
		case f[0] == "notes" && len(f) == 2:
			rec.summary.Notes = str(f[1])
		case f[0] == "include" && len(f) == 2:
			include = append(include, str(f[1]))
		case f[0] == "state" && len(f) == 3:
			rec.summary.Counts.States[str(f[1])] = int(num(f[2]))
		case f[0] == "reason" && len(f) == 3:
			rec.summary.Counts.Reasons[str(f[1])] = int(num(f[2]))
		case f[0] == "path" && len(f) == 11:
			name := str(f[1])
			rec.paths[name] = workspace.Stamp{Missing: f[2] == "true", Size: num(f[3]), Mode: fs.FileMode(unum(f[4])),
				Mtime: num(f[5]), Ctime: num(f[6]), Ino: unum(f[7]), Dev: unum(f[8])}
			for i, m := range []map[string][sha256.Size]byte{rec.sums, rec.lists} {
				if f[9+i] != "-" {
					sum, err := hex.DecodeString(f[9+i])
					bad = bad || err != nil || len(sum) != sha256.Size
					if !bad {
						m[name] = [sha256.Size]byte(sum)
					}
				}
			}
		default:
			bad = true
		}
		if bad {
			return nil, errBadRecord
		}
	}
	if sc.Err() != nil || rec.out == "" || len(rec.siteKey) == 0 || len(rec.paths) == 0 {
		return nil, errBadRecord
	}
	rec.walks = workspace.NewWalks(include)
	return rec, nil
}
