package golang

import (
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the Go plug-in: [Extract] for symbols and tokens, imports
// resolved through go.mod module paths, go test's naming and report rules.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "go" }
func (language) Extensions() []string { return []string{".go"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is go.mod, which gives a folder's
// import path.
func (language) ProjectFile(name string) bool { return name == "go.mod" }

// Link resolves imports through the go.mod module paths of project, and
// calls by name within a package.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newGoLinker(files, func(dir string) (string, bool) { return packagePath(project, dir) })
}

// Wraps make a declaration's lines a file ([lang.Fragmenter]): a package
// clause, and for a spec of a grouped declaration (type ( ... )) its group,
// with a spec after it, as the last spec of a group ends without the
// semicolon the others have.
func (language) Wraps() []lang.Wrap {
	return []lang.Wrap{
		{Before: "package p\n"},
		{Before: "package p\ntype (\n", After: "_ int\n)\n"},
		{Before: "package p\nvar (\n", After: "_ int\n)\n"},
		{Before: "package p\nconst (\n", After: "_ = 0\n)\n"},
	}
}
