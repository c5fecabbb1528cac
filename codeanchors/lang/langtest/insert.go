package langtest

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// An Insertion is one well-formed declaration the insertion property
// ([CheckInsertions]) puts between two declarations of a file.
type Insertion struct {
	// Text is the declaration, written at indentation 0 and ending in a
	// newline; it is re-indented to the declaration after it.
	Text string
	// Symbols are what it adds: each name is the symbol's name without
	// the prefix of the scope it lands in ("pick" may be found as
	// "ns.pick"), its lines relative to Text's first line (1-based).
	// Kinds are not compared: a test file makes every symbol a test.
	Symbols []lang.Symbol
	// Nested allows it between the members of a type too (a class is a
	// member of a class in Java; a function is not a member in Go).
	Nested bool
}

// MaxInsertPositions bounds the positions tried per case, spread evenly
// over its declarations, so that each language's property test runs in a
// second or two.
const MaxInsertPositions = 12

// MinInsertVariants is the least number of variants a language's
// property test must extract successfully: fewer, and the property is
// not exercised.
const MinInsertVariants = 20

// CheckInsertions checks the insertion property of a language's
// extractor on the golden cases (its corpus of real-looking files):
// inserting one well-formed declaration from decls between two sibling
// declarations of a file (top-level ones; the members of a type too for a
// Nested one) keeps every symbol the file had, with the same name and its
// lines shifted by the inserted lines, keeps the ambiguous names, and adds
// exactly the declaration's symbols. Or Extract fails with a
// "path:line[:col]: message" error: a scanner may refuse what it cannot
// read, never lose symbols silently. Every declaration of decls must be
// read somewhere (a declaration that is refused everywhere is a fault
// too).
func CheckInsertions(t *testing.T, l lang.Language, cases []Case, decls []Insertion) {
	t.Helper()
	var compared, refused int
	accepted := make([]int, len(decls))
	for _, c := range cases {
		src := strings.ReplaceAll(string(c.Src), "\r\n", "\n")
		f, err := l.Extract(c.Path, []byte(src))
		if err != nil {
			continue
		}
		lines := strings.SplitAfter(src, "\n")
		if !strings.HasSuffix(src, "\n") && src != "" {
			lines[len(lines)-1] += "\n"
		}
		for _, pos := range insertPositions(f.Symbols) {
			if strings.HasSuffix(strings.TrimSpace(lines[pos.after-1]), ",") {
				continue // between two declarators of one statement (let a = ..., b = ...)
			}
			indent := leadingSpace(lines[pos.prev.Start-1])
			for di, d := range decls {
				if pos.nested && !d.Nested || collides(f, d) {
					continue
				}
				text := reindentDecl(d.Text, indent)
				variant := strings.Join(lines[:pos.after], "") + text + strings.Join(lines[pos.after:], "")
				g, err := l.Extract(c.Path, []byte(variant))
				if err != nil {
					if !fileLineError(c.Path).MatchString(err.Error()) {
						t.Errorf("%s: inserting after line %d:\n%s: error %q does not name path:line", c.File, pos.after, text, err)
					}
					refused++
					continue
				}
				compared++
				accepted[di]++
				if msg := insertionDiff(f, g, d, pos.after, strings.Count(text, "\n")); msg != "" {
					t.Errorf("%s: inserting after line %d (before %s):\n%s%s", c.File, pos.after, pos.next.Name, text, msg)
				}
			}
		}
	}
	t.Logf("%d variants read, %d refused with a path:line error", compared, refused)
	for i, n := range accepted {
		if n == 0 {
			t.Errorf("declaration refused (or never tried) at every position:\n%s", decls[i].Text)
		}
	}
	if compared < MinInsertVariants {
		t.Errorf("only %d variants read, want at least %d: the property is not exercised", compared, MinInsertVariants)
	}
}

// insertPosition is a place between two sibling declarations: after line
// after (1-based; the text goes on the next line), the end of prev, before
// next. The text takes prev's indentation: in Python the next sibling may
// lie in another block (if ...: def f() / else: def g()).
type insertPosition struct {
	after      int
	prev, next lang.Symbol
	nested     bool // inside a type, between its members
}

