package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startProfile starts a CPU profile into the file named by
// TRACEWIKI_CPUPROFILE, and an allocation profile written to the file named
// by TRACEWIKI_MEMPROFILE when it stops, for bench/README's measurements;
// it returns the function that stops them. Without the variables it does
// nothing.
func startProfile(stderr io.Writer) (stop func()) {
	cpu := startCPUProfile(stderr)
	name := os.Getenv("TRACEWIKI_MEMPROFILE")
	if name == "" {
		return cpu
	}
	return func() {
		cpu()
		f, err := os.Create(name)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "tracewiki: memory profile: %v\n", err)
		}
	}
}

func startCPUProfile(stderr io.Writer) (stop func()) {
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
