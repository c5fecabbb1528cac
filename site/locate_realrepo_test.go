//go:build conformance

package site

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestRelocateRealRestructure replays a real restructure: go-toml v2.0.5 →
// v2.0.9 moved its parser (internal/ast, parser.go, scanner.go) into the
// new package unstable/ and utf8.go into internal/characters/. Every symbol
// and file of v2.0.5 is captured, the code replaced by v2.0.9, and each
// target_missing or symbol_not_found link's relocation candidates are
// checked against a go/printer oracle: a same_text or same_tokens candidate
// is correct when its declaration prints as the old one did (comments
// aside), a same_name one when the name is the old target's.
func TestRelocateRealRestructure(t *testing.T) {
	oldDir := downloadModule(t, moduleVersion{"github.com/pelletier/go-toml/v2", "v2.0.5"})
	newDir := downloadModule(t, moduleVersion{"github.com/pelletier/go-toml/v2", "v2.0.9"})
	oldFiles, newFiles := readGoFiles(t, oldDir), readGoFiles(t, newDir)
	dir := t.TempDir()
	var targets []string
	for _, name := range slices.Sorted(maps.Keys(oldFiles)) {
		f, err := codeanchors.Default.Language(name).Extract(name, oldFiles[name])
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, name)
		for _, s := range f.Symbols {
			targets = append(targets, name+"@"+s.Name)
		}
	}
	captureThenReplace(t, dir, targets, oldFiles, newFiles)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.Check()
	p.Close()
	if err != nil {
		t.Fatal(err)
	}

	oldIdx, newIdx := map[string]*oracleFile{}, map[string]*oracleFile{}
	for name, src := range oldFiles {
		oldIdx[name] = indexOracle(t, name, src)
	}
	for name, src := range newFiles {
		newIdx[name] = indexOracle(t, name, src)
	}
	// printed is the oracle's print of a target: the decl's for a symbol,
	// the whole file's for a file; "" when not found once.
	printed := func(idx map[string]*oracleFile, tg claims.Target) string {
		f := idx[tg.Path]
		if f == nil {
			return ""
		}
		if !tg.IsSymbol() {
			return f.printed
		}
		if ds := f.decls[tg.Symbol]; len(ds) == 1 {
			return ds[0].printed
		}
		return ""
	}
	// samePrint maps an oracle print to the new targets that print so: a
	// missing target whose code moved unchanged (comments aside) to one
	// place must be relocated there.
	samePrint := map[string][]string{}
	for name, f := range newIdx {
		samePrint[f.printed] = append(samePrint[f.printed], name)
		for sym, ds := range f.decls {
			if len(ds) == 1 {
				samePrint[ds[0].printed] = append(samePrint[ds[0].printed], name+"@"+sym)
			}
		}
	}
	counts := map[string]int{}
	var bad []string
	for _, ts := range rep.Targets {
		r := ts.Verdict.Reason
		if r != codeanchors.TargetMissing && r != codeanchors.SymbolNotFound {
			continue
		}
		kind := "file"
		if ts.Target.IsSymbol() {
			kind = "symbol"
		}
		row := fmt.Sprintf("%s %s", kind, r)
		counts[row]++
		moved := samePrint[printed(oldIdx, ts.Target)]
		if len(moved) == 1 && printed(oldIdx, ts.Target) != "" {
			counts[row+": moved unchanged to one place (oracle)"]++
			if len(ts.Relocated) != 1 || ts.Relocated[0].Ref != moved[0] {
				bad = append(bad, fmt.Sprintf("%s moved unchanged to %s; relocated: %v", ts.Target, moved[0], ts.Relocated))
			}
		}
		switch len(ts.Relocated) {
		case 0:
			counts[row+": no candidate"]++
			if len(ts.Suggestions) > 0 {
				counts[row+": no candidate, suggestions"]++
			}
			continue
		case 1:
		default:
			counts[row+": several candidates"]++
			continue
		}
		c := ts.Relocated[0]
		to, err := claims.ParseTarget(c.Ref)
		if err != nil {
			t.Fatalf("%s: candidate %q: %v", ts.Target, c.Ref, err)
		}
		correct := false
		switch c.How {
		case codeanchors.SameText, codeanchors.SameTokens:
			want := printed(oldIdx, ts.Target)
			correct = want != "" && want == printed(newIdx, to)
		case codeanchors.SameName:
			correct = to.Symbol == ts.Target.Symbol && to.Path != ts.Target.Path
		case codeanchors.SameBody:
			// A rename: the oracle's prints agree once each declaration's
			// own name (the last part of the symbol) is masked.
			was, is := printed(oldIdx, ts.Target), printed(newIdx, to)
			correct = was != "" && is != "" && was != is &&
				maskWord(was, lastPart(ts.Target.Symbol)) == maskWord(is, lastPart(to.Symbol))
		}
		counts[row+": one candidate, "+c.How]++
		if correct {
			counts[row+": one correct candidate"]++
		} else {
			bad = append(bad, fmt.Sprintf("%s → %s (%s)", ts.Target, c.Ref, c.How))
		}
	}
	var table strings.Builder
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&table, "  %-60s %4d\n", k, counts[k])
	}
	t.Logf("go-toml v2.0.5 → v2.0.9, %d targets:\n%s", len(rep.Targets), table.String())
	if len(bad) > 0 {
		t.Errorf("%d single candidates disagree with the oracle:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	// The pair must keep showing a restructure: links whose code moved.
	if counts["symbol target_missing: one candidate, same_text"] == 0 || counts["file target_missing: one correct candidate"] == 0 {
		t.Errorf("the version pair no longer relocates symbols and files by their text")
	}
}

// captureThenReplace writes oldFiles into the workspace dir with a page
// claiming each of targets, captures them, then replaces oldFiles by
// newFiles: the workspace as a team finds it after upgrading.
func captureThenReplace(t *testing.T, dir string, targets []string, oldFiles, newFiles map[string][]byte) {
	t.Helper()
	writeGoFiles(t, dir, oldFiles)
	writeClaimPages(t, dir, targets)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Capture(CaptureOptions{By: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	p.Close()
	for name := range oldFiles {
		must(t, os.Remove(filepath.Join(dir, filepath.FromSlash(name))))
	}
	writeGoFiles(t, dir, newFiles)
}

// maskWord replaces every whole-word occurrence of name in printed Go
// code with _.
func maskWord(code, name string) string {
	return regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).ReplaceAllString(code, "_")
}

// lastPart is a symbol's own name: the last part of a dotted one.
func lastPart(symbol string) string {
	return symbol[strings.LastIndexByte(symbol, '.')+1:]
}

// TestSuggestionsRealModule measures the suggestions on typos: for every
// symbol of BurntSushi/toml v1.6.0, four one-edit typos of its last name
// part (a byte deleted, replaced, inserted, or two adjacent bytes swapped,
// at a seeded random place), each looked up in the symbol's file as a
// never-captured target. A hit is the right name among the first three
// suggestions. Typos that spell another symbol of the file are not typos
// and are left out.
func TestSuggestionsRealModule(t *testing.T) {
	files := readGoFiles(t, downloadModule(t, moduleVersion{"github.com/BurntSushi/toml", "v1.6.0"}))
	sources := map[string]*codeanchors.Source{}
	for name, src := range files {
		sources[name] = codeanchors.NewSource(codeanchors.Default, name, src)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"
	rep := &codeanchors.Report{}
	var want []string
	symbols := 0
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		s := sources[name]
		if s.File == nil {
			continue
		}
		defined := map[string]bool{}
		for _, sym := range s.File.Symbols {
			defined[sym.Name] = true
		}
		for _, sym := range s.File.Symbols {
			symbols++
			prefix, last := "", sym.Name
			if i := strings.LastIndexByte(sym.Name, '.'); i >= 0 {
				prefix, last = sym.Name[:i+1], sym.Name[i+1:]
			}
			for kind := range 4 {
				i := rng.IntN(len(last))
				c := string(letters[rng.IntN(len(letters))])
				var typo string
				switch kind {
				case 0:
					if len(last) < 2 {
						continue
					}
					typo = last[:i] + last[i+1:]
				case 1:
					typo = last[:i] + c + last[i+1:]
				case 2:
					typo = last[:i] + c + last[i:]
				case 3:
					if len(last) < 2 {
						continue
					}
					i = min(i, len(last)-2)
					typo = last[:i] + last[i+1:i+2] + last[i:i+1] + last[i+2:]
				}
				typo = prefix + typo
				if defined[typo] {
					continue
				}
				rep.Targets = append(rep.Targets, codeanchors.TargetStatus{
					Referenced: codeanchors.Referenced{Target: claims.Target{Path: name, Symbol: typo}},
					Verdict:    codeanchors.Verdict{State: codeanchors.Stale, Reason: codeanchors.SymbolNotFound, NeverExisted: true},
				})
				want = append(want, name+"@"+sym.Name)
			}
		}
	}
	codeanchors.Locate(rep, codeanchors.NewLock(), sources)
	hits, first, none := 0, 0, 0
	for i, ts := range rep.Targets {
		top := ts.Suggestions[:min(3, len(ts.Suggestions))]
		if slices.Contains(top, want[i]) {
			hits++
		}
		if len(ts.Suggestions) > 0 && ts.Suggestions[0] == want[i] {
			first++
		}
		if len(ts.Suggestions) == 0 {
			none++
		}
	}
	n := len(rep.Targets)
	rate := float64(hits) / float64(n)
	t.Logf("BurntSushi/toml v1.6.0: %d symbols in %d files, %d one-edit typos: right name in the first 3 for %d (%.1f%%), first for %d (%.1f%%), no suggestion for %d",
		symbols, len(files), n, hits, 100*rate, first, 100*float64(first)/float64(n), none)
	if n < 1000 || rate < 0.9 {
		t.Errorf("hit rate %.3f on %d typos; want at least 0.9 on at least 1000", rate, n)
	}
}
