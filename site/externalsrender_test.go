package site

import (
	"io"
	"strings"
	"testing"
)

// svcpyWithURLs is svcpy's config with the Go service's published wiki
// given and platform's not.
const svcpyWithURLs = "title = \"Python service\"\nproject = \"svcpy\"\n[[externals]]\nname = \"platform\"\nbundle = \".bundles/platform.json\"\n[[externals]]\nname = \"svcgo\"\nbundle = \".bundles/svcgo.json\"\nurl = \"https://wiki.example.com/svcgo\"\n"

// siteOf builds repo and returns its files.
func (w *externalsWorld) siteOf(repo string) map[string][]byte {
	w.t.Helper()
	p, err := Load(w.dir(repo))
	if err != nil {
		w.t.Fatal(err)
	}
	defer p.Close()
	s, err := p.Build(BuildOptions{}, io.Discard)
	if err != nil {
		w.t.Fatal(err)
	}
	return s.Files
}

// Links into externals show the external's name everywhere and lead to
// the node's page in the external's published wiki when its url is
// given; never to a page of this wiki (it has none for them).
func TestExternalLinksRendered(t *testing.T) {
	w := newExternalsWorld(t)
	w.write("svcpy", "tracewiki.toml", svcpyWithURLs)
	w.publish("platform")
	w.publish("svcgo")
	w.build("svcpy") // captures
	// The Go service's Charge changes: the guide's link to it drifts.
	w.write("svcgo", "src/charge.go", strings.Replace(externalsFixture["svcgo"]["src/charge.go"], "return cents\n", "return cents * 2\n", 1))
	w.publish("svcgo")
	files := w.siteOf("svcpy")

	const (
		refund = `https://wiki.example.com/svcgo/code/src/charge.go/index.html#sym-Refund`
		charge = `https://wiki.example.com/svcgo/code/src/charge.go/index.html#sym-Charge`
		sw1    = `https://wiki.example.com/svcgo/requirements/SW-1/index.html`
	)
	has := func(file, what string) {
		t.Helper()
		if !strings.Contains(string(files[file]), what) {
			t.Errorf("%s lacks %s", file, what)
		}
	}
	count := func(file, what string) int { return strings.Count(string(files[file]), what) }

	// The requirement page: its link rows and parents table.
	has("requirements/PY-1/index.html", `<a href="`+refund+`"><code>svcgo:src/charge.go@Refund</code></a>`)
	has("requirements/PY-1/index.html", `<a href="`+sw1+`">svcgo:SW-1</a>`)
	// platform gives no url: its requirement is named, not linked.
	has("requirements/PY-1/index.html", `<td>platform:SYS-2</td>`)
	// The graph SVG and its neighbors table: the external's name on the
	// box, its page behind it.
	if n := count("requirements/PY-1/index.html", `href="`+refund+`"`); n < 3 { // link row, SVG, neighbors
		t.Errorf("PY-1 links Refund's page %d times, want the link row, the graph and the neighbors table", n)
	}
	has("requirements/PY-1/index.html", `>svcgo:charge.go@Refund</text>`)
	// The matrix's link cells.
	has("requirements/index.html", `href="`+refund+`"`)
	has("requirements/index.html", `<a href="`+sw1+`">svcgo:SW-1</a>`)
	// The drift page and api/drift.json: the stale link into svcgo.
	has("drift/index.html", charge)
	has("api/drift.json", `"url": "`+charge+`"`)
	// Search: the external's nodes, with their own wiki's URLs.
	has("api/search.json", `"url": "`+sw1+`"`)
	has("api/search.json", `"url": "`+charge+`"`)
	// No link anywhere to a page this wiki does not have.
	for name, data := range files {
		for _, bad := range []string{"svcgo~3a", "platform~3a"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s links a local page of an external's node (%s)", name, bad)
			}
		}
	}
}
