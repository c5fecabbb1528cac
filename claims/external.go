package claims

import "strings"

// Externals (SPEC 1.8): a target or a requirement id may name another
// repository, by the name its [[externals]] entry gives it:
// payments:src/charge.go@Charge, platform:SYS-12. This package only reads
// the prefix; whether the name is declared is the configuration's
// business (the caller checks [Model.ExternalRefs] against it).

// MaxExternalName bounds the length of an external's name.
const MaxExternalName = 64

// ValidExternalName reports whether s can name an external: lower case
// letters, digits and '-' (the project slugs of code:// URIs), starting
// with a letter or digit.
func ValidExternalName(s string) bool {
	if s == "" || len(s) > MaxExternalName || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// CutExternal splits NAME:REST into the external's name and the rest; ok
// is false when s has no such prefix (no colon, or what precedes the first
// colon is not a valid name).
func CutExternal(s string) (name, rest string, ok bool) {
	name, rest, ok = strings.Cut(s, ":")
	if !ok || !ValidExternalName(name) || rest == "" {
		return "", s, false
	}
	return name, rest, true
}

// ExternalRef is one place the content names an external.
type ExternalRef struct {
	Name string
	Pos  Pos
}

// ExternalRefs lists every place the model names an external, in model
// order: requirements' implements, tests and parents, then the claims of
// requirements, decisions and pages.
func (m *Model) ExternalRefs() []ExternalRef {
	var out []ExternalRef
	targets := func(refs []TargetRef) {
		for _, t := range refs {
			if t.Target.External != "" {
				out = append(out, ExternalRef{Name: t.Target.External, Pos: t.Pos})
			}
		}
	}
	docClaims := func(d Doc) {
		for _, c := range d.Claims {
			if c.HasTarget && c.Target.External != "" {
				out = append(out, ExternalRef{Name: c.Target.External, Pos: c.Pos})
			}
		}
	}
	for _, r := range m.Requirements {
		targets(r.Implements)
		targets(r.Tests)
		for _, p := range r.Parents {
			if name, _, ok := CutExternal(p.ID); ok {
				out = append(out, ExternalRef{Name: name, Pos: p.Pos})
			}
		}
		docClaims(r.Doc)
	}
	for _, d := range m.Decisions {
		docClaims(d.Doc)
	}
	for _, p := range m.Pages {
		docClaims(p.Doc)
	}
	return out
}

// validParentID accepts a requirement id, or an external's: NAME:ID.
func validParentID(s string) bool {
	if _, id, ok := CutExternal(s); ok {
		return validID(id)
	}
	return validID(s)
}
