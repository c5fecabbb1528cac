package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/tracewiki/tracewiki/site"
)

// cacheFlags adds --cache and --no-cache to a command; the returned func
// opens the cache they select (nil when off) after the flags are parsed.
// Without either, TRACEWIKI_CACHE decides, else the user cache folder; a
// default cache that cannot be made (no home folder) is noted and the
// build goes on without one.
func cacheFlags(fs *flag.FlagSet) func(notes io.Writer) (*site.Cache, error) {
	dir := fs.String("cache", "", "keep the build cache in `DIR` (default: $"+site.CacheEnv+", else tracewiki in the user cache folder)")
	off := fs.Bool("no-cache", false, "neither read nor write the build cache")
	return func(notes io.Writer) (*site.Cache, error) {
		switch {
		case *off && *dir != "":
			return nil, errCacheFlags
		case *off:
			return nil, nil
		case *dir != "":
			return site.OpenCache(*dir)
		}
		c, err := site.CacheFromEnv()
		if err != nil {
			fmt.Fprintf(notes, "tracewiki: building without a cache: %v\n", err)
		}
		return c, nil
	}
}

var errCacheFlags = errors.New("--cache and --no-cache exclude each other")
