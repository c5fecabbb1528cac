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
	Failed   []error  // one per target that could not be captured, a [*NotCaptured]
	// Stamped lists the parent links seen for the first time (CHILD->PARENT),
	// stamped with their parent's current revision.
	Stamped []string
	// Waivers lists the waivers seen for the first time (REQ-1#RULE,
	// PATH#RULE), stamped with the hash of what they justify.
	Waivers []string
	// Pinned lists the externals whose bundle was pinned (SPEC 1.8).
	Pinned []string
}

// Capture resolves targets and records their anchors in the lock file. A
// target that cannot be captured (missing file, unknown or ambiguous symbol,
// path outside the workspace) is reported in Failed and gets no anchor; the
// others are written. Each file is read and parsed once.
func (p *Project) Capture(opts CaptureOptions, notes io.Writer) (*CaptureResult, error) {
	var explicit []claims.Target
	var pins []string // externals named external:NAME
	for _, ref := range opts.Refs {
		if name, ok := strings.CutPrefix(ref, codeanchors.ExternalRefPrefix); ok {
			if p.Externals[name] == nil {
				return nil, fmt.Errorf("capture %s: no external %q in tracewiki.toml", ref, name)
			}
			pins = append(pins, name)
			continue
		}
		t, err := claims.ParseTarget(ref)
		if err != nil {
			return nil, err
		}
		explicit = append(explicit, t)
	}
	if err := p.readMarkers(); err != nil {
		return nil, err
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
	err = p.RenewLock(notes, func(l *codeanchors.Lock) (err error) {
		p.restampLegacy(l, notes)
		if len(pins) > 0 && len(explicit) == 0 {
			res = &CaptureResult{} // only pins asked for
		} else if res, err = p.captureInto(l, opts, explicit, sources, at, by); err != nil {
			return err
		}
		// capture is the review: it pins the externals' bundles (all, or
		// those named external:NAME).
		res.Pinned = p.pinExternals(l, pins, at, by)
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
// never stamped. It changes l only: the caller writes it. A target that
// cannot be captured gets the relocations and suggestions check gives it
// ([Project.locate]), which may read the other code files.
func (p *Project) captureInto(l *codeanchors.Lock, opts CaptureOptions, explicit []claims.Target, sources map[string]*codeanchors.Source, at, by string) (*CaptureResult, error) {
	res := &CaptureResult{}
	lost := &codeanchors.Report{} // the targets not captured, to locate
	var errs []error
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
		r := p.resolveTarget(t, prev, sources)
		a, err := p.captureTarget(t, r, sources, at, by)
		if err != nil {
			lost.Targets = append(lost.Targets, codeanchors.TargetStatus{
				Referenced: codeanchors.Referenced{Target: t}, Anchor: prev, Verdict: codeanchors.Judge(prev, r)})
			errs = append(errs, err)
			continue
		}
		l.Anchors[ref] = a
		res.Captured = append(res.Captured, ref)
	}
	res.Stamped = p.stampNew(l, at, by)
	var err error
	if res.Waivers, err = p.stampWaivers(l, at, by); err != nil {
		return nil, err
	}
	if err := p.locate(lost, l, sources); err != nil {
		return nil, err
	}
	for i, ts := range lost.Targets {
		res.Failed = append(res.Failed, &NotCaptured{Err: errs[i], Relocated: ts.Relocated, Suggestions: ts.Suggestions})
	}
	return res, nil
}

// NotCaptured is a target capture could not anchor: why, and for a
// missing target where its code may be now and the nearest existing names,
// as check gives them.
type NotCaptured struct {
	Err         error
	Relocated   []codeanchors.Relocation
	Suggestions []string
}

// Error is the reason, then "moved to" the candidates and "did you mean"
// the suggestions, on one line.
func (e *NotCaptured) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	for i, r := range e.Relocated {
		if i == 0 {
			b.WriteString("; moved to ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", r.Ref, r.How)
	}
	if len(e.Suggestions) > 0 {
		fmt.Fprintf(&b, "; did you mean %s?", strings.Join(e.Suggestions, ", "))
	}
	return b.String()
}

func (e *NotCaptured) Unwrap() error { return e.Err }

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
	for _, k := range r.Waivers {
		fmt.Fprintf(&b, "stamped waiver %s\n", k)
	}
	for _, k := range r.Pinned {
		fmt.Fprintf(&b, "pinned external %s\n", k)
	}
	return b.String()
}
