// Package serve is tracewiki serve: an HTTP server of a workspace's site,
// built in memory by a [site.Session] and rebuilt on every change, with
// live reload (server-sent events) and the neighborhood API. It writes
// nothing: neither the lock nor the output folder.
package serve

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// DefaultAddr is where serve listens unless told otherwise: loopback
// only, so a preview is never exposed to the network by accident.
const DefaultAddr = "127.0.0.1:1313"

// Paths the server answers besides the site's files.
const (
	EventsPath       = "/__tracewiki/events" // server-sent events, one per rebuild
	NeighborhoodPath = "/api/neighborhood"   // the SPEC 3 JSON of the current graph
)

// ErrNotLoopback is returned, wrapped, for a listen address reachable from
// other machines when [Options.Public] is not set.
var ErrNotLoopback = errors.New("not a loopback address: other machines could reach it")

// Options configures [NewServer].
type Options struct {
	// Addr is the host:port to listen on; zero means DefaultAddr. Its
	// host must be a loopback address (or "localhost") unless Public.
	Addr string
	// Public allows an Addr that other machines can reach.
	Public bool
	// Hosts are the host names, besides loopback names and addresses, that
	// requests may name in their Host header. Nil means loopback only: a
	// page on another site that resolves its own name to 127.0.0.1 (DNS
	// rebinding) cannot read the preview.
	Hosts []string
	// BaseURL is the URL path the site is served under; zero means the
	// config's baseURL.
	BaseURL string
	// Debounce is how long a burst of file changes must be quiet before a
	// rebuild; zero means [site.DefaultDebounce].
	Debounce time.Duration
	// Log receives build notes and one line per rebuild; nil discards them.
	Log io.Writer
	// Cache, when set, is the persistent build cache: highlighted code is
	// looked up there. Nil keeps nothing across runs.
	Cache *site.Cache
}

// Server serves a workspace's site from memory and rebuilds it when the
// content, the code or the config change. It never writes the lock or the
// output folder: builds are frozen and stay in memory. Its
// [site.Session] keeps what a rebuild reuses and watches the workspace.
type Server struct {
	opts    Options
	log     io.Writer
	ln      net.Listener
	session *site.Session
	epoch   string // tells this process's builds from another's
	built   int    // rebuilds so far; the builder goroutine's own

	state atomic.Pointer[serveState]

	subsMu sync.Mutex
	subs   map[chan string]struct{}
	done   chan struct{} // closed on shutdown: ends the event streams
}

// serveState is what requests see: the last good site and the outcome of
// the latest build. It is replaced whole, never changed.
type serveState struct {
	site *site.Site // nil until a build succeeds
	base string     // URL path of the site, starting and ending in "/"
	errs []string   // the latest build's problems; empty when it succeeded
	gen  string     // changes with every rebuild, good or not
}

// NewServer checks opts, listens, builds the site and starts watching the
// workspace at dir. A build that fails is not an error: its problems are
// shown in the browser until an edit fixes them. Call [Server.Run] to serve.
func NewServer(dir string, opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if err := checkAddr(opts.Addr, opts.Public); err != nil {
		return nil, err
	}
	s := &Server{
		opts: opts, log: opts.Log, subs: map[chan string]struct{}{}, done: make(chan struct{}),
		epoch: strconv.FormatInt(time.Now().UnixNano(), 36),
	}
	if s.log == nil {
		s.log = io.Discard
	}
	var err error
	s.session, err = site.OpenSession(dir, site.SessionOptions{Watch: true, Debounce: opts.Debounce, Log: s.log, Cache: opts.Cache})
	if err != nil {
		return nil, err
	}
	if s.ln, err = net.Listen("tcp", opts.Addr); err != nil {
		s.session.Close()
		return nil, err
	}
	if tcp, ok := s.ln.Addr().(*net.TCPAddr); ok && !opts.Public && !tcp.IP.IsLoopback() {
		s.ln.Close()
		s.session.Close()
		return nil, fmt.Errorf("listen %s: bound %s: %w", opts.Addr, tcp.IP, ErrNotLoopback)
	}
	fmt.Fprintf(s.log, "tracewiki: building %s\n", dir)
	s.rebuild()
	return s, nil
}

// checkAddr refuses a listen address other machines could reach, unless
// public: its host must be a loopback IP or "localhost".
func checkAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if public {
		return nil
	}
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("address %q: %w", addr, ErrNotLoopback)
}

// Addr is the address the server listens on, such as "127.0.0.1:1313".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// BaseURL is the URL path the site is served under, such as "/".
func (s *Server) BaseURL() string { return s.state.Load().base }

