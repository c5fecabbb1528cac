package workspace

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ContentName reports whether a file of this name in the content folder
// is content: Markdown or a claim record, not hidden. Hidden files are
// editors' (an Emacs lock is a dangling symlink named .#page.md) or
// tools', like hidden folders, which are not entered.
func ContentName(name string) bool {
	switch path.Ext(name) {
	case ".md", ".json", ".yaml", ".yml":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// Globs match a path against several doublestar globs, such as the
// config's [code] include. Globs of the form "**/*.ext", one per language
// in the default config, are answered by one map lookup on the
// extension; the others are matched one by one.
type Globs struct {
	exts  map[string]bool // ".go" for "**/*.go"
	other []string
}

// NewGlobs returns the globs.
func NewGlobs(globs []string) Globs {
	s := Globs{exts: map[string]bool{}}
	for _, g := range globs {
		if ext, ok := strings.CutPrefix(g, "**/*"); ok && strings.HasPrefix(ext, ".") && strings.Count(ext, ".") == 1 && !strings.ContainsAny(ext, `*?[]{}\/`) {
			s.exts[ext] = true
			continue
		}
		s.other = append(s.other, g)
	}
	return s
}

// Match reports whether the slash path name matches one of the globs.
func (s Globs) Match(name string) bool {
	base := path.Base(name)
	if i := strings.LastIndexByte(base, '.'); i >= 0 && s.exts[base[i:]] {
		return true
	}
	return MatchAny(s.other, name)
}

// MatchAny reports whether the slash path name matches one of the doublestar globs.
func MatchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, name); ok {
			return true
		}
	}
	return false
}

// Resolve resolves the symlinks of p's longest existing prefix and
// keeps the rest as it is, so a folder still to be made is resolved too.
func Resolve(p string) string {
	rest := ""
	for cur := filepath.Clean(p); ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(cur) == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}
