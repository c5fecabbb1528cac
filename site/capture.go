package site

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// CaptureOptions says what [Project.Capture] captures.
type CaptureOptions struct {
	// Refs are the targets to (re)capture, in target notation. Empty means
	// every referenced target never captured before.
	Refs []string
	// Stale also recaptures every referenced target that is not linked:
	// the reviewer has looked at the drift and vouches for the new code.
	Stale bool
	// By names who vouches for the capture; empty means git's user.email.
	By string
}

// CaptureResult lists what a capture did.
type CaptureResult struct {
	Captured []string // refs, in order
	Failed   []error  // one per target that could not be captured
	// Stamped lists the parent links seen for the first time (CHILD->PARENT),
	// stamped with their parent's current revision.
	Stamped []string
}

// Capture resolves targets and records their anchors in the lock file. A
// target that cannot be captured (missing file, unknown or ambiguous symbol,
// path outside the workspace) is reported in Failed and gets no anchor; the
// others are written. Each file is read and parsed once.
func (p *Project) Capture(opts CaptureOptions, notes io.Writer) (*CaptureResult, error) {
	var explicit []claims.Target
	for _, ref := range opts.Refs {
		t, err := claims.ParseTarget(ref)
		if err != nil {
			return nil, err
		}
		explicit = append(explicit, t)
	}
	paths := p.targetPaths()
	for _, t := range explicit {
		paths = append(paths, t.Path)
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	by, at := p.captureStamp(opts.By)
	var res *CaptureResult
	err = p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		res = p.captureInto(l, opts, explicit, sources, at, by)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// captureStamp is who vouches for a capture (by, else git's user.email)
// and when ([Now]).
func (p *Project) captureStamp(by string) (string, string) {
	if by == "" {
		by = p.gitEmail()
	}
	return by, Now().Format(time.RFC3339)
}

// captureInto records in l the anchors of the explicit targets, or without
// any, of the referenced targets opts selects, reading code only from
// sources (which must hold their paths), and stamps the parent links l has
// never stamped. It changes l only: the caller writes it.
func (p *Project) captureInto(l *codeanchors.Lock, opts CaptureOptions, explicit []claims.Target, sources map[string]*codeanchors.Source, at, by string) *CaptureResult {
	res := &CaptureResult{}
	targets := explicit
	switch {
	case len(targets) > 0:
	case opts.Stale:
		// Which links are not linked needs a judgement.
		for _, ts := range p.judge(l, sources).Targets {
			if ts.Anchor == nil || ts.Verdict.State != codeanchors.Linked {
				targets = append(targets, ts.Target)
			}
		}
	default:
		// The targets never captured: no judgement needed, so a build
		// judges drift once, after capturing.
		for _, r := range p.targets() {
			if _, ok := l.Anchors[r.Target.String()]; !ok {
				targets = append(targets, r.Target)
			}
		}
	}
	for _, t := range targets {
		ref := t.String()
		var prev *codeanchors.Anchor
		if old, had := l.Anchors[ref]; had {
			prev = &old
		}
		a, err := codeanchors.Capture(t, codeanchors.ResolveIn(t, prev, sources[t.Path]), sources[t.Path], at, by)
		if err != nil {
			res.Failed = append(res.Failed, err)
			continue
		}
		l.Anchors[ref] = a
		res.Captured = append(res.Captured, ref)
	}
	res.Stamped = stampNew(p.Model, l, at, by)
	return res
}

// gitEmail is git's user.email in the workspace, or "" when git is absent or
// has none.
func (p *Project) gitEmail() string {
	cmd := exec.Command("git", "config", "user.email")
	cmd.Dir = p.WS.Dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// String formats the result for people, one line per target.
func (r *CaptureResult) String() string {
	var b strings.Builder
	for _, ref := range r.Captured {
		fmt.Fprintf(&b, "captured %s\n", ref)
	}
	for _, err := range r.Failed {
		fmt.Fprintf(&b, "not captured: %v\n", err)
	}
	for _, k := range r.Stamped {
		fmt.Fprintf(&b, "stamped parent link %s\n", k)
	}
	return b.String()
}
