// Package mcp is tracewiki mcp: a Model Context Protocol server over
// stdio whose tools (search, lookup, neighborhood, check, impact) and
// resources answer from a [site.Session]'s analysis of the workspace,
// analyzed again after each burst of changes. It writes nothing.
package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tracewiki/tracewiki/assets"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

// Options configures [NewServer].
type Options struct {
	// Debounce is how long a burst of file changes must be quiet before
	// the answers are rebuilt; zero means [site.DefaultDebounce].
	Debounce time.Duration
	// Log receives one line per rebuild and the problems of a broken
	// workspace; nil discards them. Never standard output: that is the
	// protocol's.
	Log io.Writer
}

// Server answers the Model Context Protocol for a workspace: the tools
// search, lookup, neighborhood, check and impact, every code target as a
// code:// resource, and lookup resource templates. Its [site.Session]
// analyzes the workspace once, then again after each burst of changes; it
// never writes the lock or the output.
type Server struct {
	log     io.Writer
	session *site.Session
	srv     *sdk.Server

	mu   sync.Mutex      // guards uris
	uris map[string]bool // the code resources registered
}

// MCP tool names.
const (
	ToolSearch       = "search"
	ToolLookup       = "lookup"
	ToolNeighborhood = "neighborhood"
	ToolCheck        = "check"
	ToolImpact       = "impact"
)

// Resource templates of lookups.
const (
	RequirementTemplate = "tracewiki://requirement/{id}"
	DecisionTemplate    = "tracewiki://decision/{id}"
	PageTemplate        = "tracewiki://page/{+path}"
)

// NewServer analyzes the workspace at dir and starts watching it. A
// workspace that does not load is not an error: the tools say why until an
// edit fixes it.
func NewServer(dir string, opts Options) (*Server, error) {
	s := &Server{log: opts.Log, uris: map[string]bool{}}
	if s.log == nil {
		s.log = io.Discard
	}
	var err error
	s.session, err = site.OpenSession(dir, site.SessionOptions{Watch: true, Debounce: opts.Debounce, Log: s.log})
	if err != nil {
		return nil, err
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "tracewiki", Version: version()}, &sdk.ServerOptions{
		Instructions: "tracewiki: the traceability wiki of this repository. search finds requirements, decisions, pages and code; " +
			"lookup tells everything about one id, path or PATH@SYMBOL (its requirements, decisions, tests, evidence and drift), " +
			"within a token budget if asked; check lists stale links; impact says what relies on changed paths.\n\n" + assets.AgentsGuide,
	})
	s.addTools()
	for _, t := range []struct {
		tmpl, name, what string
		typ              claims.NodeType
	}{
		{RequirementTemplate, "requirement", "A requirement's lookup JSON, by id.", claims.NodeRequirement},
		{DecisionTemplate, "decision", "A decision's lookup JSON, by id.", claims.NodeDecision},
		{PageTemplate, "page", "A wiki page's lookup JSON, by its content path without .md.", claims.NodePage},
	} {
		prefix := strings.SplitN(t.tmpl, "{", 2)[0]
		s.srv.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: t.tmpl, Name: t.name, Description: t.what, MIMEType: "application/json"},
			s.lookupResource(prefix, t.typ))
	}
	fmt.Fprintf(s.log, "tracewiki: mcp: analyzing %s\n", s.session.Dir())
	s.reload()
	return s, nil
}

// version is the module version tracewiki was built at, or "devel".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// Run serves the protocol over t until the client disconnects or ctx is
// done, rebuilding the answers on changes.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.session.Watch(ctx, s.reload)
	}()
	err := s.srv.Run(ctx, t)
	cancel()
	s.session.Close()
	<-watched
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// RunStdio serves the protocol over standard input and output: a
// malformed frame is answered with a JSON-RPC error and the server goes
// on; at the end of the input every request read is answered, then it
// returns (see [lineTransport]).
func (s *Server) RunStdio(ctx context.Context) error {
	return s.RunLines(ctx, os.Stdin, os.Stdout)
}

// RunLines serves the protocol over newline-delimited JSON-RPC on r and w,
// as [Server.RunStdio] does on standard input and output.
func (s *Server) RunLines(ctx context.Context, r io.Reader, w io.Writer) error {
	return s.Run(ctx, &lineTransport{r: r, w: w, log: s.log})
}

