//go:build conformance

package java

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
			var st langtest.Stability
			errs := st.AddDir(t, Extract, dir, out, style)
			for _, err := range errs {
				t.Logf("  %v", err)
			}
			st.Log(t, fmt.Sprintf("%s, prettier-plugin-java %s style", filepath.Base(dir), style))
			same, total := st.Kept, st.Symbols+len(st.Vanished)
			switch {
			case st.Files == len(errs): // none compared
				t.Errorf("%s: prettier formatted no file", dir)
			case dir == golden && same != total:
				t.Errorf("prettier %s style changed the token hash of %d golden symbols", style, total-same)
			case langtest.Percent(same, total) < 99:
				t.Errorf("prettier %s style changed the token hash of %d/%d corpus symbols", style, total-same, total)
			}
		}
	}
}
