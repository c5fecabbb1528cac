package langtest

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// wordsExtract reads a toy language: each line "name: word word ..."
// defines the symbol name on that line, its words its tokens; the
// words are separated by any run of spaces (its formatting). A line "bad"
// is a syntax error.
func wordsExtract(path string, src []byte) (*lang.File, error) {
	f := &lang.File{Path: path}
	for i, line := range strings.Split(string(src), "\n") {
		if line == "bad" {
			return nil, errors.New(path + ": bad")
		}
		name, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f.Symbols = append(f.Symbols, lang.Symbol{Name: name, Start: i + 1, End: i + 1})
		for _, w := range strings.Fields(rest) {
			f.Tokens = append(f.Tokens, lang.Token{Text: w, Line: i + 1})
		}
	}
	return f, nil
}

// TestStability checks Stability's counts on one file with a symbol
// untouched, one reformatted, one changed and one lost, a file the
// formatter left alone, and a file that no longer parses.
func TestStability(t *testing.T) {
	var st Stability
	src := "a: x y\nb: x  y\nc: x y\nd: z"
	out := "a: x y\nb: x y\nc: y x"
	if err := st.Add(wordsExtract, "f.w", "s", []byte(src), []byte(out)); err != nil {
		t.Fatal(err)
	}
	if err := st.Add(wordsExtract, "g.w", "s", []byte("e: x"), []byte("e: x")); err != nil {
		t.Fatal(err)
	}
	if err := st.Add(wordsExtract, "h.w", "s", []byte("e: x"), []byte("bad")); err == nil {
		t.Error("Add accepted a file that does not parse after formatting")
	}
	got := [...]int{st.Files, st.FilesChanged, st.Symbols, st.Reformatted, st.Kept, st.KeptReformatted}
	// symbols a b c e; reformatted b c; kept a b e, of the reformatted b
	if want := [...]int{3, 2, 4, 2, 3, 1}; got != want {
		t.Errorf("Files FilesChanged Symbols Reformatted Kept KeptReformatted = %v, want %v", got, want)
	}
	if want := []string{"f.w@d (s)"}; !slices.Equal(st.Vanished, want) {
		t.Errorf("Vanished = %q, want %q", st.Vanished, want)
	}
	if want := []string{`f.w@c (s): token 0: ["x" "y"] vs ["y" "x"]`}; !slices.Equal(st.Changed, want) {
		t.Errorf("Changed = %q, want %q", st.Changed, want)
	}
	var rec recorder
	st.RequireReformatted(&rec, 1, 50)
	if !rec.failed {
		t.Error("RequireReformatted passed with a symbol lost")
	}
	ok := Stability{Reformatted: 10, KeptReformatted: 10}
	for _, c := range []struct {
		least int
		pct   float64
		fail  bool
	}{{10, 100, false}, {11, 100, true}} {
		rec = recorder{}
		ok.RequireReformatted(&rec, c.least, c.pct)
		if rec.failed != c.fail {
			t.Errorf("RequireReformatted(%d, %g) on 10 of 10 kept: failed %v, want %v", c.least, c.pct, rec.failed, c.fail)
		}
	}
}

// TestStabilityAddDir checks that AddDir pairs the files of two folders by
// path and returns the errors of files that do not parse.
func TestStabilityAddDir(t *testing.T) {
	before, after := t.TempDir(), t.TempDir()
	for p, data := range map[string][2]string{
		"a.w":     {"a: x y", "a: x\ty"},
		"sub/b.w": {"b: x", "bad"},
	} {
		WriteFile(t, filepath.Join(before, p), []byte(data[0]))
		WriteFile(t, filepath.Join(after, p), []byte(data[1]))
	}
	var st Stability
	errs := st.AddDir(t, wordsExtract, before, after, "s")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "sub/b.w") {
		t.Errorf("AddDir errors = %v, want one for sub/b.w", errs)
	}
	if st.Files != 2 || st.Symbols != 1 || st.KeptReformatted != 1 {
		t.Errorf("AddDir: %+v, want two files, a.w's one symbol reformatted and kept", st)
	}
}
