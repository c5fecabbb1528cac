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
	Path    string
	Symbols []prismSymbol
	Error   string
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

// TestConformance compares Extract's symbols and both range ends with
// Prism's over Ruby's standard library and the gems rubocop brings: at least 1,000 symbols, 99.5% of
// names and 99% of starts and ends must agree.
func TestConformance(t *testing.T) {
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
	a := agreement(t, files, func(p string) []byte {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return src
	})
	a.Report(t, "Ruby 3.1 standard library and rubocop's gems (Debian)", langtest.Corpus)
}
