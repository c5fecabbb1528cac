package site

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
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/output"
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

// fileStamp is what a build saw of one path; missing when it did not
// exist.
type fileStamp struct {
	missing      bool
	size         int64
	mode         fs.FileMode
	mtime, ctime int64 // nanoseconds
	ino, dev     uint64
}

// racyWindow is how long before a build a path's change makes its stamp
// one to check by content.
var racyWindow = 2 * time.Second // a variable for tests

// stamps is what a build saw of every path it looked at.
type stamps struct {
	mu       sync.Mutex
	start    int64 // when the build began, nanoseconds
	paths    map[string]fileStamp
	lists    map[string][sha256.Size]byte // folders listed: their [listingSum] of the entries walks take
	walks    walkedNames                  // which entries walks take
	unstable bool                         // some path could not be stamped: no record
}

// walkedNames tells the entries of a folder that a walk of the workspace
// may take from the others, which no walk does whatever they are: content
// files ([contentName]), files the code globs include, the languages'
// project files (go.mod, package.json: [Project.projectFiles] lists the
// code's folders for them), folders, and symlinks (a walk refuses one that
// leaves the workspace). A build's listings are of those only, so that a
// vim swap file or an editor's backup beside a page is not a change.
type walkedNames struct {
	include []string // the config's [code] include globs; nil takes every entry
	globs   globSet
}

func newWalkedNames(include []string) walkedNames {
	return walkedNames{include: include, globs: newGlobSet(include)}
}

// taken returns the entries of the folder dir that a walk may take.
func (w walkedNames) taken(dir string, entries []fs.DirEntry) []fs.DirEntry {
	if w.include == nil {
		return entries
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e fs.DirEntry) bool {
		if e.IsDir() {
			return output.IsSwapFolder(e.Name()) // never walked
		}
		return e.Type()&fs.ModeSymlink == 0 && !w.takesFile(path.Join(dir, e.Name()))
	})
}

// takesFile reports whether a walk may take the file p (a slash path in
// the workspace) by its name.
func (w walkedNames) takesFile(p string) bool {
	return contentName(path.Base(p)) || codeanchors.Default.ProjectFile(path.Base(p)) || w.globs.match(p)
}

// walked sets the code globs that tell which entries walks take; until
// then, a listing is of every entry.
func (s *stamps) walked(include []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.walks = newWalkedNames(slices.Clone(include))
}

func newStamps() *stamps {
	return &stamps{start: time.Now().UnixNano(), paths: map[string]fileStamp{}, lists: map[string][sha256.Size]byte{}}
}

// list records what the folder p held: entries, less what swaps hides.
func (s *stamps) list(p string, swaps swapFolders, entries []fs.DirEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := s.walks.listing(p, swaps, entries)
	if old, seen := s.lists[p]; seen && old != sum {
		s.unstable = true // it changed while the build looked
	}
	s.lists[p] = sum
}

// listing is what a build records of the folder dir that holds entries
// (the swap folders hidden already): the [listingSum] of those a walk may
// take, but the output folder.
func (w walkedNames) listing(dir string, swaps swapFolders, entries []fs.DirEntry) [sha256.Size]byte {
	return listingSum(w.taken(dir, swaps.inputs(dir, entries)))
}

// listingSum hashes a folder's entries, in order: their names and types.
func listingSum(entries []fs.DirEntry) [sha256.Size]byte {
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%d:%s %d\n", len(e.Name()), e.Name(), uint32(e.Type()))
	}
	return [sha256.Size]byte(h.Sum(nil))
}

// unsure says some path was not looked at.
func (s *stamps) unsure() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unstable = true
}

