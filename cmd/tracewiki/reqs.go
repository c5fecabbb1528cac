package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/site"
)

func runReview(e *env, args []string) int {
	fs := e.flags("review")
	var opts site.ReviewOptions
	fs.BoolVar(&opts.AllSuspect, "all-suspect", false, "review every requirement with a suspect parent link (needs --yes)")
	yes := fs.Bool("yes", false, "confirm --all-suspect")
	fs.StringVar(&opts.By, "by", "", "who reviewed (default: git's user.email)")
	ids, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	opts.IDs = ids
	switch {
	case opts.AllSuspect && len(opts.IDs) > 0:
		return e.usage("review: give requirement ids or --all-suspect, not both")
	case opts.AllSuspect && !*yes:
		return e.usage("review: --all-suspect marks every suspect link reviewed without looking; confirm with --yes")
	case !opts.AllSuspect && len(opts.IDs) == 0:
		return e.usage("review: no requirement id given (or --all-suspect --yes)")
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	res, err := p.Review(opts, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprint(e.stdout, res)
	return exitOK
}

func runImport(e *env, args []string) int {
	fs := e.flags("import")
	var opts site.ImportOptions
	fs.BoolVar(&opts.Force, "force", false, "overwrite files edited since the last import")
	fs.StringVar(&opts.By, "by", "", "who stamps the parent links (default: git's user.email)")
	rest, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if len(rest) != 2 {
		return e.usage("import: want FORMAT PATH (FORMAT: %s)", strings.Join(site.ImportFormats, ", "))
	}
	if !slices.Contains(site.ImportFormats, rest[0]) {
		return e.usage("import: unknown format %q (want %s)", rest[0], strings.Join(site.ImportFormats, ", "))
	}
	opts.Format, opts.Source = rest[0], rest[1]
	rep, err := site.Import(e.root, opts, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprint(e.stdout, rep)
	return exitOK
}

func runExport(e *env, args []string) int {
	fs := e.flags("export")
	out := fs.String("out", "", "write to `FILE` instead of standard output (xlsx, html and pdf: required)")
	var doc site.DocumentOptions
	fs.StringVar(&doc.Document, "document", "", "only the requirements of the document `ID` (a folder under requirements/) and those nested in it")
	fs.StringVar(&doc.Browser, "browser", "", "pdf: the Chromium to print with (default: chromium, chromium-browser or google-chrome on PATH)")
	rest, code, ok := e.parseInterspersed(fs, args)
	if !ok {
		return code
	}
	formats := []string{"csv", "reqif", "json", "xlsx", "bundle", "html", "pdf"}
	if len(rest) != 1 || !slices.Contains(formats, rest[0]) {
		return e.usage("export: want one FORMAT of %s", strings.Join(formats, ", "))
	}
	document := rest[0] == "html" || rest[0] == "pdf"
	switch {
	case document && *out == "":
		return e.usage("export %s: --out FILE is required", rest[0])
	case rest[0] != "pdf" && doc.Browser != "":
		return e.usage("export %s: --browser is for pdf", rest[0])
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	if document {
		return e.exportDocument(p, rest[0], *out, doc)
	}
	if rest[0] == "xlsx" && *out == "" {
		return e.usage("export xlsx: a workbook is binary; name the file with --out FILE")
	}
	data, err := exportData(p, rest[0], doc.Document)
	if ue := (usageError{}); errors.As(err, &ue) {
		return e.usage("export: %v", err)
	}
	if err != nil {
		return e.fail(err)
	}
	if *out == "" {
		_, err = e.stdout.Write(data)
	} else {
		err = p.WriteExport(*out, data)
	}
	if err != nil {
		return e.fail(err)
	}
	return exitOK
}

// usageError is an export error that is the command line's fault (exit 2
// with the usage).
type usageError struct{ error }

// exportData is the export in format; document, when given, keeps only
// that requirement document (not for the bundle, which is the
// repository's whole).
func exportData(p *site.Project, format, document string) ([]byte, error) {
	if format == "bundle" {
		if document != "" {
			return nil, usageError{errors.New("--document: a bundle is the whole repository")}
		}
		return p.Bundle()
	}
	x, err := p.Export()
	if err != nil {
		return nil, err
	}
	if document != "" {
		if err := x.OnlyDocument(document); err != nil {
			return nil, usageError{err}
		}
	}
	switch format {
	case "csv":
		return x.CSV()
	case "json":
		return x.JSON()
	case "xlsx":
		return p.ExportXLSX(x)
	}
	return x.ReqIF(site.ExportTime())
}

// exportDocument writes the HTML export, or the PDF printed from it, to
// out.
func (e *env) exportDocument(p *site.Project, format, out string, opts site.DocumentOptions) int {
	export := p.ExportHTML
	if format == "pdf" {
		export = p.ExportPDF
	}
	data, err := export(opts, e.stderr)
	if err == nil {
		err = p.WriteExport(out, data)
	}
	if err != nil {
		return e.fail(err)
	}
	return exitOK
}
