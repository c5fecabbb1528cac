//go:build conformance

package langtest

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// echoRef is a reference runner in sh: it answers every path on its
// standard input with one symbol, and for the path "skip" with nothing.
const echoRef = `while read p; do
  [ "$p" = skip ] && continue
  printf '{"path":"%s","symbols":[["f","func",1,2]],"error":""}\n' "$p"
done`

// TestRunReference checks that RunReference feeds the paths in order and
// decodes one answer a file, and fails on a missing answer, a line that is
// not JSON and a failing command.
func TestRunReference(t *testing.T) {
	got := RunReference[RefResult](t, exec.Command("sh", "-c", echoRef), []string{"a.x", "b.x"})
	if len(got) != 2 || got[0].Path != "a.x" || got[1].Path != "b.x" {
		t.Fatalf("RunReference = %+v, want answers for a.x and b.x", got)
	}
	for _, bad := range []struct {
		script string
		files  []string
	}{
		{echoRef, []string{"a.x", "skip"}},
		{`cat >/dev/null; echo not json`, []string{"a.x"}},
		{`cat >/dev/null; exit 3`, nil},
	} {
		var rec recorder
		RunReference[RefResult](&rec, exec.Command("sh", "-c", bad.script), bad.files)
		if !rec.failed {
			t.Errorf("RunReference(%q, %q) passed", bad.script, bad.files)
		}
	}
}

// testLang is a language whose test files end in Test.x.
type testLang struct{ lang.Language }

func (testLang) IsTest(p, _ string) bool { return strings.HasSuffix(p, "Test.x") }

// TestRefResult checks the conversion of [name, kind, start, end] symbols,
// a test file's kinds, and that a malformed symbol fails.
func TestRefResult(t *testing.T) {
	r := RefResult{Symbols: [][4]any{{"A", "type", 1.0, 9.0}, {"A.f", "method", 2.0, 3.0}}, Ambiguous: []string{"g"}}
	want := []RefSymbol{{"A", "type", 1, 9}, {"A.f", "method", 2, 3}}
	if got := r.RefFile(t, testLang{}, "a.x"); !slices.Equal(got.Symbols, want) || !slices.Equal(got.Ambiguous, r.Ambiguous) {
		t.Errorf("RefFile(a.x) = %+v, want %+v", got, want)
	}
	for i := range want {
		want[i].Kind = lang.KindTest
	}
	if got := r.RefFile(t, testLang{}, filepath.Join("src", "ATest.x")); !slices.Equal(got.Symbols, want) {
		t.Errorf("RefFile(ATest.x) = %+v, want %+v", got.Symbols, want)
	}
	var rec recorder
	RefResult{Symbols: [][4]any{{"A", 1.0, 1.0, 2.0}}}.RefFile(&rec, testLang{}, "a.x")
	if !rec.failed {
		t.Error("RefFile passed a symbol whose kind is a number")
	}
}
