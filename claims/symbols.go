package claims

import (
	"strings"
	"sync"
	"sync/atomic"
)

// SymbolSyntax is what a language's symbol names hold beyond the dotted
// identifiers every language shares (letters, '_', and digits past an
// identifier's first rune). claims validates targets but knows no
// language: the languages register what they add ([RegisterSymbolSyntax])
// and a symbol is valid when the union of what they registered allows it.
type SymbolSyntax struct {
	// IdentRunes may stand anywhere in an identifier: "$" (JavaScript,
	// Java and Kotlin names).
	IdentRunes string
	// Prefixes may start any member, one of them at most: "#" (a
	// JavaScript private member, Class.#m).
	Prefixes string
	// MemberPrefixes may start a member past the first, after a Prefix,
	// one of them at most: "~" (a C++ destructor, Class.~Class).
	MemberPrefixes string
	// Suffixes may end the symbol, one of them at most: "?", "!", "=" (a
	// Ruby method: Class.valid?, Class.save!, Class.name=).
	Suffixes string
}

var (
	syntaxMu sync.Mutex
	// syntax is the union of the registered syntaxes; it is replaced,
	// never changed, so that readers need no lock.
	syntax atomic.Pointer[SymbolSyntax]
)

func init() { syntax.Store(&SymbolSyntax{}) }

// RegisterSymbolSyntax adds s to the symbol grammar. The anchor engine
// calls it at init for each built-in language that declares a syntax, so
// that adding a language never edits claims.
func RegisterSymbolSyntax(s SymbolSyntax) {
	syntaxMu.Lock()
	defer syntaxMu.Unlock()
	u := *syntax.Load()
	u.IdentRunes = union(u.IdentRunes, s.IdentRunes)
	u.Prefixes = union(u.Prefixes, s.Prefixes)
	u.MemberPrefixes = union(u.MemberPrefixes, s.MemberPrefixes)
	u.Suffixes = union(u.Suffixes, s.Suffixes)
	syntax.Store(&u)
}

// union returns a with the runes of b it lacks appended.
func union(a, b string) string {
	for _, r := range b {
		if !strings.ContainsRune(a, r) {
			a += string(r)
		}
	}
	return a
}

// validSymbol accepts dot-separated identifiers: Name, Type.Name,
// Outer.Inner.f, with what the registered languages add ([SymbolSyntax]).
// Identifiers are letters, digits and '_', not starting with a digit.
func validSymbol(s string) bool {
	syn := syntax.Load()
	if n := len(s); n > 1 && strings.ContainsRune(syn.Suffixes, rune(s[n-1])) && s[n-1] < 0x80 {
		s = s[:n-1]
	}
	for i, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		part = trimOne(part, syn.Prefixes)
		if i > 0 {
			part = trimOne(part, syn.MemberPrefixes)
		}
		if part == "" {
			return false
		}
		for i, r := range part {
			ok := r == '_' || isLetter(r) || (i > 0 && isDigit(r)) || strings.ContainsRune(syn.IdentRunes, r)
			if !ok {
				return false
			}
		}
	}
	return true
}

// trimOne returns s without its first rune when that rune is one of set.
func trimOne(s, set string) string {
	for _, r := range set {
		if t, ok := strings.CutPrefix(s, string(r)); ok {
			return t
		}
	}
	return s
}

func isLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 && r != 0xFFFD
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }
