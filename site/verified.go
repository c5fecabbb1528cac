package site

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/internal/textdiff"
	"github.com/tracewiki/tracewiki/synth"
)

// maxVerifiedCommits bounds the commits of a requirement file's history
// searched for the text a stale lock entry was recorded against: a build
// reads at most this many versions of each such file.
const maxVerifiedCommits = 100

// verifiedKey names the text a lock entry was recorded against: a
// requirement and its revision then.
type verifiedKey struct{ req, rev string }

// verifiedText is what the site shows of the text a stale lock entry was
// recorded against: the version of the requirement's file in the git
// history whose revision is the recorded one, diffed with the current
// text, or why it is not there.
type verifiedText struct {
	Commit  string     // the newest commit whose version of the file has the revision; "" when none
	Missing string     // why no version was found, when Commit is ""
	Diff    []diffLine // that text against the current one
}

// note says, for a page, what the entry was recorded against (verb:
// "verified", "reviewed") and where its text was found or why not.
func (v *verifiedText) note(verb string, k verifiedKey, file string) string {
	rev := "revision " + codeanchors.HashPrefix + short(k.rev) + "…"
	if !strings.HasPrefix(k.rev, codeanchors.HashPrefix) {
		rev = "“" + k.rev + "”" // a stamp that names no revision (suspect on import)
	}
	if v.Commit == "" {
		return fmt.Sprintf("%s against %s; that text is not in the git history (%s)", verb, rev, v.Missing)
	}
	return fmt.Sprintf("%s against %s, the text of %s at commit %s; what changed since:", verb, rev, file, v.Commit[:min(12, len(v.Commit))])
}

// recoverVerified finds, once per build, the text that every stale
// evidence entry (requirement_changed_since_verification) and suspect
// parent link (parent_changed) was recorded against, in the last
// [maxVerifiedCommits] commits of the requirement's file: one git log per
// requirement and one git cat-file for all versions. It returns them by
// requirement and revision, the digest of all of them (for the pages'
// key) and the HEAD commit they were read at ("" when git found no
// repository); a build that needs none runs no git.
func (b *builder) recoverVerified() (map[verifiedKey]*verifiedText, []byte, string) {
	revs := map[string][]string{} // by requirement id
	add := func(id, rev string) {
		if !slices.Contains(revs[id], rev) {
			revs[id] = append(revs[id], rev)
		}
	}
	for _, es := range b.a.Report.Evidence {
		if es.Verdict.Reason == codeanchors.RequirementChanged {
			add(es.Evidence.Req, es.Evidence.Revision)
		}
	}
	for _, ps := range b.a.Report.Parents {
		if ps.Verdict.Reason == codeanchors.ParentChanged && ps.Link != nil {
			add(ps.Parent, ps.Link.Revision)
		}
	}
	if len(revs) == 0 {
		return nil, nil, ""
	}
	out := map[verifiedKey]*verifiedText{}
	ids := slices.SortedFunc(maps.Keys(revs), claims.CompareIDs)
	head, prefix, err := b.p.WS.GitRepo()
	if err != nil {
		for _, id := range ids {
			for _, rev := range revs[id] {
				out[verifiedKey{id, rev}] = &verifiedText{Missing: "the workspace is in no git repository"}
			}
		}
		return out, verifiedSum(ids, revs, out), ""
	}
	// Every version of every file, newest first per file.
	var specs []string
	commits := map[string][]string{}
	for _, id := range ids {
		file := b.requirement(id).Doc.File
		if _, done := commits[file]; done {
			continue
		}
		var cs []string
		if !strings.ContainsAny(file, "\n\r") { // cat-file reads a spec a line
			cs, _ = b.p.WS.FileCommits(file, maxVerifiedCommits) // none on error: not found
		}
		commits[file] = cs
		for _, c := range cs {
			specs = append(specs, c+":"+prefix+file)
		}
	}
	blobs := b.p.WS.GitBlobs(specs)
	for _, id := range ids {
		r := b.requirement(id)
		file := r.Doc.File
		for _, rev := range revs[id] {
			v := &verifiedText{Missing: fmt.Sprintf("searched the last %d commits of %s", len(commits[file]), file)}
			if len(commits[file]) == maxVerifiedCommits {
				v.Missing = fmt.Sprintf("searched the last %d commits of %s, the most a build searches", maxVerifiedCommits, file)
			}
			for _, c := range commits[file] {
				data, ok := blobs[c+":"+prefix+file]
				if !ok {
					continue
				}
				if old := b.versionOf(file, data); old != nil && old.Revisions().Matches(rev) {
					v.Commit, v.Missing = c, ""
					v.Diff = textDiff(fmt.Sprintf("%s at %s (%s%s…)", file, c[:min(12, len(c))], codeanchors.HashPrefix, short(rev)), file+" now", requirementLines(old), requirementLines(r))
					break
				}
			}
			out[verifiedKey{id, rev}] = v
		}
	}
	return out, verifiedSum(ids, revs, out), head
}

