package site

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/synth"
)

// baselineStage names the cache entries of baselines: one per pair of
// consecutive tags, keyed by both tags and the commits they name, so a
// warm build reads no history, and a new tag judges only itself and the
// one before it.
const baselineStage = "baseline"

// testHookSnapshot, when set, is called for every revision a build reads
// from git for its baselines: a test counts them.
var testHookSnapshot func(rev string)

// baselines computes the baselines of the config's [baselines] tags, each
// with its changelog to the previous one and its matrix (SPEC 4), and the
// digest of them for the site's key; nil without [baselines]. Each
// baseline is looked up in c first (by its commits); only a miss reads
// the revisions from git.
func (p *Project) baselines(c *Cache) (*synth.Baselines, []byte, error) {
	glob := p.Config.Baselines.Tags
	if glob == "" {
		return nil, nil, nil
	}
	tags, err := p.WS.GitTags(glob)
	if err != nil {
		return nil, nil, fmt.Errorf("[baselines] tags %q: %w", glob, err)
	}
	judged := map[string]*revision{} // by commit, within this build
	judge := func(tag, commit string) (*revision, error) {
		if r := judged[commit]; r != nil {
			return r, nil
		}
		if testHookSnapshot != nil {
			testHookSnapshot(tag)
		}
		r, err := revisionSide(p.WS, tag)
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %w", tag, err)
		}
		judged[commit] = r
		return r, nil
	}
	var out []synth.Baseline
	for i, t := range tags {
		prevTag, prevCommit := "", ""
		if i > 0 {
			prevTag, prevCommit = tags[i-1].Name, tags[i-1].Commit
		}
		key := render.Key([]byte(prevTag), []byte(prevCommit), []byte(t.Name), []byte(t.Commit), []byte(t.Date))
		if data, ok := c.Get(baselineStage, key); ok {
			var b synth.Baseline
			if json.Unmarshal(data, &b) == nil {
				out = append(out, b)
				continue
			}
		}
		head, err := judge(t.Name, t.Commit)
		if err != nil {
			return nil, nil, err
		}
		b := synth.Baseline{Tag: t.Name, Commit: t.Commit, Date: t.Date, Matrix: synth.MatrixOf(head.side)}
		if i > 0 {
			base, err := judge(prevTag, prevCommit)
			if err != nil {
				return nil, nil, err
			}
			b.Changelog = newChangelog(base.side, head.side, p.Config.Language)
		}
		if data, err := json.Marshal(b); err == nil {
			c.Put(baselineStage, key, data)
		}
		out = append(out, b)
	}
	bs := synth.NewBaselines(out)
	data, err := json.Marshal(bs)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(data)
	return bs, sum[:], nil
}
