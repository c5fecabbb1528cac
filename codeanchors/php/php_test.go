package php

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// suite is PHP's golden suite: the testdata/extract/*.txtar cases, in the
// [langtest.ColonSections] format.
var suite = langtest.Suite{
	Dir:      "extract",
	Ext:      []string{".php"},
	Extract:  Extract,
	Sections: func(_ langtest.Case, f *lang.File, err error) []txtar.File { return langtest.ColonSections(f, err) },
}

// readCases reads the golden cases.
func readCases(tb testing.TB) []langtest.Case { return suite.Cases(tb) }

// TestGolden extracts every testdata/extract case and compares with its
// sections (-update rewrites them, refused when CI is set), with CRLF line
// endings, and checks that hashes depend on a symbol's own text only.
func TestGolden(t *testing.T) { suite.Run(t) }

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

func TestErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"<?php\nfunction f() {\n", "e.php:2:14: { is not closed"},
		{"<?php\n$a = 'x;\n", "e.php:2:6: string not terminated"},
		{"<?php\n/* x\n", "e.php:2:1: comment not terminated"},
		{"<?php\n$x = <<<EOT\nabc\n", "e.php:2:6: heredoc EOT not terminated"},
		{"<?php\nf(];\n", "e.php:2:3: unexpected ]: ( opened at offset 7 is not closed"},
		{"<?php\n}\n", "e.php:2:1: unexpected }"},
	} {
		langtest.ExpectExtractError(t, "Extract", Extract, "e.php", tt.src, tt.want)
	}
}

// FuzzExtractPHP checks that Extract never panics and that what it returns
// holds its invariants, or is an error naming the path.
func FuzzExtractPHP(f *testing.F) { suite.Fuzz(f, "fuzz.php") }

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
