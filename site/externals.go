package site

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// Externals (SPEC 1.8): the bundles of the repositories this one links
// into, read from the paths [[externals]] gives (inside the workspace:
// CI downloads them there; the build never touches the network).

// MaxBundleBytes caps the size of an external's bundle file.
const MaxBundleBytes = 256 << 20

// loadExternals reads every declared external's bundle into p.Externals
// (a bundle that cannot be read is kept with its error: its links are
// target_missing) and reports, as content errors, every place the content
// names an external the config does not declare.
func (p *Project) loadExternals(m *claims.Model) claims.Diagnostics {
	var diags claims.Diagnostics
	declared := map[string]bool{}
	for _, e := range p.Config.Externals {
		declared[e.Name] = true
	}
	for _, r := range m.ExternalRefs() {
		if !declared[r.Name] {
			diags.Add(r.Pos, claims.CodeUnknownRef, "unknown external %q: declare it in tracewiki.toml ([[externals]] name = %q, bundle = \".bundles/%s.json\")", r.Name, r.Name, r.Name)
		}
	}
	if len(p.Config.Externals) == 0 || p.organisation(m) {
		return diags // an organisation's build reads the bundles itself (orgwiki.go)
	}
	p.Externals = codeanchors.Externals{}
	p.bundles = map[string]*synth.BundleJSON{}
	for _, e := range p.Config.Externals {
		x, b := p.readExternal(e.Name, e.Bundle)
		x.URL = e.URL
		p.Externals[e.Name] = x
		if b != nil {
			p.bundles[e.Name] = b
		}
	}
	return diags
}

// readExternal reads the bundle of the external name at path.
func (p *Project) readExternal(name, path string) (*codeanchors.External, *synth.BundleJSON) {
	x := &codeanchors.External{Name: name}
	data, err := p.WS.ReadFileLimit(path, MaxBundleBytes)
	if errors.Is(err, fs.ErrNotExist) {
		x.Err = fmt.Sprintf("%s: no bundle (CI downloads it there before the build)", path)
		return x, nil
	} else if err != nil {
		x.Err = fmt.Sprintf("%s: %v", path, err)
		return x, nil
	}
	var b synth.BundleJSON
	if err := json.Unmarshal(data, &b); err != nil {
		x.Err = fmt.Sprintf("%s: not a bundle: %v", path, err)
		return x, nil
	}
	if b.SchemaVersion < 1 || b.SchemaVersion > synth.SchemaVersion {
		x.Err = fmt.Sprintf("%s: bundle schemaVersion %d: this tracewiki reads 1 to %d", path, b.SchemaVersion, synth.SchemaVersion)
		return x, nil
	}
	x.Sum, x.Revision = codeanchors.BundleSum(data), b.Revision
	fillExternal(x, &b)
	return x, &b
}

// fillExternal indexes a bundle's code and requirements for judging: its
// symbols and anchors by ref, and for each file with symbols that the
// other repository does not anchor whole, the file's hash made of its
// symbols' ([codeanchors.ExternalFileHash]).
func fillExternal(x *codeanchors.External, b *synth.BundleJSON) {
	x.Code = make(map[string]codeanchors.ExternalCode, len(b.Symbols)+len(b.Anchors))
	x.Files = map[string]bool{}
	x.Requirements = make(map[string]codeanchors.ExternalRequirement, len(b.Requirements))
	type file struct {
		hashes, tokens []string
		end            int
	}
	files := map[string]*file{}
	var order []string
	for _, s := range b.Symbols {
		x.Code[s.Ref] = codeanchors.ExternalCode{Start: s.Start, End: s.End, Hash: s.Hash, TokenHash: s.TokenHash}
		t, err := claims.ParseTarget(s.Ref)
		if err != nil || t.External != "" {
			continue
		}
		f := files[t.Path]
		if f == nil {
			f = &file{}
			files[t.Path] = f
			order = append(order, t.Path)
		}
		f.hashes, f.tokens, f.end = append(f.hashes, s.Hash), append(f.tokens, s.TokenHash), max(f.end, s.End)
		x.Files[t.Path] = true
	}
	for _, path := range order {
		f := files[path]
		x.Code[path] = codeanchors.ExternalCode{Start: 1, End: f.end,
			Hash: codeanchors.ExternalFileHash(f.hashes), TokenHash: codeanchors.ExternalFileHash(f.tokens)}
	}
	for _, a := range b.Anchors {
		if a.Hash == "" {
			continue
		}
		x.Code[a.Ref] = codeanchors.ExternalCode{Start: a.Start, End: a.End, Hash: a.Hash, TokenHash: a.TokenHash, BodyHash: a.BodyHash}
		if t, err := claims.ParseTarget(a.Ref); err == nil && t.External == "" {
			x.Files[t.Path] = true
		}
	}
	for _, r := range b.Requirements {
		x.Requirements[r.ID] = codeanchors.ExternalRequirement{Title: r.Title, Revision: r.Revision,
			Implemented: r.Implemented, Tested: r.Tested, Verified: r.Verified, Stale: r.Stale}
	}
}

// resolveTarget finds a target where it is now: an external's in its
// bundle, this repository's in sources.
func (p *Project) resolveTarget(t claims.Target, a *codeanchors.Anchor, sources map[string]*codeanchors.Source) codeanchors.Resolution {
	if t.External != "" {
		return p.Externals.Resolve(t)
	}
	return codeanchors.ResolveIn(t, a, sources[t.Path])
}

// captureTarget makes the anchor of a target from its resolution.
func (p *Project) captureTarget(t claims.Target, r codeanchors.Resolution, sources map[string]*codeanchors.Source, at, by string) (codeanchors.Anchor, error) {
	if t.External != "" {
		return p.Externals.CaptureExternal(t, r, at, by)
	}
	return codeanchors.Capture(t, r, sources[t.Path], at, by)
}

// parentRevision is the current revision of a parent requirement: this
// repository's, or an external's as its bundle gives it ("" when unknown).
func (p *Project) parentRevision(id string) string {
	if _, _, ok := claims.CutExternal(id); ok {
		rev, _ := p.Externals.Revision(id)
		return rev
	}
	return revisionOf(p.Model, id)
}

// pinExternals pins in l the bundle of every external named (all when
// names is empty) that could be read, and returns the names pinned.
func (p *Project) pinExternals(l *codeanchors.Lock, names []string, at, by string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(p.Externals)) {
		x := p.Externals[name]
		if x.Err != "" || len(names) > 0 && !slices.Contains(names, name) {
			continue
		}
		if pin, ok := l.Externals[name]; ok && pin.Sum == x.Sum {
			continue
		}
		l.PinExternal(x, at, by)
		out = append(out, name)
	}
	return out
}

// StrictExternals is the error of a release build or check (--strict):
// one line per external that is unpinned, changed since pinned or
// unreadable, judged against the lock as it is; nil when every external
// is settled. It reads the lock, and nothing else.
func (p *Project) StrictExternals() error {
	if len(p.Externals) == 0 {
		return nil
	}
	l, err := p.ReadLock()
	if err != nil {
		return err
	}
	lines := codeanchors.Unsettled(codeanchors.JudgeExternals(p.Externals, l))
	if len(lines) == 0 {
		return nil
	}
	return errors.New("--strict: " + strings.Join(lines, "\n--strict: "))
}

// externalURLs are the published wikis of the externals that give one
// ([[externals]] url), by name: links to their nodes lead there.
func (p *Project) externalURLs() map[string]string {
	out := map[string]string{}
	for _, e := range p.Config.Externals {
		if e.URL != "" {
			out[e.Name] = e.URL
		}
	}
	return out
}
