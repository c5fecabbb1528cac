package php

import (
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
