package buildcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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

	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// outputStage names the build cache's record of what a build last wrote
// into an output folder, one entry per folder.
const outputStage = "output"

// SiteKey is the hash of everything a site is made from: every file the
// build read through the workspace (reads, its read digest: config,
// content, code, lock, project files; each missing or unreadable one with
// its error), the lock as judged (judged, the lock encoded when the build
// captured or stamped something into it, which no file read holds; nil
// when it judged against the lock file as read), the base URL, the forge
// links' commit, the commit built (revision, which the bundle names) and
// what the build found in the git history (history, which no workspace
// read holds either). The tool version is part of every entry's name.
// Output is deterministic, so an equal key means an equal site.
func SiteKey(reads, judged []byte, baseURL string, forge render.Forge, revision string, history []byte) []byte {
	if judged == nil {
		judged = []byte("as read")
	}
	return cacheKey([]byte("site"), reads, judged, []byte(baseURL), []byte(forge.Kind), []byte(forge.Repo), []byte(forge.Commit), []byte(revision), history)
}

// outputFile is what the cache remembers of one file a build wrote: enough
// to tell that the file in the output folder is still the one written
// (size, mode, mtime and inode, as a backup tool would), and its bytes'
// hash.
type outputFile struct {
	size  int64
	mode  fs.FileMode
	mtime int64 // nanoseconds
	ino   uint64
	sum   [sha256.Size]byte
}

// outputIndex is the record of the last build written into an output
// folder: its site key and every file.
type outputIndex struct {
	key    []byte
	files  map[string]outputFile
	pages  map[string][]byte          // page prefix → the key it was built from
	bodies map[string]render.BodySpan // page prefix → where its body and claims' rows are in its index.html
}

func outputIndexKey(dir string) []byte { return cacheKey([]byte(dir)) }

// loadOutputIndex reads the record of out's last build; nil when none.
func loadOutputIndex(c *Cache, dir string) *outputIndex {
	data, ok := c.Get(outputStage, outputIndexKey(dir))
	if !ok {
		return nil
	}
	idx := &outputIndex{files: map[string]outputFile{}, pages: map[string][]byte{}, bodies: map[string]render.BodySpan{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		return nil
	}
	if k := sc.Text(); k != "" {
		var err error
		if idx.key, err = hex.DecodeString(k); err != nil {
			return nil
		}
	}
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 2 || len(f) == 4 { // a page: prefix, key[, head, tail]
			key, err := hex.DecodeString(f[1])
			if err != nil {
				return nil
			}
			idx.pages[f[0]] = key
			if len(f) == 4 {
				head, e1 := strconv.Atoi(f[2])
				tail, e2 := strconv.Atoi(f[3])
				if e1 != nil || e2 != nil {
					return nil
				}
				idx.bodies[f[0]] = render.BodySpan{Head: head, Tail: tail}
			}
			continue
		}
		if len(f) == 3 { // its claims table's rows, after its line: prefix, head, tail
			b, ok := idx.bodies[f[0]]
			head, e1 := strconv.Atoi(f[1])
			tail, e2 := strconv.Atoi(f[2])
			if !ok || e1 != nil || e2 != nil {
				return nil
			}
			b.RowsHead, b.RowsTail = head, tail
			idx.bodies[f[0]] = b
			continue
		}
		if len(f) != 6 {
			return nil
		}
		var o outputFile
		size, e1 := strconv.ParseInt(f[1], 10, 64)
		mode, e2 := strconv.ParseUint(f[2], 8, 32)
		mtime, e3 := strconv.ParseInt(f[3], 10, 64)
		ino, e4 := strconv.ParseUint(f[4], 10, 64)
		sum, e5 := hex.DecodeString(f[5])
		if errors.Join(e1, e2, e3, e4, e5) != nil || len(sum) != sha256.Size {
			return nil
		}
		o.size, o.mode, o.mtime, o.ino = size, fs.FileMode(mode), mtime, ino
		copy(o.sum[:], sum)
		idx.files[f[0]] = o
	}
	return idx
}

// Intact reports whether the output folder out holds exactly the files
// the last build into it recorded, each unchanged, and nothing else.
func (c *Cache) Intact(out string) bool {
	idx := loadOutputIndex(c, out)
	return idx != nil && idx.intact(out)
}

