// Package textdiff computes the unified diff of two texts' lines: the drift
// page shows what was captured beside what is there now with it, and the
// revision page shows how a requirement's text changed with it.
package textdiff

import (
	"strconv"
	"strings"
)

// MaxEdits bounds the work of [Unified]: when more than this many
// lines must be deleted and inserted, it gives up on a minimal diff and
// replaces everything in one hunk.
const MaxEdits = 2000

// Unified returns the unified diff (as diff -u prints it) that turns
// the lines old into the lines new, under the headers "--- oldName" and
// "+++ newName", with context lines of context around each change
// (negative means 0). Lines are given without their newline and must not
// contain one. It returns "" when old and new are equal.
//
// The diff is minimal, found with Myers' O(ND) algorithm in its linear
// space form. When it would take more than [MaxEdits] edits, the diff
// is one hunk deleting all of old and inserting all of new, followed by a
// line saying so (patch tools skip such a line after the last hunk).
func Unified(oldName, newName string, old, new []string, context int) string {
	context = max(context, 0)
	// Lines become small integers, so comparing two lines is one compare.
	ids := map[string]int32{}
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	d := &differ{a: intern(old), b: intern(new)}
	d.del = make([]bool, len(old))
	d.ins = make([]bool, len(new))

	var out strings.Builder
	a0, a1, b0, b1 := d.trim(0, len(old), 0, len(new))
	if a0 == a1 && b0 == b1 {
		return ""
	}
	out.WriteString("--- " + oldName + "\n+++ " + newName + "\n")
	if !d.diff(a0, a1, b0, b1, MaxEdits) {
		fmtHunkHeader(&out, 0, len(old), 0, len(new))
		writeLines(&out, '-', old)
		writeLines(&out, '+', new)
		out.WriteString("(more than " + strconv.Itoa(MaxEdits) + " lines changed: this diff replaces everything instead of finding the smallest diff)\n")
		return out.String()
	}

	// Group the changes into hunks: changes closer than 2*context
	// unchanged lines share one.
	changes := d.changes()
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].a0-changes[j-1].a1 <= 2*context {
			j++
		}
		first, last := changes[i], changes[j-1]
		ha0 := max(first.a0-context, 0)
		ha1 := min(last.a1+context, len(old))
		hb0 := first.b0 - (first.a0 - ha0)
		hb1 := last.b1 + (ha1 - last.a1)
		fmtHunkHeader(&out, ha0, ha1, hb0, hb1)
		at := ha0
		for _, c := range changes[i:j] {
			writeLines(&out, ' ', old[at:c.a0])
			writeLines(&out, '-', old[c.a0:c.a1])
			writeLines(&out, '+', new[c.b0:c.b1])
			at = c.a1
		}
		writeLines(&out, ' ', old[at:ha1])
		i = j
	}
	return out.String()
}

// diffChange replaces a[a0:a1] with b[b0:b1].
type diffChange struct{ a0, a1, b0, b1 int }

// fmtHunkHeader writes "@@ -a,b +c,d @@" as GNU diff does: a range of one
// line is just its number, and an empty range names the line before it.
func fmtHunkHeader(out *strings.Builder, a0, a1, b0, b1 int) {
	rng := func(lo, hi int) string {
		switch hi - lo {
		case 0:
			return strconv.Itoa(lo) + ",0"
		case 1:
			return strconv.Itoa(lo + 1)
		}
		return strconv.Itoa(lo+1) + "," + strconv.Itoa(hi-lo)
	}
	out.WriteString("@@ -" + rng(a0, a1) + " +" + rng(b0, b1) + " @@\n")
}

func writeLines(out *strings.Builder, prefix byte, lines []string) {
	for _, l := range lines {
		out.WriteByte(prefix)
		out.WriteString(l)
		out.WriteByte('\n')
	}
}

// differ finds a shortest edit script from a to b and marks it in del (the
// lines of a deleted) and ins (the lines of b inserted), as GNU diff does.
type differ struct {
	a, b     []int32
	del, ins []bool
	vf, vb   []int // furthest x per diagonal, forward and backward
}

// trim returns the range left when the common prefix and suffix are
// removed from a[a0:a1] and b[b0:b1].
func (d *differ) trim(a0, a1, b0, b1 int) (int, int, int, int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	return a0, a1, b0, b1
}

// diff marks a shortest edit script for a[a0:a1] → b[b0:b1], or reports
// false when it takes more than limit edits (marking nothing then).
func (d *differ) diff(a0, a1, b0, b1, limit int) bool {
	if a0 == a1 || b0 == b1 {
		d.mark(a0, a1, b0, b1) // no search: as cheap as the fallback
		return true
	}
	// Each half of the search needs diagonals up to (D+1)/2 each way.
	half := min((a1-a0+b1-b0+1)/2, (limit+1)/2) + 1
	d.vf = make([]int, 2*half+3)
	d.vb = make([]int, 2*half+3)
	x, y, u, v, edits := d.middleSnake(a0, a1, b0, b1, half)
	if edits < 0 || edits > limit {
		return false
	}
	d.split(a0, a1, b0, b1, x, y, u, v)
	return true
}

