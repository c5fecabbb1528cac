package scan

import "strconv"

// Mismatch is a bracket [MatchBrackets] could not pair: the closer Found at
// token At that closes nothing (Open < 0) or closes the wrong opener (the
// token Open, bracket Opener), or the opener At that is never closed
// (Found 0, Open == At).
type Mismatch struct {
	At     int
	Found  byte
	Open   int
	Opener byte
}

// MatchBrackets pairs every (, [ and { of n tokens with its closer.
// bracket(i) is token i's bracket byte, 0 when it is none. match[i] is the
// index of the partner of bracket i, -1 for other tokens. The first
// bracket that does not pair stops it.
func MatchBrackets(n int, bracket func(i int) byte) (match []int32, bad *Mismatch) {
	match = make([]int32, n)
	var stack []int
	for i := range n {
		match[i] = -1
		switch c := bracket(i); c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			if len(stack) == 0 {
				return match, &Mismatch{At: i, Found: c, Open: -1}
			}
			o := stack[len(stack)-1]
			if oc := bracket(o); Closer(oc) != c {
				return match, &Mismatch{At: i, Found: c, Open: o, Opener: oc}
			}
			match[o], match[i] = int32(i), int32(o)
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		return match, &Mismatch{At: o, Open: o, Opener: bracket(o)}
	}
	return match, nil
}

// Message says what is wrong: "')' closes nothing", "']' where ')' should
// close the '(' of line 3", "'{' is never closed". line(i) is token i's line.
func (m *Mismatch) Message(line func(i int) int) string {
	switch {
	case m.Open < 0:
		return "'" + string(m.Found) + "' closes nothing"
	case m.Found == 0:
		return "'" + string(m.Opener) + "' is never closed"
	}
	return "'" + string(m.Found) + "' where '" + string(Closer(m.Opener)) + "' should close the '" +
		string(m.Opener) + "' of line " + strconv.Itoa(line(m.Open))
}

// Closer returns the bracket that closes the open bracket c: ')' for '(',
// ']' for '[', '}' for '{'.
func Closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}
