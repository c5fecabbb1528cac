package csharp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
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
			same, total, changed, diffs := 0, 0, 0, []string{}
			for _, s := range set.files {
				after, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.path)))
				if err != nil {
					t.Fatal(err)
				}
				if string(after) != string(s.src) {
					changed++
				}
				a, errA := Extract(s.path, s.src)
				b, errB := Extract(s.path, after)
				if errA != nil || errB != nil {
					if errA == nil {
						diffs = append(diffs, fmt.Sprintf("%s: does not parse after formatting: %v", s.path, errB))
					}
					continue
				}
				for _, sym := range a.Symbols {
					total++
					g, ok, _ := b.Lookup(sym.Name)
					if !ok {
						diffs = append(diffs, fmt.Sprintf("%s@%s: gone after formatting", s.path, sym.Name))
						continue
					}
					if lang.HashTokens(a.Tokens, sym.Start, sym.End) == lang.HashTokens(b.Tokens, g.Start, g.End) {
						same++
						continue
					}
					diffs = append(diffs, fmt.Sprintf("%s@%s: %s", s.path, sym.Name, firstTokenDiff(a.Tokens, sym.Start, sym.End, b.Tokens, g.Start, g.End)))
				}
			}
			t.Logf("%s, %s: %d files (%d changed by it), token hash kept for %d/%d symbols (%.2f%%)",
				set.name, f.name, len(set.files), changed, same, total, langtest.Percent(same, total))
			for _, d := range diffs[:min(len(diffs), 20)] {
				t.Logf("  %s", d)
			}
			switch {
			case changed == 0:
				t.Errorf("%s changed no %s file: the comparison is empty", f.name, set.name)
			case set.name == "golden" && same != total:
				t.Errorf("%s changed the token hash of %d golden symbols", f.name, total-same)
			case langtest.Percent(same, total) < 99:
				t.Errorf("%s changed the token hash of %d/%d corpus symbols", f.name, total-same, total)
			}
		}
	}
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
