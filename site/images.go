package site

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// Images are the content's files its Markdown shows as relative images
// (![logo](assets/logo.png)), published at [imagesDir] plus their content
// path. They are read when the content is, through the workspace, so a
// symlink that leaves it is refused, and every image's bytes are among the
// reads the build's keys and up-to-date record cover: a changed, added or
// removed image makes the next build write the site again.

// readImages reads every image the model's documents name, once each. An
// image that is missing, leaves the workspace or cannot be read is a
// diagnostic at the first place that names it, as a link to a missing page
// is: the content is wrong.
func (p *Project) readImages(m *claims.Model) (map[string][]byte, claims.Diagnostics) {
	first := map[string]claims.Pos{} // by content path, the first place naming it
	note := func(d *claims.Doc) {
		for _, im := range d.Images {
			if _, ok := first[im.To]; !ok {
				first[im.To] = im.Pos
			}
		}
	}
	for _, r := range m.Requirements {
		note(&r.Doc)
	}
	for _, d := range m.Documents {
		note(&d.Doc)
	}
	for _, d := range m.Decisions {
		note(&d.Doc)
	}
	for _, pg := range m.Pages {
		note(&pg.Doc)
	}
	if len(first) == 0 {
		return nil, nil
	}
	names := slices.Sorted(maps.Keys(first))
	data := make([][]byte, len(names))
	errs := make([]error, len(names))
	_ = p.parallel(len(names), func(i int) error {
		data[i], errs[i] = p.WS.ReadFile(path.Join(p.Config.Content, names[i]))
		return nil
	})
	images := make(map[string][]byte, len(names))
	var diags claims.Diagnostics
	for i, name := range names {
		pos, file := first[name], path.Join(p.Config.Content, name)
		switch err := errs[i]; {
		case err == nil:
			images[name] = data[i]
		case errors.Is(err, fs.ErrNotExist):
			diags.Add(pos, claims.CodeUnknownRef, "missing image %q", file)
		case errors.Is(err, workspace.ErrOutside):
			diags.Add(pos, claims.CodeBadLink, "image %q leaves the workspace through a symlink", file)
		default:
			diags.Add(pos, claims.CodeBadLink, "image %q: %v", file, err)
		}
	}
	return images, diags
}