// Run serves until ctx is done, rebuilding on changes, then closes the event
// streams and shuts down, waiting for a build in progress to finish.
func (s *Server) Run(ctx context.Context) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(s.ln) }()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.session.Watch(ctx, s.rebuild)
	}()

	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	close(s.done)
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := hs.Shutdown(shut); err == nil {
		err = serr
	}
	s.session.Close()
	<-watched
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// rebuild builds the site again, frozen, in memory. On success it
// publishes the site and tells the open pages; on failure it keeps the
// last good site and publishes the problems, which the pages show.
func (s *Server) rebuild() {
	start := time.Now()
	s.built++
	gen := s.epoch + "-" + strconv.Itoa(s.built)
	prev := s.state.Load()
	built, err := s.session.Build(s.opts.BaseURL)
	if err != nil {
		next := &serveState{base: s.fallbackBase(prev), errs: site.Problems(err), gen: gen}
		if prev != nil {
			next.site = prev.site
		}
		s.state.Store(next)
		s.notify(gen)
		fmt.Fprintf(s.log, "tracewiki: build failed; serving the last good site:\n")
		for _, e := range next.errs {
			fmt.Fprintf(s.log, "%s\n", e)
		}
		return
	}
	base := cmp.Or(s.opts.BaseURL, s.session.BaseURL())
	s.state.Store(&serveState{site: built, base: urlPath(base), gen: gen})
	s.notify(gen)
	fmt.Fprintf(s.log, "tracewiki: built %d pages in %v\n", built.Pages, time.Since(start).Round(time.Millisecond))
}

// fallbackBase is the base URL while no build succeeded: the last good
// one, else the flag's, else "/".
func (s *Server) fallbackBase(prev *serveState) string {
	if prev != nil {
		return prev.base
	}
	return urlPath(s.opts.BaseURL)
}

// urlPath turns a base URL into the URL path the site is served under,
// with a leading and a trailing slash.
func urlPath(base string) string {
	if u, err := url.Parse(base); err == nil {
		base = u.Path
	}
	base = "/" + strings.Trim(base, "/") + "/"
	if base == "//" {
		base = "/"
	}
	return base
}

// notify tells every event stream that a rebuild finished. Only the latest
// generation matters, so a slow stream gets that one and misses none.
func (s *Server) notify(gen string) {
	s.subsMu.Lock()
	defer s.subsMu.Unlock()
	for ch := range s.subs {
		select {
		case <-ch:
		default:
		}
		ch <- gen
	}
}

// ServeHTTP answers the site's files, the event stream and neighborhood
// queries. Every response is marked not to be cached.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !s.hostAllowed(r.Host) {
		http.Error(w, fmt.Sprintf("host %q is not served: only loopback names and those given with --host", r.Host), http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p, ok := cleanPath(r.URL)
	if !ok {
		http.NotFound(w, r)
		return
	}
	st := s.state.Load()
	switch p {
	case EventsPath:
		s.serveEvents(w, r)
	case NeighborhoodPath, st.base + strings.TrimPrefix(NeighborhoodPath, "/"):
		s.serveNeighborhood(w, r)
	default:
		s.serveFile(w, r, p, st)
	}
}

// hostAllowed reports whether a request's Host header names this server: a
// loopback address, localhost (or a name under .localhost), or one of
// [Options.Hosts]; a port is ignored.
func (s *Server) hostAllowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, h := range s.opts.Hosts {
		if strings.EqualFold(strings.TrimSuffix(h, "."), host) {
			return true
		}
	}
	return false
}

// cleanPath returns the request's path when it is a plain one: absolute,
// no "." or ".." element, no empty element but a trailing one, no
// backslash, NUL or encoded slash. Anything else is answered 404, before
// any lookup, although the files are a map and not a folder.
func cleanPath(u *url.URL) (string, bool) {
	p := u.Path
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	raw := strings.ToLower(u.EscapedPath())
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") || strings.Contains(raw, "%00") {
		return "", false
	}
	elems := strings.Split(p[1:], "/")
	for i, e := range elems {
		if e == "." || e == ".." || e == "" && i < len(elems)-1 {
			return "", false
		}
	}
	return p, true
}