// see records what p was: fi, or the error that looking gave.
func (s *stamps) see(p string, fi fs.FileInfo, err error) {
	var st fileStamp
	ok := true
	switch {
	case err == nil:
		st, ok = stampOf(fi)
	case errors.Is(err, fs.ErrNotExist):
		st.missing = true
	default:
		ok = false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok {
		s.unstable = true
		return
	}
	old, seen := s.paths[p]
	switch {
	case !seen:
		s.paths[p] = st
	case old.mode.IsDir() && st.mode.IsDir():
		// A folder's times change with its entries, which [stamps.list]
		// compares. The first stamp is kept: a later one could postdate
		// a change its listing missed.
	case old != st:
		s.unstable = true // it changed while the build looked
	}
}

// stampedFS is the workspace's [fs.FS] stamping every path it is asked
// about, and each folder before it is listed.
type stampedFS struct {
	fs fs.FS // the root's: also fs.ReadDirFS, fs.ReadFileFS, fs.StatFS
	w  *Workspace
}

func (f stampedFS) Open(name string) (fs.File, error) {
	f.Stat(name)
	return f.fs.Open(name)
}

func (f stampedFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(f.fs, name)
	f.w.stamps.see(name, fi, err)
	return fi, err
}

func (f stampedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.Stat(name)
	entries, err := fs.ReadDir(f.fs, name)
	if err == nil {
		entries = f.w.swaps.hide(name, entries)
		f.w.stamps.list(name, f.w.swaps, entries)
	}
	return entries, err
}

func (f stampedFS) ReadFile(name string) ([]byte, error) {
	f.Stat(name)
	return fs.ReadFile(f.fs, name)
}

// swapFolders is what a workspace hides of the folder that holds the
// output of its build, when that folder is in the workspace: the output's
// transient folders (see [output.Swap]), which the build makes and removes while
// it runs, and, from what the build records of the folder's entries, the
// output itself, which the first build makes. A walk that saw them would
// find the workspace changed by the build itself, and never up to date.
type swapFolders struct {
	dir string // the folder, a slash path in the workspace; "" hides nothing
	out string // the output's name in it
}

// newSwapFolders returns what a workspace at root hides for the output
// folder out; both are absolute, with their symlinks resolved.
func newSwapFolders(root, out string) swapFolders {
	if !within(out, root) {
		return swapFolders{}
	}
	rel, err := filepath.Rel(root, filepath.Dir(out))
	if err != nil {
		return swapFolders{}
	}
	return swapFolders{dir: filepath.ToSlash(rel), out: filepath.Base(out)}
}

// hide returns the entries of the folder dir but the swap folders.
func (b swapFolders) hide(dir string, entries []fs.DirEntry) []fs.DirEntry {
	return b.without(dir, entries, func(name string) bool {
		swap := output.IsSwapOf(b.out, name)
		return swap
	})
}

// inputs returns the entries of the folder dir, swap folders hidden, that
// a build's output depends on: all but the output folder.
func (b swapFolders) inputs(dir string, entries []fs.DirEntry) []fs.DirEntry {
	return b.without(dir, entries, func(name string) bool { return name == b.out })
}

func (b swapFolders) without(dir string, entries []fs.DirEntry, hidden func(name string) bool) []fs.DirEntry {
	if b.dir == "" || dir != b.dir {
		return entries
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e fs.DirEntry) bool { return hidden(e.Name()) })
}

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
	paths   map[string]fileStamp
	sums    map[string][sha256.Size]byte // files read: their bytes' hash, or their error's ([Workspace.ReadDigest])
	lists   map[string][sha256.Size]byte // folders listed: their [listingSum]
	walks   walkedNames                  // which entries the listings are of
}

// recordUpToDate records, for [UpToDate], the build s of opts into o when
// it made its site from stamped paths only, and captured or stamped
// nothing into the lock (the next one would do the same).
func (p *Project) recordUpToDate(o *Output, opts BuildOptions, s *Site, notes string) {
	st := p.WS.stamps
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.unstable || !s.Captured.asRead() {
		return
	}
	key, err := upToDateKey(p.WS.Dir, o.flag, opts)
	if err != nil {
		return
	}
	rec := &upToDate{start: st.start, out: o.Dir, siteKey: s.key, paths: st.paths, sums: p.WS.readSums(), lists: st.lists, walks: st.walks,
		summary: Summary{Pages: s.Pages, Notes: notes, Output: p.Config.Output, Counts: countsOf(s.Check)}}
	if p.Config.RepoURL != "" && (opts.Commit == "" || s.forge.Commit != opts.Commit) {
		rec.gitRev, rec.commit = cmp.Or(opts.Commit, "HEAD"), s.forge.Commit
	}
	if s.historyRead {
		// The texts found in the git history hold while HEAD does.
		if rec.gitRev != "" && rec.gitRev != "HEAD" {
			return // one revision is recorded: the forge's, not HEAD
		}
		rec.gitRev, rec.commit = "HEAD", s.gitHead
	}
	opts.Cache.Put(upToDateStage, key, rec.encode())
	if s.edits != nil {
		opts.Cache.Put(editsStage, key, s.edits.encode())
	}
}

