package php

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

func readCases(tb testing.TB) []langtest.Case {
	return langtest.ReadCases(tb, "extract", func(name string) bool { return strings.HasSuffix(name, ".php") }, "a .php source")
}

// sections renders what Extract gives for a case.
func sections(f *lang.File, err error) []txtar.File {
	if err != nil {
		return []txtar.File{{Name: "error", Data: []byte(err.Error() + "\n")}}
	}
	var syms, imps, calls bytes.Buffer
	for _, s := range f.Symbols {
		fmt.Fprintf(&syms, "%s %s %d-%d\n", s.Name, s.Kind, s.Start, s.End)
	}
	for _, n := range f.Ambiguous {
		fmt.Fprintf(&syms, "ambiguous %s\n", n)
	}
	for i, p := range f.Imports {
		if f.ImportNames[i] != "" {
			fmt.Fprintf(&imps, "%s as %s\n", p, f.ImportNames[i])
		} else {
			fmt.Fprintf(&imps, "%s\n", p)
		}
	}
	for _, c := range f.Calls {
		q := c.Name
		if c.Qual != "" {
			q = c.Qual + "::" + c.Name
		}
		fmt.Fprintf(&calls, "%d %s -> %s\n", c.Line, c.From, q)
	}
	out := []txtar.File{{Name: "symbols", Data: syms.Bytes()}}
	if imps.Len() > 0 {
		out = append(out, txtar.File{Name: "imports", Data: imps.Bytes()})
	}
	if calls.Len() > 0 {
		out = append(out, txtar.File{Name: "calls", Data: calls.Bytes()})
	}
	return out
}

// TestGolden extracts every testdata/extract case and compares with its
// sections; -update rewrites them (refused when CI is set).
func TestGolden(t *testing.T) {
	langtest.RefuseUpdateInCI(t)
	langtest.CheckGoldenDir(t, "extract")
	for _, c := range readCases(t) {
		f, err := Extract(c.Path, c.Src)
		if err == nil {
			langtest.CheckFile(t, c.Src, f)
		}
		input := txtar.File{Name: c.Path, Data: bytes.ReplaceAll(c.Src, []byte("\r\n"), []byte("\n"))}
		langtest.CompareGolden(t, c.File, c.Comment, input, sections(f, err), c.Want, fmt.Sprintf("Extract(%q)", c.Path))
		langtest.ExpectCRLFNeutral(t, c.File, c.Path, c.Src, Extract, langtest.CheckFile)
	}
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
	for _, d := range a.diffs {
		t.Error(d)
	}
	if a.symbols < 30 {
		t.Errorf("only %d symbols compared", a.symbols)
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
func FuzzExtractPHP(f *testing.F) {
	for _, c := range readCases(f) {
		f.Add(c.Src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Extract("fuzz.php", src)
		if err != nil {
			if file != nil || !strings.HasPrefix(err.Error(), "fuzz.php:") {
				t.Fatalf("Extract(%q) = %v, %v; want nil and a fuzz.php:LINE:COL error", src, file, err)
			}
			return
		}
		langtest.CheckFile(t, src, file)
	})
}

// TestHashesContextFree checks that a symbol's hashes depend only on its
// own text, whatever code precedes or follows it.
func TestHashesContextFree(t *testing.T) {
	if n := langtest.ExpectContextFree(t, Extract, readCases(t)); n < 20 {
		t.Errorf("only %d variants compared: the property is not exercised", n)
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
