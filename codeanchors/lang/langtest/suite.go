package langtest

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Suite is a language's golden suite: its txtar cases and how to render
// what Extract returns for them. [Suite.Run] is the whole golden test in
// one call:
//
//	var suite = langtest.Suite{Dir: "extract", Ext: []string{".rs"}, Extract: Extract}
//
//	func TestGolden(t *testing.T) { suite.Run(t) }
type Suite struct {
	// Dir is the folder under testdata holding the cases, "extract" (or
	// "." for testdata itself).
	Dir string
	// Ext are the extensions a case's input may have (its first section's
	// name ends with one of them).
	Ext []string
	// Extra are the other files Dir may hold (reference scripts): any
	// other file fails, since no test would read it.
	Extra []string
	// Extract is the language's extractor.
	Extract func(path string, src []byte) (*lang.File, error)
	// Sections renders what Extract returned for a case (f, or err) as the
	// case's output sections. nil means [Sections] with no imports section.
	Sections func(c Case, f *lang.File, err error) []txtar.File
	// Check checks the invariants of an extracted file; nil means
	// [CheckFile].
	Check func(t *testing.T, src []byte, f *lang.File)
	// CRLF checks one case with CRLF line endings; nil means
	// [ExpectCRLFNeutral] with Check.
	CRLF func(t *testing.T, c Case)
	// MinContextFree is the least number of variants the context-free test
	// must compare; 0 means 20.
	MinContextFree int

	// Language is the language under test: the insertion property
	// inserts through it, and a nil Extract is its Extract.
	Language lang.Language
	// Insert are the declarations of the insertion property, by set of
	// cases; a suite with a Language must give some.
	Insert []InsertSet
	// Comments are the comment cases; a suite with a Language must give
	// some (every built-in language hands out its comments).
	Comments []CommentCase
	// Highlight, when set, is how the site highlights the language.
	Highlight *Highlight
}

// extract is the suite's extractor: Extract, or the Language's.
func (s Suite) extract() func(string, []byte) (*lang.File, error) {
	if s.Extract != nil {
		return s.Extract
	}
	return s.Language.Extract
}

// Cases reads the suite's cases (see [ReadCases]).
func (s Suite) Cases(tb testing.TB) []Case {
	tb.Helper()
	what := "a " + strings.Join(s.Ext, " or ") + " source"
	return ReadCases(tb, s.Dir, func(name string) bool {
		for _, e := range s.Ext {
			if strings.HasSuffix(name, e) {
				return true
			}
		}
		return false
	}, what)
}

func (s Suite) check() func(*testing.T, []byte, *lang.File) {
	if s.Check != nil {
		return s.Check
	}
	return CheckFile
}

// Run runs the suite's tests as subtests:
//   - golden: each case's sections equal its golden ones (with -update,
//     refused when CI is set, it rewrites them instead); every extracted
//     file passes Check, every error is a [scanner.Error] naming the path
//     with no File; Dir holds nothing but cases, README.md and Extra;
//   - crlf: CRLF line endings change nothing but offsets ([ExpectCRLFNeutral],
//     or the suite's CRLF);
//   - context-free: hashes depend only on a symbol's own text
//     ([ExpectContextFree]), over at least MinContextFree variants;
//   - extensions: every one of Ext has a case;
//   - insert: the insertion property ([CheckInsertions]) per [InsertSet];
//   - comments: each [CommentCase] ([ExpectComments]);
//   - highlight: the site's chroma lexer ([Highlight.Check]), when set.
//
// The last three run when the suite has a Language; fuzzing is a separate
// FuzzXxx function on [Suite.Fuzz], and drift tables run from the
// language's external tests (enginetest.Drift), which may import the
// engine.
func (s Suite) Run(t *testing.T) {
	t.Helper()
	cases := s.Cases(t)
	check := s.check()
	extract := s.extract()
	t.Run("golden", func(t *testing.T) {
		RefuseUpdateInCI(t)
		CheckGoldenDir(t, s.Dir, s.Extra...)
		for _, c := range cases {
			t.Run(strings.TrimSuffix(filepath.Base(c.File), ".txtar"), func(t *testing.T) {
				f, err := extract(c.Path, c.Src)
				if err == nil {
					check(t, c.Src, f)
				} else {
					var se scanner.Error
					if !errors.As(err, &se) || se.Pos.Filename != c.Path || f != nil {
						t.Errorf("%s: error %v is not a scanner.Error for the path, or came with a File", c.File, err)
					}
				}
				sections := s.Sections
				if sections == nil {
					sections = func(c Case, f *lang.File, err error) []txtar.File { return Sections(c, f, err, nil) }
				}
				input := txtar.File{Name: c.Path, Data: bytes.ReplaceAll(c.Src, []byte("\r\n"), []byte("\n"))} // see [crlf]
				CompareGolden(t, c.File, c.Comment, input, sections(c, f, err), c.Want, fmt.Sprintf("Extract(%q)", c.Path))
			})
		}
	})
	t.Run("crlf", func(t *testing.T) {
		for _, c := range cases {
			if s.CRLF != nil {
				s.CRLF(t, c)
				continue
			}
			ExpectCRLFNeutral(t, c.File, c.Path, c.Src, extract, check)
		}
	})
	t.Run("context-free", func(t *testing.T) {
		least := s.MinContextFree
		if least == 0 {
			least = 20
		}
		if n := ExpectContextFree(t, extract, cases); n < least {
			t.Errorf("only %d variants compared, want %d: the property is not exercised", n, least)
		}
	})
	t.Run("extensions", func(t *testing.T) { s.checkExtensions(t, cases) })
	if s.Language == nil {
		return
	}
	t.Run("insert", func(t *testing.T) {
		if len(s.Insert) == 0 {
			t.Fatal("no insertion declarations: the property is not exercised")
		}
		s.runInsert(t, cases)
	})
	t.Run("comments", func(t *testing.T) {
		if len(s.Comments) == 0 {
			t.Fatal("no comment cases: Extract's comments are not checked")
		}
		s.runComments(t)
	})
	if s.Highlight != nil {
		t.Run("highlight", func(t *testing.T) { s.Highlight.Check(t, cases, extract) })
	}
}

