//go:build conformance

package cfamily

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
)

// corpus is one body of real code the conformance test compares on.
type corpus struct {
	name  string
	root  string
	files func(rel string) bool // which files below root
	args  []string              // clang's language and include options
	// filter is clang's -ast-dump-filter: only declarations whose
	// qualified name contains it are dumped (a C++ file's dump holds the
	// whole standard library otherwise); Extract's symbols outside it are
	// left out too.
	filter string
	// packages, when set, are the Debian packages whose files below
	// root the corpus is (dpkg -L), so that it does not depend on what
	// else the machine has installed
	packages []string
	// units are the translation units clang compiles, given the corpus
	// files; nil: each file on its own. A unit's declarations are
	// compared in every corpus file it reaches.
	units func(root string) []string
}

const gtestRoot = "/usr/src/googletest"

// corpora are real code from Debian packages: the C library's and other
// system headers (libc6-dev and the -dev packages installed here, under
// /usr/include), and GoogleTest's and GoogleMock's sources and headers
// (Debian package googletest, /usr/src/googletest).
var corpora = []corpus{
	{
		name: "C: /usr/include/*.h of libc6-dev, zlib1g-dev and libexpat1-dev", root: "/usr/include",
		files:    func(rel string) bool { return !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".h") },
		packages: []string{"libc6-dev", "zlib1g-dev", "libexpat1-dev"},
		args:     []string{"-x", "c", "-std=gnu17"},
	},
	{
		name: "C++: GoogleTest and GoogleMock (" + gtestRoot + ")", root: gtestRoot,
		files: func(rel string) bool {
			return (strings.HasSuffix(rel, ".cc") || strings.HasSuffix(rel, ".h")) && !strings.Contains(rel, "/test/") && !strings.Contains(rel, "/samples/") && !strings.HasSuffix(rel, "-all.cc")
		},
		args: []string{"-x", "c++", "-std=c++20",
			"-I" + gtestRoot + "/googletest/include", "-I" + gtestRoot + "/googletest",
			"-I" + gtestRoot + "/googlemock/include", "-I" + gtestRoot + "/googlemock"},
		filter: "testing",
		// GoogleTest's own unity builds: each includes every source
		// and, through them, the headers (the standard library is
		// parsed twice, not once per file)
		units: func(root string) []string {
			return []string{root + "/googletest/src/gtest-all.cc", root + "/googlemock/src/gmock-all.cc"}
		},
	},
}

// agreement counts how often Extract agrees with clang, and the names
// left out of the comparison.
type agreement struct {
	langtest.Agreement
	excludedConditional int // names left out: defined under #if (clang sees one branch)
	excludedMacro       int // names left out: macros, or sharing a name with one
}

// compareFile adds one file to a: Extract's symbols against the
// reference's declarations, the names filter keeps and none left out.
func (a *agreement) compareFile(rel string, src []byte, ref []refDecl, filter string) error {
	x, err := extract(rel, src)
	if err != nil {
		return err
	}
	starts := lang.LineStarts(src)
	line := func(off int) int { return lang.LineOf(starts, off) }
	skip := map[string]string{} // name → why it is left out
	for _, d := range x.l.dirs {
		// object-like macros rename declarations
		// (#define fp_nquery __fp_nquery): clang sees the expansion
		if d.name == "define" && d.last >= d.first+2 && x.l.toks[d.first+2].kind == tIdent {
			skip[x.l.text(d.first+2)] = "macro"
		}
	}
	for _, d := range x.p.decls {
		switch {
		case d.cat == catMacro:
			skip[d.name] = "macro"
		case x.l.conditional(d.cond):
			if skip[d.name] == "" {
				skip[d.name] = "if"
			}
		}
	}
	for _, d := range ref {
		i, found := slices.BinarySearchFunc(x.l.toks, d.start, func(t tok, off int) int { return int(t.off) - off })
		if found && x.l.conditional(x.l.toks[i].cond) && skip[d.name] == "" {
			skip[d.name] = "if"
		}
		if !found {
			// clang's begin is no token of Extract's: inside a
			// macro's text, or a branch Extract does not read
			skip[d.name] = "if"
		}
	}
	// compared reports whether the name n is compared, and counts it
	// once when it is left out.
	counted := map[string]bool{}
	compared := func(n string) bool {
		if filter != "" && n != filter && !strings.HasPrefix(n, filter+".") {
			return false
		}
		if skip[n] != "" && !counted[n] {
			counted[n] = true
			if skip[n] == "if" {
				a.excludedConditional++
			} else {
				a.excludedMacro++
			}
		}
		return skip[n] == ""
	}
	f := x.file()
	f.Symbols = slices.DeleteFunc(f.Symbols, func(s lang.Symbol) bool { return !compared(s.Name) })
	f.Ambiguous = slices.DeleteFunc(f.Ambiguous, func(n string) bool { return !compared(n) })
	var want langtest.RefFile
	for n, r := range refSymbols(ref) {
		switch {
		case !compared(n):
		case r[0] < 0:
			want.Ambiguous = append(want.Ambiguous, n)
		default:
			want.Symbols = append(want.Symbols, langtest.RefSymbol{Name: n, Start: line(r[0]), End: line(max(r[1]-1, r[0]))})
		}
	}
	a.Add(rel, f, nil, want)
	return nil
}

