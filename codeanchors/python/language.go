package python

import "github.com/tracewiki/tracewiki/codeanchors/lang"

// Language is the Python plug-in: [Extract] for symbols and tokens of .py
// and .pyi files, imports resolved through the workspace root, src layouts
// of pyproject.toml and relative imports, pytest's naming and report rules.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "python" }
func (language) Extensions() []string { return []string{".py", ".pyi"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is pyproject.toml, which declares
// package roots.
func (language) ProjectFile(name string) bool { return name == "pyproject.toml" }

// Link resolves imports and calls; see pyLinker.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newPythonLinker(files, project)
}

// Wraps make an indented definition's lines a file ([lang.Fragmenter]):
// a block to sit in, whose INDENT token lands on the definition's first
// line, where a token hash leaves it out.
func (language) Wraps() []lang.Wrap { return []lang.Wrap{{Before: "if 1:\n"}} }
