// Package assets holds the static files of the generated site: the
// stylesheet and the search script. The chroma stylesheet is generated at
// build time.
package assets

import "embed"

// FS holds the static files, copied to assets/ in the output.
//
//go:embed *.css *.js schemas/*.json
var FS embed.FS
