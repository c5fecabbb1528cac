package claims

import (
	"cmp"
	"path"
	"slices"
	"strconv"
	"strings"
)

// documentOf returns the document folder of a file under requirements/:
// "requirements/system/brakes/SYS-1.md" gives "system/brakes", a top-level
// requirement "".
func documentOf(rel string) string {
	dir := path.Dir(strings.TrimPrefix(rel, "requirements/"))
	if dir == "." {
		return ""
	}
	return dir
}

// CompareIDs orders ids naturally: runs of digits compare as numbers, so
// REQ-2 comes before REQ-10; other runs compare byte-wise. Ids equal under
// that order (REQ-01, REQ-1) fall back to byte order, so the order is total.
func CompareIDs(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(rune(a[i])) && isDigit(rune(b[j])) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			x, y := strings.TrimLeft(a[i:ei], "0"), strings.TrimLeft(b[j:ej], "0")
			if c := cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y)); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(rune(s[i])) {
		i++
	}
	return i
}

// validLevel reports whether s is a level: numbers joined by dots ("1",
// "1.2.3", Doorstop's heading level "2.0").
func validLevel(s string) bool {
	if s == "" {
		return false
	}
	for p := range strings.SplitSeq(s, ".") {
		if p == "" || len(p) > 9 || strings.TrimLeft(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// levelParts splits a valid level into its numbers; a trailing 0 (a
// Doorstop heading, "2.0") is dropped, so "2.0" sorts as "2".
func levelParts(s string) []int {
	var out []int
	for p := range strings.SplitSeq(s, ".") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	for len(out) > 1 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// CompareLevels orders levels numerically, part by part ("1.2" < "1.10"),
// a level before the levels under it ("1" < "1.1"). An empty level sorts
// after every level.
func CompareLevels(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	return slices.Compare(levelParts(a), levelParts(b))
}

// CompareInDocument is the order of requirements within a document: by
// level, then naturally by id.
func CompareInDocument(a, b *Requirement) int {
	return cmp.Or(CompareLevels(a.Level, b.Level), CompareIDs(a.ID, b.ID), strings.Compare(a.Doc.File, b.Doc.File))
}

// Depth is how deep a level nests: "1" is 1, "1.2.3" is 3, "2.0" is 1; 1
// for no level.
func Depth(level string) int {
	if level == "" {
		return 1
	}
	return len(levelParts(level))
}

// addDocuments makes a document of every folder under requirements/ that
// holds a requirement or a document, whether it has an _index.md or not.
func (l *linker) addDocuments() {
	have := map[string]bool{}
	for _, d := range l.m.Documents {
		have[d.Path] = true
	}
	var add func(folder string)
	add = func(folder string) {
		if folder == "" || folder == "." || have[folder] {
			return
		}
		have[folder] = true
		l.m.Documents = append(l.m.Documents, &Document{Path: folder, Title: path.Base(folder)})
		add(path.Dir(folder))
	}
	for _, r := range l.m.Requirements {
		add(r.Document)
	}
	for _, d := range slices.Clone(l.m.Documents) {
		add(path.Dir(d.Path))
	}
}

// checkParents reports parents that do not exist and cycles of parent
// links. A cycle is reported once, at the parent entry that closes it,
// naming every requirement on it with its file.
func (l *linker) checkParents() {
	for _, r := range l.m.Requirements {
		for _, p := range r.Parents {
			if _, _, external := CutExternal(p.ID); l.reqs[p.ID] == nil && !external {
				l.diags.Add(p.Pos, CodeUnknownRef, "unknown requirement %q in parent", p.ID)
			}
		}
	}
	// Depth-first search in model order (sorted by file name, then id),
	// so the cycle reported is the same whatever the order of files.
	reqs := slices.Clone(l.m.Requirements)
	slices.SortFunc(reqs, func(a, b *Requirement) int {
		return cmp.Or(strings.Compare(a.Doc.File, b.Doc.File), strings.Compare(a.ID, b.ID))
	})
	const (
		white = iota
		grey
		black
	)
	color := map[*Requirement]int{}
	var stack []*Requirement
	var visit func(r *Requirement)
	visit = func(r *Requirement) {
		color[r] = grey
		stack = append(stack, r)
		for _, p := range r.Parents {
			q := l.reqs[p.ID]
			switch {
			case q == nil:
			case color[q] == grey:
				i := slices.Index(stack, q)
				var names []string
				for _, s := range stack[i:] {
					names = append(names, s.ID+" ("+s.Doc.File+")")
				}
				names = append(names, q.ID)
				if q == r {
					l.diags.Add(p.Pos, CodeField, "requirement %q (%s) is its own parent", r.ID, r.Doc.File)
				} else {
					l.diags.Add(p.Pos, CodeField, "parent cycle: %s (a requirement cannot refine itself through its parents; remove one of these parent links)", strings.Join(names, " -> "))
				}
			case color[q] == white:
				visit(q)
			}
		}
		stack = stack[:len(stack)-1]
		color[r] = black
	}
	for _, r := range reqs {
		if color[r] == white {
			visit(r)
		}
	}
}