// reload analyzes the workspace again. On success the session answers
// from the new analysis and the code resources follow it; on failure it
// keeps answering from the last good one, and the problems are logged.
func (s *Server) reload() {
	start := time.Now()
	k, err := s.session.Analyze()
	if err != nil {
		fmt.Fprintf(s.log, "tracewiki: mcp: the workspace does not load; answering from the last good analysis:\n")
		for _, e := range site.Problems(err) {
			fmt.Fprintf(s.log, "%s\n", e)
		}
		return
	}
	s.syncResources(k)
	fmt.Fprintf(s.log, "tracewiki: mcp: %d nodes, %d code resources, in %v\n",
		len(k.Graph().Nodes), len(s.uris), time.Since(start).Round(time.Millisecond))
}

// syncResources registers a code resource per code target of k, and
// removes those of targets gone.
func (s *Server) syncResources(k *synth.Knowledge) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := map[string]bool{}
	var add []*sdk.Resource
	for _, u := range k.CodeURIs() {
		if _, err := url.Parse(u[0]); err != nil {
			fmt.Fprintf(s.log, "tracewiki: mcp: %s: not a valid URI, not listed: %v\n", u[1], err)
			continue
		}
		now[u[0]] = true
		if !s.uris[u[0]] {
			add = append(add, &sdk.Resource{URI: u[0], Name: u[1], MIMEType: "application/json",
				Description: "The code of " + u[1] + " with its captured and current lines and its state."})
		}
	}
	var gone []string
	for u := range s.uris {
		if !now[u] {
			gone = append(gone, u)
		}
	}
	slices.Sort(gone)
	if len(gone) > 0 {
		s.srv.RemoveResources(gone...)
	}
	for _, r := range add {
		s.srv.AddResource(r, s.codeResource)
	}
	s.uris = now
}

// codeResource answers a code:// resource.
func (s *Server) codeResource(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	k, err := s.session.Knowledge()
	if err != nil {
		return nil, err
	}
	r, ok := k.CodeResource(req.Params.URI)
	if !ok {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return jsonResource(req.Params.URI, r)
}

// lookupResource answers a resource template: the lookup of the node
// whose id is the URI after prefix, with the node type typ.
func (s *Server) lookupResource(prefix string, typ claims.NodeType) sdk.ResourceHandler {
	return func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		key, ok := strings.CutPrefix(req.Params.URI, prefix)
		if !ok || key == "" {
			return nil, sdk.ResourceNotFoundError(req.Params.URI)
		}
		if k, err := url.PathUnescape(key); err == nil {
			key = k
		}
		l, err := s.session.Lookup(synth.NodeID{Type: typ, Key: key}.String(), synth.LookupOptions{})
		if err != nil {
			return nil, err
		}
		if l.Entity == nil {
			return nil, sdk.ResourceNotFoundError(req.Params.URI)
		}
		return jsonResource(req.Params.URI, l)
	}
}

func jsonResource(uri string, v any) (*sdk.ReadResourceResult, error) {
	data, err := synth.MarshalCompact(v)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(data)}}}, nil
}

// Tool arguments: the flags of the commands, by the same names.
type (
	searchArgs struct {
		Query   string `json:"query" jsonschema:"the words to search for"`
		Kind    string `json:"kind,omitempty" jsonschema:"only nodes of this type: requirement, decision, page, symbol, test, file, run or document"`
		Limit   int    `json:"limit,omitempty" jsonschema:"return at most this many results (default 10)"`
		Explain bool   `json:"explain,omitempty" jsonschema:"list the fields each result matched in"`
		Budget  int    `json:"budget-tokens,omitempty" jsonschema:"fit the answer into this many tokens (bytes of the JSON / 4)"`
	}
	lookupArgs struct {
		ID     string `json:"id" jsonschema:"a requirement, decision or run id, a node id, a PATH@SYMBOL target, a source file or a content file"`
		Depth  int    `json:"depth,omitempty" jsonschema:"hops from the entity, 1 to 3 (default 1)"`
		Budget int    `json:"budget-tokens,omitempty" jsonschema:"fit the answer into this many tokens (bytes of the JSON / 4)"`
	}
	neighborhoodArgs struct {
		Path  string `json:"path,omitempty" jsonschema:"a workspace file"`
		Req   string `json:"req,omitempty" jsonschema:"a requirement id"`
		Issue string `json:"issue,omitempty" jsonschema:"a decision id"`
		Depth int    `json:"depth,omitempty" jsonschema:"hops from the starting points, 1 to 3 (default 1)"`
	}
	checkArgs struct {
		Lang string `json:"lang,omitempty" jsonschema:"language of the whys: en or es (default: the config's)"`
	}
	impactArgs struct {
		Base   string   `json:"base,omitempty" jsonschema:"a git revision to compare the workspace with (git diff REV)"`
		Paths  []string `json:"paths,omitempty" jsonschema:"changed paths, relative to the workspace root, each optionally PATH#Lx-Ly"`
		Budget int      `json:"budget-tokens,omitempty" jsonschema:"fit the answer into this many tokens (bytes of the JSON / 4)"`
	}
)

