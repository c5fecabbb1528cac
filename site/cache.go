package site

import (
	"github.com/tracewiki/tracewiki/site/buildcache"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// The build cache lives in package buildcache; these are its names as the
// facade's callers (cmd, serve) know them.
type (
	// Cache is the persistent build cache ([buildcache.Cache]).
	Cache = buildcache.Cache
	// CacheStats counts a cache's lookups and writes.
	CacheStats = buildcache.Stats
	// Summary is what a build reports ([buildcache.Summary]).
	Summary = buildcache.Summary
	// Counts are a build's check report in numbers.
	Counts = buildcache.Counts
)

// CacheEnv names the environment variable that moves the build cache, or
// turns it off ([buildcache.Env]).
const CacheEnv = buildcache.Env

// ConfigDirEnv names the environment variable that moves the folder of
// tracewiki's per-user files ([buildcache.ConfigDirEnv]).
const ConfigDirEnv = buildcache.ConfigDirEnv

// OpenCache opens (making it if needed) the build cache in dir.
func OpenCache(dir string) (*Cache, error) { return buildcache.Open(dir) }

// CacheFromEnv opens the cache the environment selects; nil, nil when it
// is off ([buildcache.FromEnv]).
func CacheFromEnv() (*Cache, error) { return buildcache.FromEnv() }

// CachedSearch returns the search index of the last up-to-date build of
// the workspace root recorded in the cache c, when nothing that build
// looked at changed since ([buildcache.CachedSearch]).
func CachedSearch(root string, c *Cache) (*synth.SearchIndex, bool) {
	return buildcache.CachedSearch(root, c)
}

// siteKey is the site's key ([buildcache.SiteKey]) of what the workspace
// read so far and the lock as judged.
func (p *Project) siteKey(c *Captured, baseURL string, forge render.Forge, revision string, history []byte) []byte {
	return buildcache.SiteKey(p.WS.ReadDigest(), judgedLock(c), baseURL, forge, revision, history)
}

// asRead reports whether the lock c judged against is the lock file as
// read: the build captured and stamped nothing into it.
func (c *Captured) asRead() bool {
	return c.Result == nil || len(c.Result.Captured) == 0 && len(c.Result.Stamped) == 0 && len(c.Result.Waivers) == 0
}

// judgedLock is what a key needs of the lock a build judged against: the
// lock encoded when the build captured or stamped something into it (with
// the time, which no file read holds), else nil: the lock is then a
// function of the lock file, which every key has among the reads.
// Encoding a lock of 50,000 anchors was a twentieth of a one-page rebuild.
func judgedLock(c *Captured) []byte {
	if c.asRead() {
		return nil
	}
	lock, err := c.Lock.Marshal()
	if err != nil {
		return []byte("unmarshalable: " + err.Error())
	}
	return lock
}

// pagesKey is the shared part of every page's key: the site's inputs
// ([Project.siteKey]) but for the bodies of the wiki pages, requirements
// and requirement documents, which are in their own page's key, and what
// the build made of the bodies that a page may show: the documents'
// outline (a requirement's with its revision, the hash of its body) and
// the drift list. A decision's file stays among the reads whole: the
// paths its text mentions are graph edges. The graph is a function of
// all this, so it is kept by the same key (see [render.Output]).
// Nil when the outline cannot be encoded; then no page is reused.
func (b *siteBuild) pagesKey(driftJSON []byte) []byte {
	ol, err := buildcache.NewOutline(b.p.Model)
	if err != nil {
		return nil
	}
	b.outlined = ol
	lock := judgedLock(b.captured)
	if lock == nil {
		lock = []byte("as read")
	}
	// A document's file that is also code (a target names it) is read
	// for its lines too: it stays in.
	reads := b.p.WS.ReadDigestWithout(func(p string) bool { return b.bodyOnly(p) })
	return render.Key([]byte("pages"), reads, ol.Sum(), driftJSON, lock, b.verifiedSum, []byte(b.baseURL),
		[]byte(b.forge.Kind), []byte(b.forge.Repo), []byte(b.forge.Commit), []byte(b.p.Config.Language), []byte(b.p.Config.Title))
}

// bodyOnly reports whether the file p is among the pages' shared key
// only through the outline of the document it holds: its body is in its
// own page's key.
func (b *siteBuild) bodyOnly(p string) bool { return b.outlined.Holds(p) && b.a.Sources[p] == nil }

// editable reports whether an edit of the page's text can be applied by
// [buildcache.BuildEdited]: a [render.Page.Editable] page read from its
// own file, which the shared key has only through its outline.
func (b *siteBuild) editable(pg render.Page) bool {
	return pg.Editable() && b.outlined != nil && b.bodyOnly(pg.Wiki().Doc.File)
}

// recordBuild records the build s of opts into o for the next build's
// [buildcache.UpToDate] and [buildcache.BuildEdited], when it captured or
// stamped nothing into the lock (the next one would do the same).
func (p *Project) recordBuild(o *Output, opts BuildOptions, s *Site, notes string) {
	if !s.Captured.asRead() {
		return
	}
	opts.Cache.Record(buildcache.Built{
		WS: p.WS, Flag: o.flag, Out: o.Dir, Options: cacheOptions(opts), SiteKey: s.key,
		Summary:  Summary{Pages: s.Pages, Notes: notes, Output: p.Config.Output, Counts: buildcache.CountsOf(s.Check)},
		Revision: s.revision, HistoryRead: s.historyRead, GitHead: s.gitHead, Edits: s.edits,
	})
}

// cacheOptions are the options a build's records are kept under.
func cacheOptions(opts BuildOptions) buildcache.Options {
	return buildcache.Options{Frozen: opts.Frozen, BaseURL: opts.BaseURL, Commit: opts.Commit}
}
