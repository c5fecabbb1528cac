package site

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tracewiki/tracewiki/site/render"
)

// lazyFiles is a site whose files are rendered when first asked for, once:
// serve publishes a rebuild as soon as the analysis is done, and a request
// then costs the one page it asks for, not the whole site. The renderer is
// read-only, so pages render concurrently.
type lazyFiles struct {
	r        *render.Renderer
	parallel func(n int, fn func(i int) error) error // renders every page ([lazyFiles.all])
	pages    []render.Page
	byPath   map[string]int // a page's folder prefix ("" or "x/y/") to its index
	done     []lazyPage

	staticOnce sync.Once
	static     map[string][]byte
	staticErr  error
}

type lazyPage struct {
	once       sync.Once
	html, json []byte
	err        error
}

func newLazyFiles(r *render.Renderer, parallel func(n int, fn func(i int) error) error) *lazyFiles {
	pages := r.Pages()
	l := &lazyFiles{r: r, parallel: parallel, pages: pages, byPath: make(map[string]int, len(pages)), done: make([]lazyPage, len(pages))}
	for i, pg := range pages {
		l.byPath[pg.Prefix()] = i
	}
	return l
}

// file returns the file at the slash path name, rendering it if needed;
// false when the site has no such file.
func (l *lazyFiles) file(name string) ([]byte, bool, error) {
	dir, base := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		dir, base = name[:i+1], name[i+1:]
	}
	if i, ok := l.byPath[dir]; ok && (base == "index.html" || base == "index.json") {
		p := &l.done[i]
		p.once.Do(func() { p.html, p.json, p.err = l.r.RenderPage(l.pages[i]) })
		if p.err != nil {
			return nil, true, p.err
		}
		if base == "index.html" {
			return p.html, true, nil
		}
		return p.json, true, nil
	}
	l.staticOnce.Do(func() {
		l.static = map[string][]byte{}
		l.staticErr = l.r.WriteArtifacts(func(name string, data []byte) error {
			l.static[name] = data
			return nil
		})
	})
	if l.staticErr != nil {
		return nil, true, l.staticErr
	}
	data, ok := l.static[name]
	return data, ok, nil
}

// all renders every file, as a build would write them.
func (l *lazyFiles) all() (map[string][]byte, error) {
	out := map[string][]byte{}
	var mu sync.Mutex
	err := l.parallel(len(l.pages), func(i int) error {
		prefix := l.pages[i].Prefix()
		html, _, err := l.file(prefix + "index.html")
		if err != nil {
			return err
		}
		js, _, err := l.file(prefix + "index.json")
		mu.Lock()
		out[prefix+"index.html"], out[prefix+"index.json"] = html, js
		mu.Unlock()
		return err
	})
	if err != nil {
		return nil, err
	}
	if _, _, err := l.file("\x00static"); err != nil {
		return nil, err
	}
	for name, data := range l.static {
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("two files would be written to %s", name)
		}
		out[name] = data
	}
	return out, nil
}
