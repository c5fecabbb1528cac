package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
	"github.com/tracewiki/tracewiki/synth"
)

// DefaultDebounce is how long a burst of file changes must be quiet before
// a watching [Session] reports it, unless [SessionOptions.Debounce] says.
// An editor's save (a write, or a temporary file renamed over the page)
// lands within a few milliseconds, so 50ms still takes it as one burst,
// and it is a quarter of serve's budget from a save to the page shown
// (200ms at 2,000 pages); a longer burst (a checkout) is reported at the
// latest ten debounce times after it began.
const DefaultDebounce = 50 * time.Millisecond

// ErrNotLoaded is returned, wrapped with the workspace's problems, by the
// queries of a [Session] that has no good load yet.
var ErrNotLoaded = errors.New("the workspace has not loaded")

// SessionOptions configures [OpenSession].
type SessionOptions struct {
	// Watch makes the session watch the workspace for changes (see
	// [Session.Watch]); without it, every load reads the workspace anew.
	Watch bool
	// Debounce is how long a burst of file changes must be quiet before
	// it is reported; zero means DefaultDebounce.
	Debounce time.Duration
	// Log receives the build notes and the watch's problems; nil
	// discards them.
	Log io.Writer
	// Cache, when set, is the persistent build cache: highlighted code is
	// looked up there. Nil keeps nothing across runs.
	Cache *Cache
}

// Session is a workspace loaded again and again by a long-running command
// (serve, mcp): it keeps what one load, analysis and build made of the
// workspace, and the next one reuses what the files changed since left
// valid. It remembers the files' reads (a rebuild reads from disk only the
// files changed since), the folder walks (walked again only when files
// were created or removed), the content files' parses, the code files'
// parses, the lock's parse, the code index and the highlighted code. With
// [SessionOptions.Watch] it watches the workspace, so that it knows what
// changed; without, each load starts afresh.
//
// A Session also holds its last good load, which the queries (lookup,
// search, neighborhood, check, impact) answer from, from any goroutine,
// while a load runs. Loads ([Session.Build], [Session.Analyze]) run one
// at a time. One-shot commands need no Session: [Load] is one load.
type Session struct {
	dir  string // the workspace root, absolute
	opts SessionOptions
	log  io.Writer
	w    *watcher // nil unless opts.Watch

	mu sync.Mutex // one load at a time; guards what follows
	// memo is what the Projects the session loads reuse.
	memo memos
	// reads are the last load's file reads, good or not.
	reads workspace.Reads
	// taken tells the files the last good load's walks may take: a
	// change to no other file it did not read is no reason to load
	// again. Before the first good load it takes nothing, and nothing
	// is skipped.
	taken workspace.Walks
	// pending is what changed since the last load.
	pending changeSet

	state atomic.Pointer[sessionState]
}

// memos is what a [Session] keeps from one load to the next, for the
// Projects it loads (see [Project.memo]).
type memos struct {
	// walks holds the folder walks' results: those it has are used
	// instead of walking, those it lacks are recorded. A new one is made
	// when files are created or removed.
	walks *walkMemo
	// parser keeps the content files' parses: a load parses again only
	// the files whose bytes changed.
	parser claims.Parser
	// locks keeps the lock frozen builds read.
	locks lockMemo
	// indexes keeps the code index of the last analysis.
	indexes indexMemo
	// graphs keeps the graph of the last analysis.
	graphs graphMemo
	// sources keeps the code files' parses.
	sources sourceCache
	// highlight keeps highlighted code fragments across builds.
	highlight render.HighlightCache
}

// sessionState is the last good load, for the queries, and the problems
// of the latest one. It is replaced whole, never changed.
type sessionState struct {
	graph   *synth.Graph     // nil until a load succeeds
	k       *synth.Knowledge // the last good analysis; nil after a build
	baseURL string           // the config's
	lang    string           // the config's language
	errs    []string         // the latest load's problems; empty when it was good
}

