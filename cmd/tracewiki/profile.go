package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile starts a CPU profile into the file named by
// TRACEWIKI_CPUPROFILE, for bench/README's measurements; it returns the
// function that stops it. Without the variable it does nothing.
func startProfile(stderr io.Writer) (stop func()) {
	name := os.Getenv("TRACEWIKI_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(stderr, "tracewiki: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "tracewiki: cpu profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
