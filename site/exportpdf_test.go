//go:build conformance

package site

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pdfWorkspace writes a workspace with one requirement document of n
// requirements, each implemented by a function of its own.
func pdfWorkspace(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	writeFixtureFile(t, dir, "tracewiki.toml", []byte("title = \"Printing\"\n"))
	writeFixtureFile(t, dir, "content/requirements/print/_index.md", []byte("---\ntitle: Print requirements\n---\nWhat the printer does.\n"))
	var code strings.Builder
	code.WriteString("package p\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&code, "\n// F%d does step %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
		writeFixtureFile(t, dir, fmt.Sprintf("content/requirements/print/PR-%d.md", i), fmt.Appendf(nil,
			"---\ntitle: Step %d\nlevel: \"%d\"\nimplements: [p.go@F%d]\n---\nThe printer does step %d, and says so in a paragraph long enough to take a few lines on the page.\n", i, i, i, i))
	}
	writeFixtureFile(t, dir, "p.go", []byte(code.String()))
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Capture(CaptureOptions{By: "alice@example.com"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	return dir
}

// exportPDF prints the workspace's document to a PDF file and returns its
// path.
func exportPDF(t *testing.T, dir, name string) string {
	t.Helper()
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pdf, err := p.ExportPDF(DocumentOptions{Document: "print"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name)
	must(t, os.WriteFile(out, pdf, 0o644))
	return out
}

// pdfPages counts the pages of a PDF by rendering each to an image with
// pdftoppm, in folder out.
func pdfPages(t *testing.T, pdf, out string) []string {
	t.Helper()
	must(t, os.MkdirAll(out, 0o755))
	if msg, err := exec.Command("pdftoppm", "-r", "40", "-png", pdf, filepath.Join(out, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm %s: %v\n%s", pdf, err, msg)
	}
	pages, err := filepath.Glob(filepath.Join(out, "page-*.png"))
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestExportPDF prints a document of 3 and one of 40 requirements with
// headless Chromium (export pdf's own path, no DevTools client), renders
// the pages with pdftoppm and reads their text with pdftotext: the PDF
// has a title page that is not blank, the contents, the requirements, and
// the running header (the document and revision) and the page numbers
// from the CSS @page margin boxes; the longer document prints on more
// pages. It also opens the HTML file in the browser and checks that it
// shows every requirement.
func TestExportPDF(t *testing.T) {
	for _, tool := range []string{"chromium", "pdftoppm", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: test.sh installs it (chromium, poppler-utils)", tool)
		}
	}
	small := exportPDF(t, pdfWorkspace(t, 3), "small.pdf")
	large := exportPDF(t, pdfWorkspace(t, 40), "large.pdf")
	smallPages := pdfPages(t, small, filepath.Join(t.TempDir(), "small"))
	largePages := pdfPages(t, large, filepath.Join(t.TempDir(), "large"))
	if len(smallPages) < 3 || len(largePages) <= len(smallPages) {
		t.Errorf("pages: %d for 3 requirements, %d for 40; want at least 3 (title, contents, document) and more for more", len(smallPages), len(largePages))
	}

	// The title page is drawn: not a blank image.
	f, err := os.Open(smallPages[0])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x8000 {
				dark++
			}
		}
	}
	if dark < 200 {
		t.Errorf("the title page has %d dark pixels: blank?", dark)
	}

	text := func(pdf string, page int) string {
		out, err := exec.Command("pdftotext", "-layout", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", pdf, err)
		}
		return string(out)
	}
	title := text(large, 1)
	for _, want := range []string{"Print requirements", "Printing", "revision", "not in git", "prepared", "reviewed", "approved"} {
		if !strings.Contains(title, want) {
			t.Errorf("title page lacks %q:\n%s", want, title)
		}
	}
	if strings.Contains(title, "Page 1 of") {
		t.Errorf("the title page has a page number:\n%s", title)
	}
	toc := text(large, 2)
	for _, want := range []string{"Contents", "PR-1 Step 1", "Page 2 of " + fmt.Sprint(len(largePages)), "Printing · Print requirements"} {
		if !strings.Contains(toc, want) {
			t.Errorf("page 2 lacks %q:\n%s", want, toc)
		}
	}
	last := text(large, len(largePages))
	for _, want := range []string{fmt.Sprintf("Page %d of %d", len(largePages), len(largePages)), "Print requirements"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last page lacks %q:\n%s", want, last)
		}
	}
	all, err := exec.Command("pdftotext", "-layout", large, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 40; i++ {
		// In the contents and as the requirement's heading.
		if n := strings.Count(string(all), fmt.Sprintf("PR-%d Step %d\n", i, i)); n < 1 {
			t.Errorf("PR-%d is not printed", i)
		}
	}
	for _, want := range []string{"p.go@F40", "linked", "not verified", "no test run recorded"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}

	// The file opened in the browser shows every requirement. (With
	// --blink-settings=scriptEnabled=false Chromium's --dump-dom, like
	// --print-to-pdf, prints nothing at all: the file's having no script
	// is checked on its bytes, by checkOneFile.)
	dir := pdfWorkspace(t, 40)
	html := exportHTML(t, dir, DocumentOptions{Document: "print"})
	file := filepath.Join(t.TempDir(), "print.html")
	must(t, os.WriteFile(file, html, 0o644))
	args := []string{"--headless", "--disable-gpu", "--no-first-run", "--user-data-dir=" + t.TempDir(),
		"--dump-dom", "file://" + file}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	dom, err := exec.Command("chromium", args...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	ids := regexp.MustCompile(`<section class="req doc-item[^"]*" id="req-PR-(\d+)">`).FindAllSubmatch(dom, -1)
	if len(ids) != 40 || !bytes.Equal(ids[0][1], []byte("1")) || !bytes.Equal(ids[39][1], []byte("40")) {
		t.Errorf("the browser shows %d requirements, want PR-1 … PR-40", len(ids))
	}
}
