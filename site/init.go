package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// starter is what "tracewiki init" writes: a config with every default
// spelled out, and a small wiki that shows each kind of content.
var starter = map[string]string{
	ConfigFile: `# tracewiki configuration. Every key is optional; the values below are the
# defaults (title defaults to the folder's name).
# title    = "My project"
baseURL  = "/"
language = "en"         # "es" for Spanish messages
content  = "content"
output   = "public"
lock     = "tracewiki.lock"

[code]
include = ` + tomlStrings(defaultInclude) + `
exclude = ["**/vendor/**", "**/node_modules/**", "**/testdata/**", "public/**", ".git/**"]
`,
	gitignore: `# tracewiki: the generated site and the temporary files of its runs.
/public/
/.public.new-*
/.public.old-*
/tracewiki.lock.lk
/tracewiki.lock.tmp-*
`,
	"content/index.md": `---
title: Home
type: overview
---
# Welcome

This is the wiki's home page. Requirements live in requirements/, decisions
in decisions/, and every other Markdown file is a page.

A sentence with a code link is a claim: write
` + "`([code](code:PATH@Symbol))`" + ` after it, and tracewiki anchors it to that
symbol and tells you when the code changes. Link requirements with
` + "`[REQ-1](req:REQ-1)`" + ` and decisions with ` + "`[ADR-1](dec:ADR-1)`" + `.

Start with [REQ-1](req:REQ-1).
`,
	"content/requirements/REQ-1.md": `---
title: Describe your first requirement
status: proposed
# implements: [path/to/file.go@Function]
# tests: [path/to/file_test.go@TestFunction]
issues: [ADR-1]
---
State what the system must do. Then list the code that implements it and the
tests that check it in the frontmatter above, run "tracewiki capture", and
record a test run with "tracewiki evidence".
`,
	"content/decisions/ADR-1.md": `---
title: Keep a traceability wiki
status: accepted
---
Requirements, decisions and claims about code live next to the code, and
tracewiki checks that they still hold.
`,
}

// Init writes a starter tracewiki.toml, content/ and a .gitignore for the
// output and temporary files into the folder dir. It never overwrites: when
// any of the config and content files exists, it writes nothing and names
// them. An existing .gitignore is the project's own and is kept as it is;
// the note then gives the lines to add.
func Init(dir string) (written []string, note string, err error) {
	names := sortedKeys(starter)
	var exist []string
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			exist = append(exist, name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
	}
	if slices.Contains(exist, gitignore) {
		exist = slices.DeleteFunc(exist, func(n string) bool { return n == gitignore })
		names = slices.DeleteFunc(names, func(n string) bool { return n == gitignore })
		note = "kept the existing " + gitignore + "; tracewiki's output and temporary files are:\n" + starter[gitignore]
	}
	if len(exist) > 0 {
		verb := "exist"
		if len(exist) == 1 {
			verb = "exists"
		}
		return nil, "", fmt.Errorf("init: %s already %s; nothing written", strings.Join(exist, ", "), verb)
	}
	// Every write goes through an os.Root: a content folder that is a
	// symlink out of the folder is refused before anything is written.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("init: %w", err)
	}
	defer root.Close()
	for _, name := range names {
		d := filepath.Dir(filepath.FromSlash(name))
		if _, err := root.Stat(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("init: %s: %w; nothing written", filepath.ToSlash(d), outsideErr(err))
		}
	}
	for _, name := range names {
		p := filepath.FromSlash(name)
		if err := root.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, "", fmt.Errorf("init: %w", outsideErr(err))
		}
		if err := root.WriteFile(p, []byte(starter[name]), 0o644); err != nil {
			return nil, "", fmt.Errorf("init: %w", outsideErr(err))
		}
	}
	return names, note, nil
}

// gitignore is the name of the ignore file init writes.
const gitignore = ".gitignore"

// outsideErr names an os.Root escape as [ErrOutside].
func outsideErr(err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return ErrOutside
	}
	return err
}

// tomlStrings writes a list of strings as a TOML array.
func tomlStrings(list []string) string {
	quoted := make([]string, len(list))
	for i, s := range list {
		quoted[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