// versionOf parses an earlier version of the requirement file name; nil
// when it held no requirement then.
func (b *builder) versionOf(name string, data []byte) *claims.Requirement {
	m, _ := claims.Parse(b.p.Config.Content, []claims.File{{Name: name, Data: data}})
	if m == nil || len(m.Requirements) != 1 {
		return nil
	}
	return m.Requirements[0]
}

// requirementLines is what a revision hashes, as lines: the title, an
// empty line and the body.
func requirementLines(r *claims.Requirement) []string {
	body := strings.TrimRight(strings.ReplaceAll(string(r.Doc.Body), "\r\n", "\n"), "\n")
	return append([]string{strings.TrimSpace(r.Title), ""}, strings.Split(body, "\n")...)
}

// textDiff is the unified diff of two texts, as the site shows it.
func textDiff(oldName, newName string, old, cur []string) []diffLine {
	text := textdiff.Unified(oldName, newName, old, cur, 3)
	if text == "" {
		return nil // the same lines: only white space a revision ignores
	}
	return diffLines(text, nil)
}

// verifiedFor is what the drift page shows of the text a stale link was
// recorded against: an evidence entry's requirement text when it was
// verified, a suspect parent link's parent text when it was reviewed. ok
// is false for a link of another reason.
func (b *builder) verifiedFor(l synth.DriftLink) (note string, diff []diffLine, ok bool) {
	if len(l.ClaimedBy) == 0 {
		return "", nil, false
	}
	claimer := l.ClaimedBy[0].Key
	switch codeanchors.Reason(l.Reason) {
	case codeanchors.RequirementChanged:
		run := strings.TrimPrefix(l.Ref, claims.RunNode("").String())
		for _, es := range b.a.Report.Evidence {
			if es.Evidence.Req == claimer && es.Evidence.Run == run {
				return b.verifiedNote("verified", claimer, es.Evidence.Revision)
			}
		}
	case codeanchors.ParentChanged:
		parent := strings.TrimPrefix(l.Ref, claims.RequirementNode("").String())
		for _, ps := range b.a.Report.Parents {
			if ps.Child == claimer && ps.Parent == parent && ps.Link != nil {
				return b.verifiedNote("reviewed", parent, ps.Link.Revision)
			}
		}
	}
	return "", nil, false
}

// verifiedNote is [verifiedText.note] and the diff of requirement id's
// text recorded at rev, as [builder.recoverVerified] found it.
func (b *builder) verifiedNote(verb, id, rev string) (string, []diffLine, bool) {
	k := verifiedKey{id, rev}
	v := b.verified[k]
	if v == nil {
		return "", nil, false
	}
	return v.note(verb, k, b.requirement(id).Doc.File), v.Diff, true
}

// verifiedSum is the digest of what recoverVerified found, in the order
// of ids and their revisions: pages that show it are kept only while it
// is the same (the git history is not among the workspace's reads).
func verifiedSum(ids []string, revs map[string][]string, out map[verifiedKey]*verifiedText) []byte {
	h := sha256.New()
	for _, id := range ids {
		for _, rev := range revs[id] {
			v := out[verifiedKey{id, rev}]
			fmt.Fprintf(h, "%q %q %q %q\n", id, rev, v.Commit, v.Missing)
			for _, l := range v.Diff {
				fmt.Fprintf(h, "%q %q\n", l.Class, l.Text)
			}
		}
	}
	return h.Sum(nil)
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
func (b *builder) verifiedDiffs(rp *synth.RequirementPage) []textChange {
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
