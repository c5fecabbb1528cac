package site

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/site/output"
)

// TestLinks builds the shop fixture and tracewiki's own wiki under the base
// URL /pr-42/, writes them, and checks every href and src of every page:
// each must be relative and lead to a file of the output, and each
// #fragment to an id on its page.
func TestLinks(t *testing.T) {
	for _, c := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"shop", func(t *testing.T) string { return fixture(t, "shop") }},
		{"own", func(t *testing.T) string { return ".." }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := buildPR42(t, c.dir(t))
			out := filepath.Join(t.TempDir(), "public")
			if err := s.Write(&Output{Folder: output.Folder{Dir: out, Name: out}}, nil); err != nil {
				t.Fatal(err)
			}
			lc := &linkChecker{root: out, ids: map[string]map[string]bool{}, kinds: map[string]int{}}
			pages, links := lc.checkSite(t)
			if pages != s.Pages {
				t.Errorf("%d HTML files in the output, the build says %d pages", pages, s.Pages)
			}
			if links == 0 {
				t.Fatal("no links checked")
			}
			if len(lc.broken) > 0 {
				var sum []string
				for _, k := range sortedKeys(lc.kinds) {
					sum = append(sum, fmt.Sprintf("%d %s", lc.kinds[k], k))
				}
				t.Errorf("%d of %d links broken under /pr-42/ (%s):\n%s", len(lc.broken), links, strings.Join(sum, ", "), strings.Join(lc.broken, "\n"))
			}
		})
	}
}

// linkChecker checks the links of a written site.
type linkChecker struct {
	root   string                     // the output folder
	ids    map[string]map[string]bool // the id attributes of each page, by slash path
	broken []string
	kinds  map[string]int // broken links per kind of problem
}

// linkBase is the URL a written site is checked under: the links must resolve
// inside it without ever naming it.
const linkBase = "http://preview.invalid/pr-42/"

