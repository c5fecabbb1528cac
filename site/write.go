package site

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/tracewiki/tracewiki/site/output"
)

// Write replaces the output folder with the site: the files are written to
// a new folder beside it, which is swapped in only when complete, so a
// failed build never damages the previous site. notes receives what the
// cleanup of killed runs restored.
func (s *Site) Write(o *Output, notes func(string)) error {
	unlock, err := o.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	w, err := o.Begin(notes, undoLeftPatch)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(s.Files) {
		p := filepath.Join(w.Dir(), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			w.Abort()
			return fmt.Errorf("write site: %w", err)
		}
		if err := os.WriteFile(p, s.Files[name], 0o644); err != nil {
			w.Abort()
			return fmt.Errorf("write site: %w", err)
		}
	}
	return w.Commit()
}

// commit puts what the build wrote into the swap folder w in place: as a
// patch when the output was intact and few files changed, else by
// swapping in the whole folder.
func (ow *outputWriter) commit(w *output.Swap, parallel func(n int, fn func(i int) error) error) error {
	if !ow.inPlace() {
		return w.Commit()
	}
	deleted := ow.deleted()
	if len(ow.written)+len(deleted) <= maxPatch(len(ow.next)) {
		slices.Sort(ow.written)
		return patchOutput(w, ow.out, ow.written, deleted, dirsOf(ow.prev.files), dirsOf(ow.next))
	}
	if err := ow.linkKept(parallel); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// BuildInto builds the site straight into the output: each file is written
// into the swap's new folder as soon as it is rendered ([BuildOptions.Sink]),
// so the site is never held in memory, and the folder is swapped in only
// when the whole build succeeded; a failed build leaves the output as it
// was. notes gets the build's notes, restored what the cleanup of killed
// runs restored.
//
// With a build cache ([BuildOptions.Cache]), the cache remembers what each
// build wrote into the output folder: when a build would make the very site
// the folder still holds (same site key, every file unchanged on disk), it
// renders and writes nothing ([Site.Reused]); otherwise each file whose
// bytes did not change is hard-linked from the old folder into the new one
// instead of written, so it keeps its inode and mtime.
func (p *Project) BuildInto(o *Output, opts BuildOptions, notes io.Writer, restored func(string)) (*Site, error) {
	unlock, err := o.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	w, err := o.Begin(restored, undoLeftPatch)
	if err != nil {
		return nil, err
	}
	ow := &outputWriter{out: o.Dir, dir: w.Dir()}
	if opts.Cache != nil {
		ow.prev = loadOutputIndex(opts.Cache, o.Dir)
		if ow.prev != nil {
			// The output is walked while the sources are read and parsed.
			intact := make(chan bool, 1)
			go func() { intact <- ow.prev.intact(o.Dir) }()
			ow.intact = sync.OnceValue(func() bool { return <-intact })
			if len(ow.prev.key) > 0 {
				opts.reuse = func(key []byte) bool { return bytes.Equal(key, ow.prev.key) && ow.intact() }
			}
		}
		opts.pages = ow
	}
	opts.Sink, opts.stream = ow.write, ow.stream
	var noted bytes.Buffer
	s, err := p.Build(opts, io.MultiWriter(notes, &noted))
	if ow.intact != nil {
		ow.intact() // the walk ends before the output changes
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	if s.Reused {
		w.Abort()                                    // the empty new folder
		p.recordUpToDate(o, opts, s, noted.String()) // the paths' stamps changed
		return s, nil
	}
	if err := ow.commit(w, p.parallel); err != nil {
		return nil, err
	}
	if opts.Cache != nil {
		idx := &outputIndex{key: s.key, files: ow.next, pages: ow.pages, bodies: ow.bodies}
		if !bytes.Equal(s.digest, p.WS.ReadDigest()) {
			// Read more while rendering: the keys missed an input.
			idx.key, idx.pages, idx.bodies = nil, nil, nil
		}
		idx.store(opts.Cache, o.Dir)
		if idx.key != nil {
			p.recordUpToDate(o, opts, s, noted.String())
		}
	}
	s.Linked = ow.linked
	return s, nil
}
