package claims

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// A Target is what a claim or a requirement link points at: a whole file
// (Path only), a symbol in it (Path@Symbol) or a bare line range
// (Path#Lstart-Lend). Path is slash-separated and relative to the workspace
// root; it is cleaned but not checked, so a target may lie outside the root
// (drift reports that, the parser does not).
type Target struct {
	// External is the name of the external repository whose bundle
	// holds the target (SPEC 1.8); "" for this repository's code.
	External string
	Path     string
	Symbol   string // "" unless a symbol target
	Start    int    // first line of a bare range, 0 otherwise
	End      int    // last line of a bare range, 0 otherwise
}

// IsSymbol reports whether t names a symbol.
func (t Target) IsSymbol() bool { return t.Symbol != "" }

// IsRange reports whether t is a bare line range.
func (t Target) IsRange() bool { return t.Start > 0 }

// String returns the canonical notation of t: PATH, PATH@SYMBOL or
// PATH#L10-L24, prefixed NAME: for an external's target. [ParseTarget]
// of the result gives t back.
func (t Target) String() string {
	if t.External != "" {
		return t.External + ":" + t.Local().String()
	}
	switch {
	case t.Symbol != "":
		return t.Path + "@" + t.Symbol
	case t.Start > 0:
		return fmt.Sprintf("%s#L%d-L%d", t.Path, t.Start, t.End)
	}
	return t.Path
}

// Local is t without its external's name: the target as its own
// repository writes it.
func (t Target) Local() Target {
	t.External = ""
	return t
}

// URI returns the canonical resource URI of t in JSON artifacts:
// code://REPO/PATH#symbol-SYMBOL, code://REPO/PATH#L10-L24 or
// code://REPO/PATH; an external's target names the external as its REPO.
func (t Target) URI(repo string) string {
	if t.External != "" {
		repo = t.External
	}
	u := "code://" + repo + "/" + t.Path
	switch {
	case t.Symbol != "":
		u += "#symbol-" + t.Symbol
	case t.Start > 0:
		u += fmt.Sprintf("#L%d-L%d", t.Start, t.End)
	}
	return u
}

// ParseTarget parses the target notation of SPEC 1.3, with or without the
// code: scheme of Markdown links, and with or without an external's
// NAME: prefix (SPEC 1.8). The path is cleaned ("./a/../b.go" is "b.go");
// a path that is empty or ends in a slash is an error.
func ParseTarget(s string) (Target, error) {
	s = strings.TrimPrefix(s, "code:")
	if s == "" {
		return Target{}, errors.New("empty code target")
	}
	if name, rest, ok := CutExternal(s); ok {
		t, err := ParseTarget(rest)
		if err != nil || t.External != "" {
			return Target{}, fmt.Errorf("code target %q: bad external target %q", s, rest)
		}
		t.External = name
		return t, nil
	}
	var t Target
	p := s
	if i := strings.LastIndexByte(s, '@'); i >= 0 && !strings.Contains(s[i:], "/") {
		p, t.Symbol = s[:i], s[i+1:]
		if !validSymbol(t.Symbol) {
			return Target{}, fmt.Errorf("code target %q: bad symbol %q (want Name or Type.Name)", s, t.Symbol)
		}
	} else if i := strings.LastIndex(s, "#"); i >= 0 {
		p = s[:i]
		start, end, err := parseLines(s[i+1:])
		if err != nil {
			return Target{}, fmt.Errorf("code target %q: %v", s, err)
		}
		t.Start, t.End = start, end
	}
	if p == "" || strings.HasSuffix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return Target{}, fmt.Errorf("code target %q: bad path %q", s, p)
	}
	t.Path = path.Clean(p)
	if t.Path == "." {
		return Target{}, fmt.Errorf("code target %q: bad path %q", s, p)
	}
	return t, nil
}

// ParseCodeURI parses a canonical resource URI (code://REPO/PATH#symbol-SYM,
// code://REPO/PATH#L1-L9 or code://REPO/PATH) into its repo and target.
func ParseCodeURI(u string) (repo string, t Target, err error) {
	rest, ok := strings.CutPrefix(u, "code://")
	if !ok {
		return "", Target{}, fmt.Errorf("code resource URI %q: want code://REPO/PATH", u)
	}
	repo, rest, ok = strings.Cut(rest, "/")
	if !ok || repo == "" {
		return "", Target{}, fmt.Errorf("code resource URI %q: want code://REPO/PATH", u)
	}
	p, frag, _ := strings.Cut(rest, "#")
	notation := p
	switch {
	case frag == "":
	case strings.HasPrefix(frag, "symbol-"):
		notation += "@" + strings.TrimPrefix(frag, "symbol-")
	default:
		notation += "#" + frag
	}
	t, err = ParseTarget(notation)
	if err != nil {
		return "", Target{}, fmt.Errorf("code resource URI %q: %v", u, err)
	}
	return repo, t, nil
}

// parseLines parses "L10-L24" (or "L10", one line).
func parseLines(s string) (start, end int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	start, err1 := lineNum(a)
	end, err2 := lineNum(b)
	if err1 != nil || err2 != nil || end < start {
		return 0, 0, fmt.Errorf("bad line range %q (want L10-L24)", s)
	}
	return start, end, nil
}

func lineNum(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "L"))
	if err != nil || n < 1 || !strings.HasPrefix(s, "L") {
		return 0, errors.New("bad line")
	}
	return n, nil
}
