package textdiff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func splitSpaces(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

var diffCases = []struct {
	name     string
	old, new string // lines separated by spaces
	context  int
	want     string // without the two header lines
}{
	{"equal", "a b c", "a b c", 3, ""},
	{"both empty", "", "", 3, ""},
	{"add to empty", "", "a b", 3, "@@ -0,0 +1,2 @@\n+a\n+b\n"},
	{"delete all", "a b", "", 3, "@@ -1,2 +0,0 @@\n-a\n-b\n"},
	{"one line changed", "a", "b", 3, "@@ -1 +1 @@\n-a\n+b\n"},
	{"insert at start", "b c d e f", "a b c d e f", 3, "@@ -1,3 +1,4 @@\n+a\n b\n c\n d\n"},
	{"append", "a b c d e", "a b c d e f", 3, "@@ -3,3 +3,4 @@\n c\n d\n e\n+f\n"},
	{"delete middle", "a b c d e f g", "a b c e f g", 1, "@@ -3,3 +3,2 @@\n c\n-d\n e\n"},
	{"zero context", "a b c d e", "a x c d y", 0, "@@ -2 +2 @@\n-b\n+x\n@@ -5 +5 @@\n-e\n+y\n"},
	{"zero context insert", "a b c", "a b x c", 0, "@@ -2,0 +3 @@\n+x\n"},
	{"zero context delete", "a b x c", "a b c", 0, "@@ -3 +2,0 @@\n-x\n"},
	{"two hunks", "1 2 3 4 5 6 7 8 9 10 11 12", "1 x 3 4 5 6 7 8 9 10 y 12", 2,
		"@@ -1,4 +1,4 @@\n 1\n-2\n+x\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n-11\n+y\n 12\n"},
	{"hunks merge within 2*context", "1 2 3 4 5 6 7 8", "1 x 3 4 5 6 y 8", 2,
		"@@ -1,8 +1,8 @@\n 1\n-2\n+x\n 3\n 4\n 5\n 6\n-7\n+y\n 8\n"},
	{"replace block", "a b c d", "a x y d", 3, "@@ -1,4 +1,4 @@\n a\n-b\n-c\n+x\n+y\n d\n"},
	{"markup and spaces", "<p>&amp; if_x_{ }", "<p>&amp; if_x_{ y }", 3,
		"@@ -1,3 +1,4 @@\n <p>&amp;\n if_x_{\n+y\n }\n"},
	{"negative context", "a b c", "a x c", -1, "@@ -2 +2 @@\n-b\n+x\n"},
}

func TestUnifiedDiff(t *testing.T) {
	for _, c := range diffCases {
		got := Unified("old", "new", splitSpaces(c.old), splitSpaces(c.new), c.context)
		want := c.want
		if want != "" {
			want = "--- old\n+++ new\n" + want
		}
		if got != want {
			t.Errorf("%s: Unified(%q, %q, %d) =\n%s\nwant\n%s", c.name, c.old, c.new, c.context, got, want)
		}
	}
}

func changedLines(diff string) int {
	n := 0
	for l := range strings.Lines(diff) {
		if (l[0] == '-' || l[0] == '+') && !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
			n++
		}
	}
	return n
}

func randomLines(r *rand.Rand, maxLen, alphabet int) []string {
	out := make([]string, r.IntN(maxLen+1))
	for i := range out {
		out[i] = string(rune('a' + r.IntN(alphabet)))
	}
	return out
}

// applyDiff applies a unified diff to old, checking every hunk header and
// every context and deleted line on the way.
func applyDiff(old []string, diff string) ([]string, error) {
	ls := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(ls) < 2 || !strings.HasPrefix(ls[0], "--- ") || !strings.HasPrefix(ls[1], "+++ ") {
		return nil, fmt.Errorf("no headers")
	}
	var out []string
	at := 0 // next line of old to copy
	parse := func(s string) (start, count int, err error) {
		a, b, ok := strings.Cut(s, ",")
		count = 1
		if ok {
			if count, err = strconv.Atoi(b); err != nil {
				return 0, 0, err
			}
		}
		start, err = strconv.Atoi(a)
		if count > 0 {
			start-- // an empty range names the line before it
		}
		return start, count, err
	}
	for i := 2; i < len(ls); {
		var hdrA, hdrB string
		if _, err := fmt.Sscanf(ls[i], "@@ -%s +%s @@", &hdrA, &hdrB); err != nil {
			if strings.HasPrefix(ls[i], "(") && i == len(ls)-1 {
				break // the fallback's note
			}
			return nil, fmt.Errorf("line %d: %q is not a hunk header", i+1, ls[i])
		}
		a0, na, err := parse(hdrA)
		if err != nil {
			return nil, err
		}
		b0, nb, err := parse(hdrB)
		if err != nil {
			return nil, err
		}
		if a0 < at || a0 > len(old) {
			return nil, fmt.Errorf("hunk %q starts at %d, before %d or past the end", ls[i], a0, at)
		}
		out = append(out, old[at:a0]...)
		if len(out) != b0 {
			return nil, fmt.Errorf("hunk %q: new side at %d, want %d", ls[i], len(out), b0)
		}
		at = a0
		i++
		for ; i < len(ls) && ls[i] != "" && strings.ContainsRune(" -+", rune(ls[i][0])); i++ {
			l := ls[i]
			if l[0] != '+' {
				if at >= len(old) || old[at] != l[1:] {
					return nil, fmt.Errorf("line %d: %q does not match old line %d", i+1, l, at+1)
				}
				at++
			}
			if l[0] != '-' {
				out = append(out, l[1:])
			}
		}
		if at-a0 != na || len(out)-b0 != nb {
			return nil, fmt.Errorf("hunk -%s +%s has %d and %d lines", hdrA, hdrB, at-a0, len(out)-b0)
		}
	}
	return append(out, old[at:]...), nil
}

