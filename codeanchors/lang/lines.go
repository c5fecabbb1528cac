package lang

import "slices"

// LineStarts returns the byte offset at which each line of src starts.
func LineStarts(src []byte) []int {
	starts := make([]int, 1, len(src)/32+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// LineOf returns the 1-based line holding byte offset off.
func LineOf(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if !found {
		return i
	}
	return i + 1
}

// LineEnd returns the offset of the end of line n: before its '\n', and
// before the '\r' of a CRLF.
func LineEnd(src []byte, starts []int, n int) int {
	end := len(src)
	if n < len(starts) {
		end = starts[n] - 1
	}
	if end > starts[n-1] && src[end-1] == '\r' {
		end--
	}
	return end
}
