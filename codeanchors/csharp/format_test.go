//go:build conformance

package csharp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// formatCorpusFiles is how many corpus files TestFormatters formats.
const formatCorpusFiles = 150

// formatters are the C# formatters Debian packages, each with two styles
// far apart: astyle (Allman braces and 4 spaces against attached braces,
// tabs and padded operators) and uncrustify (its defaults against a
// config that rewraps braces and spacing).
var formatters = []struct {
	name string
	args func(dir, cfg string) []string
	cfg  string
}{
	{"astyle allman", func(dir, _ string) []string {
		return []string{"astyle", "--mode=cs", "--style=allman", "--indent=spaces=4", "--suffix=none", "--quiet", "--recursive", dir + "/*.cs"}
	}, ""},
	{"astyle java", func(dir, _ string) []string {
		return []string{"astyle", "--mode=cs", "--style=java", "--indent=tab", "--pad-oper", "--unpad-paren", "--suffix=none", "--quiet", "--recursive", dir + "/*.cs"}
	}, ""},
	{"uncrustify", func(dir, cfg string) []string {
		// One run per file: uncrustify gives up on some files (and says so).
		return []string{"sh", "-c", `find "$1" -name '*.cs' | while read -r f; do uncrustify -q -l CS -c "$2" --no-backup "$f" || echo "uncrustify could not format $f" >&2; done`, "sh", dir, cfg}
	}, "indent_columns=2\nindent_with_tabs=0\nnl_class_brace=remove\nnl_fdef_brace=remove\nnl_if_brace=remove\nsp_arith=add\nsp_assign=add\nsp_after_comma=add\nsp_inside_paren=add\n"},
}

// TestFormatters checks that formatting keeps the token hash of every
// symbol: it formats the golden cases and the first formatCorpusFiles
// corpus files with each formatter and compares each symbol's token hash
// before and after. Every golden symbol must keep its hash, and at least
// 99% of the corpus's.
func TestFormatters(t *testing.T) {
	for _, tool := range []string{"astyle", "uncrustify"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH: install Debian's %s (./test.sh does)", tool, tool)
		}
	}
	tmp := t.TempDir()
	write := func(root string, files []source) {
		for _, f := range files {
			langtest.WriteFile(t, filepath.Join(root, filepath.FromSlash(f.path)), f.src)
		}
	}
	var golden []source
	for _, c := range readCases(t) {
		if _, err := Extract(c.Path, c.Src); err == nil {
			golden = append(golden, source{filepath.Base(c.File) + "/" + c.Path, c.Src})
		}
	}
	corpus := corpusSources(t)[:formatCorpusFiles]
	cfg := filepath.Join(tmp, "uncrustify.cfg")
	for _, set := range []struct {
		name  string
		files []source
	}{{"golden", golden}, {"corpus", corpus}} {
		for i, f := range formatters {
			if err := os.WriteFile(cfg, []byte(f.cfg), 0o666); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", set.name, i))
			write(dir, set.files)
			args := f.args(dir, cfg)
			out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", f.name, err, out)
			}
			if len(out) > 0 {
				t.Logf("%s: %s", f.name, out)
			}
			var st langtest.Stability
			for _, s := range set.files {
				after, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.path)))
				if err != nil {
					t.Fatal(err)
				}
				if err := st.Add(Extract, s.path, f.name, s.src, after); err != nil {
					t.Logf("  %v", err)
				}
			}
			st.Log(t, set.name+", "+f.name)
			same, total := st.Kept, st.Symbols+len(st.Vanished)
			switch {
			case st.FilesChanged == 0:
				t.Errorf("%s changed no %s file: the comparison is empty", f.name, set.name)
			case set.name == "golden" && same != total:
				t.Errorf("%s changed the token hash of %d golden symbols", f.name, total-same)
			case langtest.Percent(same, total) < 99:
				t.Errorf("%s changed the token hash of %d/%d corpus symbols", f.name, total-same, total)
			}
		}
	}
}
