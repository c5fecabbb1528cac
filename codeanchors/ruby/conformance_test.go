//go:build conformance

package ruby

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// rubyCorpus is the real-code corpus: Ruby's standard library as Debian's
// libruby3.1 installs it, and the gems Debian's rubocop package brings
// (rubocop, rubocop-ast, parser, ast, rake, regexp_parser, webrick, ...).
// test.sh installs the ruby and rubocop packages.
var rubyCorpus = []string{"/usr/lib/ruby/3.1.0", "/usr/share/rubygems-integration/all/gems"}

// The reference is Prism, Ruby's own parser, as its wasm build on npm.
const (
	prismPackage = "@ruby/prism"
	prismVersion = "1.9.0"
)

type prismSymbol struct {
	Name       string
	Start, End int
}

type prismFile struct {
	Path     string
	Symbols  []prismSymbol
	Comments [][2]int // the lines each comment starts and ends on
	Error    string
}

// prismSymbols runs testdata/rubyref.js over the files.
func prismSymbols(t *testing.T, files []string) []prismFile {
	t.Helper()
	cmd := exec.Command("node", filepath.Join("testdata", "rubyref.js"), langtest.NPMPackage(t, prismPackage+"@"+prismVersion))
	return langtest.RunReference[prismFile](t, cmd, files)
}

// agreement compares Extract with Prism over files, read by read.
func agreement(t *testing.T, files []string, read func(string) []byte) *langtest.Agreement {
	t.Helper()
	refs := prismSymbols(t, files)
	a := &langtest.Agreement{Reference: "Prism"}
	for i, p := range files {
		r := refs[i]
		if r.Path != p {
			t.Fatalf("the reference answered for %s in the place of %s", r.Path, p)
		}
		ref := langtest.RefFile{Error: r.Error}
		for _, s := range r.Symbols {
			ref.Symbols = append(ref.Symbols, langtest.RefSymbol{Name: s.Name, Start: s.Start, End: s.End})
		}
		src := read(p)
		f, err := Extract(p, src)
		a.Add(p, f, err, ref)
	}
	return a
}

// rubyFiles returns the .rb files of the corpus, sorted.
func rubyFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range rubyCorpus {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rb") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatalf("corpus %s (test.sh installs the ruby and rubocop packages): %v", dir, err)
		}
	}
	slices.Sort(files)
	return files
}

// TestCommentsConformance checks the comments Extract hands out against
// Prism's (# comments and =begin/=end blocks) over the corpus of
// [TestConformance]: the same ones, in the same order, on the same lines,
// in every file both read.
func TestCommentsConformance(t *testing.T) {
	files := rubyFiles(t)
	refs := prismSymbols(t, files)
	var compared, comments, differ int
	for i, p := range files {
		r := refs[i]
		if r.Path != p {
			t.Fatalf("the reference answered for %s in the place of %s", r.Path, p)
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Extract(p, src)
		if err != nil || r.Error != "" {
			continue
		}
		compared++
		comments += len(f.Comments)
		got := make([][2]int, len(f.Comments))
		for j, c := range f.Comments {
			got[j] = [2]int{c.Line, c.EndLine}
		}
		if !slices.Equal(got, r.Comments) {
			if differ++; differ <= 10 {
				k := 0
				for k < len(got) && k < len(r.Comments) && got[k] == r.Comments[k] {
					k++
				}
				t.Errorf("%s: comment %d of %d at lines %v, Prism's %d of %d at %v", p, k+1, len(got), got[k:min(k+2, len(got))], k+1, len(r.Comments), r.Comments[k:min(k+2, len(r.Comments))])
			}
		}
	}
	t.Logf("Ruby 3.1 standard library and rubocop's gems: %d files compared, %d comments; %d files differ", compared, comments, differ)
	if compared < 1000 {
		t.Errorf("only %d files compared", compared)
	}
}

// TestConformance compares Extract's symbols and both range ends with
// Prism's over Ruby's standard library and the gems rubocop brings: at least 1,000 symbols, 99.5% of
// names and 99% of starts and ends must agree.
func TestConformance(t *testing.T) {
	files := rubyFiles(t)
	a := agreement(t, files, func(p string) []byte {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return src
	})
	a.Report(t, "Ruby 3.1 standard library and rubocop's gems (Debian)", langtest.Corpus)
}

// TestGoldenConformance runs Prism on the golden cases that parse: the
// tricky constructs must agree exactly, names and both range ends.
func TestGoldenConformance(t *testing.T) {
	dir := t.TempDir()
	srcs := map[string][]byte{}
	var files []string
	for _, c := range suite.Cases(t) {
		if _, err := Extract(c.Path, c.Src); err != nil {
			continue
		}
		p := filepath.Join(dir, filepath.Base(c.File)+".rb")
		if err := os.WriteFile(p, c.Src, 0o644); err != nil {
			t.Fatal(err)
		}
		srcs[p] = c.Src
		files = append(files, p)
	}
	slices.Sort(files)
	a := agreement(t, files, func(p string) []byte { return srcs[p] })
	if a.Skipped > 0 {
		t.Errorf("Prism refuses %d golden cases", a.Skipped)
	}
	a.Report(t, "golden cases", langtest.Golden)
	if a.Ranges < 60 {
		t.Errorf("only %d symbols compared", a.Ranges)
	}
}

// BenchmarkExtractRuby extracts the standard library's files.
func BenchmarkExtractRuby(b *testing.B) {
	type item struct {
		path string
		src  []byte
	}
	var items []item
	for _, dir := range rubyCorpus {
		matches, _ := filepath.Glob(filepath.Join(dir, "*", "*.rb"))
		for _, p := range matches {
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Extract(p, src); err == nil {
				items = append(items, item{p, src})
			}
		}
	}
	if len(items) == 0 {
		b.Fatalf("no corpus under %v (test.sh installs ruby and rubocop)", rubyCorpus)
	}
	langtest.BenchExtract(b, items, func(i item) (string, []byte) { return i.path, i.src }, Extract)
}
