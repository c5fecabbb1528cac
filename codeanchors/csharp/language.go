package csharp

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the C# plug-in: [Extract] for symbols and tokens of .cs
// files, using directives resolved through namespaces and .csproj project
// references, xUnit, NUnit and MSTest test rules, and TRX and JUnit report
// matching.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "csharp" }
func (language) Extensions() []string { return []string{".cs"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is an MSBuild C# project (*.csproj),
// whose project references and root namespace scope using directives.
func (language) ProjectFile(name string) bool { return strings.HasSuffix(name, ".csproj") }

// Link resolves using directives and calls; see linker.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newLinker(files, project)
}
