//go:build unix

package site

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSessionBuild measures the CPU time (user+system, of the whole
// process) of a session's rebuild after one page's edit, and of rendering
// that page, on the workspace named by TRACEWIKI_SERVE_SITE (such as
// bench/gen's 2,000-page site, captured); TRACEWIKI_SERVE_PAGE names the
// page (default content/area00/page00000.md), which is restored after;
// TRACEWIKI_SERVE_CPUPROFILE a file for a CPU profile of the rebuilds
// alone (not the first build).
// CPU time, unlike wall time, does not grow with the other load of a
// shared machine.
func BenchmarkSessionBuild(b *testing.B) {
	dir := os.Getenv("TRACEWIKI_SERVE_SITE")
	if dir == "" {
		b.Skip("TRACEWIKI_SERVE_SITE is not set")
	}
	name := cmp.Or(os.Getenv("TRACEWIKI_SERVE_PAGE"), "content/area00/page00000.md")
	file := filepath.Join(dir, filepath.FromSlash(name))
	orig, err := os.ReadFile(file)
	must(b, err)
	b.Cleanup(func() { os.WriteFile(file, orig, 0o644) })
	s, err := OpenSession(dir, SessionOptions{Watch: true})
	must(b, err)
	defer s.Close()
	_, err = s.Build("")
	must(b, err)
	url := "pages/" + strings.TrimSuffix(strings.TrimPrefix(name, "content/"), ".md") + "/index.html"
	if prof := os.Getenv("TRACEWIKI_SERVE_CPUPROFILE"); prof != "" {
		f, err := os.Create(prof)
		must(b, err)
		must(b, pprof.StartCPUProfile(f))
		b.Cleanup(func() { pprof.StopCPUProfile(); f.Close() })
	}
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		mark := fmt.Sprintf("Edited %d.", i)
		must(b, os.WriteFile(file, fmt.Appendf(bytes.Clone(orig), "\n%s\n", mark), 0o644))
		before := cpuTime()
		s.mu.Lock()
		s.pending.add(changeSet{paths: map[string]bool{name: true}})
		s.mu.Unlock()
		site, err := s.Build("")
		must(b, err)
		page, _, err := site.File(url)
		must(b, err)
		cpu += cpuTime() - before
		if !bytes.Contains(page, []byte(mark)) {
			b.Fatalf("%s does not show the edit", url)
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
