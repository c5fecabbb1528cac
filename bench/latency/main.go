// Command latency measures how long tracewiki serve takes to show an edit:
// it starts "tracewiki serve" on a workspace, waits for the first page, then
// edits one wiki page's file several times, each time adding a sentence
// with a new word, and polls the page over HTTP until a response contains
// that word. The time from the write (the file closed) to that response is
// the latency; it prints each and the median, in milliseconds.
//
//	go run ./bench/latency -tracewiki BIN -page content/area00/page00000.md WORKSPACE
//
// The page file is restored when it is done. The server is stopped with
// SIGTERM (then killed).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("tracewiki", "tracewiki", "the tracewiki `BINARY`")
	page := flag.String("page", "content/area00/page00000.md", "the wiki page `FILE` to edit, relative to the workspace")
	edits := flag.Int("edits", 7, "edits to time")
	timeout := flag.Duration("timeout", 60*time.Second, "give up on one edit after this long")
	ready := flag.Duration("ready", 10*time.Minute, "give up waiting for the first build after this long")
	extra := flag.String("args", "", "more serve flags, space-separated (say --cache DIR)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("latency: ")
	if flag.NArg() != 1 {
		log.Fatal("usage: latency [flags] WORKSPACE")
	}
	ws := flag.Arg(0)
	file := filepath.Join(ws, filepath.FromSlash(*page))
	orig, err := os.ReadFile(file)
	if err != nil {
		log.Fatal(err)
	}
	defer os.WriteFile(file, orig, 0o644)

	addr, err := freeAddr()
	if err != nil {
		log.Fatal(err)
	}
	args := append([]string{"serve", "--addr", addr}, strings.Fields(*extra)...)
	cmd := exec.Command(*bin, args...)
	cmd.Dir = ws
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	// A wiki page content/A/B.md is served at pages/A/B/.
	url := "http://" + addr + "/pages/" + strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(*page), "content/"), ".md") + "/"
	start := time.Now()
	if _, err := poll(url, "", *ready); err != nil {
		log.Printf("first build: %v\n%s", err, stderr.String())
		return
	}
	fmt.Printf("latency: first page after %d ms\n", time.Since(start).Milliseconds())
	var ms []float64
	for i := range *edits {
		word := fmt.Sprintf("latencymark%d%d", time.Now().UnixNano(), i)
		data := append(bytes.TrimRight(slices.Clone(orig), "\n"), fmt.Sprintf("\n\nEdited: %s.\n", word)...)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			log.Fatal(err)
		}
		d, err := poll(url, word, *timeout)
		if err != nil {
			log.Printf("edit %d: %v\n%s", i+1, err, stderr.String())
			return
		}
		ms = append(ms, float64(d.Microseconds())/1000)
		fmt.Printf("latency: edit %d: %.0f ms\n", i+1, ms[len(ms)-1])
		time.Sleep(500 * time.Millisecond) // let the server settle between edits
	}
	slices.Sort(ms)
	fmt.Printf("latency: median %.0f ms of %d edits (min %.0f, max %.0f)\n", ms[len(ms)/2], len(ms), ms[0], ms[len(ms)-1])
}

// poll GETs url until a 200 response contains want and returns how long
// that took.
func poll(url, want string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	c := &http.Client{Timeout: 5 * time.Second}
	for time.Since(start) < timeout {
		resp, err := c.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(want)) {
				return time.Since(start), nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0, fmt.Errorf("no response with %q from %s within %v", want, url, timeout)
}

// freeAddr returns a loopback address with a port nobody listens on.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// lockedBuffer collects the server's stderr, read while it may still write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
