package java

import "github.com/tracewiki/tracewiki/codeanchors/lang"

// Language is the Java plug-in: [Extract] for symbols and tokens of .java
// files, imports resolved through package declarations and the source
// roots of pom.xml and build.gradle(.kts), Maven's and JUnit's test rules,
// and Surefire and Gradle report matching.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "java" }
func (language) Extensions() []string { return []string{".java"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is a Maven or Gradle build file, which
// declares source roots.
func (language) ProjectFile(name string) bool {
	return name == "pom.xml" || name == "build.gradle" || name == "build.gradle.kts"
}

// Link resolves imports and calls; see linker.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newLinker(files, project)
}

// SymbolSyntax: Java names may hold '$' (Outer$Gen, $proxy).
func (language) SymbolSyntax() lang.SymbolSyntax { return lang.SymbolSyntax{IdentRunes: "$"} }
