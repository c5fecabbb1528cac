package codeanchors

import "errors"

// Parser names of [ExtractJavaScript]: one adapter, named for the dialect
// of the file.
const (
	JavaScriptParser = "javascript@1"
	TypeScriptParser = "typescript@1"
)

// ExtractJavaScript is the JavaScript and TypeScript [Extractor]. (Being
// written.)
func ExtractJavaScript(path string, src []byte) (*File, error) {
	return nil, errors.New(path + ": the JavaScript/TypeScript extractor is not written yet")
}
