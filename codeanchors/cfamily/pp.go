package cfamily

// maxCondDepth bounds the nesting of #if groups, so that the work per
// token stays bounded whatever the input.
const maxCondDepth = 200

// markGuard marks the include guard: a file whose first directive is
// #ifndef X (or #if !defined X), closed by its last directive, with no code
// before or after. Its branch is not a conditional for the ambiguity rule:
// the guard holds the whole header.
func (l *lexer) markGuard() {
	if len(l.dirs) < 2 || len(l.conds) < 2 {
		return
	}
	first, last := l.dirs[0], l.dirs[len(l.dirs)-1]
	switch {
	case first.name == "ifndef":
	case first.name == "if" && first.last > first.first+2 && l.text(first.first+2) == "!":
	default:
		return
	}
	if last.name != "endif" || first.first != 0 || last.last != len(l.toks)-1 {
		return
	}
	for _, c := range l.conds[2:] {
		if c.group == 1 {
			return // an #else: not a guard
		}
	}
	// the #endif must close group 1: every branch opened after it lies
	// inside it, so at the last directive the stack held only group 1,
	// which is true when no token after the first directive is in the
	// root.
	for i := first.last + 1; i < len(l.toks); i++ {
		if l.toks[i].cond == 0 && l.toks[i].dir != int32(len(l.dirs)-1) {
			return
		}
	}
	l.conds[1].guard = true
}

// conditional reports whether branch c lies under an #if other than the
// include guard.
func (l *lexer) conditional(c int32) bool {
	for c != 0 {
		if !l.conds[c].guard {
			return true
		}
		c = l.conds[c].parent
	}
	return false
}

// exclusive reports whether branches a and b are alternatives of one
// group (#if and #else): never compiled together.
func (l *lexer) exclusive(a, b int32) bool {
	branch := map[int32]int{}
	for c := a; c != 0; c = l.conds[c].parent {
		branch[l.conds[c].group] = l.conds[c].branch
	}
	for c := b; c != 0; c = l.conds[c].parent {
		if br, ok := branch[l.conds[c].group]; ok && br != l.conds[c].branch {
			return true
		}
	}
	return false
}

// balance decides which branches of each group the declaration structure
// reads. Every branch normally: names defined in two of them are then seen
// twice (ambiguous). A group one of whose branches opens or closes a
// bracket it does not close or open (#ifdef __cplusplus / extern "C" { /
// #endif, or two variants of a function's first line) is read in its
// first branch taken only; the others are left out, as a compiler with the
// first condition true would.
func (l *lexer) balance() {
	depth := make([]int, len(l.conds))
	for i := 1; i < len(l.conds); i++ {
		depth[i] = depth[l.conds[i].parent] + 1
		if depth[i] > maxCondDepth {
			for _, d := range l.dirs {
				if d.cond == l.conds[i].parent && (d.name == "if" || d.name == "ifdef" || d.name == "ifndef") {
					l.fail(int(l.toks[d.first].off), "#if nesting deeper than %d", maxCondDepth)
					return
				}
			}
			l.fail(0, "#if nesting deeper than %d", maxCondDepth)
			return
		}
	}
	if len(l.conds) == 1 {
		return
	}
	for pass := 0; pass < 2; pass++ {
		delta := make([]int, len(l.conds))
		low := make([]int, len(l.conds))
		for _, t := range l.toks {
			if t.dir >= 0 || t.dead || t.dropped || t.kind != tPunct || t.end-t.off != 1 {
				continue
			}
			d := 0
			switch l.src[t.off] {
			case '(', '[', '{':
				d = 1
			case ')', ']', '}':
				d = -1
			default:
				continue
			}
			for c := t.cond; c != 0; c = l.conds[c].parent {
				delta[c] += d
				low[c] = min(low[c], delta[c])
			}
		}
		// first live branch of each group
		firstLive := map[int32]int{}
		unbalanced := map[int32]bool{}
		for i := len(l.conds) - 1; i >= 1; i-- {
			c := l.conds[i]
			if !c.dead {
				firstLive[c.group] = c.branch
			}
			if delta[i] != 0 || low[i] < 0 {
				unbalanced[c.group] = true
			}
		}
		if len(unbalanced) == 0 {
			return
		}
		drop := make([]bool, len(l.conds))
		for i := 1; i < len(l.conds); i++ {
			c := l.conds[i]
			drop[i] = drop[c.parent] || unbalanced[c.group] && c.branch != firstLive[c.group]
		}
		for i := range l.toks {
			if drop[l.toks[i].cond] {
				l.toks[i].dropped = true
			}
		}
	}
}
