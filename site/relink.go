package site

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// Rewrite is one relocated target that relink follows: every link to From
// becomes a link to To, in Files (content files, sorted), and the lock's
// anchor moves with it.
type Rewrite struct {
	From, To string
	How      string // same_text, same_tokens or same_body
	Files    []string
}

// RelinkResult lists what [Project.Relink] did (or, dry, would do).
type RelinkResult struct {
	Rewrites []Rewrite
	// Left are the relocated targets relink does not follow, each with
	// why: several candidates, or only a same_name one (never guessed).
	Left []string
}

// Relink follows relocated targets (SPEC 2): each target_missing or
// symbol_not_found link whose captured code is found in exactly one place
// by its hash, token hash or body hash is rewritten to that place, in every
// content file that links it (as a code: link, a frontmatter target or a
// code:// URI) and in the lock, whose anchor moves along with evidence
// token hashes. A same_text or same_tokens anchor keeps its hashes (a
// same_tokens move then shows as reformatted). A same_body one (a rename)
// takes the renamed symbol's lines, hashes and text, since its code is the
// captured code but for the name the rewrite changes; it keeps who
// captured it and when, and an evidence entry that vouched for the
// captured token hash vouches for the new one. With dry, nothing is
// written.
func (p *Project) Relink(dry bool, notes io.Writer) (*RelinkResult, error) {
	rep, err := p.Check()
	if err != nil {
		return nil, err
	}
	res := &RelinkResult{}
	for _, ts := range rep.Targets {
		if len(ts.Relocated) == 0 {
			continue
		}
		from := ts.Target.String()
		c := ts.Relocated[0]
		switch {
		case len(ts.Relocated) > 1:
			var refs []string
			for _, r := range ts.Relocated {
				refs = append(refs, r.Ref)
			}
			res.Left = append(res.Left, fmt.Sprintf("%s: %d candidates (%s): %s; link the right one by hand", from, len(refs), c.How, strings.Join(refs, ", ")))
			continue
		case c.How == codeanchors.SameName:
			res.Left = append(res.Left, fmt.Sprintf("%s: only the name matches in %s; review it and link it by hand", from, c.Ref))
			continue
		}
		rw := Rewrite{From: from, To: c.Ref, How: c.How}
		for _, u := range ts.Uses {
			rw.Files = append(rw.Files, u.Pos.File)
		}
		rw.Files = slices.Compact(slices.Sorted(slices.Values(rw.Files)))
		res.Rewrites = append(res.Rewrites, rw)
	}
	if dry {
		return res, nil
	}
	p.removeContentTemps(notes)
	if len(res.Rewrites) == 0 {
		return res, nil
	}
	slug := p.Config.Slug()
	edited := map[string][]byte{}
	var files []string
	for _, rw := range res.Rewrites {
		from, _ := claims.ParseTarget(rw.From)
		to, _ := claims.ParseTarget(rw.To)
		for _, f := range rw.Files {
			data, ok := edited[f]
			if !ok {
				if data, err = p.WS.ReadFile(f); err != nil {
					return nil, err
				}
				files = append(files, f)
			}
			data = replaceRef(data, rw.From, rw.To)
			data = replaceRef(data, from.URI(slug), to.URI(slug))
			edited[f] = data
		}
	}
	renamed, err := p.renamedAnchors(res.Rewrites)
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	for _, f := range files {
		if err := p.WS.WriteFile(f, edited[f]); err != nil {
			return nil, err
		}
	}
	err = p.UpdateLock(notes, func(l *codeanchors.Lock) error {
		p.restampLegacy(l, notes)
		for _, rw := range res.Rewrites {
			a, ok := l.Anchors[rw.From]
			if !ok {
				continue
			}
			delete(l.Anchors, rw.From)
			moved := a
			if rw.How == codeanchors.SameBody {
				moved = renamed[rw.To]
				moved.CapturedAt, moved.CapturedBy = a.CapturedAt, a.CapturedBy
				if moved.BodyHash != a.Body(codeanchors.Default) {
					return fmt.Errorf("relink %s: %s changed since it was found; run relink again", rw.From, rw.To)
				}
			}
			if _, taken := l.Anchors[rw.To]; !taken {
				to, _ := claims.ParseTarget(rw.To)
				moved.Path, moved.Symbol = to.Path, to.Symbol
				if to.IsRange() {
					moved.Start, moved.End = to.Start, to.End
				}
				l.Anchors[rw.To] = moved
			}
			for _, e := range l.Evidence {
				if h, ok := e.TokenHashes[rw.From]; ok {
					delete(e.TokenHashes, rw.From)
					if h == a.TokenHash {
						h = moved.TokenHash // the same code (same_body: renamed)
					}
					e.TokenHashes[rw.To] = h
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// renamedAnchors captures the target of every same_body rewrite, by ref:
// the anchor a renamed symbol takes. Its file is read again, as the lock is
// written after the content.
func (p *Project) renamedAnchors(rws []Rewrite) (map[string]codeanchors.Anchor, error) {
	var paths []string
	var targets []claims.Target
	for _, rw := range rws {
		if rw.How == codeanchors.SameBody {
			to, _ := claims.ParseTarget(rw.To)
			paths, targets = append(paths, to.Path), append(targets, to)
		}
	}
	if len(targets) == 0 {
		return nil, nil
	}
	sources, err := p.Sources(paths)
	if err != nil {
		return nil, err
	}
	out := map[string]codeanchors.Anchor{}
	for _, to := range targets {
		s := sources[to.Path]
		a, err := codeanchors.Capture(to, codeanchors.ResolveIn(to, nil, s), s, "", "")
		if err != nil {
			return nil, fmt.Errorf("relink: %w", err)
		}
		out[to.String()] = a
	}
	return out, nil
}

// replaceRef replaces every whole occurrence of ref in data by to: one not
// preceded or followed by a character that would make it part of a longer
// ref (so "a.go" is not replaced inside "a.go@F" or "b/a.go").
func replaceRef(data []byte, ref, to string) []byte {
	var out bytes.Buffer
	for {
		i := bytes.Index(data, []byte(ref))
		if i < 0 {
			out.Write(data)
			return out.Bytes()
		}
		end := i + len(ref)
		whole := (i == 0 || !refByte(data[i-1])) && (end == len(data) || !refByte(data[end]) || data[end] == '.' && (end+1 == len(data) || !refByte(data[end+1])))
		out.Write(data[:i])
		if whole {
			out.WriteString(to)
		} else {
			out.WriteString(ref)
		}
		data = data[end:]
	}
}

// refByte reports whether c can be part of a target ref or code URI.
func refByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("_./@#-$", c) >= 0 || c >= 0x80
}
