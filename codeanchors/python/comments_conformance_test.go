//go:build conformance

package python

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// TestPythonCommentsConformance checks the comments and docstrings Extract
// hands out against Python's own tokenize (COMMENT tokens) and ast (the
// first statement of the module, a class or a function when it is a str
// constant) over the standard library (testdata/extract/astcomments.py):
// the same ones, in the same order, on the same lines, docstrings marked
// Doc. Files either side cannot read are left out.
func TestPythonCommentsConformance(t *testing.T) {
	root, files := readPyStdlib(t)
	cmd := exec.Command("python3", filepath.Join("testdata", "extract", "astcomments.py"), root)
	var list bytes.Buffer
	for _, f := range files {
		list.WriteString(f.path + "\n")
	}
	cmd.Stdin = &list
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 astcomments.py: %v", err)
	}
	type ref struct {
		Path     string
		Comments [][3]json.RawMessage
		Error    string
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != len(files) {
		t.Fatalf("astcomments.py printed %d files, want %d", len(lines), len(files))
	}
	var compared, comments, docs, differ int
	for i, line := range lines {
		var r ref
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("astcomments.py line %d: %v", i+1, err)
		}
		if r.Path != files[i].path {
			t.Fatalf("astcomments.py line %d is %s, want %s", i+1, r.Path, files[i].path)
		}
		f, err := Extract(files[i].path, files[i].src)
		if r.Error != "" || err != nil {
			continue
		}
		compared++
		var want []lang.Comment
		for _, c := range r.Comments {
			var w lang.Comment
			if json.Unmarshal(c[0], &w.Line) != nil || json.Unmarshal(c[1], &w.EndLine) != nil || json.Unmarshal(c[2], &w.Doc) != nil {
				t.Fatalf("%s: bad comment %s", r.Path, c)
			}
			want = append(want, w)
		}
		got := make([]lang.Comment, len(f.Comments))
		for j, c := range f.Comments {
			got[j] = lang.Comment{Line: c.Line, EndLine: c.EndLine, Doc: c.Doc}
			if c.Doc {
				docs++
			} else {
				comments++
			}
		}
		if !slices.Equal(got, want) {
			differ++
			if differ <= 10 {
				t.Errorf("%s: comments (line, end, doc)\n%v\nwant\n%v", r.Path, firstDiff(got, want), firstDiff(want, got))
			}
		}
	}
	t.Logf("standard library: %d files compared, %d comments and %d docstrings; %d files differ", compared, comments, docs, differ)
	if compared < 500 {
		t.Errorf("only %d files compared", compared)
	}
}

// firstDiff returns a from its first element that differs from b's, a few.
func firstDiff(a, b []lang.Comment) []lang.Comment {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[i:min(len(a), i+3)]
}