// countsOf counts a check report's links by state and reason.
func countsOf(r *synth.CheckReport) Counts {
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
func upToDateKey(root, flag string, opts BuildOptions) ([]byte, error) {
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
// --out flag with opts would make the very site the output holds, without
// reading the workspace: the last build recorded, with the cache, what it
// saw of every path, and every path, the forge's commit and the output are
// still as it saw them. It returns that build's summary.
func UpToDate(root, flag string, opts BuildOptions) (*Summary, bool) {
	rec, _ := loadUpToDate(root, flag, opts)
	if rec == nil {
		return nil, false
	}
	ws, err := rec.openWorkspace(root)
	if err != nil {
		return nil, false
	}
	defer ws.Close()
	if changed, _ := rec.changed(ws, root, false); len(changed) > 0 {
		return nil, false
	}
	idx := loadOutputIndex(opts.Cache, rec.out)
	if idx == nil || !bytes.Equal(idx.key, rec.siteKey) || !idx.intact(rec.out) {
		return nil, false
	}
	return &rec.summary, true
}

// loadUpToDate returns the record of the last build of root into --out
// flag with opts, and its key; nil when there is none, or when the forge
// commit it resolved changed since.
func loadUpToDate(root, flag string, opts BuildOptions) (*upToDate, []byte) {
	if opts.Cache == nil {
		return nil, nil
	}
	key, err := upToDateKey(root, flag, opts)
	if err != nil {
		return nil, nil
	}
	data, ok := opts.Cache.Get(upToDateStage, key)
	if !ok {
		return nil, nil
	}
	rec, err := parseUpToDate(data)
	if err != nil {
		return nil, nil
	}
	if rec.gitRev != "" && gitRev(root, rec.gitRev) != rec.commit {
		return nil, nil
	}
	return rec, key
}

// openWorkspace opens the workspace root to check it against the record:
// with the transient folders of the record's output hidden, as they were
// from the build.
func (rec *upToDate) openWorkspace(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	ws, err := OpenWorkspace(root)
	if err != nil {
		return nil, err
	}
	ws.swaps = newSwapFolders(resolvePath(abs), rec.out)
	return ws, nil
}

// changed returns the paths of the record that are no longer what the
// build saw, in order, looked at on GOMAXPROCS goroutines; only the first
// found unless all. fresh holds the new stamps of the paths whose stamps
// changed but not what the build saw of them (a folder listed as before).
func (rec *upToDate) changed(ws *Workspace, root string, all bool) (changed []string, fresh map[string]fileStamp) {
	names := slices.Sorted(maps.Keys(rec.paths))
	p := &Project{WS: ws}
	gone := make([]bool, len(names))
	now := make([]fileStamp, len(names))
	var found atomic.Bool // after the first change, the rest need no look
	p.parallel(len(names), func(i int) error {
		if all || !found.Load() {
			var same bool
			if same, now[i] = rec.same(ws, root, names[i]); !same {
				gone[i] = true
				found.Store(true)
			}
		}
		return nil
	})
	fresh = map[string]fileStamp{}
	for i, name := range names {
		switch {
		case gone[i]:
			changed = append(changed, name)
		case now[i] != rec.paths[name] && now[i] != fileStamp{}:
			fresh[name] = now[i]
		}
	}
	return changed, fresh
}

// same reports whether the path name is what the record saw, and returns
// its stamp now.
func (rec *upToDate) same(ws *Workspace, root, name string) (bool, fileStamp) {
	want := rec.paths[name]
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		return want.missing && errors.Is(err, fs.ErrNotExist), want
	}
	st, ok := stampOf(fi)
	if !ok || want.missing {
		return false, st
	}
	trusted := st == want && st.ctime < rec.racyBefore()
	if fi.IsDir() {
		if trusted {
			return true, st
		}
		// Its times changed, or just before the build that stamped it:
		// what it holds decides.
		sum, listed := rec.lists[name]
		entries, err := fs.ReadDir(ws.root.FS(), name)
		return listed && err == nil && rec.walks.listing(name, ws.swaps, ws.swaps.hide(name, entries)) == sum, st
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
	data, err := ws.ReadFileLimit(name, st.size)
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
	for _, glob := range rec.walks.include {
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
			q(name), st.missing, st.size, uint32(st.mode), st.mtime, st.ctime, st.ino, st.dev, sum, list)
	}
	return b.Bytes()
}

var errBadRecord = errors.New("bad up-to-date record")

// parseUpToDate reads what encode wrote; anything else is an error.
func parseUpToDate(data []byte) (*upToDate, error) {
	rec := &upToDate{paths: map[string]fileStamp{}, sums: map[string][sha256.Size]byte{}, lists: map[string][sha256.Size]byte{}}
	rec.summary.Counts = Counts{States: map[string]int{}, Reasons: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() || sc.Text() != upToDateMagic {
		return nil, errBadRecord
	}
	var bad bool
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
			rec.walks.include = append(rec.walks.include, str(f[1]))
		case f[0] == "state" && len(f) == 3:
			rec.summary.Counts.States[str(f[1])] = int(num(f[2]))
		case f[0] == "reason" && len(f) == 3:
			rec.summary.Counts.Reasons[str(f[1])] = int(num(f[2]))
		case f[0] == "path" && len(f) == 11:
			name := str(f[1])
			rec.paths[name] = fileStamp{missing: f[2] == "true", size: num(f[3]), mode: fs.FileMode(unum(f[4])),
				mtime: num(f[5]), ctime: num(f[6]), ino: unum(f[7]), dev: unum(f[8])}
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
	rec.walks = newWalkedNames(rec.walks.include)
	return rec, nil
}
