package render

import (
	"bytes"
	"compress/flate"
	"html/template"
	"io"
	"strings"
	"sync"
)

// compactHTML is highlighted HTML kept between the pages that show it,
// compressed: chroma's markup (a span with a class per token, an anchor per
// line number) is several times the code it shows and compresses about
// ninefold, and a large site keeps tens of megabytes of it for the length
// of a build. Compressing and expanding cost far less than lexing.
type compactHTML struct {
	z []byte // DEFLATE (RFC 1951), fastest level
	n int    // the HTML's length
}

var (
	deflaters = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // fails only for a bad level
		return w
	}}
	inflaters sync.Pool // of *inflater
)

type inflater struct {
	r   io.ReadCloser // a flate reader, also a flate.Resetter
	buf [4096]byte
}

// compact compresses html.
func compact(html []byte) compactHTML {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	w.Reset(&buf)
	w.Write(html) // a bytes.Buffer does not fail
	w.Close()
	deflaters.Put(w)
	return compactHTML{z: bytes.Clone(buf.Bytes()), n: len(html)}
}

// html expands c.
func (c compactHTML) html() template.HTML {
	in, _ := inflaters.Get().(*inflater)
	if in == nil {
		in = &inflater{r: flate.NewReader(bytes.NewReader(c.z))}
	} else {
		in.r.(flate.Resetter).Reset(bytes.NewReader(c.z), nil)
	}
	var sb strings.Builder
	sb.Grow(c.n)
	_, err := io.CopyBuffer(&sb, in.r, in.buf[:])
	inflaters.Put(in)
	if err != nil || sb.Len() != c.n {
		panic("site: highlighted HTML kept in memory does not expand") // it was compressed here
	}
	return template.HTML(sb.String())
}
