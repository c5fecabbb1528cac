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
	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// maxVerifiedCommits bounds the commits of a requirement file's history
// searched for the text a stale lock entry was recorded against: a build
// reads at most this many versions of each such file.
const maxVerifiedCommits = 100

// recoverVerified finds, once per build, the text that every stale
// evidence entry (requirement_changed_since_verification) and suspect
// parent link (parent_changed) was recorded against, in the last
// [maxVerifiedCommits] commits of the requirement's file: one git log per
// requirement and one git cat-file for all versions. It returns them by
// requirement and revision, the digest of all of them (for the pages'
// key) and the HEAD commit they were read at ("" when git found no
// repository); a build that needs none runs no git.
func (p *Project) recoverVerified(rep *codeanchors.Report) (map[render.VerifiedKey]*render.VerifiedText, []byte, string) {
	revs := map[string][]string{} // by requirement id
	add := func(id, rev string) {
		if !slices.Contains(revs[id], rev) {
			revs[id] = append(revs[id], rev)
		}
	}
	for _, es := range rep.Evidence {
		if es.Verdict.Reason == codeanchors.RequirementChanged {
			add(es.Evidence.Req, es.Evidence.Revision)
		}
	}
	for _, ps := range rep.Parents {
		if ps.Verdict.Reason == codeanchors.ParentChanged && ps.Link != nil {
			add(ps.Parent, ps.Link.Revision)
		}
	}
	if len(revs) == 0 {
		return nil, nil, ""
	}
	out := map[render.VerifiedKey]*render.VerifiedText{}
	ids := slices.SortedFunc(maps.Keys(revs), claims.CompareIDs)
	head, prefix, err := p.WS.GitRepo()
	if err != nil {
		for _, id := range ids {
			for _, rev := range revs[id] {
				out[render.VerifiedKey{Req: id, Rev: rev}] = &render.VerifiedText{Missing: "the workspace is in no git repository"}
			}
		}
		return out, verifiedSum(ids, revs, out), ""
	}
	// Every version of every file, newest first per file.
	var specs []string
	commits := map[string][]string{}
	for _, id := range ids {
		file := synth.Requirement(p.Model, id).Doc.File
		if _, done := commits[file]; done {
			continue
		}
		var cs []string
		if !strings.ContainsAny(file, "\n\r") { // cat-file reads a spec a line
			cs, _ = p.WS.FileCommits(file, maxVerifiedCommits) // none on error: not found
		}
		commits[file] = cs
		for _, c := range cs {
			specs = append(specs, c+":"+prefix+file)
		}
	}
	blobs := p.WS.GitBlobs(specs)
	for _, id := range ids {
		r := synth.Requirement(p.Model, id)
		file := r.Doc.File
		for _, rev := range revs[id] {
			v := &render.VerifiedText{Missing: fmt.Sprintf("searched the last %d commits of %s", len(commits[file]), file)}
			if len(commits[file]) == maxVerifiedCommits {
				v.Missing = fmt.Sprintf("searched the last %d commits of %s, the most a build searches", maxVerifiedCommits, file)
			}
			for _, c := range commits[file] {
				data, ok := blobs[c+":"+prefix+file]
				if !ok {
					continue
				}
				if old := p.versionOf(file, data); old != nil && old.Revisions().Matches(rev) {
					v.Commit, v.Missing = c, ""
					v.Diff = textDiff(fmt.Sprintf("%s at %s (%s%s…)", file, c[:min(12, len(c))], codeanchors.HashPrefix, short(rev)), file+" now", requirementLines(old), requirementLines(r))
					break
				}
			}
			out[render.VerifiedKey{Req: id, Rev: rev}] = v
		}
	}
	return out, verifiedSum(ids, revs, out), head
}

// versionOf parses an earlier version of the requirement file name; nil
// when it held no requirement then.
func (p *Project) versionOf(name string, data []byte) *claims.Requirement {
	m, _ := claims.Parse(p.Config.Content, []claims.File{{Name: name, Data: data}})
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

// textDiff is the unified diff of two texts, as the site shows it; ""
// for the same lines (only white space a revision ignores).
func textDiff(oldName, newName string, old, cur []string) string {
	return textdiff.Unified(oldName, newName, old, cur, 3)
}

// verifiedSum is the digest of what recoverVerified found, in the order
// of ids and their revisions: pages that show it are kept only while it
// is the same (the git history is not among the workspace's reads).
func verifiedSum(ids []string, revs map[string][]string, out map[render.VerifiedKey]*render.VerifiedText) []byte {
	h := sha256.New()
	for _, id := range ids {
		for _, rev := range revs[id] {
			v := out[render.VerifiedKey{Req: id, Rev: rev}]
			fmt.Fprintf(h, "%q %q %q %q\n", id, rev, v.Commit, v.Missing)
			fmt.Fprintf(h, "%q\n", v.Diff)
		}
	}
	return h.Sum(nil)
}

// short abbreviates a hash for the diff's header, as the pages do.
func short(h string) string {
	h = strings.TrimPrefix(h, codeanchors.HashPrefix)
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
