package site

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tracewiki/tracewiki/site/buildcache"
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
	w, err := o.Begin(notes, buildcache.UndoLeftPatch)
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
	w, err := o.Begin(restored, buildcache.UndoLeftPatch)
	if err != nil {
		return nil, err
	}
	ow := buildcache.NewWriter(opts.Cache, o.Dir, w.Dir())
	if opts.Cache != nil {
		opts.reuse, opts.pages = ow.Holds, ow
	}
	opts.Sink, opts.stream = ow.Write, ow.Stream
	var noted bytes.Buffer
	s, err := p.Build(opts, io.MultiWriter(notes, &noted))
	ow.Wait() // the walk ends before the output changes
	if err != nil {
		w.Abort()
		return nil, err
	}
	if s.Reused {
		w.Abort()                                 // the empty new folder
		p.recordBuild(o, opts, s, noted.String()) // the paths' stamps changed
		return s, nil
	}
	if err := ow.Commit(w, p.parallel); err != nil {
		return nil, err
	}
	if opts.Cache != nil {
		// Read more while rendering: the keys missed an input.
		complete := bytes.Equal(s.digest, p.WS.ReadDigest())
		if ow.Record(opts.Cache, s.key, complete) {
			p.recordBuild(o, opts, s, noted.String())
		}
	}
	s.Linked = ow.Linked()
	return s, nil
}