// lcs returns the length of a longest common subsequence, by dynamic
// programming: a minimal diff changes len(a)+len(b)-2*lcs lines.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestUnifiedDiffProperties checks on random inputs that applying the diff
// to old gives new, and that the diff is minimal.
func TestUnifiedDiffProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		alphabet := 1 + r.IntN(6)
		old := randomLines(r, 30, alphabet)
		var new []string
		if r.IntN(2) == 0 {
			new = randomLines(r, 30, alphabet)
		} else { // an edit of old, so long common runs occur too
			new = slices.Clone(old)
			for range r.IntN(4) {
				p := r.IntN(len(new) + 1)
				switch r.IntN(2) {
				case 0:
					new = slices.Insert(new, p, randomLines(r, 3, alphabet+1)...)
				default:
					new = slices.Delete(new, p, min(p+r.IntN(3), len(new)))
				}
			}
		}
		context := r.IntN(4)
		d := Unified("a", "b", old, new, context)
		if (d == "") != slices.Equal(old, new) {
			t.Fatalf("case %d: Unified(%q, %q) = %q", i, old, new, d)
		}
		if d == "" {
			continue
		}
		got, err := applyDiff(old, d)
		if err != nil || !slices.Equal(got, new) {
			t.Fatalf("case %d: applying Unified(%q, %q, %d) =\n%s\ngives %q, %v", i, old, new, context, d, got, err)
		}
		if n, want := changedLines(d), len(old)+len(new)-2*lcs(old, new); n != want {
			t.Fatalf("case %d: Unified(%q, %q) changes %d lines, want %d\n%s", i, old, new, n, want, d)
		}
	}
}

func TestUnifiedDiffFallback(t *testing.T) {
	old := make([]string, 1500)
	new := make([]string, 1500)
	for i := range old {
		old[i], new[i] = "old "+strconv.Itoa(i), "new "+strconv.Itoa(i)
	}
	new[700] = old[700] // one line in common: still 2998 edits
	d := Unified("a", "b", old, new, 3)
	if !strings.HasPrefix(d, "--- a\n+++ b\n@@ -1,1500 +1,1500 @@\n-old 0\n") {
		t.Errorf("fallback diff starts %q", d[:60])
	}
	if !strings.HasSuffix(d, "+new 1499\n(more than 2000 lines changed: this diff replaces everything instead of finding the smallest diff)\n") {
		t.Errorf("fallback diff ends %q", d[len(d)-120:])
	}
	if got, err := applyDiff(old, d); err != nil || !slices.Equal(got, new) {
		t.Errorf("applying the fallback diff: %v", err)
	}

	// Just under the bound: a minimal diff. Lines 500 and 700 are common.
	old, new = old[:1000], new[:1000]
	new[500] = old[500]
	d = Unified("a", "b", old, new, 3)
	if strings.Contains(d, "more than") || changedLines(d) != 1996 {
		t.Errorf("1996 edits: %d changed lines, fallback %v", changedLines(d), strings.Contains(d, "more than"))
	}
	// A pure insertion needs no search, however long.
	d = Unified("a", "b", nil, new, 3)
	if strings.Contains(d, "more than") || changedLines(d) != 1000 {
		t.Errorf("insertion of 1000 lines: %d changed lines, fallback %v", changedLines(d), strings.Contains(d, "more than"))
	}
}

// BenchmarkUnifiedDiff diffs a 5000-line file against a copy with about
// one line in fifty changed.
func BenchmarkUnifiedDiff(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	old := make([]string, 5000)
	for i := range old {
		old[i] = "line " + strconv.Itoa(r.IntN(1000))
	}
	new := slices.Clone(old)
	for i := range new {
		if r.IntN(50) == 0 {
			new[i] = "changed " + strconv.Itoa(i)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		Unified("a", "b", old, new, 3)
	}
	b.ReportMetric(float64(len(old)+len(new))*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
