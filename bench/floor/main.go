// Command floor is the yardstick for tracewiki's cold build: it does the
// least work any Markdown site generator does on a workspace's wiki, and
// nothing else. Every content/**/*.md body (front matter cut off) is parsed
// with goldmark (the block and inline parsers tracewiki's claims parser
// uses: tables, strikethrough, task lists, heading ids) and rendered to
// HTML, each fenced block highlighted with chroma as tracewiki highlights
// fences (the lexer for the info string's language, coalesced, HTML with
// classes, the github style); the HTML is discarded.
//
// It runs on GOMAXPROCS workers, each with its own goldmark and output
// buffer, taking the next file from a shared counter. Identical fences
// (same language, same text) are highlighted once, as tracewiki does
// (TestFenceOnce), so the floor does no work tracewiki is not asked to do.
//
//	go run ./bench/floor [-site DIR] WORKSPACE
//
// It prints the files, fences, distinct fences, bytes of HTML and the wall
// time of the work (reading the files included, start-up excluded).
//
// With -site, the folder a tracewiki build wrote, it also measures the
// least any generator that writes that site does on this file system: it
// reads the site into memory, then (on the clock) makes the same folders
// and files with the same bytes in a new folder beside it, on the same
// workers, and prints that time and the sum of the two; the copy is
// removed after.
package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

func main() {
	flag.Usage = func() { fmt.Fprintln(os.Stderr, "usage: floor [-site DIR] WORKSPACE") }
	siteDir := flag.String("site", "", "a built site whose folders and files to write again, timed")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("floor: ")
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	var names []string
	content := filepath.Join(flag.Arg(0), "content")
	err := filepath.WalkDir(content, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	st, err := run(names, runtime.GOMAXPROCS(0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("floor: %d files, %d fences (%d distinct), %d bytes of HTML, %d workers: %.3f s\n",
		len(names), st.fences.Load(), st.distinct.Load(), st.html.Load(), runtime.GOMAXPROCS(0), time.Since(start).Seconds())
	if *siteDir == "" {
		return
	}
	parse := time.Since(start)
	site, err := readSite(*siteDir)
	if err != nil {
		log.Fatal(err)
	}
	dst := filepath.Clean(*siteDir) + ".floor-copy"
	if err := os.RemoveAll(dst); err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dst)
	start = time.Now()
	if err := site.write(dst, runtime.GOMAXPROCS(0)); err != nil {
		log.Fatal(err)
	}
	write := time.Since(start)
	fmt.Printf("floor with the site: %d folders, %d files, %d bytes written: %.3f s; with the parse: %.3f s\n",
		len(site.dirs), len(site.files), site.bytes, write.Seconds(), (parse + write).Seconds())
}

// site is a built site in memory: its folders, parents first, and files.
type site struct {
	dirs  []string
	files []siteFile
	bytes int64
}

type siteFile struct {
	name string
	data []byte
}

func readSite(dir string) (*site, error) {
	s := &site{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		if d.IsDir() {
			s.dirs = append(s.dirs, rel)
			return nil
		}
		data, err := os.ReadFile(p)
		s.files = append(s.files, siteFile{rel, data})
		s.bytes += int64(len(data))
		return err
	})
	return s, err
}

// write makes the site under dst: the folders one depth at a time, each
// depth's on workers goroutines, then the files on workers goroutines.
func (s *site) write(dst string, workers int) error {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	byDepth := map[int][]string{}
	depth := 0
	for _, d := range s.dirs {
		n := strings.Count(d, string(filepath.Separator))
		byDepth[n] = append(byDepth[n], d)
		depth = max(depth, n)
	}
	for n := 0; n <= depth; n++ {
		dirs := byDepth[n]
		if err := parallel(len(dirs), workers, func(i int) error {
			return os.Mkdir(filepath.Join(dst, dirs[i]), 0o755)
		}); err != nil {
			return err
		}
	}
	return parallel(len(s.files), workers, func(i int) error {
		return os.WriteFile(filepath.Join(dst, s.files[i].name), s.files[i].data, 0o644)
	})
}

// parallel calls fn for 0..n-1 on workers goroutines and returns the first
// error.
func parallel(n, workers int, fn func(i int) error) error {
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n || errs[w] != nil {
					return
				}
				errs[w] = fn(i)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

type stats struct {
	fences, distinct, html atomic.Int64
}

// run converts every file on workers goroutines.
func run(names []string, workers int) (*stats, error) {
	st := &stats{}
	hl := &highlighter{lexers: map[string]chroma.Lexer{}}
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			fr := &fenceRenderer{hl: hl, st: st}
			md := goldmark.New(
				goldmark.WithParser(newParser()),
				goldmark.WithRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(
					util.Prioritized(ghtml.NewRenderer(), 1000),
					util.Prioritized(extension.NewTableHTMLRenderer(), 500),
					util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
					util.Prioritized(extension.NewTaskCheckBoxHTMLRenderer(), 500),
					util.Prioritized(fr, 100),
				))),
			)
			var out bytes.Buffer
			for {
				i := int(next.Add(1)) - 1
				if i >= len(names) {
					return
				}
				src, err := os.ReadFile(names[i])
				if err != nil {
					errs[w] = err
					return
				}
				out.Reset()
				if err := md.Convert(body(src), &out); err != nil {
					errs[w] = fmt.Errorf("%s: %w", names[i], err)
					return
				}
				st.html.Add(int64(out.Len()))
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return st, nil
}

// newParser is goldmark's parser with the extensions tracewiki's Markdown
// has.
func newParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			util.Prioritized(extension.NewStrikethroughParser(), 510),
			util.Prioritized(extension.NewTaskCheckBoxParser(), 10),
		)...),
		parser.WithParagraphTransformers(append(parser.DefaultParagraphTransformers(),
			util.Prioritized(extension.NewTableParagraphTransformer(), 200),
		)...),
		parser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 10)),
		parser.WithAutoHeadingID(),
	)
}

