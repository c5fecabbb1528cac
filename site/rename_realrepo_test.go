//go:build conformance

package site

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// renamesPyEnv adds a Python pair to TestRenamesRealHistory: OLD:NEW, two
// folders (e.g. two tags of a Python project read with git archive).
const renamesPyEnv = "TRACEWIKI_MEASURE_RENAMES_PY"

// TestRenamesRealHistory counts, on real version pairs, the renames (a
// symbol gone at the new version whose tokens, its own name masked, equal
// those of exactly one symbol new at that version, the same rule for
// both) and how many of them check relocates to exactly that one symbol as
// same_body: with the body hashes capture records, and again with them
// removed from the lock (anchors of an older tracewiki, whose body hash
// comes from the captured text). A rename whose code is also found by
// text or tokens (same_text, same_tokens win) is counted apart. It fails
// when a rename is not relocated to its one new symbol, or when a single
// same_body candidate is no rename. The Go module pairs of [realRepoPairs]
// always run (the module proxy is part of the CI contract); with
// renamesPyEnv set, its Python pair runs too.
func TestRenamesRealHistory(t *testing.T) {
	for _, pr := range realRepoPairs {
		t.Run(pr.name, func(t *testing.T) {
			measureRenames(t, pr.old.Path+"@"+pr.old.Version+" → "+pr.new.Version,
				readGoFiles(t, downloadModule(t, pr.old)), readGoFiles(t, downloadModule(t, pr.new)))
		})
	}
	if pair := os.Getenv(renamesPyEnv); pair != "" {
		oldDir, newDir, ok := strings.Cut(pair, ":")
		if !ok {
			t.Fatalf("%s=%q: want OLD:NEW", renamesPyEnv, pair)
		}
		t.Run("python", func(t *testing.T) {
			measureRenames(t, pair, readFilesExt(t, oldDir, ".py"), readFilesExt(t, newDir, ".py"))
		})
	}
}

// maskedTokens is a symbol's tokens as lang.HashBody hashes them, one
// string: the tokens of its lines (a lead token on the first left out),
// its own name (the last part of a dotted name, as lang.BodyName says)
// written _. It is written again here, not called, so that the
// measurement does not trust the code it measures.
func maskedTokens(f *codeanchors.File, sym codeanchors.Symbol) string {
	name := sym.Name[strings.LastIndexByte(sym.Name, '.')+1:]
	var b strings.Builder
	for _, tok := range f.Tokens {
		if tok.Line < sym.Start || tok.Line > sym.End || tok.Lead && tok.Line == sym.Start {
			continue
		}
		if tok.Text == name {
			b.WriteString("_")
		} else {
			b.WriteString(tok.Text)
		}
		b.WriteByte(0)
	}
	return b.String()
}

