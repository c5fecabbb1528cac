// Package templates holds the HTML templates of the generated site.
package templates

import "embed"

// FS holds the templates: layout.html defines the page frame, every other
// file one kind of page.
//
//go:embed *.html
var FS embed.FS
