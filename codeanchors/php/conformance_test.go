//go:build conformance

package php

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

// phpCorpus is the real-code corpus: the PHP libraries Debian installs
// under /usr/share/php (test.sh installs php-symfony-console and
// php-league-commonmark, which bring Symfony's Console and String
// components, League CommonMark and Config, Nette Schema and Utils,
// Dflydev's dot-access-data and PSR interfaces).
const phpCorpus = "/usr/share/php"

// The reference is the php-parser npm package (glayzzle), pinned.
const phpParserVersion = "3.7.0"

type refSymbol struct {
	Name       string
	Start, End int
}

type refFile struct {
	Path    string
	Symbols []refSymbol
	Error   string
}

// reference runs testdata/phpref.js over the files.
func reference(t *testing.T, files []string) []refFile {
	t.Helper()
	cmd := exec.Command("node", filepath.Join("testdata", "phpref.js"), langtest.NPMPackage(t, "php-parser@"+phpParserVersion))
	return langtest.RunReference[refFile](t, cmd, files)
}

// compare compares Extract with the reference over files: a name the
// reference finds twice in a file is ambiguous for it.
func compare(t *testing.T, files []string, read func(string) []byte) *langtest.Agreement {
	t.Helper()
	refs := reference(t, files)
	a := &langtest.Agreement{Reference: "php-parser"}
	for i, p := range files {
		r := refs[i]
		if r.Path != p {
			t.Fatalf("the reference answered for %s in the place of %s", r.Path, p)
		}
		ref := langtest.RefFile{Error: r.Error}
		for _, s := range r.Symbols {
			ref.Symbols = append(ref.Symbols, langtest.RefSymbol{Name: s.Name, Start: s.Start, End: s.End})
		}
		f, err := Extract(p, read(p))
		a.Add(p, f, err, ref)
	}
	return a
}

// TestConformance compares Extract's symbols and both range ends with the
// php-parser reference over Debian's PHP libraries: at least 1,000
// symbols, 99.5% of names and 99% of starts and ends must agree.
func TestConformance(t *testing.T) {
	var files []string
	err := filepath.WalkDir(phpCorpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".php") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("corpus %s (test.sh installs php-symfony-console and php-league-commonmark): %v", phpCorpus, err)
	}
	slices.Sort(files)
	a := compare(t, files, func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	})
	a.Report(t, phpCorpus, langtest.Corpus)
}

// TestGoldenConformance runs the php-parser reference on the golden cases
// that parse: the tricky constructs must agree exactly.
func TestGoldenConformance(t *testing.T) {
	dir := t.TempDir()
	srcs := map[string][]byte{}
	var files []string
	for _, c := range readCases(t) {
		if f, err := Extract(c.Path, c.Src); err != nil || f == nil {
			continue
		}
		p := filepath.Join(dir, filepath.Base(c.File)+".php")
		if err := os.WriteFile(p, c.Src, 0o644); err != nil {
			t.Fatal(err)
		}
		srcs[p] = c.Src
		files = append(files, p)
	}
	slices.Sort(files)
	a := compare(t, files, func(p string) []byte { return srcs[p] })
	a.Report(t, "testdata/extract", langtest.Golden)
	if a.RefSymbols < 30 {
		t.Errorf("only %d symbols compared", a.RefSymbols)
	}
}

type phpSource struct {
	path string
	src  []byte
}

// BenchmarkExtractPHP extracts Debian's PHP libraries (/usr/share/php)
// and reports symbols/s and lines/s.
func BenchmarkExtractPHP(b *testing.B) {
	var items []phpSource
	err := filepath.WalkDir(phpCorpus, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".php") {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			items = append(items, phpSource{p, src})
		}
		return err
	})
	if err != nil {
		b.Fatalf("corpus (test.sh installs it): %v", err)
	}
	langtest.BenchExtract(b, items, func(s phpSource) (string, []byte) { return s.path, s.src }, Extract)
}