func measureRenames(t *testing.T, name string, oldFiles, newFiles map[string][]byte) {
	extract := func(files map[string][]byte) map[string]*codeanchors.File {
		out := map[string]*codeanchors.File{}
		for p, src := range files {
			if f, err := codeanchors.Default.Language(p).Extract(p, src); err == nil {
				out[p] = f
			}
		}
		return out
	}
	oldF, newF := extract(oldFiles), extract(newFiles)
	refs := func(fs map[string]*codeanchors.File) map[string]string { // ref → masked tokens
		out := map[string]string{}
		for p, f := range fs {
			for _, s := range f.Symbols {
				out[claims.Target{Path: p, Symbol: s.Name}.String()] = maskedTokens(f, s)
			}
		}
		return out
	}
	oldRefs, newRefs := refs(oldF), refs(newF)
	added := map[string][]string{} // masked tokens → symbols new at B
	for ref, body := range newRefs {
		if _, had := oldRefs[ref]; !had {
			added[body] = append(added[body], ref)
		}
	}
	var lost []string
	renamed := map[string]string{} // lost ref → the one new symbol of its body
	for _, ref := range slices.Sorted(maps.Keys(oldRefs)) {
		if _, kept := newRefs[ref]; kept {
			continue
		}
		lost = append(lost, ref)
		if c := added[oldRefs[ref]]; len(c) == 1 {
			renamed[ref] = c[0]
		}
	}
	if len(lost) == 0 {
		t.Logf("%s: no symbol lost", name)
		return
	}
	dir := t.TempDir()
	captureThenReplace(t, dir, lost, oldFiles, newFiles)
	check := func() map[string]codeanchors.TargetStatus {
		p, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		rep, err := p.Check()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]codeanchors.TargetStatus{}
		for _, ts := range rep.Targets {
			out[ts.Target.String()] = ts
		}
		return out
	}
	tally := func(got map[string]codeanchors.TargetStatus) (single, byText, several, other int, misses []string) {
		for _, ref := range slices.Sorted(maps.Keys(renamed)) {
			rel := got[ref].Relocated
			switch {
			case len(rel) == 1 && rel[0].How == codeanchors.SameBody && rel[0].Ref == renamed[ref]:
				single++
				t.Logf("  same_body: %s → %s", ref, rel[0].Ref)
			case len(rel) > 0 && (rel[0].How == codeanchors.SameText || rel[0].How == codeanchors.SameTokens):
				byText++
				t.Logf("  found by text or tokens: %s (renamed %s): %v", ref, renamed[ref], rel)
			case len(rel) > 1 && rel[0].How == codeanchors.SameBody:
				several++
			default:
				other++
				misses = append(misses, fmt.Sprintf("%s → %s: %v", ref, renamed[ref], rel))
			}
		}
		return
	}
	withBody := check()
	falsePos := 0 // a single same_body candidate the rule does not call a rename
	for ref, ts := range withBody {
		if len(ts.Relocated) == 1 && ts.Relocated[0].How == codeanchors.SameBody && renamed[ref] != ts.Relocated[0].Ref {
			falsePos++
			t.Logf("single same_body candidate that is no rename: %s → %s", ref, ts.Relocated[0].Ref)
		}
	}
	// The same lock as an older tracewiki wrote it: no body hashes.
	lockPath := filepath.Join(dir, "tracewiki.lock")
	data, err := os.ReadFile(lockPath)
	must(t, err)
	l, err := codeanchors.ParseLock("tracewiki.lock", data)
	must(t, err)
	capped := 0
	for k, a := range l.Anchors {
		a.BodyHash = ""
		if a.TextCapped {
			capped++
		}
		l.Anchors[k] = a
	}
	data, err = l.Marshal()
	must(t, err)
	must(t, os.WriteFile(lockPath, data, 0o644))
	withoutBody := check()

	s1, txt1, sev1, oth1, miss1 := tally(withBody)
	s2, txt2, sev2, oth2, miss2 := tally(withoutBody)
	t.Logf("%s: %d symbols lost, %d renames (same code but the name, exactly one new symbol)\n"+
		"  body_hash recorded:       %d get exactly that one same_body candidate, %d are found by text or tokens first, %d get several same_body candidates, %d other; %d single same_body candidates are no rename\n"+
		"  body_hash from the text:  %d, %d, %d, %d (%d anchors capped)",
		name, len(lost), len(renamed), s1, txt1, sev1, oth1, falsePos, s2, txt2, sev2, oth2, capped)
	for _, m := range append(miss1, miss2...) {
		t.Logf("  not relocated as the one rename: %s", m)
	}
	if oth1 > 0 || falsePos > 0 {
		t.Errorf("%d renames not relocated to their one new symbol, %d false single candidates", oth1, falsePos)
	}
}

// readFilesExt reads the files of dir whose name ends in ext, keyed by
// slash-separated relative path.
func readFilesExt(t *testing.T, dir, ext string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ext) {
			return err
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(name)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	must(t, err)
	return files
}
