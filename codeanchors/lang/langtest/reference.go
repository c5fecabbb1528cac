//go:build conformance

package langtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// RunReference runs a reference parser (a node script, a Java program, a
// built binary) on files: their paths one a line on its standard input,
// and one JSON value a line on its standard output, a file's answer, in
// the same order. It returns the answers decoded as T, and stops the test
// when the command fails, prints a line that is not JSON of T, or does not
// answer once per file.
func RunReference[T any](tb testing.TB, cmd *exec.Cmd, files []string) []T {
	tb.Helper()
	name := commandLine(cmd)
	var list strings.Builder
	for _, f := range files {
		list.WriteString(f + "\n")
	}
	cmd.Stdin = strings.NewReader(list.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s: %v\n%s", name, err, stderr.Bytes())
	}
	var res []T
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("%s: output %q: %v", name, sc.Bytes(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(files) {
		tb.Fatalf("%s: %d answers for %d files\n%s", name, len(res), len(files), stderr.Bytes())
	}
	return res
}

// commandLine names cmd in messages: its program and arguments, each
// shortened to its last path element ("node csref.js").
func commandLine(cmd *exec.Cmd) string {
	words := make([]string, len(cmd.Args))
	for i, a := range cmd.Args {
		words[i] = filepath.Base(a)
	}
	return strings.Join(words, " ")
}

// RefResult is a reference runner's answer for one file in the form the
// tree-sitter and javac runners print: the file's path, its symbols as
// [name, kind, start line, end line] arrays, the names it defines more
// than once, or its syntax error.
type RefResult struct {
	Path      string   `json:"path"`
	Symbols   [][4]any `json:"symbols"`
	Ambiguous []string `json:"ambiguous"`
	Error     string   `json:"error"`
}

// RefFile converts r, the answer for the file at path in language l. In a
// test file every symbol is a test: the file rule is tracewiki's
// ([lang.IsTest]), not the reference's.
func (r RefResult) RefFile(tb testing.TB, l lang.Language, path string) RefFile {
	tb.Helper()
	ref := RefFile{Ambiguous: r.Ambiguous, Error: r.Error}
	test := lang.IsTest(l, path, "")
	for _, v := range r.Symbols {
		name, ok0 := v[0].(string)
		kind, ok1 := v[1].(string)
		start, ok2 := v[2].(float64)
		end, ok3 := v[3].(float64)
		if !ok0 || !ok1 || !ok2 || !ok3 {
			tb.Fatalf("%s: reference symbol %v: want [name, kind, start, end]", path, v)
		}
		if test {
			kind = lang.KindTest
		}
		ref.Symbols = append(ref.Symbols, RefSymbol{Name: name, Kind: kind, Start: int(start), End: int(end)})
	}
	return ref
}
