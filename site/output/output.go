// Package output replaces an output folder with a site safely: the site is
// written into a new folder beside it and swapped in whole, or patched in
// file by file, only once complete ([Swap]); builds into one output wait
// for each other ([Folder.Lock]); and what killed builds left beside it is
// repaired or removed once their process is gone ([Folder.Begin],
// [ProcessAlive]). It knows which folders are sites ([IsSite]) and so may
// be replaced ([Replaceable]); which folder a build may replace at all is
// the workspace's ownership rule, which site checks before.
package output

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
)

// Folder is an output folder tracewiki may replace with a site: site's
// ownership rule checked it. Write to it through [Folder.Begin].
type Folder struct {
	// Dir is the folder, absolute, with the symlinks of its parents resolved.
	Dir string
	// Name is the folder as the user named it, for messages.
	Name string
}

// ErrNotOwned is returned, wrapped, for an output folder tracewiki must not
// replace: the message names the folder and the reason.
var ErrNotOwned = errors.New("refusing to replace it")

// Replaceable reports why an existing folder may not be replaced: nil when
// it is empty or a tracewiki site.
func Replaceable(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	_, err = f.Readdirnames(1)
	f.Close()
	if err == io.EOF || IsSite(os.DirFS(dir)) {
		return nil
	}
	if err != nil {
		return err
	}
	return errors.New("exists and is not a tracewiki site (it has no api/manifest.json of tracewiki's); remove or rename it yourself, or choose another --out")
}

// MaxManifestBytes bounds the api/manifest.json read to tell a site.
const MaxManifestBytes = 1 << 20

// IsSite reports whether the folder fsys is a site tracewiki built: its
// api/manifest.json is a regular file holding tracewiki's schemaVersion,
// project_id and nodes. Sites built by every tracewiki version carry it.
// A site may be replaced by a build, and is never read as a source.
func IsSite(fsys fs.FS) bool {
	st, err := fs.Stat(fsys, "api/manifest.json")
	if err != nil || !st.Mode().IsRegular() || st.Size() > MaxManifestBytes {
		return false
	}
	data, err := fs.ReadFile(fsys, "api/manifest.json")
	if err != nil {
		return false
	}
	var m struct {
		SchemaVersion *int            `json:"schemaVersion"`
		ProjectID     *string         `json:"project_id"`
		Nodes         map[string]int  `json:"nodes"`
		Links         map[string]int  `json:"links"`
		Artifacts     json.RawMessage `json:"artifacts"`
	}
	return json.Unmarshal(data, &m) == nil && m.SchemaVersion != nil && *m.SchemaVersion >= 1 &&
		m.ProjectID != nil && m.Nodes != nil && m.Links != nil && m.Artifacts != nil
}