// addTools registers the five tools. Each result is the JSON the command
// prints, byte for byte, as one text content.
func (s *Server) addTools() {
	sdk.AddTool(s.srv, &sdk.Tool{Name: ToolSearch, Description: "Rank the wiki's requirements, decisions, pages, symbols, tests and files for a question or keywords (stemmed, stop words dropped, typos corrected): exact id, exact title, then BM25F over id, title, headings, body and code names. Results carry matched words, coverage, stale, lines and an excerpt. The JSON of tracewiki search."},
		func(_ context.Context, _ *sdk.CallToolRequest, a searchArgs) (*sdk.CallToolResult, any, error) {
			if strings.TrimSpace(a.Query) == "" {
				return nil, nil, errors.New("give a query")
			}
			if a.Kind != "" && !slices.Contains(synth.NodeTypes, a.Kind) {
				return nil, nil, fmt.Errorf("kind %q: want one of %s", a.Kind, strings.Join(synth.NodeTypes, ", "))
			}
			if a.Limit < 0 || a.Budget < 0 {
				return nil, nil, errors.New("limit and budget-tokens must not be negative")
			}
			return compactResult(s.session.Search(a.Query, synth.SearchOptions{Kind: a.Kind, Limit: a.Limit, Explain: a.Explain, Budget: a.Budget}))
		})
	sdk.AddTool(s.srv, &sdk.Tool{Name: ToolLookup, Description: "Everything the wiki knows about one requirement, decision, run, file or PATH@SYMBOL: neighbors, covering documents, claims with code, drift and evidence, bounded, optionally within a token budget. The JSON of tracewiki lookup."},
		func(_ context.Context, _ *sdk.CallToolRequest, a lookupArgs) (*sdk.CallToolResult, any, error) {
			if a.Budget < 0 {
				return nil, nil, errors.New("budget-tokens must not be negative")
			}
			return compactResult(s.session.Lookup(a.ID, synth.LookupOptions{Depth: a.Depth, Budget: a.Budget}))
		})
	sdk.AddTool(s.srv, &sdk.Tool{Name: ToolNeighborhood, Description: "The traceability graph around a file, a requirement and/or a decision, to 1-3 hops. The JSON of tracewiki neighborhood."},
		func(_ context.Context, _ *sdk.CallToolRequest, a neighborhoodArgs) (*sdk.CallToolResult, any, error) {
			return jsonResult(s.session.Neighborhood(synth.Query{Path: a.Path, ReqKey: a.Req, IssueKey: a.Issue, Depth: cmp.Or(a.Depth, synth.DefaultDepth)}))
		})
	sdk.AddTool(s.srv, &sdk.Tool{Name: ToolCheck, Description: "The live state of every link (linked, stale, unknown) with its reason and why. The JSON of tracewiki check --format json."},
		func(_ context.Context, _ *sdk.CallToolRequest, a checkArgs) (*sdk.CallToolResult, any, error) {
			if a.Lang != "" && a.Lang != "en" && a.Lang != "es" {
				return nil, nil, fmt.Errorf("lang %q: want en or es", a.Lang)
			}
			return jsonResult(s.session.Check(a.Lang))
		})
	sdk.AddTool(s.srv, &sdk.Tool{Name: ToolImpact, Description: "What relies on changed paths (or on git diff BASE): per path the code roots, their callers and importers, and the requirements, pages and tests that rely on them, optionally within a token budget. The JSON of tracewiki impact --format json."},
		func(_ context.Context, _ *sdk.CallToolRequest, a impactArgs) (*sdk.CallToolResult, any, error) {
			if a.Budget < 0 {
				return nil, nil, errors.New("budget-tokens must not be negative")
			}
			return compactResult(s.session.Impact(a.Paths, synth.ImpactOptions{Base: a.Base, Budget: a.Budget}))
		})
}

// compactResult is a tool's answer v as compact JSON, the command's.
func compactResult[T any](v T, err error) (*sdk.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return textResult(synth.MarshalCompact(v))
}

// jsonResult is a tool's answer v as indented JSON, the command's.
func jsonResult[T any](v T, err error) (*sdk.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return textResult(synth.MarshalJSON(v))
}

func textResult(data []byte, err error) (*sdk.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}}, nil, nil
}
