package site

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// SymbolInfo is one symbol as "tracewiki symbols --json" prints it.
type SymbolInfo struct {
	Path   string `json:"path"`
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
}

// Symbols returns the symbols of the files, in the order given, each file's
// in line order, and a note for each name that is ambiguous (defined more
// than once in its file, so no target can name it). Every file that cannot
// be read or parsed is reported in the error. The paths are command-line
// paths: relative to the current folder or absolute, not confined to a
// workspace (SPEC 1.5), and printed with / separators as given.
func Symbols(paths []string) (syms []SymbolInfo, notes []string, err error) {
	out := []SymbolInfo{}
	var errs []error
	for _, name := range paths {
		p := filepath.ToSlash(name)
		data, err := ReadFileLimit(name, workspace.MaxSourceBytes)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ex := codeanchors.Default.For(p)
		if ex == nil {
			errs = append(errs, fmt.Errorf("%s: no symbol parser for this kind of file", p))
			continue
		}
		f, err := ex.Extract(p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, s := range f.Symbols {
			out = append(out, SymbolInfo{Path: p, Symbol: s.Name, Kind: s.Kind, Start: s.Start, End: s.End})
		}
		for _, name := range f.Ambiguous {
			notes = append(notes, fmt.Sprintf("%s: %s is defined more than once in the file: a target naming it is ambiguous", p, name))
		}
	}
	return out, notes, errors.Join(errs...)
}
