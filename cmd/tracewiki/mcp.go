package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/tracewiki/tracewiki/site/mcp"
)

func runMCP(e *env, args []string) int {
	fs := e.flags("mcp")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("mcp: unexpected arguments %q", fs.Args())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := mcp.NewServer(e.root, mcp.Options{Log: e.stderr})
	if err != nil {
		return e.fail(err)
	}
	if err := srv.RunStdio(ctx); err != nil {
		return e.fail(err)
	}
	return exitOK
}