// compare marks a shortest edit script for a[a0:a1] → b[b0:b1]: it trims
// the common ends, finds the middle snake of an optimal path and recurses
// on both sides of it. Each side has fewer edits than the whole, so the
// recursion ends, at a depth of O(log D).
func (d *differ) compare(a0, a1, b0, b1 int) {
	a0, a1, b0, b1 = d.trim(a0, a1, b0, b1)
	if a0 == a1 || b0 == b1 {
		d.mark(a0, a1, b0, b1)
		return
	}
	x, y, u, v, edits := d.middleSnake(a0, a1, b0, b1, (len(d.vf)-3)/2)
	if edits < 0 {
		panic("diff: middle snake not found within the bound of the whole diff")
	}
	d.split(a0, a1, b0, b1, x, y, u, v)
}

func (d *differ) split(a0, a1, b0, b1, x, y, u, v int) {
	d.compare(a0, x, b0, y)
	d.compare(u, a1, v, b1)
}

// mark marks a range where one side is empty: all deleted or all inserted.
func (d *differ) mark(a0, a1, b0, b1 int) {
	for i := a0; i < a1; i++ {
		d.del[i] = true
	}
	for j := b0; j < b1; j++ {
		d.ins[j] = true
	}
}

// middleSnake finds the middle snake of a shortest path from (a0, b0) to
// (a1, b1) (Myers 1986, section 4b): it runs the greedy search forward
// from the start and backward from the end, one edit at a time each, until
// the two overlap. It returns the snake (x, y) → (u, v) in absolute
// positions and the path's number of edits, or edits -1 when each search
// would need more than maxD edits.
//
// As in GNU diff, the diagonals searched are kept inside the grid
// (-m ≤ k ≤ n), but a furthest point may still lie past its right or
// bottom edge: a search does as if the sequences went on with lines that
// match nothing. Such a point is harmless. A path to a point k past the
// edge, cut back to the edge, gives a path to the end short enough that
// 2*D-1 ≤ D_opt ≤ D-2-delta+k, so k > D+delta, while every diagonal the
// overlap tests look at has k ≤ D+delta (likewise backward); the optimal
// path's own points are inside, so its overlap is still found.
func (d *differ) middleSnake(a0, a1, b0, b1, maxD int) (x, y, u, v, edits int) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 != 0
	off := maxD + 1 // index of diagonal 0 in vf and vb
	vf, vb := d.vf, d.vb
	// Forward, k = x-y and vf holds x. Backward, in reversed coordinates
	// (x' = n-x, y' = m-y), k' = x'-y' = delta-k and vb holds x'.
	// [fLo, fHi] and [bLo, bHi] are the diagonals of the last step.
	fLo, fHi, bLo, bHi := 1, 0, 1, 0
	for D := 0; D <= maxD; D++ {
		lo, hi := diagRange(D, n, m)
		for k := lo; k <= hi; k += 2 {
			px := d.furthest(vf, off, k, D, fLo, fHi)
			py := px - k
			sx, sy := px, py
			for px < n && py < m && d.a[a0+px] == d.b[b0+py] {
				px, py = px+1, py+1
			}
			vf[off+k] = px
			if kb := delta - k; odd && kb >= bLo && kb <= bHi && px+vb[off+kb] >= n {
				return a0 + sx, b0 + sy, a0 + px, b0 + py, 2*D - 1
			}
		}
		fLo, fHi = lo, hi
		for k := lo; k <= hi; k += 2 {
			px := d.furthest(vb, off, k, D, bLo, bHi)
			py := px - k
			sx, sy := px, py
			for px < n && py < m && d.a[a1-1-px] == d.b[b1-1-py] {
				px, py = px+1, py+1
			}
			vb[off+k] = px
			if kf := delta - k; !odd && kf >= fLo && kf <= fHi && px+vf[off+kf] >= n {
				return a1 - px, b1 - py, a1 - sx, b1 - sy, 2 * D
			}
		}
		bLo, bHi = lo, hi
	}
	return 0, 0, 0, 0, -1
}

// diagRange returns the diagonals of step D inside an n×m grid: from -D
// to D by twos, clipped to -m..n.
func diagRange(D, n, m int) (lo, hi int) {
	lo, hi = -D, D
	if lo < -m {
		lo = -m + (D-m)&1
	}
	if hi > n {
		hi = n - (D-n)&1
	}
	return lo, hi
}

// furthest returns where step D starts on diagonal k: one edit from the
// furthest point of step D-1 on diagonal k+1 (down, an insertion) or k-1
// (right, a deletion), whichever reaches further; [lo, hi] are the
// diagonals step D-1 reached.
func (d *differ) furthest(v []int, off, k, D, lo, hi int) int {
	if D == 0 {
		return 0
	}
	down := k+1 >= lo && k+1 <= hi
	right := k-1 >= lo && k-1 <= hi
	if down && (!right || v[off+k-1] < v[off+k+1]) {
		return v[off+k+1]
	}
	return v[off+k-1] + 1
}

// changes lists the runs of deleted and inserted lines, in order.
func (d *differ) changes() []diffChange {
	var cs []diffChange
	i, j := 0, 0
	for i < len(d.a) || j < len(d.b) {
		if i < len(d.a) && j < len(d.b) && !d.del[i] && !d.ins[j] {
			i, j = i+1, j+1
			continue
		}
		c := diffChange{a0: i, b0: j}
		for i < len(d.a) && d.del[i] {
			i++
		}
		for j < len(d.b) && d.ins[j] {
			j++
		}
		c.a1, c.b1 = i, j
		if c.a0 == c.a1 && c.b0 == c.b1 {
			panic("diff: unchanged lines left over") // a bug in the marking
		}
		cs = append(cs, c)
	}
	return cs
}
