package javascript

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Language is the JavaScript and TypeScript plug-in (one language: the two
// import each other): [Extract] for symbols and tokens, imports resolved
// through relative paths, tsconfig/jsconfig paths and baseUrl, Jest, Vitest
// and Mocha report rules.
var Language lang.Language = language{}

type language struct{}

func (language) Name() string { return "javascript" }

func (language) Extensions() []string {
	return []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"}
}

func (language) Extract(path string, src []byte) (*lang.File, error) { return Extract(path, src) }

// ProjectFile reports whether name is a tsconfig*.json or jsconfig*.json
// (so that a local "extends" such as tsconfig.base.json is found).
func (language) ProjectFile(name string) bool {
	for _, prefix := range []string{"tsconfig", "jsconfig"} {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".json") {
			return true
		}
	}
	return false
}

// Link resolves imports and calls of JavaScript and TypeScript files
// together; see jsLinker.
func (language) Link(files []*lang.File, project map[string][]byte) lang.Linker {
	return newJSLinker(files, project)
}

// SymbolSyntax: names may hold '$' (jQuery.$ajax), and a private member
// starts with '#' (Cart.#total).
func (language) SymbolSyntax() lang.SymbolSyntax {
	return lang.SymbolSyntax{IdentRunes: "$", Prefixes: "#"}
}