// checkSite checks every .html file and returns how many pages and links
// it checked.
func (lc *linkChecker) checkSite(t *testing.T) (pages, links int) {
	t.Helper()
	err := filepath.WalkDir(lc.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(lc.root, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pages++
		for _, a := range scanAttrs(data) {
			switch a.name {
			case "href", "src", "xlink:href":
				links++
				lc.check(rel, a)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages, links
}

// check checks one link of the page at rel (a slash path in the output).
func (lc *linkChecker) check(rel string, a attr) {
	bad := func(kind, format string, args ...any) {
		lc.kinds[kind]++
		lc.broken = append(lc.broken, fmt.Sprintf("%s:%d: %s=%q: %s", rel, a.line, a.name, a.value, fmt.Sprintf(format, args...)))
	}
	v := a.value
	if v == "" || v == "#" {
		// "" is this page (the home page's link to the site root); "#" a
		// link neutralized on purpose (an unknown or script target).
		return
	}
	if strings.HasPrefix(v, "/") {
		bad("absolute", "absolute path: breaks under a base URL")
		return
	}
	u, err := url.Parse(v)
	if err != nil {
		bad("unparsable", "%v", err)
		return
	}
	switch u.Scheme {
	case "":
	case "http", "https", "mailto", "data":
		return
	default:
		bad("scheme", "scheme %q", u.Scheme)
		return
	}
	if u.RawQuery != "" {
		bad("query", "a query does not work from the file system")
	}
	if v[0] == '#' {
		if !lc.pageIDs(rel)[u.Fragment] {
			bad("missing id", "no id %q on this page", u.Fragment)
		}
		return
	}
	// The page at dir/index.html is served at BASE/dir/.
	pageURL, _ := url.Parse(linkBase + strings.TrimSuffix(rel, "index.html"))
	target := pageURL.ResolveReference(u)
	basePath := strings.TrimPrefix(linkBase, "http://preview.invalid")
	if target.Host != "preview.invalid" || !strings.HasPrefix(target.Path, basePath) {
		bad("outside", "leaves the site: resolves to %s", target)
		return
	}
	file := strings.TrimPrefix(target.Path, basePath)
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	st, err := os.Stat(filepath.Join(lc.root, filepath.FromSlash(file)))
	switch {
	case err != nil:
		bad("missing file", "no file %s", file)
		return
	case st.IsDir():
		bad("folder", "%s is a folder: link to %s/", file, path.Base(file))
		return
	}
	if u.Fragment != "" {
		if !strings.HasSuffix(file, ".html") {
			bad("fragment off a page", "a fragment on %s, which is not a page", file)
		} else if !lc.pageIDs(file)[u.Fragment] {
			bad("missing id", "no id %q on %s", u.Fragment, file)
		}
	}
}

// pageIDs returns the id attributes of the page at the slash path rel.
func (lc *linkChecker) pageIDs(rel string) map[string]bool {
	if ids, ok := lc.ids[rel]; ok {
		return ids
	}
	ids := map[string]bool{}
	data, err := os.ReadFile(filepath.Join(lc.root, filepath.FromSlash(rel)))
	if err == nil {
		for _, a := range scanAttrs(data) {
			if a.name == "id" {
				ids[a.value] = true
			}
		}
	}
	lc.ids[rel] = ids
	return ids
}

// attr is one attribute of a start tag, its value unescaped.
type attr struct {
	name, value string
	line        int
}

// scanAttrs returns the attributes of every start tag of an HTML document,
// in order. It is a small scanner, not a parser: it skips comments,
// doctypes and end tags, the raw text of script and style elements, and
// reads attribute values double-quoted, single-quoted or bare.
func scanAttrs(doc []byte) []attr {
	var out []attr
	line := 1
	i := 0
	advance := func(to int) {
		line += bytes.Count(doc[i:to], []byte("\n"))
		i = to
	}
	skipPast := func(s string) {
		j := bytes.Index(doc[i:], []byte(s))
		if j < 0 {
			advance(len(doc))
			return
		}
		advance(i + j + len(s))
	}
	for i < len(doc) {
		j := bytes.IndexByte(doc[i:], '<')
		if j < 0 {
			break
		}
		advance(i + j)
		rest := doc[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			skipPast("-->")
			continue
		case bytes.HasPrefix(rest, []byte("<!")), bytes.HasPrefix(rest, []byte("<?")), bytes.HasPrefix(rest, []byte("</")):
			skipPast(">")
			continue
		}
		// A start tag: its name, then attributes up to '>'.
		k := i + 1
		for k < len(doc) && !isSpace(doc[k]) && doc[k] != '>' && doc[k] != '/' {
			k++
		}
		tag := strings.ToLower(string(doc[i+1 : k]))
		if tag == "" {
			advance(i + 1) // a stray '<' in text
			continue
		}
		advance(k)
		for i < len(doc) {
			for i < len(doc) && (isSpace(doc[i]) || doc[i] == '/') {
				advance(i + 1)
			}
			if i >= len(doc) || doc[i] == '>' {
				advance(min(i+1, len(doc)))
				break
			}
			start, at := i, line
			for i < len(doc) && !isSpace(doc[i]) && doc[i] != '=' && doc[i] != '>' && doc[i] != '/' {
				i++
			}
			name := strings.ToLower(string(doc[start:i]))
			if name == "" { // a lone '=': skip it
				advance(i + 1)
				continue
			}
			for i < len(doc) && isSpace(doc[i]) {
				advance(i + 1)
			}
			value := ""
			if i < len(doc) && doc[i] == '=' {
				advance(i + 1)
				for i < len(doc) && isSpace(doc[i]) {
					advance(i + 1)
				}
				if i < len(doc) && (doc[i] == '"' || doc[i] == '\'') {
					q := doc[i]
					end := bytes.IndexByte(doc[i+1:], q)
					if end < 0 {
						end = len(doc) - i - 1
					}
					value = string(doc[i+1 : i+1+end])
					advance(min(i+1+end+1, len(doc)))
				} else {
					s := i
					for i < len(doc) && !isSpace(doc[i]) && doc[i] != '>' {
						i++
					}
					value = string(doc[s:i])
				}
			}
			out = append(out, attr{name: name, value: html.UnescapeString(value), line: at})
		}
		if tag == "script" || tag == "style" {
			skipPast("</" + tag)
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// TestScanAttrs pins the scanner on the cases it must handle.
func TestScanAttrs(t *testing.T) {
	doc := "<!DOCTYPE html>\n<!-- <a href=\"no\"> -->\n<a href=\"a/\" class='x y'>t</a>\n" +
		"<img src=b.png alt=\"&lt;&amp;\"><script>if (a<b) x = \"<a href='no'>\"</script>\n" +
		"<svg><a xlink:href=\"c/#d\"/></svg><input disabled id=e><p>1 < 2</p>"
	var got []string
	for _, a := range scanAttrs([]byte(doc)) {
		got = append(got, fmt.Sprintf("%d %s=%s", a.line, a.name, a.value))
	}
	want := []string{"3 href=a/", "3 class=x y", "4 src=b.png", "4 alt=<&", "5 xlink:href=c/#d", "5 disabled=", "5 id=e"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scanAttrs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLinkChecker checks the checker on a tiny written site with one link
// of each kind, good and bad.
func TestLinkChecker(t *testing.T) {
	root := t.TempDir()
	for name, data := range map[string]string{
		"index.html": `<a href="">self</a><a href="a/">a</a><a href="a/#x">a#x</a><a href='https://example.com/'>ext</a>`,
		"a/index.html": `<h2 id="x">x</h2><a href="#x">x</a><a href="#y">y</a><a href="../b/">b</a>` +
			`<a href="/a/">abs</a><a href="../../up/">up</a><a href="javascript:alert(1)">js</a>` +
			`<a href="../a">folder</a><a href="../index.html#nope">nope</a><link href="../s.css">`,
		"s.css": "",
	} {
		writeFixtureFile(t, root, name, []byte(data))
	}
	lc := &linkChecker{root: root, ids: map[string]map[string]bool{}, kinds: map[string]int{}}
	pages, links := lc.checkSite(t)
	if pages != 2 || links != 13 {
		t.Errorf("checked %d pages, %d links; want 2, 13", pages, links)
	}
	want := []string{
		`a/index.html:1: href="#y": no id "y" on this page`,
		`a/index.html:1: href="../b/": no file b/index.html`,
		`a/index.html:1: href="/a/": absolute path: breaks under a base URL`,
		`a/index.html:1: href="../../up/": leaves the site: resolves to http://preview.invalid/up/`,
		`a/index.html:1: href="javascript:alert(1)": scheme "javascript"`,
		`a/index.html:1: href="../a": a is a folder: link to a/`,
		`a/index.html:1: href="../index.html#nope": no id "nope" on index.html`,
	}
	if got := strings.Join(lc.broken, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("broken:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
