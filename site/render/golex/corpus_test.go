//go:build conformance

package golex

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// maxFragmentLines is render.MaxFragmentLines, the most lines the
// highlighter lexes as one fragment ([fragments] cuts texts as it does).
const maxFragmentLines = 200

// goCorpus returns a deterministic sample of Go's own sources (about one
// file in seven, testdata folders included, whose odd syntax is the point),
// up to budget bytes, and every Go file of this repository.
func goCorpus(t *testing.T, budget int) map[string]string {
	t.Helper()
	files := map[string]string{}
	goroot := goSrc(t)
	var paths []string
	err := filepath.WalkDir(goroot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			h := fnv.New32a()
			h.Write([]byte(filepath.ToSlash(p[len(goroot):])))
			if h.Sum32()%7 == 0 {
				paths = append(paths, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Spread the budget: the sample in an order fixed by the hash, not
	// the folders'.
	slices.SortFunc(paths, func(a, b string) int {
		return cmp.Or(cmp.Compare(fnvOf(a), fnvOf(b)), strings.Compare(a, b))
	})
	// Files whose raw strings hold templates, which chroma lexes with its
	// Go template lexer.
	for _, p := range []string{"text/template/example_test.go", "text/template/examplefiles_test.go",
		"text/template/examplefunc_test.go", "text/template/multi_test.go", "html/template/clone_test.go",
		"html/template/content_test.go", "html/template/template_test.go", "html/template/example_test.go"} {
		if p := filepath.Join(goroot, p); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	total := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 64<<10 {
			continue // large generated tables cost chroma much, teach little
		}
		if total+len(b) > budget {
			continue
		}
		total += len(b)
		files["GOROOT/src"+filepath.ToSlash(p[len(goroot):])] = string(b)
	}
	root := filepath.Join("..", "..", "..")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files["tracewiki/"+filepath.ToSlash(p[len(root)+1:])] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fnvOf(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// fragments returns texts as the highlighter lexes them from src: each
// top-level declaration's lines (from its doc comment, and from the
// declaration itself), at most maxFragmentLines, joined with a final
// newline; and fence-like windows of a few lines starting anywhere (inside
// a comment or a raw string too).
func fragments(name, src string) []string {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	text := func(start, end int) string {
		end = min(end, len(lines), start+maxFragmentLines-1)
		return strings.Join(lines[start-1:end], "\n") + "\n"
	}
	var out []string
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution); err == nil {
		for _, d := range f.Decls {
			start, end := fset.Position(d.Pos()).Line, fset.Position(d.End()).Line
			out = append(out, text(start, end))
			var doc *ast.CommentGroup
			switch d := d.(type) {
			case *ast.FuncDecl:
				doc = d.Doc
			case *ast.GenDecl:
				doc = d.Doc
			}
			if doc != nil {
				out = append(out, text(fset.Position(doc.Pos()).Line, end))
			}
		}
	}
	h := fnvOf(name)
	for start := 1 + int(h%17); start <= len(lines); start += 40 + int(h%23) {
		out = append(out, text(start, start+3+int(h%9)))
	}
	return out
}

// TestGoLexerCorpus compares golex with chroma's Go lexer on Go's own
// sources (a sample) and this repository's, whole files and fragments:
// every text golex lexes must give chroma's tokens exactly.
func TestGoLexerCorpus(t *testing.T) {
	budget := 768 << 10
	if testing.Short() {
		budget = 128 << 10
	}
	files := goCorpus(t, budget)
	type job struct{ name, src string }
	var jobs []job
	for name, src := range files {
		jobs = append(jobs, job{name, src})
		if fnvOf(name)%2 != 0 {
			continue // fragments of half the files: chroma is slow
		}
		for i, f := range fragments(name, src) {
			jobs = append(jobs, job{fmt.Sprintf("%s#%d", name, i), f})
		}
	}
	slices.SortFunc(jobs, func(a, b job) int { return strings.Compare(a.name, b.name) })
	var texts, bytes, fallbacks atomic.Int64
	var mu sync.Mutex
	var failed []string
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				j := jobs[i]
				fb, err := compareGo(j.src)
				texts.Add(1)
				bytes.Add(int64(len(j.src)))
				if fb {
					fallbacks.Add(1)
					t.Logf("%s: left to chroma", j.name)
				}
				if err != nil {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("%s: %v", j.name, err))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(failed)
	for _, f := range failed[:min(len(failed), 20)] {
		t.Error(f)
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d texts differ", len(failed), texts.Load())
	}
	t.Logf("compared %d files, %d texts in all (with fragments), %d bytes; %d left to chroma",
		len(files), texts.Load(), bytes.Load(), fallbacks.Load())
	if fallbacks.Load()*100 > texts.Load() {
		t.Errorf("golex left %d of %d texts to chroma, more than 1%%", fallbacks.Load(), texts.Load())
	}
}
