package codeanchors

import "errors"

// PythonParser is the [File.Parser] of [ExtractPython].
const PythonParser = "python@1"

// ExtractPython is the Python [Extractor]. (Being written.)
func ExtractPython(path string, src []byte) (*File, error) {
	return nil, errors.New(path + ": the Python extractor is not written yet")
}