// OpenSession opens a session on the workspace at dir; it loads nothing
// yet. With opts.Watch it starts watching the workspace now, so that no
// change made during the first load is missed.
func OpenSession(dir string, opts SessionOptions) (*Session, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Open(abs)
	if err != nil {
		return nil, err
	}
	ws.Close()
	s := &Session{dir: abs, opts: opts, log: opts.Log, pending: changeSet{all: true}}
	if s.log == nil {
		s.log = io.Discard
	}
	if opts.Watch {
		if s.w, err = newWatcher(abs, opts.Debounce, s.log); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Dir is the workspace root, absolute.
func (s *Session) Dir() string { return s.dir }

// Close stops watching; [Session.Watch] then returns.
func (s *Session) Close() error {
	if s.w == nil {
		return nil
	}
	return s.w.Close()
}

// Watch calls changed after each burst of changes that may change what
// the session makes of the workspace, until ctx is done or the session is
// closed; changed then loads again ([Session.Build], [Session.Analyze]).
// Changes to files the last good load neither read nor would walk into
// (a vim swap file, an editor's backup beside a page) are not reported:
// a page's reader would see a reload while its author types. Watch
// returns at once for a session that does not watch.
func (s *Session) Watch(ctx context.Context, changed func()) {
	if s.w == nil {
		return
	}
	s.w.run(ctx, func(ch changeSet) {
		s.mu.Lock()
		touched := !s.untouched(ch)
		if touched {
			s.pending.add(ch)
		}
		s.mu.Unlock()
		if touched {
			changed()
		}
	})
}

// untouched reports whether the changes ch touch nothing the last good
// load took: every changed path is a file it did not read, which no walk
// takes by its name.
func (s *Session) untouched(ch changeSet) bool {
	if ch.all || s.reads == nil || s.taken.Include() == nil {
		return false
	}
	for p := range ch.paths {
		if s.taken.TakesFile(p) {
			return false
		}
		for r := range s.reads {
			if r == p || strings.HasPrefix(r, p+"/") {
				return false
			}
		}
		if isDirOrLink(filepath.Join(s.dir, filepath.FromSlash(p))) {
			return false // a folder, or what a walk checks
		}
	}
	return true
}

// Build loads the workspace and builds its site, frozen (it never writes
// the lock) and in memory, lazily: a page is rendered when first asked
// for ([Site.File]), so a rebuild costs the analysis and the pages asked
// for. baseURL is the URL path the site is served under; "" means the
// config's. On success the build is the session's last good load.
func (s *Session) Build(baseURL string) (*Site, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.load()
	if err != nil {
		return nil, s.failed(err)
	}
	defer p.Close()
	built, err := p.Build(BuildOptions{BaseURL: baseURL, Frozen: true, Highlight: &s.memo.highlight, Cache: s.opts.Cache, lazy: true}, s.log)
	if err != nil {
		return nil, s.failed(err)
	}
	s.loaded(p, &sessionState{graph: built.Graph})
	return built, nil
}

// Analyze loads the workspace and analyzes it (reading the lock, never
// writing it), for the queries; on success the analysis is the session's
// last good load, and is returned.
func (s *Session) Analyze() (*synth.Knowledge, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.load()
	if err != nil {
		return nil, s.failed(err)
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		return nil, s.failed(err)
	}
	s.loaded(p, &sessionState{graph: k.Graph(), k: k})
	return k, nil
}

// load loads the workspace after the pending changes: files not changed
// since the last load are not read again, and without files created or
// removed the folders are not walked again.
func (s *Session) load() (*Project, error) {
	ch := s.pending
	s.pending = changeSet{all: s.w == nil} // unwatched, nothing is known to stay
	ws, err := workspace.Open(s.dir)
	if err != nil {
		return nil, err
	}
	if !ch.all && s.reads != nil {
		memo := make(workspace.Reads, len(s.reads))
		for p, r := range s.reads {
			if !ch.under(p) {
				memo[p] = r
			}
		}
		ws.Remember(memo)
	}
	ws.Keep()
	if ch.all || ch.tree || s.memo.walks == nil {
		s.memo.walks = &walkMemo{}
	}
	// The reads are facts about the files as they are now, whether the
	// load succeeds or not; later changes come with the next change set.
	defer func() { s.reads = ws.Kept() }()
	return loadIn(ws, &s.memo)
}

// loaded makes st, from the project p just loaded, the last good load,
// and keeps what p used for the next load.
func (s *Session) loaded(p *Project, st *sessionState) {
	st.baseURL, st.lang = p.Config.BaseURL, p.Config.Language
	s.state.Store(st)
	s.memo.sources.swap()
	if s.w != nil {
		s.w.watchTargets(p.targets())
	}
	s.taken = workspace.NewWalks(p.Config.Code.Include)
}

// failed records the problems of a load that failed, keeping the last
// good one, and returns err.
func (s *Session) failed(err error) error {
	next := &sessionState{errs: Problems(err)}
	if prev := s.state.Load(); prev != nil {
		next.graph, next.k, next.baseURL, next.lang = prev.graph, prev.k, prev.baseURL, prev.lang
	}
	s.state.Store(next)
	return err
}

// BaseURL is the config's base URL at the last good load; "" before.
func (s *Session) BaseURL() string {
	if st := s.state.Load(); st != nil {
		return st.baseURL
	}
	return ""
}

// Problems lists the latest load's problems ([Problems]); none when it
// was good.
func (s *Session) Problems() []string {
	if st := s.state.Load(); st != nil {
		return st.errs
	}
	return nil
}

// Knowledge returns the last good analysis ([Session.Analyze]), or an
// error wrapping [ErrNotLoaded] that lists the latest load's problems.
func (s *Session) Knowledge() (*synth.Knowledge, error) {
	st := s.state.Load()
	if st == nil || st.k == nil {
		return nil, s.notLoaded(st)
	}
	return st.k, nil
}

func (s *Session) notLoaded(st *sessionState) error {
	if st != nil && len(st.errs) > 0 {
		return fmt.Errorf("%w:\n%s", ErrNotLoaded, strings.Join(st.errs, "\n"))
	}
	return ErrNotLoaded
}

// Neighborhood answers a neighborhood query from the last good load's
// graph, built or analyzed.
func (s *Session) Neighborhood(q synth.Query) (synth.NeighborhoodJSON, error) {
	st := s.state.Load()
	if st == nil || st.graph == nil {
		return synth.NeighborhoodJSON{}, s.notLoaded(st)
	}
	return st.graph.Neighborhood(q), nil
}

// Lookup is "tracewiki lookup" on the last good analysis.
func (s *Session) Lookup(key string, o synth.LookupOptions) (synth.LookupJSON, error) {
	k, err := s.Knowledge()
	if err != nil {
		return synth.LookupJSON{}, err
	}
	return k.Lookup(key, o), nil
}

// Search is "tracewiki search" on the last good analysis.
func (s *Session) Search(query string, o synth.SearchOptions) (synth.SearchResults, error) {
	k, err := s.Knowledge()
	if err != nil {
		return synth.SearchResults{}, err
	}
	return k.Search(query, o), nil
}

// Check is the check report of the last good analysis, its whys in lang
// ("" means the config's).
func (s *Session) Check(lang string) (*synth.CheckReport, error) {
	k, err := s.Knowledge()
	if err != nil {
		return nil, err
	}
	if lang == "" {
		lang = s.state.Load().lang
	}
	return k.Check(lang), nil
}

// Impact is [Impact] on the last good analysis: what relies on the
// changed paths args, or on those of git diff o.Base in the workspace.
func (s *Session) Impact(args []string, o synth.ImpactOptions) (synth.ImpactJSON, error) {
	k, err := s.Knowledge()
	if err != nil {
		return synth.ImpactJSON{}, err
	}
	ws, err := workspace.Open(s.dir)
	if err != nil {
		return synth.ImpactJSON{}, err
	}
	defer ws.Close()
	return Impact(ws, k, args, o)
}

// Problems lists a load's or a build's failure for people: content
// diagnostics as file:line:col: code: message, other errors line by line.
func Problems(err error) []string {
	if ds, ok := claims.AsDiagnostics(err); ok {
		out := make([]string, len(ds))
		for i, d := range ds {
			out[i] = d.String()
		}
		return out
	}
	return strings.Split(err.Error(), "\n")
}

// sourceCache keeps the parsed sources of the last load with the bytes
// they came from: a file whose bytes did not change is not parsed (nor
// hashed, nor tokenized) again, and the spans its targets name are not
// hashed again either. The bytes are compared exactly, which costs
// less than hashing them, and keeps no extra memory: a Source's lines are
// slices of them. A Source is read-only once made, so builds share it.
type sourceCache struct {
	mu   sync.Mutex
	prev map[string]cachedSource // the last good load's
	next map[string]cachedSource // this load's so far
}

type cachedSource struct {
	data []byte
	src  *codeanchors.Source
}

// parse parses a file's bytes, or returns the parse of the same bytes
// kept from the last good load.
func (c *sourceCache) parse(name string, data []byte) *codeanchors.Source {
	c.mu.Lock()
	e, ok := c.next[name]
	if !ok {
		e, ok = c.prev[name]
	}
	c.mu.Unlock()
	if !ok || !bytes.Equal(e.data, data) {
		e = cachedSource{data, newSource(name, data)}
		e.src.KeepSpans() // judged again at each load while its bytes stay
	}
	c.mu.Lock()
	if c.next == nil {
		c.next = map[string]cachedSource{}
	}
	c.next[name] = e
	c.mu.Unlock()
	return e.src
}

// swap keeps what the last load used and drops the rest (deleted files,
// old versions).
func (c *sourceCache) swap() {
	c.mu.Lock()
	c.prev, c.next = c.next, nil
	c.mu.Unlock()
}
