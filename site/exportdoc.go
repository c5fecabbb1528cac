package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tracewiki/tracewiki/site/render"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// DocumentOptions says what `export html` and `export pdf` write.
type DocumentOptions struct {
	// Document is the folder of the requirement document to export, with
	// the documents nested in it; "" exports every requirement.
	Document string
	// Browser is the Chromium to print the PDF with; "" looks for one on
	// PATH ([Browsers]).
	Browser string
}

// ExportHTML renders the wiki, or one requirement document, as one
// self-contained HTML file ([render.Renderer.ExportHTML]), from the
// renderer of a frozen build: nothing is captured and nothing but the
// export is written. Its title page names git's HEAD and a date that is
// not the clock's ([documentDate]), so the file can be reproduced.
func (p *Project) ExportHTML(opts DocumentOptions, notes io.Writer) ([]byte, error) {
	s, err := p.Build(BuildOptions{Frozen: true, lazy: true}, notes)
	if err != nil {
		return nil, err
	}
	rev := workspace.GitRev(p.WS.Dir, "HEAD")
	return s.lazy.r.ExportHTML(render.OneFile{Document: opts.Document, Revision: rev, Date: documentDate(p.WS.Dir, rev)})
}

// documentDate is the date the HTML export's title page shows, by the
// rule of [ExportTime] (never the clock, so that two exports of the same
// revision are the same bytes): SOURCE_DATE_EPOCH's when set, else the
// commit date of the revision rev, else "undated".
func documentDate(dir, rev string) string {
	if ExportTime() != "" {
		return Now().Format(time.DateOnly)
	}
	if rev != "" {
		cmd := exec.Command("git", "show", "-s", "--format=%cs", rev)
		cmd.Dir = dir
		if out, err := cmd.Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
			return string(bytes.TrimSpace(out)) + " (commit date)"
		}
	}
	return "undated"
}

// Browsers are the names a Chromium goes by on PATH, in the order they are
// looked for.
var Browsers = []string{"chromium", "chromium-browser", "google-chrome"}

// ErrNoBrowser is returned when no Chromium is found to print a PDF with.
var ErrNoBrowser = errors.New("no Chromium found")

// findBrowser is the browser named (a path or a name on PATH), or else
// the first of [Browsers] on PATH.
func findBrowser(named string) (string, error) {
	if named != "" {
		path, err := exec.LookPath(named)
		if err != nil {
			return "", fmt.Errorf("--browser %s: %w: %v", named, ErrNoBrowser, err)
		}
		return path, nil
	}
	for _, name := range Browsers {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("export pdf: %w on PATH (looked for %s); install one or name it with --browser PATH", ErrNoBrowser, strings.Join(Browsers, ", "))
}

// printTimeout bounds one headless print: a hung browser fails the export
// instead of hanging it (the own wiki prints in a few seconds).
const printTimeout = 5 * time.Minute

// ExportPDF prints the HTML export ([Project.ExportHTML]) to PDF with a
// local headless Chromium: the file is written to a temporary folder and
// printed with --print-to-pdf and --no-pdf-header-footer, so the page
// numbers and running headers are the file's own CSS @page margin boxes.
// No DevTools client is needed. The browser runs with a profile of its own
// in the temporary folder, and without the network features that would
// phone home.
func (p *Project) ExportPDF(opts DocumentOptions, notes io.Writer) ([]byte, error) {
	browser, err := findBrowser(opts.Browser)
	if err != nil {
		return nil, err
	}
	html, err := p.ExportHTML(opts, notes)
	if err != nil {
		return nil, err
	}
	return printPDF(browser, html)
}

// printPDF prints the HTML file html to PDF with the browser.
func printPDF(browser string, html []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "tracewiki-pdf-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "export.html"), filepath.Join(dir, "export.pdf")
	if err := os.WriteFile(in, html, 0o600); err != nil {
		return nil, err
	}
	args := []string{
		"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--user-data-dir=" + filepath.Join(dir, "profile"),
		"--print-to-pdf=" + out, "--no-pdf-header-footer",
	}
	if os.Geteuid() == 0 {
		// Chromium refuses to start as root with its sandbox; the page it
		// prints is ours and has no script.
		args = append(args, "--no-sandbox")
	}
	ctx, cancel := context.WithTimeout(context.Background(), printTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, append(args, "file://"+filepath.ToSlash(in))...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("export pdf: %s: %v\n%s", browser, err, lastLines(stderr.Bytes(), 20))
	}
	pdf, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return nil, fmt.Errorf("export pdf: %s printed no PDF\n%s", browser, lastLines(stderr.Bytes(), 20))
	}
	return pdf, nil
}

// lastLines is the last n lines of out: what a failed browser said last.
func lastLines(out []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
