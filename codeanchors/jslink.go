package codeanchors

// jsLinker resolves JavaScript and TypeScript imports and calls. (Being
// written.)
type jsLinker struct{}

func newJSLinker(files []*File, project map[string][]byte) *jsLinker { return &jsLinker{} }

func (l *jsLinker) imports(f *File) (files, unresolved []string) { return nil, nil }

func (l *jsLinker) resolveCall(f *File, c Call) (Ref, bool) { return Ref{}, false }
