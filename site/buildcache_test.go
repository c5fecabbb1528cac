package site

import (
	"io/fs"
	"os"

	"github.com/tracewiki/tracewiki/site/buildcache"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// upToDate asks the build cache of opts whether a build of dir into --out
// out with opts is up to date, as [Build] does.
func upToDate(dir, out string, opts BuildOptions) (*Summary, bool) {
	return buildcache.UpToDate(opts.Cache, dir, out, cacheOptions(opts))
}

// buildEdited runs the edited build of dir into --out out with opts, as
// [Build] does.
func buildEdited(dir, out string, opts BuildOptions, restored func(string)) (*Summary, bool, error) {
	hl := opts.Highlight.Highlighter(opts.Cache.Fragments())
	return buildcache.BuildEdited(opts.Cache, dir, out, cacheOptions(opts), hl, restored)
}

// outputStamp is what tells a file of the output apart from another: its
// size, mode, mtime and inode, as the build cache's output record has it.
type outputStamp struct {
	size  int64
	mode  fs.FileMode
	mtime int64
	ino   uint64
}

// statOutput stamps the file p; false when it is no regular file.
func statOutput(p string) (outputStamp, bool) {
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return outputStamp{}, false
	}
	return outputStamp{st.Size(), st.Mode(), st.ModTime().UnixNano(), workspace.Inode(st)}, true
}

// same reports whether the two stamps are of the same file, unchanged.
func (o outputStamp) same(other outputStamp) bool { return o == other }
