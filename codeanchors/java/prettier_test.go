package java

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// The formatter TestPrettier runs, at pinned versions.
const (
	prettierVersion     = "3.6.2"
	prettierJavaVersion = "2.7.7"
)

// prettierCorpusFiles is how many corpus files TestPrettier formats (the
// first ones of the conformance corpus, in path order), to stay inside
// about half a minute.
const prettierCorpusFiles = 100

// TestPrettier checks that a formatter run keeps the token hash of every
// symbol: it formats the golden cases and the first prettierCorpusFiles
// files of the conformance corpus with prettier-plugin-java, with its
// defaults and with another style (80 columns and tabs against 40 columns
// and two spaces... see styles), and compares each symbol's token hash
// before and after. Every golden symbol must keep its hash, and at least
// 99% of the corpus's.
func TestPrettier(t *testing.T) {
	modules := filepath.Join(langtest.NPM(t, "prettier@"+prettierVersion, "prettier-plugin-java@"+prettierJavaVersion), "node_modules")
	tmp := t.TempDir()
	golden := filepath.Join(tmp, "golden")
	for _, c := range readCases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		langtest.WriteFile(t, filepath.Join(golden, filepath.Base(c.File), c.Path), c.Src)
	}
	corpus := filepath.Join(tmp, "corpus")
	for _, s := range jdkSources(t, corpusModules)[:prettierCorpusFiles] {
		langtest.WriteFile(t, filepath.Join(corpus, filepath.FromSlash(s.path)), s.src)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "prettier.js"))
	if err != nil {
		t.Fatal(err)
	}
	styles := map[string]string{
		"default": `{}`,
		"narrow":  `{"printWidth":40,"tabWidth":8,"useTabs":true}`,
	}
	for _, dir := range []string{golden, corpus} {
		for _, style := range []string{"default", "narrow"} {
			out := filepath.Join(tmp, "out", style, filepath.Base(dir))
			cmd := exec.Command("node", script, dir, out, styles[style])
			cmd.Env = append(os.Environ(), "NODE_MODULES="+modules)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("node prettier.js: %v\n%s", err, stderr.Bytes())
			}
			if stderr.Len() > 0 {
				t.Logf("prettier could not format:\n%s", stderr.Bytes())
			}
			same, total, files, diffs := compareFormatted(t, dir, out)
			t.Logf("%s, prettier-plugin-java %s style: %d files, token hash kept for %d/%d symbols (%.2f%%)",
				filepath.Base(dir), style, files, same, total, langtest.Percent(same, total))
			for _, d := range diffs[:min(len(diffs), 30)] {
				t.Logf("  %s", d)
			}
			switch {
			case files == 0:
				t.Errorf("%s: prettier formatted no file", dir)
			case dir == golden && same != total:
				t.Errorf("prettier %s style changed the token hash of %d golden symbols", style, total-same)
			case langtest.Percent(same, total) < 99:
				t.Errorf("prettier %s style changed the token hash of %d/%d corpus symbols", style, total-same, total)
			}
		}
	}
}

// compareFormatted compares the token hash of every symbol of each file
// below out with the same symbol in the file of the same path below dir.
func compareFormatted(t *testing.T, dir, out string) (same, total, files int, diffs []string) {
	t.Helper()
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		before, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			return err
		}
		after, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		a, errA := Extract(name, before)
		b, errB := Extract(name, after)
		if errA != nil || errB != nil {
			diffs = append(diffs, fmt.Sprintf("%s: errors %v / %v", name, errA, errB))
			return nil
		}
		files++
		for _, s := range a.Symbols {
			g, ok, _ := b.Lookup(s.Name)
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s@%s: gone after formatting", name, s.Name))
				total++
				continue
			}
			total++
			ha, hb := lang.HashTokens(a.Tokens, s.Start, s.End), lang.HashTokens(b.Tokens, g.Start, g.End)
			if ha == hb {
				same++
				continue
			}
			diffs = append(diffs, fmt.Sprintf("%s@%s: %s", name, s.Name, firstTokenDiff(a.Tokens, s.Start, s.End, b.Tokens, g.Start, g.End)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return same, total, files, diffs
}

// firstTokenDiff describes where two symbols' token texts first differ.
func firstTokenDiff(a []lang.Token, as, ae int, b []lang.Token, bs, be int) string {
	texts := func(toks []lang.Token, s, e int) []string {
		var out []string
		for _, t := range toks {
			if t.Line >= s && t.Line <= e {
				out = append(out, t.Text)
			}
		}
		return out
	}
	x, y := texts(a, as, ae), texts(b, bs, be)
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	ctx := func(s []string) []string { return s[max(0, i-3):min(len(s), i+3)] }
	return fmt.Sprintf("token %d: %q vs %q", i, ctx(x), ctx(y))
}
