package codeanchors

// pyLinker resolves Python imports and calls. (Being written.)
type pyLinker struct{}

func newPythonLinker(files []*File, project map[string][]byte) *pyLinker { return &pyLinker{} }

func (l *pyLinker) imports(f *File) (files, unresolved []string) { return nil, nil }

func (l *pyLinker) resolveCall(f *File, c Call) (Ref, bool) { return Ref{}, false }
