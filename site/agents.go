package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tracewiki/tracewiki/assets"
)

// AgentsFile is the file of instructions for coding agents that
// "tracewiki init --agents" writes its section into.
const AgentsFile = "AGENTS.md"

// The markers around tracewiki's section of AgentsFile; each stands on a
// line of its own.
const (
	AgentsBegin = "<!-- tracewiki:begin -->"
	AgentsEnd   = "<!-- tracewiki:end -->"
)

// AgentsSection is the section init --agents writes: the markers around
// the agents guide.
func AgentsSection() string {
	return AgentsBegin + "\n" + assets.AgentsGuide + AgentsEnd + "\n"
}

// InitAgents writes (or replaces) tracewiki's section of AGENTS.md in the
// folder dir and touches nothing else of it: a missing file is created
// with the section alone, a file without the section gets it appended, a
// file with it gets it replaced. Markers that do not pair up are refused,
// with the line of the first wrong one, and nothing is written. It returns
// what it did: "created", "appended", "replaced" or "unchanged".
func InitAgents(dir string) (string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("init: %w", err)
	}
	defer root.Close()
	old, err := root.ReadFile(AgentsFile)
	mode := fs.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return "", fmt.Errorf("init: %w", outsideErr(err))
	default:
		if fi, err := root.Stat(AgentsFile); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	data, what, err := withAgentsSection(old, AgentsSection())
	if err != nil {
		return "", fmt.Errorf("%s:%w", filepath.Join(dir, AgentsFile), err)
	}
	if old != nil && bytes.Equal(data, old) {
		return "unchanged", nil
	}
	if err := root.WriteFile(AgentsFile, data, mode); err != nil {
		return "", fmt.Errorf("init: %w", outsideErr(err))
	}
	if old == nil {
		return "created", nil
	}
	return what, nil
}

// withAgentsSection returns text with its tracewiki section replaced by
// section, or section appended after a blank line when it has none, and
// which of the two it did. A file written with CRLF line ends gets the
// section with CRLF too. An error starts with the line of the marker at
// fault ("3: ...").
func withAgentsSection(text []byte, section string) ([]byte, string, error) {
	if bytes.Contains(text, []byte("\r\n")) {
		section = strings.ReplaceAll(section, "\n", "\r\n")
	}
	begin, end := -1, -1 // byte offsets of the marker lines
	endAfter := 0        // the offset just past the end marker's line
	offset := 0
	for i, line := range strings.SplitAfter(string(text), "\n") {
		at := offset
		offset += len(line)
		trimmed := strings.TrimSpace(line)
		isBegin, isEnd := strings.Contains(line, AgentsBegin), strings.Contains(line, AgentsEnd)
		switch {
		case !isBegin && !isEnd:
			continue
		case isBegin && isEnd || trimmed != AgentsBegin && trimmed != AgentsEnd:
			return nil, "", fmt.Errorf("%d: a tracewiki marker must stand alone on its line; fix the markers by hand, nothing written", i+1)
		case isBegin && begin >= 0:
			return nil, "", fmt.Errorf("%d: a second %s; fix the markers by hand, nothing written", i+1, AgentsBegin)
		case isBegin:
			begin = at
		case begin < 0 || end >= 0:
			return nil, "", fmt.Errorf("%d: %s without a %s before it; fix the markers by hand, nothing written", i+1, AgentsEnd, AgentsBegin)
		default:
			end, endAfter = at, offset
		}
	}
	switch {
	case begin >= 0 && end < 0:
		line := bytes.Count(text[:begin], []byte("\n")) + 1
		return nil, "", fmt.Errorf("%d: %s without a %s after it; fix the markers by hand, nothing written", line, AgentsBegin, AgentsEnd)
	case begin >= 0:
		out := append([]byte{}, text[:begin]...)
		out = append(out, section...)
		return append(out, text[endAfter:]...), "replaced", nil
	}
	out := append([]byte{}, text...)
	if len(out) > 0 {
		nl := "\n"
		if bytes.Contains(text, []byte("\r\n")) {
			nl = "\r\n"
		}
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, nl...)
		}
		out = append(out, nl...)
	}
	return append(out, section...), "appended", nil
}
