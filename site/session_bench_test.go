//go:build unix

package site

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
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
// TRACEWIKI_SERVE_EDIT the kind of edit, as bench/edits.sh makes them:
// "top" (a paragraph added below the page's first heading), "claim" (the
// text of its first claim, "Claim 0: ", changed), "heading" (a heading
// added above "Claim 5: ") or "end" (a sentence appended, the default);
// TRACEWIKI_SERVE_CPUPROFILE a file for a CPU profile of the rebuilds
// alone (not the first build). It reports the mean and the median.
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
	kind := cmp.Or(os.Getenv("TRACEWIKI_SERVE_EDIT"), "end")
	var cpu time.Duration
	var each []time.Duration
	for i := 0; b.Loop(); i++ {
		mark := fmt.Sprintf("Edited %d.", i)
		edited, err := editPage(orig, kind, mark)
		must(b, err)
		must(b, os.WriteFile(file, edited, 0o644))
		before := cpuTime()
		s.mu.Lock()
		s.pending.add(changeSet{paths: map[string]bool{name: true}})
		s.mu.Unlock()
		site, err := s.Build("")
		must(b, err)
		page, _, err := site.File(url)
		must(b, err)
		took := cpuTime() - before
		cpu += took
		each = append(each, took)
		if !bytes.Contains(page, []byte(mark)) {
			b.Fatalf("%s does not show the edit", url)
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	slices.Sort(each)
	b.ReportMetric(float64(each[len(each)/2].Microseconds())/1000, "cpu-ms-median")
}

// editPage edits a page's text the way kind says (see
// [BenchmarkSessionBuild]), with mark as the new text.
func editPage(page []byte, kind, mark string) ([]byte, error) {
	text := string(page)
	switch kind {
	case "end":
		return fmt.Appendf([]byte(text), "\n%s\n", mark), nil
	case "top":
		if i := strings.Index(text, "\n# "); i >= 0 {
			j := i + 1 + strings.IndexByte(text[i+1:], '\n')
			return []byte(text[:j+1] + "\n" + mark + "\n" + text[j+1:]), nil
		}
	case "claim":
		if i := strings.Index(text, "\nClaim 0: "); i >= 0 {
			i += len("\nClaim 0: ")
			return []byte(text[:i] + mark + " " + text[i:]), nil
		}
	case "heading":
		if i := strings.Index(text, "\nClaim 5: "); i >= 0 {
			return []byte(text[:i+1] + "## " + mark + "\n\n" + text[i+1:]), nil
		}
	default:
		return nil, fmt.Errorf("TRACEWIKI_SERVE_EDIT=%s: not top, claim, heading or end", kind)
	}
	return nil, fmt.Errorf("TRACEWIKI_SERVE_EDIT=%s: the page has no place for it", kind)
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
