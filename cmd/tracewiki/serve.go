package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tracewiki/tracewiki/site/serve"
)

func runServe(e *env, args []string) int {
	fs := e.flags("serve")
	var opts serve.Options
	fs.StringVar(&opts.Addr, "addr", serve.DefaultAddr, "the `host:port` to listen on; loopback unless --public")
	fs.StringVar(&opts.BaseURL, "base-url", "", "the `URL` path the site is served under (default: the config's baseURL)")
	fs.BoolVar(&opts.Public, "public", false, "allow an --addr that other machines can reach")
	fs.Func("host", "also answer requests for host `NAME` (repeatable; by default only loopback names and addresses)", func(h string) error {
		if h == "" || strings.ContainsAny(h, "/: \t") {
			return fmt.Errorf("%q is not a host name", h)
		}
		opts.Hosts = append(opts.Hosts, h)
		return nil
	})
	openCache := cacheFlags(fs)
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("serve: unexpected arguments %q", fs.Args())
	}
	cache, err := openCache(e.stderr)
	if errors.Is(err, errCacheFlags) {
		return e.usage("serve: %v", err)
	}
	if err != nil {
		return e.fail(err)
	}
	opts.Cache = cache
	opts.Log = e.stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := serve.NewServer(e.root, opts)
	if errors.Is(err, serve.ErrNotLoopback) {
		return e.usage("serve: %v; pass --public to serve to other machines", err)
	}
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "serving http://%s%s (Ctrl-C to stop)\n", srv.Addr(), srv.BaseURL())
	go func() {
		// After the first signal, a second one quits at once, even while a
		// build runs.
		<-ctx.Done()
		stop()
	}()
	if err := srv.Run(ctx); err != nil {
		return e.fail(err)
	}
	return exitOK
}
