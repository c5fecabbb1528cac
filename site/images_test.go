package site

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// imageWorkspace writes a workspace whose nested page shows an image
// beside it, one in another folder by a rooted path, and an external one.
func imageWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFixtureFile(t, dir, "content/guides/setup/install.md", []byte("---\ntitle: Install\n---\n"+
		"The logo: ![logo](assets/logo.png \"Logo\").\n\n"+
		"The flow: ![flow](/content/shared/flow%20chart.svg).\n\n"+
		"External: ![badge](https://example.com/badge.png).\n"))
	writeFixtureFile(t, dir, "content/guides/setup/assets/logo.png", []byte("PNG-1"))
	writeFixtureFile(t, dir, "content/shared/flow chart.svg", []byte("<svg/>"))
	return dir
}

// TestImages checks that a relative image is published under
// assets/content/ at its content path, with its bytes, and that the page's
// <img src> leads to it from the page's own folder; an external image is
// left as written.
func TestImages(t *testing.T) {
	s := buildSite(t, imageWorkspace(t), BuildOptions{}, 0)
	for name, want := range map[string]string{
		"assets/content/guides/setup/assets/logo.png": "PNG-1",
		"assets/content/shared/flow chart.svg":        "<svg/>",
	} {
		if got, ok := s.Files[name]; !ok || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, ok, want)
		}
	}
	var page string
	for name, data := range s.Files {
		if strings.HasSuffix(name, "/index.html") && strings.Contains(string(data), `alt="logo"`) {
			page = name
		}
	}
	if page == "" {
		t.Fatal("no page shows the logo")
	}
	html := string(s.Files[page])
	root := strings.Repeat("../", strings.Count(page, "/"))
	for _, want := range []string{
		`<img src="` + root + `assets/content/guides/setup/assets/logo.png" alt="logo" title="Logo">`,
		`<img src="` + root + `assets/content/shared/flow%20chart.svg" alt="flow">`,
		`<img src="https://example.com/badge.png" alt="badge">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}
	// The src leads to the published file from the page's folder.
	if got := path.Join(path.Dir(page), root+"assets/content/guides/setup/assets/logo.png"); s.Files[got] == nil {
		t.Errorf("src from %s resolves to %s, which the site lacks", page, got)
	}
}

// TestImageDiagnostics checks that an image the site cannot publish fails
// the load with a file:line diagnostic, as a link to a missing page does.
func TestImageDiagnostics(t *testing.T) {
	cases := []struct{ name, md, want string }{
		{"missing", "![x](assets/gone.png)", "content/p.md:4:1: unknown-ref: missing image \"content/assets/gone.png\""},
		{"outside content", "![x](../secret.png)", "content/p.md:4:1: bad-link: image \"../secret.png\" leaves the content directory"},
		{"not an image", "![x](notes.txt)", "content/p.md:4:1: bad-link: image \"notes.txt\" is not a gif, jpeg, jpg, png, svg, webp file"},
	}
	if runtime.GOOS != "windows" {
		// A symlink the content walk meets is refused by it; one in a
		// hidden folder, which the walk does not enter, by the image read.
		cases = append(cases,
			struct{ name, md, want string }{"symlink out", "![x](assets/link.png)",
				`walk content: read "content/assets/link.png": path lies outside the workspace`},
			struct{ name, md, want string }{"hidden symlink out", "![x](.hidden/link.png)",
				"content/p.md:4:1: bad-link: image \"content/.hidden/link.png\" leaves the workspace through a symlink"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "ws")
			writeFixtureFile(t, root, "outside.png", []byte("SECRET"))
			writeFixtureFile(t, dir, "secret.png", []byte("PNG"))
			writeFixtureFile(t, dir, "content/notes.txt", []byte("text"))
			writeFixtureFile(t, dir, "content/p.md", []byte("---\ntitle: P\n---\n"+c.md+"\n"))
			if link, ok := strings.CutPrefix(c.md, "![x]("); ok && strings.Contains(c.name, "symlink") {
				link = filepath.Join(dir, "content", strings.TrimSuffix(link, ")"))
				must(t, os.MkdirAll(filepath.Dir(link), 0o755))
				must(t, os.Symlink("../../../outside.png", link))
			}
			p, err := Load(dir)
			if err == nil {
				p.Close()
				t.Fatal("loaded")
			}
			if got := err.Error(); !strings.Contains(got, c.want) || strings.Contains(got, "SECRET") {
				t.Errorf("got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestImageCache checks that a warm build is never stale about an image:
// its bytes changed, the build with the cache writes the new bytes, and
// the workspace is not up to date in between.
func TestImageCache(t *testing.T) {
	dir := imageWorkspace(t)
	cache := mustCache(t, t.TempDir())
	out := filepath.Join(t.TempDir(), "public")
	logo := filepath.Join(out, "assets/content/guides/setup/assets/logo.png")
	buildCached(t, dir, out, cache)
	if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); !ok {
		t.Fatal("not up to date after a build")
	}
	for _, bytes := range []string{"PNG-2", "PNG-3-longer"} {
		writeFixtureFile(t, dir, "content/guides/setup/assets/logo.png", []byte(bytes))
		if _, ok := upToDateOf(t, dir, out, cache, BuildOptions{}); ok {
			t.Errorf("%s: up to date after the image changed", bytes)
		}
		buildCached(t, dir, out, cache)
		if got, err := os.ReadFile(logo); err != nil || string(got) != bytes {
			t.Errorf("published image %q, %v; want %q", got, err, bytes)
		}
	}
}