// checkExtensions fails for an extension in Ext that no case has, and
// logs how many files and lines the cases are.
func (s Suite) checkExtensions(t *testing.T, cases []Case) {
	var nlines int
	seen := map[string]bool{}
	for _, c := range cases {
		nlines += len(lang.Lines(c.Src))
		seen[strings.ToLower(filepath.Ext(c.Path))] = true
	}
	t.Logf("%d files, %d lines", len(cases), nlines)
	for _, ext := range s.Ext {
		if !seen[ext] {
			t.Errorf("no %s case in testdata/%s", ext, s.Dir)
		}
	}
}

// Sections renders what Extract returned, the common golden format: on an
// error, one section "error" with its message; else "symbols" (name kind
// start-end, then "ambiguous: name"), "imports" when imports is not nil
// and gives some text, "calls" when there are some (FROM: QUAL.NAME LINE,
// <expr>.NAME for a longer receiver) and "tokens" (LINE TEXT) when the
// case's comment contains [tokens].
func Sections(c Case, f *lang.File, err error, imports func(*lang.File) []byte) []txtar.File {
	if err != nil {
		return []txtar.File{{Name: "error", Data: []byte(err.Error() + "\n")}}
	}
	var syms, calls, toks bytes.Buffer
	for _, s := range f.Symbols {
		fmt.Fprintf(&syms, "%s %s %d-%d\n", s.Name, s.Kind, s.Start, s.End)
	}
	for _, name := range f.Ambiguous {
		fmt.Fprintf(&syms, "ambiguous: %s\n", name)
	}
	out := []txtar.File{{Name: "symbols", Data: syms.Bytes()}}
	if imports != nil {
		if imps := imports(f); len(imps) > 0 {
			out = append(out, txtar.File{Name: "imports", Data: imps})
		}
	}
	for _, c := range f.Calls {
		callee := c.Name
		switch c.Qual {
		case "":
		case ".":
			callee = "<expr>." + c.Name
		default:
			callee = c.Qual + "." + c.Name
		}
		fmt.Fprintf(&calls, "%s: %s %d\n", c.From, callee, c.Line)
	}
	if calls.Len() > 0 {
		out = append(out, txtar.File{Name: "calls", Data: calls.Bytes()})
	}
	if bytes.Contains(c.Comment, []byte("[tokens]")) {
		for _, t := range f.Tokens {
			fmt.Fprintf(&toks, "%d %s\n", t.Line, t.Text)
		}
		out = append(out, txtar.File{Name: "tokens", Data: toks.Bytes()})
	}
	return out
}

// Fuzz is a language's extraction fuzzer, seeded with the suite's cases:
// Extract, run on any input as the file at path, never panics, fails only
// with an error starting with the path and no File, and returns a File
// that passes Check.
func (s Suite) Fuzz(f *testing.F, path string) {
	for _, c := range s.Cases(f) {
		f.Add(c.Src)
	}
	check, extract := s.check(), s.extract()
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := extract(path, src)
		if err != nil {
			if file != nil {
				t.Fatalf("Extract returned a File and error %v", err)
			}
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("error %q does not start with the path", err)
			}
			return
		}
		check(t, src, file)
	})
}

// PackageImports renders an "imports" section for [Sections]: "package P"
// when the file has a package (or namespace), then each import as written,
// a line each.
func PackageImports(f *lang.File) []byte {
	var b bytes.Buffer
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	for _, imp := range f.Imports {
		fmt.Fprintf(&b, "%s\n", imp)
	}
	return b.Bytes()
}

// CheckFileCalls is [CheckFile] plus: every call is from a listed symbol
// (for a language whose calls are only collected inside symbols it lists).
func CheckFileCalls(t *testing.T, src []byte, f *lang.File) {
	t.Helper()
	CheckFile(t, src, f)
	for _, c := range f.Calls {
		if _, ok, _ := f.Lookup(c.From); !ok {
			t.Fatalf("call %+v: from a symbol that is not listed", c)
		}
	}
}

// ColonSections is the other golden format (Rust's and PHP's): on an
// error, one section "error"; else "symbols" (name kind start-end, then
// "ambiguous name"), "imports" when there are some (PATH, or PATH as NAME)
// and "calls" when there are some (LINE FROM -> QUAL::NAME).
func ColonSections(f *lang.File, err error) []txtar.File { return QualSections(f, err, "::") }

// QualSections is [ColonSections] with sep between a call's qualifier and
// name (C and C++ write "QUAL NAME").
func QualSections(f *lang.File, err error, sep string) []txtar.File {
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
			q = c.Qual + sep + c.Name
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
