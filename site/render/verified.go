package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// VerifiedKey names the text a lock entry was recorded against: a
// requirement and its revision then.
type VerifiedKey struct{ Req, Rev string }

// VerifiedText is what the site shows of the text a stale lock entry was
// recorded against: the version of the requirement's file in the git
// history whose revision is the recorded one, diffed with the current
// text, or why it is not there.
type VerifiedText struct {
	Commit  string // the newest commit whose version of the file has the revision; "" when none
	Missing string // why no version was found, when Commit is ""
	Diff    string // that text against the current one, a unified diff; "" when only white space changed
}

// note says, for a page, what the entry was recorded against (verb:
// "verified", "reviewed") and where its text was found or why not.
func (v *VerifiedText) note(verb string, k VerifiedKey, file string) string {
	rev := "revision " + codeanchors.HashPrefix + short(k.Rev) + "…"
	if !strings.HasPrefix(k.Rev, codeanchors.HashPrefix) {
		rev = "“" + k.Rev + "”" // a stamp that names no revision (suspect on import)
	}
	if v.Commit == "" {
		return fmt.Sprintf("%s against %s; that text is not in the git history (%s)", verb, rev, v.Missing)
	}
	return fmt.Sprintf("%s against %s, the text of %s at commit %s; what changed since:", verb, rev, file, v.Commit[:min(12, len(v.Commit))])
}

// verifiedFor is what the drift page shows of the text a stale link was
// recorded against: an evidence entry's requirement text when it was
// verified, a suspect parent link's parent text when it was reviewed. ok
// is false for a link of another reason.
func (b *Renderer) verifiedFor(l synth.DriftLink) (note string, diff []diffLine, ok bool) {
	if len(l.ClaimedBy) == 0 {
		return "", nil, false
	}
	claimer := l.ClaimedBy[0].Key
	switch codeanchors.Reason(l.Reason) {
	case codeanchors.RequirementChanged:
		run := strings.TrimPrefix(l.Ref, claims.RunNode("").String())
		for _, es := range b.report.Evidence {
			if es.Evidence.Req == claimer && es.Evidence.Run == run {
				return b.verifiedNote("verified", claimer, es.Evidence.Revision)
			}
		}
	case codeanchors.ParentChanged:
		parent := strings.TrimPrefix(l.Ref, claims.RequirementNode("").String())
		for _, ps := range b.report.Parents {
			if ps.Child == claimer && ps.Parent == parent && ps.Link != nil {
				return b.verifiedNote("reviewed", parent, ps.Link.Revision)
			}
		}
	}
	return "", nil, false
}

// verifiedNote is [VerifiedText.note] and the diff of requirement id's
// text recorded at rev, as [Input.Verified] has it.
func (b *Renderer) verifiedNote(verb, id, rev string) (string, []diffLine, bool) {
	k := VerifiedKey{id, rev}
	v := b.verified[k]
	if v == nil {
		return "", nil, false
	}
	var diff []diffLine
	if v.Diff != "" {
		diff = diffLines(v.Diff, nil)
	}
	return v.note(verb, k, b.requirement(id).Doc.File), diff, true
}

// textChange is a requirement page's note and diff of one revision its
// expired evidence was verified against.
type textChange struct {
	Note string
	Diff []diffLine
}

// verifiedDiffs are a requirement's text against each revision its evidence expired
// by (requirement_changed_since_verification) was verified against, in
// the order of the evidence, each revision once.
func (b *Renderer) verifiedDiffs(rp *synth.RequirementPage) []textChange {
	r := rp.Req
	var out []textChange
	var seen []string
	for _, es := range rp.Evidence {
		rev := es.Evidence.Revision
		if es.Verdict.Reason != codeanchors.RequirementChanged || slices.Contains(seen, rev) {
			continue
		}
		seen = append(seen, rev)
		if note, diff, ok := b.verifiedNote("verified", r.ID, rev); ok {
			out = append(out, textChange{Note: note, Diff: diff})
		}
	}
	return out
}
