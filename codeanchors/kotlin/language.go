package kotlin

import "github.com/tracewiki/tracewiki/codeanchors/lang"

// Language is the Kotlin plug-in: [Extract] for symbols and tokens of .kt
// and .kts files, imports resolved through package declarations and the
// source roots of Gradle builds, JUnit's and kotlin.test's test rules, and
// Gradle JUnit XML report matching.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string         { return "kotlin" }
func (language) Extensions() []string { return []string{".kt", ".kts"} }

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// SymbolSyntax: Kotlin names, backtick names too, may hold '$'.
func (language) SymbolSyntax() lang.SymbolSyntax { return lang.SymbolSyntax{IdentRunes: "$"} }
