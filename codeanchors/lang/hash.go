package lang

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// HashPrefix starts every hash tracewiki writes, naming the algorithm.
const HashPrefix = "sha256:"

// Lines splits src into lines for hashing and display: CRLF becomes LF, and
// a final newline does not start an extra empty line. Line n is Lines[n-1].
func Lines(src []byte) [][]byte {
	if len(src) == 0 {
		return nil
	}
	lines := bytes.Split(src, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// HashLines returns the text hash of lines[start-1:end] (1-based, inclusive):
// sha256 of the lines joined by "\n", each with trailing spaces and tabs
// removed. The caller keeps start and end within lines.
func HashLines(lines [][]byte, start, end int) string {
	h := sha256.New()
	for i := start; i <= end; i++ {
		if i > start {
			h.Write([]byte{'\n'})
		}
		h.Write(bytes.TrimRight(lines[i-1], " \t"))
	}
	return HashPrefix + hex.EncodeToString(h.Sum(nil))
}

// HashTokens returns the token hash of the tokens on lines start..end: sha256
// of each token's text followed by a NUL byte. Tokens are in source order.
// A [Token.Lead] token on line start is left out: it belongs to the code
// before the range.
func HashTokens(tokens []Token, start, end int) string {
	return hashTokens(tokens, start, end, "")
}

// BodyMask is the text a masked name is hashed as in a body hash: the
// symbol reads as if it were called _ ("func Total(" hashes as "func _(").
const BodyMask = "_"

// HashBody returns the body hash of a symbol on lines start..end: its token
// hash ([HashTokens]) with every token whose text is exactly name, the
// symbol's own name ([BodyName]), hashed as [BodyMask]. Only identifier
// tokens can equal a name, so wherever the symbol names itself (its
// declaration, a recursive call, a Python "def total") it is masked, and a
// string or comment that mentions it is not. Two symbols whose code differs
// only by their names have the same body hash: a rename keeps it.
func HashBody(tokens []Token, start, end int, name string) string {
	return hashTokens(tokens, start, end, name)
}

// BodyName is the name a symbol's body hash masks: the last component of
// its dotted name ("Cart.Total" masks "Total"), as the declaration writes it.
func BodyName(symbol string) string {
	return symbol[strings.LastIndexByte(symbol, '.')+1:]
}

// hashTokens is [HashTokens] with the tokens whose text is mask (when not
// empty) hashed as [BodyMask].
func hashTokens(tokens []Token, start, end int, mask string) string {
	h := sha256.New()
	i, _ := slices.BinarySearchFunc(tokens, start, func(t Token, line int) int { return cmp.Compare(t.Line, line) })
	for _, t := range tokens[i:] {
		if t.Line > end {
			break
		}
		if t.Lead && t.Line == start {
			continue
		}
		if mask != "" && t.Text == mask {
			h.Write([]byte(BodyMask))
		} else {
			h.Write([]byte(t.Text))
		}
		h.Write([]byte{0})
	}
	return HashPrefix + hex.EncodeToString(h.Sum(nil))
}

// WordTokens is the token fallback for files no language claims: each run
// of non-space bytes is a token, so a change of indentation or line breaks
// alone keeps the token hash.
func WordTokens(src []byte) []Token {
	var toks []Token
	for n, line := range Lines(src) {
		for _, w := range bytes.Fields(line) {
			toks = append(toks, Token{Line: n + 1, Text: string(w)})
		}
	}
	return toks
}
