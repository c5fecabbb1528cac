package site

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// EvidenceResult lists what [Project.RecordEvidence] did.
type EvidenceResult struct {
	Recorded []codeanchors.Evidence
	// Skipped explains, per requirement with tests, why no evidence was
	// recorded: some linked test is not in the report.
	Skipped []string
}

// RecordEvidence reads a test report and records, for each requirement
// whose linked tests all appear in it, an evidence entry for run against the
// requirement's current revision, with each test's outcome. A failed test is
// recorded as failed; it never makes a requirement verified.
func (p *Project) RecordEvidence(run, reportName string, report []byte, by string, notes io.Writer) (*EvidenceResult, error) {
	if strings.TrimSpace(run) == "" {
		return nil, fmt.Errorf("evidence: empty run id")
	}
	results, err := codeanchors.ParseReport(reportName, report)
	if err != nil {
		return nil, err
	}
	if by == "" {
		by = p.gitEmail()
	}
	var paths []string
	for _, r := range p.Model.Requirements {
		for _, t := range r.Tests {
			paths = append(paths, t.Target.Path)
		}
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	m := codeanchors.TestMatcher{GoPackage: p.goPackages(), Source: func(p string) *codeanchors.Source { return sources[p] }}
	res := &EvidenceResult{}
	at := Now().Format(time.RFC3339)
	for _, r := range p.Model.Requirements {
		if len(r.Tests) == 0 {
			continue
		}
		e := codeanchors.Evidence{Req: r.ID, Run: run, Revision: r.Revision, RecordedAt: at, RecordedBy: by}
		var missing []string
		for _, t := range r.Tests {
			found := m.Match(t.Target, results)
			if len(found) == 0 {
				missing = append(missing, t.Target.String())
			}
			for _, f := range found {
				e.Tests = append(e.Tests, codeanchors.EvidenceTest{Target: t.Target.String(), Name: f.Suite + "." + f.Name, Outcome: f.Outcome})
			}
		}
		if len(missing) > 0 {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s: not in the report: %s", r.ID, strings.Join(missing, ", ")))
			continue
		}
		res.Recorded = append(res.Recorded, e)
	}
	err = p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		for _, e := range res.Recorded {
			l.RecordEvidence(e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// goPackages returns a function giving the Go import path of a folder from
// the nearest go.mod at or above it inside the workspace; each go.mod is
// read once.
func (p *Project) goPackages() func(dir string) (string, bool) {
	var mu sync.Mutex
	modules := map[string]string{} // folder → module path, "" when no go.mod
	module := func(dir string) string {
		mu.Lock()
		m, ok := modules[dir]
		mu.Unlock()
		if ok {
			return m
		}
		data, err := p.WS.ReadFile(path.Join(dir, "go.mod"))
		if err == nil {
			m = modulePath(data)
		}
		mu.Lock()
		modules[dir] = m
		mu.Unlock()
		return m
	}
	return func(dir string) (string, bool) {
		for d, rel := dir, ""; ; {
			if m := module(d); m != "" {
				return path.Join(m, rel), true
			}
			if d == "." {
				return "", false
			}
			rel = path.Join(path.Base(d), rel)
			d = path.Dir(d)
		}
	}
}

// modulePath returns the module path of a go.mod, "" when it has none.
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			rest = strings.TrimSpace(rest)
			if s, err := strconv.Unquote(rest); err == nil {
				return s
			}
			return rest
		}
	}
	return ""
}
