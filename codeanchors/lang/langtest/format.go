package langtest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Stability measures how token hashes survive a formatter: Add compares
// every symbol of a file before and after formatting, found again by name.
// The formatter tests log its figures and check them against their own
// thresholds. The zero value is ready to use.
type Stability struct {
	// Files counts the files added (compared or not: see Add),
	// FilesChanged those the formatter changed.
	Files, FilesChanged int
	// Symbols counts the symbols found before and after formatting;
	// Reformatted those whose lines changed; Kept those whose token hash
	// is the same, KeptReformatted those of them that were reformatted.
	Symbols, Reformatted, Kept, KeptReformatted int
	// Vanished names the symbols formatting lost, "path@name (label)";
	// Changed those whose token hash changed, with where their tokens
	// first differ. Both in the order found.
	Vanished, Changed []string
}

// Add compares the file at path, src, with out, what the formatter made of
// it (label names the style in messages), both read by extract. A file
// extract refuses, before or after, is not compared: the error says which.
func (s *Stability) Add(extract func(string, []byte) (*lang.File, error), path, label string, src, out []byte) error {
	s.Files++
	if !bytes.Equal(src, out) {
		s.FilesChanged++
	}
	before, err := extract(path, src)
	if err != nil {
		return err
	}
	after, err := extract(path, out)
	if err != nil {
		return fmt.Errorf("after formatting (%s): %w", label, err)
	}
	lb, la := lang.Lines(src), lang.Lines(out)
	for _, b := range before.Symbols {
		a, ok, _ := after.Lookup(b.Name)
		if !ok {
			s.Vanished = append(s.Vanished, fmt.Sprintf("%s@%s (%s)", path, b.Name, label))
			continue
		}
		s.Symbols++
		reformatted := lang.HashLines(lb, b.Start, b.End) != lang.HashLines(la, a.Start, a.End)
		if reformatted {
			s.Reformatted++
		}
		if lang.HashTokens(before.Tokens, b.Start, b.End) != lang.HashTokens(after.Tokens, a.Start, a.End) {
			s.Changed = append(s.Changed, fmt.Sprintf("%s@%s (%s): %s", path, b.Name, label,
				FirstTokenDiff(before.Tokens, b.Start, b.End, after.Tokens, a.Start, a.End)))
			continue
		}
		s.Kept++
		if reformatted {
			s.KeptReformatted++
		}
	}
	return nil
}

// AddDir adds every file below the folder after (what a formatter wrote)
// with the file of the same path below before, named by its slash-separated
// path below them. It returns the errors of the files extract refuses; a
// file it cannot read stops the test.
func (s *Stability) AddDir(tb testing.TB, extract func(string, []byte) (*lang.File, error), before, after, label string) []error {
	tb.Helper()
	var errs []error
	err := filepath.WalkDir(after, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(after, p)
		src, err := os.ReadFile(filepath.Join(before, rel))
		if err != nil {
			return err
		}
		out, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := s.Add(extract, filepath.ToSlash(rel), label, src, out); err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return errs
}

// Log logs what (the formatter, the corpus) with the figures, then at
// most 20 of the vanished and of the changed symbols.
func (s *Stability) Log(tb testing.TB, what string) {
	tb.Helper()
	tb.Logf("%s: %d files (%d changed by it), %d symbols: token hash kept for %d (%.2f%%); %d reformatted, %d of them kept (%.2f%%); %d vanished",
		what, s.Files, s.FilesChanged, s.Symbols, s.Kept, Percent(s.Kept, s.Symbols),
		s.Reformatted, s.KeptReformatted, Percent(s.KeptReformatted, s.Reformatted), len(s.Vanished))
	for _, list := range []struct {
		what  string
		items []string
	}{{"vanished", s.Vanished}, {"token hash changed", s.Changed}} {
		for _, m := range list.items[:min(len(list.items), 20)] {
			tb.Logf("  %s: %s", list.what, m)
		}
		if n := len(list.items) - 20; n > 0 {
			tb.Logf("  ... and %d more", n)
		}
	}
}

// RequireReformatted fails the test when formatting lost a symbol, when
// fewer than least symbols were reformatted (the measure needs more), or
// when fewer than pct percent of the reformatted ones keep their token
// hash.
func (s *Stability) RequireReformatted(tb testing.TB, least int, pct float64) {
	tb.Helper()
	for _, v := range s.Vanished {
		tb.Errorf("%s vanished after formatting", v)
	}
	if s.Reformatted < least {
		tb.Errorf("only %d symbols reformatted; the measure needs at least %d", s.Reformatted, least)
	}
	if p := Percent(s.KeptReformatted, s.Reformatted); p < pct {
		tb.Errorf("%.2f%% of reformatted symbols keep their token hash, want at least %g%%", p, pct)
	}
}

// FirstTokenDiff describes where the tokens of lines as-ae of a and of
// lines bs-be of b first differ, with up to three tokens either side.
func FirstTokenDiff(a []lang.Token, as, ae int, b []lang.Token, bs, be int) string {
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

// TokenHashEdits checks a language's token hash against edits by hand:
// the symbol's token hash in each text of same (what a formatter may
// write) equals the one in base, and in each text of differ (changes of
// the code) it does not. Every text is extracted as path.
func TokenHashEdits(t *testing.T, extract func(string, []byte) (*lang.File, error), path, symbol, base string, same, differ []string) {
	t.Helper()
	hash := func(src string) string {
		t.Helper()
		f, err := extract(path, []byte(src))
		if err != nil {
			t.Fatalf("Extract(%q): %v", src, err)
		}
		s, ok, _ := f.Lookup(symbol)
		if !ok {
			t.Fatalf("Extract(%q): no %s", src, symbol)
		}
		return lang.HashTokens(f.Tokens, s.Start, s.End)
	}
	h := hash(base)
	for _, s := range same {
		if hash(s) != h {
			t.Errorf("token hash of %q differs from %q; only formatting changed", s, base)
		}
	}
	for _, s := range differ {
		if hash(s) == h {
			t.Errorf("token hash of %q equals that of %q; the code changed", s, base)
		}
	}
}

// WriteFile writes data to the file p, creating its folder: a corpus
// written out for a reference or a formatter that reads files.
func WriteFile(tb testing.TB, p string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o666); err != nil {
		tb.Fatal(err)
	}
}