// serveFile answers a file of the site: {base}x/y.css is Files["x/y.css"],
// and a folder {base}x/ is its index.html. HTML gets the reload script, and
// while the latest build is broken, the banner of its problems and status
// 500.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, p string, st *serveState) {
	if st.site == nil {
		s.serveProblems(w, st)
		return
	}
	rel, ok := strings.CutPrefix(p, st.base)
	if !ok {
		if p+"/" == st.base || p == "/" {
			http.Redirect(w, r, st.base, http.StatusFound)
			return
		}
		http.NotFound(w, r)
		return
	}
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	if !fs.ValidPath(rel) {
		http.NotFound(w, r)
		return
	}
	data, ok, err := st.site.File(rel)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	ct := contentType(rel)
	w.Header().Set("Content-Type", ct)
	if !strings.HasPrefix(ct, "text/html") {
		w.Write(data)
		return
	}
	out := inject(data, reloadScript(st.gen)+banner(st.errs))
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	if len(st.errs) > 0 {
		w.WriteHeader(http.StatusInternalServerError)
	}
	w.Write(out)
}

// serveProblems answers any page while no build has succeeded yet.
func (s *Server) serveProblems(w http.ResponseWriter, st *serveState) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	page := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tracewiki: build failed</title></head>\n<body>\n</body></html>\n"
	w.Write(inject([]byte(page), reloadScript(st.gen)+banner(st.errs)))
}

// inject puts snippet just before the page's last </body>, or at its end.
func inject(page []byte, snippet string) []byte {
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		i = len(page)
	}
	out := make([]byte, 0, len(page)+len(snippet))
	out = append(out, page[:i]...)
	out = append(out, snippet...)
	return append(out, page[i:]...)
}

// reloadScript reloads the page when a build other than gen, the one the
// page was served from, is announced; the stream announces the current one
// on (re)connection, so a build missed while disconnected still reloads.
func reloadScript(gen string) string {
	return `<script>(function(){var g="` + gen + `",s=new EventSource("` + EventsPath +
		`");s.onmessage=function(e){if(e.data!==g){s.close();location.reload()}}})();</script>` + "\n"
}

// banner shows a broken build's problems over the last good page.
func banner(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div id="tracewiki-error" role="alert" style="position:fixed;top:0;left:0;right:0;z-index:2147483647;` +
		`max-height:60vh;overflow:auto;margin:0;padding:1em 1.5em;background:#8b0000;color:#fff;` +
		`font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 2px 8px rgba(0,0,0,.5)">`)
	b.WriteString("<strong>tracewiki: the build failed; this is the last good page.</strong>\n")
	for _, e := range errs {
		b.WriteString(html.EscapeString(e))
		b.WriteByte('\n')
	}
	b.WriteString("</div>\n")
	return b.String()
}

// serveEvents streams one event per rebuild, its generation as data, and
// the current generation on connection. It ends on shutdown.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan string, 1)
	s.subsMu.Lock()
	s.subs[ch] = struct{}{}
	s.subsMu.Unlock()
	defer func() {
		s.subsMu.Lock()
		delete(s.subs, ch)
		s.subsMu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	// A browser reconnects after a second; the generation it then gets
	// reloads the page if a build happened meanwhile.
	io.WriteString(w, "retry: 1000\n")
	gen := s.state.Load().gen
	for {
		if _, err := fmt.Fprintf(w, "data: %s\n\n", gen); err != nil {
			return
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case gen = <-ch:
		}
	}
}

// serveNeighborhood answers GET /api/neighborhood?path=&req_key=&issue_key=&depth=
// from the last good site's graph (the session's); depth is clamped to
// 1..3.
func (s *Server) serveNeighborhood(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	query := synth.Query{Path: q.Get("path"), ReqKey: q.Get("req_key"), IssueKey: q.Get("issue_key"), Depth: synth.DefaultDepth}
	if d := q.Get("depth"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil {
			writeJSONError(w, http.StatusBadRequest, fmt.Sprintf("depth %q: want a number from %d to %d", d, synth.MinDepth, synth.MaxDepth))
			return
		}
		query.Depth = n
	}
	nb, err := s.session.Neighborhood(query)
	if errors.Is(err, site.ErrNotLoaded) {
		writeJSONError(w, http.StatusServiceUnavailable, "no site built yet: the build failed")
		return
	}
	data, err := synth.MarshalJSON(nb)
	if err != nil {
		writeJSONError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

func writeJSONError(w http.ResponseWriter, code int, msg string) {
	data, _ := synth.MarshalJSON(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
}

// contentType is a file's media type by extension, from a fixed table for
// the site's own kinds (the system's tables vary), then the system's.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".json":
		return "application/json"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".txt", ".md":
		return "text/plain; charset=utf-8"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