// run compares Extract with clang on every file of c, two clang processes
// at a time.
// list returns the corpus's files, sorted.
func (c corpus) list(t *testing.T) []string {
	t.Helper()
	var files []string
	var installed map[string]bool
	if c.packages != nil {
		out, err := exec.Command("dpkg", append([]string{"-L"}, c.packages...)...).Output()
		if err != nil {
			t.Fatalf("dpkg -L %s (test.sh installs them): %v", strings.Join(c.packages, " "), err)
		}
		installed = map[string]bool{}
		for _, l := range strings.Split(string(out), "\n") {
			installed[l] = true
		}
	}
	err := filepath.WalkDir(c.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(c.root, p)
		if !d.IsDir() && c.files(filepath.ToSlash(rel)) && (installed == nil || installed[p]) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the corpus %s is missing (test.sh installs its Debian package): %v", c.root, err)
	}
	slices.Sort(files)
	return files
}

func (c corpus) run(t *testing.T) *agreement {
	t.Helper()
	if _, err := exec.LookPath("clang"); err != nil {
		t.Fatalf("clang is needed (Debian package clang; test.sh installs it): %v", err)
	}
	files := c.list(t)
	corpusFiles := map[string]bool{}
	for _, p := range files {
		corpusFiles[p] = true
	}
	units := files
	if c.units != nil {
		units = c.units(c.root)
	}
	type result struct {
		refs map[string][]refDecl
		err  error
	}
	results := make([]result, len(units))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				want := func(f string) bool { return f == units[i] }
				if c.units != nil {
					want = func(f string) bool { return corpusFiles[f] }
				}
				refs, err := runClang(units[i], c.args, c.filter, want)
				results[i] = result{refs, err}
			}
		}()
	}
	for i := range units {
		next <- i
	}
	close(next)
	wg.Wait()
	a := &agreement{Agreement: langtest.Agreement{Reference: "clang"}}
	refs := map[string][]refDecl{}
	for i, r := range results {
		if r.err != nil {
			a.Skipped++
			if c.units != nil {
				t.Errorf("clang %s: %v", units[i], r.err)
			}
			continue
		}
		for f, ds := range r.refs {
			if _, ok := refs[f]; !ok {
				refs[f] = ds
			}
		}
	}
	for _, p := range files {
		ref, ok := refs[p]
		if !ok {
			continue // no unit compiles it
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(c.root, p)
		if err := a.compareFile(filepath.ToSlash(rel), src, ref, c.filter); err != nil {
			t.Errorf("Extract refuses a file clang compiles: %v", err)
		}
	}
	return a
}

// TestConformance compares Extract with clang's AST on real C and C++
// (langtest.Agreement): at least 99.5% of names and 99% of each range end
// must agree, over at least 1,000 symbols compared per corpus
// (langtest.Corpus). Names defined under #if (clang sees one
// branch), macros and names shared with a macro (clang's AST has no
// macros) are left out and counted; so are files clang does not compile
// on their own.
func TestConformance(t *testing.T) {
	for _, c := range corpora {
		t.Run(strings.SplitN(c.name, ":", 2)[0], func(t *testing.T) {
			a := c.run(t)
			a.Report(t, fmt.Sprintf("%s (left out: %d names under #if, %d macro names)", c.name, a.excludedConditional, a.excludedMacro), langtest.Corpus)
		})
	}
}

// BenchmarkExtractC extracts GoogleTest's and GoogleMock's sources and
// headers (Debian googletest) and the C library's top-level headers, and
// reports symbols/s and lines/s.
func BenchmarkExtractC(b *testing.B) {
	type item struct {
		path string
		src  []byte
	}
	var items []item
	for _, pat := range []string{gtestRoot + "/*/src/*.cc", gtestRoot + "/*/include/*/*.h", gtestRoot + "/*/include/*/internal/*.h", "/usr/include/*.h"} {
		names, _ := filepath.Glob(pat)
		for _, p := range names {
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Extract(p, src); err != nil {
				continue // the benchmark measures files that parse
			}
			items = append(items, item{p, src})
		}
	}
	if len(items) < 100 {
		b.Fatalf("only %d corpus files (Debian packages googletest and libc6-dev; test.sh installs them)", len(items))
	}
	slices.SortFunc(items, func(x, y item) int { return strings.Compare(x.path, y.path) })
	langtest.BenchExtract(b, items, func(it item) (string, []byte) { return it.path, it.src }, Extract)
}