// KeyedPages lists the pages (by their folder's prefix) and files the last
// build into out recorded with their key: those the next build keeps when
// their key is the same.
func (c *Cache) KeyedPages(out string) []string {
	idx := loadOutputIndex(c, out)
	if idx == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(idx.pages))
}

// store records idx as out's last build.
func (idx *outputIndex) store(c *Cache, dir string) {
	var buf []byte // 22,500 lines at 11,000 pages: appended, not formatted
	buf = append(hex.AppendEncode(buf, idx.key), '\n')
	for _, name := range slices.Sorted(maps.Keys(idx.files)) {
		o := idx.files[name]
		buf = append(append(buf, name...), '\t')
		buf = append(strconv.AppendInt(buf, o.size, 10), '\t')
		buf = append(strconv.AppendUint(buf, uint64(uint32(o.mode)), 8), '\t')
		buf = append(strconv.AppendInt(buf, o.mtime, 10), '\t')
		buf = append(strconv.AppendUint(buf, o.ino, 10), '\t')
		buf = append(hex.AppendEncode(buf, o.sum[:]), '\n')
	}
	for _, prefix := range slices.Sorted(maps.Keys(idx.pages)) {
		buf = append(append(buf, prefix...), '\t')
		buf = hex.AppendEncode(buf, idx.pages[prefix])
		b, ok := idx.bodies[prefix]
		if ok {
			buf = strconv.AppendInt(append(buf, '\t'), int64(b.Head), 10)
			buf = strconv.AppendInt(append(buf, '\t'), int64(b.Tail), 10)
		}
		buf = append(buf, '\n')
		if ok && b.RowsHead > 0 {
			buf = append(append(buf, prefix...), '\t')
			buf = strconv.AppendInt(buf, int64(b.RowsHead), 10)
			buf = strconv.AppendInt(append(buf, '\t'), int64(b.RowsTail), 10)
			buf = append(buf, '\n')
		}
	}
	c.Put(outputStage, outputIndexKey(dir), buf)
}

// statOutput describes a file as the index records it; false when it is
// no regular file.
func statOutput(p string) (outputFile, bool) {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return outputFile{}, false
	}
	return outputFileOf(st), true
}

// statFile describes an open file, just written, as the index records it.
func statFile(f *os.File) (outputFile, error) {
	st, err := f.Stat()
	if err != nil {
		return outputFile{}, err
	}
	if !st.Mode().IsRegular() {
		return outputFile{}, fmt.Errorf("%s: not a regular file after writing it", f.Name())
	}
	return outputFileOf(st), nil
}

func outputFileOf(st fs.FileInfo) outputFile {
	return outputFile{size: st.Size(), mode: st.Mode(), mtime: st.ModTime().UnixNano(), ino: workspace.Inode(st)}
}

// same reports whether the file on disk is the one the index recorded.
func (o outputFile) same(disk outputFile) bool {
	return o.size == disk.size && o.mode == disk.mode && o.mtime == disk.mtime && o.ino == disk.ino
}

// intact reports whether the folder dir holds exactly the files the index
// records, each unchanged, and no other file or folder. Its folders are
// read on GOMAXPROCS goroutines: an output walk is a system call per file.
func (idx *outputIndex) intact(dir string) bool {
	if len(idx.files) == 0 {
		return false
	}
	dirs := dirsOf(idx.files)
	names := slices.Sorted(maps.Keys(dirs))
	var files atomic.Int64
	var changed atomic.Bool // after the first change, the rest need no look
	parallel(len(names), func(i int) error {
		if changed.Load() {
			return nil
		}
		entries, err := workspace.DirNames(filepath.Join(dir, filepath.FromSlash(names[i])))
		if err != nil {
			changed.Store(true)
			return nil
		}
		for _, name := range entries {
			rel := path.Join(names[i], name)
			if dirs[rel] {
				continue // a folder: read in its turn, which fails for anything else
			}
			o, ok := idx.files[rel]
			disk, regular := statOutput(filepath.Join(dir, filepath.FromSlash(rel)))
			if !ok || !regular || !o.same(disk) {
				changed.Store(true)
				return nil
			}
			files.Add(1)
		}
		return nil
	})
	return !changed.Load() && files.Load() == int64(len(idx.files))
}