// body cuts a leading "---" front matter block off src.
func body(src []byte) []byte {
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return src
	}
	if i := bytes.Index(src[4:], []byte("\n---\n")); i >= 0 {
		return src[4+i+5:]
	}
	return src
}

// fenceRenderer renders fenced code blocks through the highlighter; one per
// worker, so its scratch buffer is not shared.
type fenceRenderer struct {
	hl   *highlighter
	st   *stats
	code []byte
}

func (r *fenceRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.fence)
}

func (r *fenceRenderer) fence(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.FencedCodeBlock)
	r.code = r.code[:0]
	for i := 0; i < n.Lines().Len(); i++ {
		s := n.Lines().At(i)
		r.code = append(r.code, s.Value(src)...)
	}
	lang := ""
	if n.Info != nil {
		lang = strings.ToLower(string(n.Language(src)))
	}
	r.st.fences.Add(1)
	html, err := r.hl.fence(lang, r.code, r.st)
	if err != nil {
		return ast.WalkStop, err
	}
	w.WriteString(html)
	w.WriteByte('\n')
	return ast.WalkSkipChildren, nil
}

// highlighter highlights each distinct fence once.
type highlighter struct {
	mu     sync.Mutex
	lexers map[string]chroma.Lexer
	done   sync.Map // fenceKey → *once
}

type fenceKey struct {
	lang string
	sum  [sha256.Size]byte
}

type once struct {
	sync.Once
	html string
	err  error
}

var formatter = chtml.New(chtml.WithClasses(true))

func (h *highlighter) fence(lang string, code []byte, st *stats) (string, error) {
	v, _ := h.done.LoadOrStore(fenceKey{lang, sha256.Sum256(code)}, &once{})
	o := v.(*once)
	o.Do(func() {
		st.distinct.Add(1)
		it, err := chroma.Coalesce(h.lexer(lang)).Tokenise(nil, string(code))
		if err != nil {
			o.err = err
			return
		}
		var buf strings.Builder
		o.err = formatter.Format(&buf, styles.Get("github"), it)
		o.html = buf.String()
	})
	return o.html, o.err
}

func (h *highlighter) lexer(lang string) chroma.Lexer {
	h.mu.Lock()
	defer h.mu.Unlock()
	l, ok := h.lexers[lang]
	if !ok {
		if lang != "" {
			l = lexers.Get(lang)
		}
		if l == nil {
			l = lexers.Fallback
		}
		h.lexers[lang] = l
	}
	return l
}