// insertPositions returns the places between consecutive siblings of
// syms (sorted by start): symbols with the same parent, the symbol whose
// range contains theirs and whose name prefixes theirs, where no other
// symbol spans the gap. A place inside a type (a parent, or next to a
// method: Rust's methods lie outside their type's range, and a type whose
// name is ambiguous is no parent) is nested. It returns at most [MaxInsertPositions], spread evenly.
func insertPositions(syms []lang.Symbol) []insertPosition {
	parent := make([]int, len(syms))
	for i, s := range syms {
		parent[i] = -1
		for j, p := range syms {
			if j != i && p.Start <= s.Start && s.End <= p.End && strings.HasPrefix(s.Name, p.Name+".") &&
				(parent[i] < 0 || len(p.Name) > len(syms[parent[i]].Name)) {
				parent[i] = j
			}
		}
	}
	// spans reports whether a symbol other than i's ancestors spans the
	// gap after line a
	spans := func(i, a int) bool {
		for k, x := range syms {
			if x.Start <= a && a < x.End {
				anc := parent[i]
				for anc >= 0 && anc != k {
					anc = parent[anc]
				}
				if anc < 0 {
					return true
				}
			}
		}
		return false
	}
	var all []insertPosition
	for i, s := range syms {
		for j := i + 1; j < len(syms); j++ {
			if parent[j] != parent[i] {
				continue
			}
			n := syms[j]
			inFunc := parent[i] >= 0 && (syms[parent[i]].Kind == lang.KindFunc || syms[parent[i]].Kind == lang.KindMethod)
			if s.End < n.Start && !inFunc && !spans(i, s.End) {
				all = append(all, insertPosition{after: s.End, prev: s, next: n, nested: parent[i] >= 0 || s.Kind == lang.KindMethod || n.Kind == lang.KindMethod})
			}
			break
		}
	}
	if len(all) <= MaxInsertPositions {
		return all
	}
	picked := make([]insertPosition, 0, MaxInsertPositions)
	for k := range MaxInsertPositions {
		picked = append(picked, all[k*len(all)/MaxInsertPositions])
	}
	return picked
}

// collides reports whether a name d adds is already a symbol's or an
// ambiguous name's last segment in f: the variant would merge overloads or
// make a name ambiguous, which the property does not predict.
func collides(f *lang.File, d Insertion) bool {
	last := func(n string) string { return n[strings.LastIndexByte(n, '.')+1:] }
	for _, w := range d.Symbols {
		for _, s := range f.Symbols {
			if last(s.Name) == last(w.Name) {
				return true
			}
		}
		for _, a := range f.Ambiguous {
			if last(a) == last(w.Name) {
				return true
			}
		}
	}
	return false
}

// insertionDiff compares the variant's symbols (g) with the original's
// (f) and the inserted declaration's (d, n lines after line after): ""
// when they agree, else what differs.
func insertionDiff(f, g *lang.File, d Insertion, after, n int) string {
	shift := func(line int) int {
		if line > after {
			return line + n
		}
		return line
	}
	var b strings.Builder
	got := map[string]lang.Symbol{}
	for _, s := range g.Symbols {
		got[s.Name] = s
	}
	for _, s := range f.Symbols {
		v, ok := got[s.Name]
		switch {
		case !ok:
			fmt.Fprintf(&b, "  lost %s (lines %d-%d)\n", s.Name, s.Start, s.End)
		case v.Start != shift(s.Start) || v.End != shift(s.End):
			fmt.Fprintf(&b, "  %s: lines %d-%d, want %d-%d\n", s.Name, v.Start, v.End, shift(s.Start), shift(s.End))
		}
		delete(got, s.Name)
	}
	if !slices.Equal(f.Ambiguous, g.Ambiguous) {
		fmt.Fprintf(&b, "  ambiguous %q, want %q\n", g.Ambiguous, f.Ambiguous)
	}
	scope := insertedScope(got, d)
	for _, w := range d.Symbols {
		found := scope + w.Name
		if _, ok := got[found]; !ok {
			fmt.Fprintf(&b, "  missing the inserted %s\n", w.Name)
			continue
		}
		if v := got[found]; v.Start != after+w.Start || v.End != after+w.End {
			fmt.Fprintf(&b, "  inserted %s: lines %d-%d, want %d-%d\n", found, v.Start, v.End, after+w.Start, after+w.End)
		}
		delete(got, found)
	}
	extra := make([]string, 0, len(got))
	for name := range got {
		extra = append(extra, name)
	}
	slices.Sort(extra)
	for _, name := range extra {
		fmt.Fprintf(&b, "  unexpected symbol %s\n", name)
	}
	return b.String()
}

// insertedScope returns the prefix ("", "ns.", "Outer.") of the scope
// the symbols of d landed in among the new symbols got: the shortest with
// which every one of them is found, or the shortest with which the first
// is.
func insertedScope(got map[string]lang.Symbol, d Insertion) string {
	var scopes []string
	first := d.Symbols[0].Name
	for name := range got {
		if name == first || strings.HasSuffix(name, "."+first) {
			scopes = append(scopes, strings.TrimSuffix(name, first))
		}
	}
	slices.SortFunc(scopes, func(a, b string) int { return cmp.Or(len(a)-len(b), strings.Compare(a, b)) })
	for _, sc := range scopes {
		all := true
		for _, w := range d.Symbols {
			if _, ok := got[sc+w.Name]; !ok {
				all = false
			}
		}
		if all {
			return sc
		}
	}
	if len(scopes) > 0 {
		return scopes[0]
	}
	return ""
}

// fileLineError matches an error that names path and a line.
func fileLineError(path string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `:[0-9]+(:[0-9]+)?: `)
}

// leadingSpace returns the spaces and tabs that start line.
func leadingSpace(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// reindentDecl puts indent before every non-blank line of text.
func reindentDecl(text, indent string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(indent)
		}
		b.WriteString(l)
	}
	return b.String()
}

// Sym is the symbol an [Insertion] adds: name, its first and last line.
func Sym(name string, start, end int) lang.Symbol {
	return lang.Symbol{Name: name, Start: start, End: end}
}