// dirsOf returns the folders that hold files, "." among them.
func dirsOf(files map[string]outputFile) map[string]bool {
	dirs := map[string]bool{".": true}
	for name := range files {
		for d := path.Dir(name); !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	return dirs
}

// Writer writes a build's files into the swap folder, except those
// whose bytes equal those of the same file in the output folder (as the
// index recorded it, and still unchanged there): an unchanged file keeps
// its inode and mtime. A page whose key is the one recorded is kept
// without being rendered ([Writer.ReusePage]). It records the new
// index.
//
// When the whole output folder is still what the index records (intact),
// an unchanged file is only recorded: it stays where it is, and the build
// ends with [patchOutput], or links the unchanged files into the swap folder
// ([Writer.linkKept]) when it changed too many for a patch. When it
// is not, an unchanged file that is still the one recorded is hard-linked
// into the swap folder at once.
type Writer struct {
	out, dir string // the output folder and the swap folder
	prev     *outputIndex
	intact   func() bool // whether the output is exactly what prev records
	mu       sync.Mutex
	next     map[string]outputFile
	written  []string                   // the files written into the swap folder
	pages    map[string][]byte          // page prefix → key, for the new index
	bodies   map[string]render.BodySpan // page prefix → its body's place, for the new index
	linked   int
	dirs     sync.Map // folders of the swap folder made so far
	// rendered is what the build rendered of its editable pages, by
	// page prefix, that the edit record holds; [NewEdits] takes it.
	rendered map[string]renderedPage
}

// NewWriter returns the writer of a build of the output folder out into
// the swap folder dir. With a cache it knows what the last build wrote
// there, and starts walking the output at once (is it still exactly
// that?) while the build reads and parses its sources; nil writes every
// file.
func NewWriter(c *Cache, out, dir string) *Writer {
	w := &Writer{out: out, dir: dir}
	if c == nil {
		return w
	}
	if w.prev = loadOutputIndex(c, out); w.prev != nil {
		intact := make(chan bool, 1)
		go func() { intact <- w.prev.intact(out) }()
		w.intact = sync.OnceValue(func() bool { return <-intact })
	}
	return w
}

// Holds reports whether the output folder still holds the very site of
// the site key key: the last build recorded that key, and every file of
// the folder is unchanged since.
func (w *Writer) Holds(key []byte) bool {
	return w.prev != nil && len(w.prev.key) > 0 && bytes.Equal(key, w.prev.key) && w.intact()
}

// Wait waits for the walk of the output to end: before the output
// changes.
func (w *Writer) Wait() {
	if w.intact != nil {
		w.intact()
	}
}

// Linked counts the files kept from the last build's output, hard-linked
// or left in place, instead of written.
func (w *Writer) Linked() int { return w.linked }

// Commit puts what the build wrote into the swap folder sw in place: as a
// patch when the output was intact and few files changed, else by
// swapping in the whole folder. parallel runs the links of the kept files.
func (w *Writer) Commit(sw *output.Swap, parallel func(n int, fn func(i int) error) error) error {
	if !w.inPlace() {
		return sw.Commit()
	}
	deleted := w.deleted()
	if len(w.written)+len(deleted) <= maxPatch(len(w.next)) {
		slices.Sort(w.written)
		return patchOutput(sw, w.out, w.written, deleted, dirsOf(w.prev.files), dirsOf(w.next))
	}
	if err := w.linkKept(parallel); err != nil {
		sw.Abort()
		return err
	}
	return sw.Commit()
}

// Record stores in c what the build of the site key key wrote, for the
// next build into the same output. When the build read more while
// rendering than before its key was made (complete false), the key missed
// an input: the files are recorded without it, and no page is kept by
// its key next time. It reports whether it recorded the key.
func (w *Writer) Record(c *Cache, key []byte, complete bool) bool {
	idx := &outputIndex{key: key, files: w.next, pages: w.pages, bodies: w.bodies}
	if !complete {
		idx.key, idx.pages, idx.bodies = nil, nil, nil
	}
	idx.store(c, w.out)
	return idx.key != nil
}

// inPlace reports whether unchanged files stay in the output folder.
func (w *Writer) inPlace() bool { return w.prev != nil && w.intact() }

func (w *Writer) Write(name string, data []byte) error {
	sum := sha256.Sum256(data)
	prev, ok := w.previous(name)
	unchanged := ok && prev.sum == sum
	if unchanged && w.inPlace() {
		w.record(name, prev, true)
		return nil
	}
	full, err := w.mkdir(name)
	if err != nil {
		return err
	}
	if unchanged && w.link(name, prev) {
		return nil
	}
	o, err := createFile(full, func(f io.Writer) error {
		_, err := f.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	o.sum = sum
	w.record(name, o, false)
	return nil
}

// linkKept hard-links every file the build kept in the output folder into
// the swap folder, which then holds the whole site; a file that cannot be
// linked is copied.
func (w *Writer) linkKept(parallel func(n int, fn func(i int) error) error) error {
	written := make(map[string]bool, len(w.written))
	for _, name := range w.written {
		written[name] = true
	}
	var kept []string
	for name := range w.next {
		if !written[name] {
			kept = append(kept, name)
		}
	}
	slices.Sort(kept) // parents' folders first
	return parallel(len(kept), func(i int) error {
		full, err := w.mkdir(kept[i])
		if err != nil {
			return err
		}
		old := filepath.Join(w.out, filepath.FromSlash(kept[i]))
		if os.Link(old, full) == nil {
			return nil
		}
		data, err := os.ReadFile(old)
		if err == nil {
			err = os.WriteFile(full, data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("write site: %w", err)
		}
		st, err := os.Lstat(full)
		if err != nil {
			return fmt.Errorf("write site: %w", err)
		}
		o := outputFileOf(st)
		o.sum = w.next[kept[i]].sum
		w.mu.Lock()
		w.next[kept[i]] = o
		w.mu.Unlock()
		return nil
	})
}

// deleted returns the files of the last build that this one did not make.
func (w *Writer) deleted() []string {
	var names []string
	for name := range w.prev.files {
		if _, ok := w.next[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// mkdir makes the folder of the output file name in the swap folder, and
// those above it, once each, and returns the file's path. Every folder made
// is remembered, so a folder costs one system call: a page's folder is
// usually the only one missing (MkdirAll would stat the path and its
// parent first), and the folders that hold only folders (pages/area00)
// are made once for all their pages.
func (w *Writer) mkdir(name string) (string, error) {
	full := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := w.mkdirs(filepath.Dir(full)); err != nil {
		return "", fmt.Errorf("write site: %w", err)
	}
	return full, nil
}

func (w *Writer) mkdirs(dir string) error {
	if dir == w.dir {
		return nil
	}
	if _, ok := w.dirs.Load(dir); ok {
		return nil
	}
	if err := w.mkdirs(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err // ErrExist: another page's file made it first
	}
	w.dirs.Store(dir, true)
	return nil
}

// previous is the last build's record of the file name.
func (w *Writer) previous(name string) (outputFile, bool) {
	if w.prev == nil {
		return outputFile{}, false
	}
	o, ok := w.prev.files[name]
	return o, ok
}

// link hard-links the file name from the output folder into the swap
// folder when it is still the file the last build recorded as o.
func (w *Writer) link(name string, o outputFile) bool {
	old := filepath.Join(w.out, filepath.FromSlash(name))
	if disk, ok := statOutput(old); !ok || !o.same(disk) {
		return false
	}
	if os.Link(old, filepath.Join(w.dir, filepath.FromSlash(name))) != nil {
		return false
	}
	w.record(name, o, true)
	return true
}

// pageFiles are the files of a page, after its prefix.
var pageFiles = [...]string{"index.html", "index.json"}

func (w *Writer) ReusePage(prefix string, key []byte) bool {
	var names [len(pageFiles)]string
	for i, f := range pageFiles {
		names[i] = prefix + f
	}
	return w.reuse(prefix, names[:], key)
}

func (w *Writer) ReuseFile(name string, key []byte) bool {
	return w.reuse(name, []string{name}, key)
}

// reuse keeps the files names, recorded under id with key, from the last
// build.
func (w *Writer) reuse(id string, names []string, key []byte) bool {
	if w.prev == nil || !bytes.Equal(w.prev.pages[id], key) {
		return false
	}
	olds := make([]outputFile, len(names))
	for i, name := range names {
		o, ok := w.prev.files[name]
		if !ok {
			return false
		}
		olds[i] = o
	}
	if w.inPlace() {
		for i, name := range names {
			w.record(name, olds[i], true)
		}
		w.KeyPage(id, key)
		w.keepBody(id)
		return true
	}
	if _, err := w.mkdir(names[0]); err != nil {
		return false
	}
	for i, name := range names {
		if !w.link(name, olds[i]) {
			// Render the files after all: take back what was linked, so
			// writing them cannot reach the old folder's files.
			for _, done := range names[:i] {
				os.Remove(filepath.Join(w.dir, filepath.FromSlash(done)))
				w.forget(done)
			}
			return false
		}
	}
	w.KeyPage(id, key)
	w.keepBody(id)
	return true
}

// keepBody keeps the last build's record of where the body of the page at
// prefix is, for the same file.
func (w *Writer) keepBody(prefix string) {
	if b, ok := w.prev.bodies[prefix]; ok {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.spanBody(prefix, b)
	}
}

func (w *Writer) SpanBody(prefix string, b render.BodySpan, rows []render.ClaimRow, shown []render.ShownClaim) {
	p := renderedPage{rows: appendRows(nil, rows), shown: shown}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.spanBody(prefix, b)
	if w.rendered == nil {
		w.rendered = map[string]renderedPage{}
	}
	w.rendered[prefix] = p
}

// spanBody records the body span b of the page at prefix; w.mu is held.
func (w *Writer) spanBody(prefix string, b render.BodySpan) {
	if w.bodies == nil {
		w.bodies = map[string]render.BodySpan{}
	}
	w.bodies[prefix] = b
}

// takeRendered returns what [Writer.SpanBody] was given of the editable
// pages, and forgets it: the edit record holds it next.
func (w *Writer) takeRendered() map[string]renderedPage {
	w.mu.Lock()
	defer w.mu.Unlock()
	rendered := w.rendered
	w.rendered = nil
	return rendered
}

// stream writes the file name with write, hashing it on the way; when its
// bytes are the last build's, the old file is kept instead.
func (w *Writer) Stream(name string, write func(io.Writer) error) error {
	full, err := w.mkdir(name)
	if err != nil {
		return err
	}
	o, err := streamFile(full, write)
	if err != nil {
		return err
	}
	if prev, ok := w.previous(name); ok && prev.sum == o.sum {
		if err := os.Remove(full); err != nil {
			return fmt.Errorf("write site: %w", err)
		}
		if w.inPlace() {
			w.record(name, prev, true)
			return nil
		}
		if w.link(name, prev) {
			return nil
		}
		// The old file changed on disk since: written after all.
		if o, err = streamFile(full, write); err != nil {
			return err
		}
	}
	w.record(name, o, false)
	return nil
}

// streamFile makes the file full with write and describes it, its hash
// included.
func streamFile(full string, write func(io.Writer) error) (outputFile, error) {
	h := sha256.New()
	o, err := createFile(full, func(f io.Writer) error { return write(io.MultiWriter(f, h)) })
	if err != nil {
		return o, err
	}
	h.Sum(o.sum[:0])
	return o, nil
}

// createFile makes the new file full with write and describes it but for
// its hash. It never opens an existing file: a write can never reach the
// old site through a link.
func createFile(full string, write func(io.Writer) error) (outputFile, error) {
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return outputFile{}, fmt.Errorf("write site: %w", err)
	}
	err = write(f)
	var o outputFile
	if err == nil {
		o, err = statFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return outputFile{}, fmt.Errorf("write site: %w", err)
	}
	return o, nil
}

func (w *Writer) KeyPage(prefix string, key []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pages == nil {
		w.pages = map[string][]byte{}
	}
	w.pages[prefix] = key
}

func (w *Writer) record(name string, o outputFile, linked bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.next == nil {
		w.next = map[string]outputFile{}
	}
	w.next[name] = o
	if linked {
		w.linked++
	} else {
		w.written = append(w.written, name)
	}
}

// forget drops a file recorded as linked (never one kept in place).
func (w *Writer) forget(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.next, name)
	w.linked--
}
