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

// agreement counts how often Extract agrees with clang.
type agreement struct {
	files, skipped       int
	excludedConditional  int // names left out: defined under #if (clang sees one branch)
	excludedMacro        int // names left out: macros, or sharing a name with one
	names, namesAgreed   int
	ranges, starts, ends int
	refSymbols           int
	disagreements        []string
}

func pct(n, d int) float64 {
	if d == 0 {
		return 100
	}
	return 100 * float64(n) / float64(d)
}

func (a *agreement) String() string {
	return fmt.Sprintf("%d files (%d skipped: clang reports an error), %d clang symbols; names %d/%d = %.3f%%; start %d/%d = %.3f%%; end %d/%d = %.3f%%; left out: %d names under #if, %d macro names",
		a.files, a.skipped, a.refSymbols, a.namesAgreed, a.names, pct(a.namesAgreed, a.names),
		a.starts, a.ranges, pct(a.starts, a.ranges), a.ends, a.ranges, pct(a.ends, a.ranges),
		a.excludedConditional, a.excludedMacro)
}

// compareFile adds one file to a: Extract's symbols against the
// reference's declarations.
func (a *agreement) compareFile(rel string, src []byte, ref []refDecl, filter string) error {
	x, err := extract(rel, src)
	if err != nil {
		return err
	}
	a.files++
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
	in := func(name string) bool {
		return filter == "" || name == filter || strings.HasPrefix(name, filter+".")
	}
	syms, amb := group(x.p.decls, x.l.exclusive)
	got := map[string][2]int{}
	for _, s := range syms {
		got[s.name] = [2]int{line(s.start), line(max(s.end-1, s.start))}
	}
	for _, n := range amb {
		got[n] = [2]int{-1, -1}
	}
	want := map[string][2]int{}
	for n, r := range refSymbols(ref) {
		if r[0] >= 0 {
			r = [2]int{line(r[0]), line(max(r[1]-1, r[0]))}
		}
		want[n] = r
	}
	var names []string
	for n := range got {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := got[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		if !in(n) {
			continue
		}
		switch skip[n] {
		case "if":
			a.excludedConditional++
			continue
		case "macro":
			a.excludedMacro++
			continue
		}
		g, gok := got[n]
		w, wok := want[n]
		a.names++
		if wok && w[0] >= 0 {
			a.refSymbols++
		}
		switch {
		case !gok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %d-%d: missing", rel, n, w[0], w[1]))
			continue
		case !wok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %d-%d: unknown to clang", rel, n, g[0], g[1]))
			continue
		case (g[0] < 0) != (w[0] < 0):
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: lines %d-%d, clang %d-%d (-1: ambiguous)", rel, n, g[0], g[1], w[0], w[1]))
			continue
		}
		a.namesAgreed++
		if g[0] < 0 {
			continue
		}
		a.ranges++
		if g[0] == w[0] {
			a.starts++
		}
		if g[1] == w[1] {
			a.ends++
		}
		if g != w {
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: lines %d-%d, clang %d-%d", rel, n, g[0], g[1], w[0], w[1]))
		}
	}
	return nil
}

// run compares Extract with clang on every file of c, two clang processes
// at a time.
func (c corpus) run(t *testing.T) *agreement {
	t.Helper()
	if _, err := exec.LookPath("clang"); err != nil {
		t.Fatalf("clang is needed (Debian package clang; test.sh installs it): %v", err)
	}
	corpusFiles := map[string]bool{}
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
			corpusFiles[p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the corpus %s is missing (test.sh installs its Debian package): %v", c.root, err)
	}
	slices.Sort(files)
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
	a := &agreement{}
	refs := map[string][]refDecl{}
	for i, r := range results {
		if r.err != nil {
			a.skipped++
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

// TestConformance compares Extract with clang's AST on real C and C++: at
// least 99.5% of names and 99% of each range end must agree, over at least
// 1,000 clang symbols per corpus. Names defined under #if (clang sees one
// branch), macros and names shared with a macro (clang's AST has no
// macros) are left out and counted; so are files clang does not compile
// on their own.
func TestConformance(t *testing.T) {
	for _, c := range corpora {
		t.Run(strings.SplitN(c.name, ":", 2)[0], func(t *testing.T) {
			a := c.run(t)
			t.Logf("%s: %s", c.name, a)
			for i, d := range a.disagreements {
				if i == showDisagreements {
					t.Logf("... and %d more", len(a.disagreements)-i)
					break
				}
				t.Log(d)
			}
			if a.refSymbols < 1000 {
				t.Errorf("only %d clang symbols compared; want at least 1,000", a.refSymbols)
			}
			if p := pct(a.namesAgreed, a.names); p < 99.5 {
				t.Errorf("names agree %.3f%%, want at least 99.5%%", p)
			}
			if p := pct(a.starts, a.ranges); p < 99 {
				t.Errorf("range starts agree %.3f%%, want at least 99%%", p)
			}
			if p := pct(a.ends, a.ranges); p < 99 {
				t.Errorf("range ends agree %.3f%%, want at least 99%%", p)
			}
		})
	}
}

// showDisagreements is how many disagreements a corpus run logs.
var showDisagreements = 40
